package io.pacelink.transport.secure;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * One key of an {@link AeadAlgorithm} with one reusable JCA {@link Cipher}: seal and open byte ranges in arrays.
 * The JDK's ChaCha20-Poly1305 refuses to be initialised twice in a row with the same key and nonce — in either
 * mode, and also after a tag failed — which a forged packet followed by the genuine packet of the same number would
 * trip; such a second open first initialises the cipher with another nonce. Java 17's API takes the nonce in a new
 * parameter object per call (the JDK copies it), the one allocation per packet left (docs/security.md, "Cost").
 * The JCA cipher is made at the first seal or open, not with the key: a server derives a connection's packet keys when
 * it answers a hello, and a flood of hellos whose handshakes are never confirmed would otherwise pay two JCA look-ups
 * (provider lists, a cipher each) per hello for ciphers never used (docs/security.md, "Floods, measured").
 * A handshake message's key, used once or twice, takes no cipher of its own at all ({@link #sharingThreadCipher}): a
 * half-open connection of a flood made two (the hello's payload opened, the answer's sealed), ~5 KB of JCA objects
 * each, a third of what such a connection allocated (perf/FINDINGS.md, "The server's first seconds under a flood"). A
 * packet key keeps its own: the JDK's AES keeps the last key's schedule, which a cipher shared by connections whose
 * packets interleave would make again for every packet. Not thread safe.
 */
public final class AeadCipher
{
    private final AeadAlgorithm algorithm;
    private final SecretKeySpec key;
    private final byte[] keyBytes;
    private final boolean isThreadShared;
    private Cipher cipher;
    private final byte[] lastNonce = new byte[AeadAlgorithm.NONCE_LENGTH];
    private final byte[] detourNonce = new byte[AeadAlgorithm.NONCE_LENGTH];
    private boolean isInitialised;

    /**
     * @param algorithm the AEAD.
     * @param key       {@link AeadAlgorithm#KEY_LENGTH} bytes; copied.
     */
    public AeadCipher(final AeadAlgorithm algorithm, final byte[] key)
    {
        this(algorithm, key, false);
    }

    private AeadCipher(final AeadAlgorithm algorithm, final byte[] key, final boolean isThreadShared)
    {
        if (AeadAlgorithm.KEY_LENGTH != key.length)
        {
            throw new IllegalArgumentException("AEAD keys are " + AeadAlgorithm.KEY_LENGTH + " bytes");
        }
        this.algorithm = algorithm;
        this.key = new SecretKeySpec(key, algorithm.keyAlgorithm());
        this.keyBytes = isThreadShared ? key.clone() : null;
        this.isThreadShared = isThreadShared;
    }

    /**
     * A key that seals and opens with the calling thread's cipher of its algorithm, shared with every other such key
     * on that thread: for a key used a few times (a handshake message's), not for packets.
     *
     * @param algorithm the AEAD.
     * @param key       {@link AeadAlgorithm#KEY_LENGTH} bytes; copied.
     * @return the key.
     */
    public static AeadCipher sharingThreadCipher(final AeadAlgorithm algorithm, final byte[] key)
    {
        return new AeadCipher(algorithm, key, true);
    }

    /**
     * @return the algorithm.
     */
    public AeadAlgorithm algorithm()
    {
        return algorithm;
    }

    /**
     * Encrypt and authenticate; the output may not overlap the input.
     *
     * @return bytes written: the input's length plus {@link AeadAlgorithm#TAG_LENGTH}.
     */
    public int seal(
        final byte[] nonce,
        final byte[] aad, final int aadOffset, final int aadLength,
        final byte[] input, final int inputOffset, final int inputLength,
        final byte[] output, final int outputOffset)
    {
        try
        {
            return run(Cipher.ENCRYPT_MODE, nonce, aad, aadOffset, aadLength, input, inputOffset, inputLength,
                output, outputOffset);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("sealing failed: " + ex.getMessage(), ex);
        }
    }

    /**
     * Check and decrypt; the output may not overlap the input.
     *
     * @return bytes of plaintext written, or -1 if the tag is wrong (or the input shorter than a tag).
     */
    public int open(
        final byte[] nonce,
        final byte[] aad, final int aadOffset, final int aadLength,
        final byte[] input, final int inputOffset, final int inputLength,
        final byte[] output, final int outputOffset)
    {
        if (inputLength < AeadAlgorithm.TAG_LENGTH)
        {
            return -1;
        }
        try
        {
            return run(Cipher.DECRYPT_MODE, nonce, aad, aadOffset, aadLength, input, inputOffset, inputLength,
                output, outputOffset);
        }
        catch (final AEADBadTagException ex)
        {
            return -1;
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("opening failed: " + ex.getMessage(), ex);
        }
    }

    private int run(
        final int mode,
        final byte[] nonce,
        final byte[] aad, final int aadOffset, final int aadLength,
        final byte[] input, final int inputOffset, final int inputLength,
        final byte[] output, final int outputOffset) throws GeneralSecurityException
    {
        final Cipher initialised = isThreadShared ? initShared(mode, nonce) : init(mode, nonce);
        if (aadLength > 0)
        {
            initialised.updateAAD(aad, aadOffset, aadLength);
        }
        return initialised.doFinal(input, inputOffset, inputLength, output, outputOffset);
    }

    private Cipher init(final int mode, final byte[] nonce) throws GeneralSecurityException
    {
        if (null == cipher)
        {
            cipher = algorithm.newCipher();
        }
        if (isInitialised && AeadAlgorithm.CHACHA20_POLY1305 == algorithm && Arrays.equals(nonce, lastNonce))
        {
            detour(cipher, mode, nonce);
        }
        cipher.init(mode, key, algorithm.parameters(nonce));
        System.arraycopy(nonce, 0, lastNonce, 0, nonce.length);
        isInitialised = true;
        return cipher;
    }

    /**
     * As {@link #init}, on the thread's shared cipher: its initialisation before may have been this key's (then as
     * with a cipher of its own) or another key's — and if that other key is equal to this one and so is the nonce,
     * the JDK would refuse what a cipher of this key's own would not have, so the detour is taken for either AEAD.
     */
    private Cipher initShared(final int mode, final byte[] nonce) throws GeneralSecurityException
    {
        final ThreadCipher shared = algorithm.cipherOfThisThread();
        if (null != shared.lastKey && Arrays.equals(nonce, shared.lastNonce) &&
            (shared.lastKey == keyBytes ? AeadAlgorithm.CHACHA20_POLY1305 == algorithm :
            Arrays.equals(keyBytes, shared.lastKey)))
        {
            detour(shared.cipher, mode, nonce);
        }
        shared.cipher.init(mode, key, algorithm.parameters(nonce));
        System.arraycopy(nonce, 0, shared.lastNonce, 0, nonce.length);
        shared.lastKey = keyBytes;
        return shared.cipher;
    }

    private void detour(final Cipher target, final int mode, final byte[] nonce) throws GeneralSecurityException
    {
        System.arraycopy(nonce, 0, detourNonce, 0, nonce.length);
        detourNonce[0] ^= 1;
        target.init(mode, key, algorithm.parameters(detourNonce));
    }
}
