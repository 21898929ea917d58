package io.pacelink.transport.secure;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;

/**
 * A Noise SymmetricState (the Noise specification, revision 34, section 5.2) with SHA-256: the chaining key, the
 * handshake hash, and the {@link NoiseCipherState} keyed from them. Allocates; handshakes only. Its HKDF and SHA-256
 * are the calling thread's ({@link Hkdf#ofThisThread()}, {@link #SHA256_OF_THREAD}), taken at each use: each operation
 * below finishes with them before it returns, so every state on a thread can use the same ones.
 */
final class NoiseSymmetricState
{
    /**
     * One SHA-256 per thread for every handshake hash it mixes (a digest is reset by {@code digest()}): a
     * {@code MessageDigest.getInstance} per handshake is a provider lookup and its objects, on a flood's every
     * half-open connection.
     */
    private static final ThreadLocal<MessageDigest> SHA256_OF_THREAD =
        ThreadLocal.withInitial(NoiseSymmetricState::newSha256);

    private final NoiseCipherState cipherState;
    private final AeadAlgorithm algorithm;
    private byte[] chainingKey;
    private byte[] hash;

    /**
     * {@code InitializeSymmetric(protocol_name)}.
     */
    NoiseSymmetricState(final String protocolName, final AeadAlgorithm algorithm)
    {
        this.algorithm = algorithm;
        final byte[] name = protocolName.getBytes(StandardCharsets.US_ASCII);
        if (name.length <= Hkdf.HASH_LENGTH)
        {
            hash = new byte[Hkdf.HASH_LENGTH];
            System.arraycopy(name, 0, hash, 0, name.length);
        }
        else
        {
            hash = SHA256_OF_THREAD.get().digest(name);
        }
        chainingKey = hash.clone();
        cipherState = new NoiseCipherState(algorithm);
    }

    private NoiseSymmetricState(final NoiseSymmetricState original)
    {
        algorithm = original.algorithm;
        chainingKey = original.chainingKey;
        hash = original.hash;
        cipherState = original.cipherState.copy();
    }

    /**
     * @return a state equal to this one that goes on independently of it (the byte arrays are never changed in place,
     * only replaced, so they are shared).
     */
    NoiseSymmetricState copy()
    {
        return new NoiseSymmetricState(this);
    }

    void mixKey(final byte[] inputKeyMaterial)
    {
        final byte[][] outputs = Hkdf.ofThisThread().noiseHkdf(chainingKey, inputKeyMaterial, 2);
        chainingKey = outputs[0];
        cipherState.initializeKey(outputs[1]);
    }

    void mixHash(final byte[] data)
    {
        final MessageDigest sha256 = SHA256_OF_THREAD.get();
        sha256.update(hash);
        sha256.update(data);
        hash = sha256.digest();
    }

    void mixKeyAndHash(final byte[] inputKeyMaterial)
    {
        final byte[][] outputs = Hkdf.ofThisThread().noiseHkdf(chainingKey, inputKeyMaterial, 3);
        chainingKey = outputs[0];
        mixHash(outputs[1]);
        cipherState.initializeKey(outputs[2]);
    }

    byte[] encryptAndHash(final byte[] plaintext)
    {
        final byte[] ciphertext = cipherState.encryptWithAd(hash, plaintext);
        mixHash(ciphertext);
        return ciphertext;
    }

    /**
     * @return the plaintext, or null if authentication failed (the state is then unusable).
     */
    byte[] decryptAndHash(final byte[] ciphertext)
    {
        final byte[] plaintext = cipherState.decryptWithAd(hash, ciphertext);
        if (null != plaintext)
        {
            mixHash(ciphertext);
        }
        return plaintext;
    }

    /**
     * {@code Split()}: the two transport keys, initiator to responder first.
     */
    byte[][] split()
    {
        return Hkdf.ofThisThread().noiseHkdf(chainingKey, new byte[0], 2);
    }

    byte[] handshakeHash()
    {
        return hash.clone();
    }

    AeadAlgorithm algorithm()
    {
        return algorithm;
    }

    private static MessageDigest newSha256()
    {
        try
        {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("every Java platform has SHA-256", ex);
        }
    }
}
