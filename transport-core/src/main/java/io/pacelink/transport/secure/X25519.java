package io.pacelink.transport.secure;

/**
 * X25519 (RFC 7748) on the raw 32-byte keys Noise and the key files use: a private key is the scalar's 32 bytes, a
 * public key the u-coordinate's 32 bytes, both little-endian (RFC 7748 section 5). A shared secret that comes out all
 * zero — the peer sent a point of small order, which would make the secret independent of our key — fails closed
 * (RFC 7748 section 6.1).
 * <p>
 * The arithmetic is Bouncy Castle's {@code org.bouncycastle.math.ec.rfc7748.X25519} (constant time, a Montgomery
 * ladder over a 10-limb field representation, and a fixed-base comb for public keys), called as a library: no JCE
 * provider is registered. The JDK's {@code XDH} provider on Java 17 took about 235 µs an operation and allocated its
 * way through {@code BigInteger} key specs; Bouncy Castle's ladder about 100 µs and a public key about 50–70 µs, with
 * no garbage but the result (docs/security.md, "Cost, measured"). A secure server's handshake is three of them, so
 * this is most of what a flood of valid hellos costs. Used at handshakes only; stateless, so any thread may share one.
 */
public final class X25519
{
    /**
     * Bytes of a key or shared secret.
     */
    public static final int KEY_LENGTH = 32;

    /**
     * A new X25519.
     */
    public X25519()
    {
    }

    /**
     * @param privateKey 32 bytes.
     * @return the public key of a private key: its scalar times the base point.
     * @throws IllegalArgumentException if the key has the wrong length.
     */
    public byte[] publicKey(final byte[] privateKey)
    {
        if (KEY_LENGTH != privateKey.length)
        {
            throw new IllegalArgumentException("X25519 keys are " + KEY_LENGTH + " bytes");
        }
        final byte[] publicKey = new byte[KEY_LENGTH];
        org.bouncycastle.math.ec.rfc7748.X25519.scalarMultBase(privateKey, 0, publicKey, 0);
        return publicKey;
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
        final byte[] secret = new byte[KEY_LENGTH];
        // The ladder masks the u-coordinate's top bit (RFC 7748 section 5) and clamps the scalar itself.
        org.bouncycastle.math.ec.rfc7748.X25519.scalarMult(privateKey, 0, peerPublicKey, 0, secret, 0);
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
}
