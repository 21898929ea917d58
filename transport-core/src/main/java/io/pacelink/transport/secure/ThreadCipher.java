package io.pacelink.transport.secure;

import javax.crypto.Cipher;

/**
 * One JCA cipher of an {@link AeadAlgorithm} that a thread's handshake keys share
 * ({@link AeadCipher#sharingThreadCipher}), and what it was last initialised with: the JDK refuses some second
 * initialisations with the key and nonce of the one before (see {@link AeadCipher}), and with a cipher shared the one
 * before may be another key's. Thread confined.
 */
final class ThreadCipher
{
    final Cipher cipher;
    final byte[] lastNonce = new byte[AeadAlgorithm.NONCE_LENGTH];
    byte[] lastKey;

    ThreadCipher(final Cipher cipher)
    {
        this.cipher = cipher;
    }
}
