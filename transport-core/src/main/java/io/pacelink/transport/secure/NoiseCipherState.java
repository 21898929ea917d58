package io.pacelink.transport.secure;

/**
 * A Noise CipherState (the Noise specification, revision 34, section 5.1): a key, or none, and a 64-bit counter that
 * is the nonce of the next message. Without a key, encryption is the identity, as the specification says.
 * Used for the handshake messages and by the known-answer tests; packets have their own nonce (the packet number,
 * {@link PacketProtection}). Allocates; not for the data path.
 */
public final class NoiseCipherState
{
    private final AeadAlgorithm algorithm;
    private final byte[] nonce = new byte[AeadAlgorithm.NONCE_LENGTH];
    private AeadCipher cipher;
    private byte[] key;
    private long counter;

    /**
     * @param algorithm the AEAD.
     */
    public NoiseCipherState(final AeadAlgorithm algorithm)
    {
        this.algorithm = algorithm;
    }

    /**
     * {@code InitializeKey(key)}: the counter starts again at 0.
     *
     * @param key 32 bytes.
     */
    public void initializeKey(final byte[] key)
    {
        cipher = AeadCipher.sharingThreadCipher(algorithm, key);
        this.key = key.clone();
        counter = 0;
    }

    /**
     * @return a state with this one's key and counter that goes on independently of it.
     */
    NoiseCipherState copy()
    {
        final NoiseCipherState copy = new NoiseCipherState(algorithm);
        if (null != key)
        {
            copy.initializeKey(key);
            copy.counter = counter;
        }
        return copy;
    }

    /**
     * @return true if a key is set.
     */
    public boolean hasKey()
    {
        return null != cipher;
    }

    /**
     * {@code EncryptWithAd(ad, plaintext)}.
     *
     * @return the ciphertext and tag, or the plaintext itself without a key.
     */
    public byte[] encryptWithAd(final byte[] ad, final byte[] plaintext)
    {
        if (null == cipher)
        {
            return plaintext.clone();
        }
        final byte[] ciphertext = new byte[plaintext.length + AeadAlgorithm.TAG_LENGTH];
        algorithm.noiseNonce(counter++, nonce);
        cipher.seal(nonce, ad, 0, ad.length, plaintext, 0, plaintext.length, ciphertext, 0);
        return ciphertext;
    }

    /**
     * {@code DecryptWithAd(ad, ciphertext)}; the counter moves only on success.
     *
     * @return the plaintext, or null if authentication failed.
     */
    public byte[] decryptWithAd(final byte[] ad, final byte[] ciphertext)
    {
        if (null == cipher)
        {
            return ciphertext.clone();
        }
        if (ciphertext.length < AeadAlgorithm.TAG_LENGTH)
        {
            return null;
        }
        final byte[] plaintext = new byte[ciphertext.length - AeadAlgorithm.TAG_LENGTH];
        algorithm.noiseNonce(counter, nonce);
        if (cipher.open(nonce, ad, 0, ad.length, ciphertext, 0, ciphertext.length, plaintext, 0) < 0)
        {
            return null;
        }
        counter++;
        return plaintext;
    }
}
