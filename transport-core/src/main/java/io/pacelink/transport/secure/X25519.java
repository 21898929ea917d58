package io.pacelink.transport.secure;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.XECPrivateKeySpec;
import java.security.spec.XECPublicKeySpec;
import javax.crypto.KeyAgreement;

/**
 * X25519 (RFC 7748) over the JDK's {@code XDH} provider, on the raw 32-byte keys Noise and the key files use: a
 * private key is the scalar's 32 bytes, a public key the u-coordinate's 32 bytes, both little-endian (RFC 7748
 * section 5). A shared secret that comes out all zero — the peer sent a point of small order, which would make the
 * secret independent of our key — fails closed (RFC 7748 section 6.1); the JDK already refuses it, and this class
 * checks again so no provider can let it through. Used at handshakes only. Not thread safe.
 */
public final class X25519
{
    /**
     * Bytes of a key or shared secret.
     */
    public static final int KEY_LENGTH = 32;

    private static final byte[] BASE_POINT = new byte[KEY_LENGTH];

    static
    {
        BASE_POINT[0] = 9;
    }

    private final KeyFactory keyFactory;
    private final KeyAgreement keyAgreement;

    /**
     * A new X25519 over the JDK's provider.
     */
    public X25519()
    {
        try
        {
            keyFactory = KeyFactory.getInstance("X25519");
            keyAgreement = KeyAgreement.getInstance("X25519");
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("Java 11 and later have X25519", ex);
        }
    }

    /**
     * @param privateKey 32 bytes.
     * @return the public key of a private key: its scalar times the base point.
     */
    public byte[] publicKey(final byte[] privateKey)
    {
        return agree(privateKey, BASE_POINT);
    }

    /**
     * @param privateKey      our 32-byte private key.
     * @param peerPublicKey   the peer's 32-byte public key.
     * @return the 32-byte shared secret.
     * @throws IllegalArgumentException if a key has the wrong length or the peer's key is of small order.
     */
    public byte[] agree(final byte[] privateKey, final byte[] peerPublicKey)
    {
        if (KEY_LENGTH != privateKey.length || KEY_LENGTH != peerPublicKey.length)
        {
            throw new IllegalArgumentException("X25519 keys are " + KEY_LENGTH + " bytes");
        }
        final byte[] secret;
        try
        {
            keyAgreement.init(toPrivateKey(privateKey));
            keyAgreement.doPhase(toPublicKey(peerPublicKey), true);
            secret = keyAgreement.generateSecret();
        }
        catch (final GeneralSecurityException | IllegalStateException ex)
        {
            throw new IllegalArgumentException("X25519 refused the key: " + ex.getMessage(), ex);
        }
        int orOfAllBytes = 0;
        for (final byte b : secret)
        {
            orOfAllBytes |= b;
        }
        if (0 == orOfAllBytes)
        {
            throw new IllegalArgumentException("X25519 refused the key: point of small order");
        }
        return secret;
    }

    private PrivateKey toPrivateKey(final byte[] privateKey) throws GeneralSecurityException
    {
        return keyFactory.generatePrivate(new XECPrivateKeySpec(NamedParameterSpec.X25519, privateKey.clone()));
    }

    private PublicKey toPublicKey(final byte[] publicKey) throws GeneralSecurityException
    {
        // RFC 7748 section 5: the u-coordinate is little-endian and its top bit is masked.
        final byte[] bigEndian = new byte[KEY_LENGTH];
        for (int i = 0; i < KEY_LENGTH; i++)
        {
            bigEndian[i] = publicKey[KEY_LENGTH - 1 - i];
        }
        bigEndian[0] &= 0x7F;
        return keyFactory.generatePublic(new XECPublicKeySpec(NamedParameterSpec.X25519, new BigInteger(1, bigEndian)));
    }
}
