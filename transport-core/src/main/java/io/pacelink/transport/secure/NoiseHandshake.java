package io.pacelink.transport.secure;

import java.util.Arrays;

/**
 * A Noise HandshakeState (the Noise specification, revision 34, section 5.3) for the two patterns of
 * {@link NoiseProfile}, with X25519, an {@link AeadAlgorithm} and SHA-256: two messages, then {@link #split()} into
 * the transport keys. A message that fails — a wrong key, a tampered byte, a small-order point — makes
 * {@link #readMessage} return null and the handshake unusable; nothing is half-applied.
 * <p>
 * The ephemeral private keys come from the caller (the endpoint's random source, seeded only in the simulator), so a
 * known-answer test can fix them. Allocates; handshakes only.
 */
public final class NoiseHandshake
{
    /**
     * Bytes a handshake message adds to its payload: an ephemeral key and a tag.
     */
    public static final int MESSAGE_OVERHEAD = X25519.KEY_LENGTH + AeadAlgorithm.TAG_LENGTH;

    private final NoiseProfile profile;
    private final boolean isInitiator;
    private final NoiseSymmetricState symmetric;
    private final X25519 x25519 = new X25519();
    private final byte[] localStaticPrivate;
    private final byte[] remoteStaticPublic;
    private final byte[] preSharedKey;
    private final byte[] ephemeralPrivate;
    private byte[] ephemeralPublic;
    private byte[] remoteEphemeralPublic;
    private int messageIndex;
    private boolean isFailed;
    private boolean isFirstMessagePrepared;

    private NoiseHandshake(
        final NoiseProfile profile,
        final AeadAlgorithm algorithm,
        final boolean isInitiator,
        final byte[] prologue,
        final byte[] localStaticPrivate,
        final byte[] localStaticPublic,
        final byte[] remoteStaticPublic,
        final byte[] preSharedKey,
        final byte[] ephemeralPrivate)
    {
        this.profile = profile;
        this.isInitiator = isInitiator;
        this.localStaticPrivate = localStaticPrivate;
        this.remoteStaticPublic = remoteStaticPublic;
        this.preSharedKey = preSharedKey;
        this.ephemeralPrivate = ephemeralPrivate.clone();
        symmetric = new NoiseSymmetricState(profile.protocolName(algorithm), algorithm);
        symmetric.mixHash(prologue);
        if (NoiseProfile.NK == profile)
        {
            // Pre-message "<- s": both sides hash the responder's static public key.
            // The responder is handed its public key: deriving it again would be a fourth X25519 per handshake.
            symmetric.mixHash(isInitiator ? remoteStaticPublic : localStaticPublic);
        }
    }

    private NoiseHandshake(final NoiseHandshake original)
    {
        profile = original.profile;
        isInitiator = original.isInitiator;
        symmetric = original.symmetric.copy();
        localStaticPrivate = original.localStaticPrivate;
        remoteStaticPublic = original.remoteStaticPublic;
        preSharedKey = original.preSharedKey;
        ephemeralPrivate = original.ephemeralPrivate;
        ephemeralPublic = original.ephemeralPublic;
        remoteEphemeralPublic = original.remoteEphemeralPublic;
        messageIndex = original.messageIndex;
        isFailed = original.isFailed;
        isFirstMessagePrepared = original.isFirstMessagePrepared;
    }

    /**
     * @param profile            the pattern.
     * @param algorithm          the AEAD.
     * @param prologue           bytes both sides must agree on, may be empty.
     * @param serverPublicKey    NK: the server's pinned 32-byte public key; else null.
     * @param preSharedKey       NNpsk0: the 32-byte secret; else null.
     * @param ephemeralPrivate   32 random bytes.
     * @return the client's (initiator's) side.
     */
    public static NoiseHandshake initiator(
        final NoiseProfile profile,
        final AeadAlgorithm algorithm,
        final byte[] prologue,
        final byte[] serverPublicKey,
        final byte[] preSharedKey,
        final byte[] ephemeralPrivate)
    {
        requireKeys(profile, serverPublicKey, preSharedKey);
        return new NoiseHandshake(
            profile, algorithm, true, prologue, null, null, serverPublicKey, preSharedKey, ephemeralPrivate);
    }

    /**
     * @param profile            the pattern.
     * @param algorithm          the AEAD.
     * @param prologue           bytes both sides must agree on, may be empty.
     * @param serverPrivateKey   NK: the server's 32-byte static private key; else null.
     * @param serverPublicKey    NK: its public key; else null.
     * @param preSharedKey       NNpsk0: the 32-byte secret; else null.
     * @param ephemeralPrivate   32 random bytes.
     * @return the server's (responder's) side.
     */
    public static NoiseHandshake responder(
        final NoiseProfile profile,
        final AeadAlgorithm algorithm,
        final byte[] prologue,
        final byte[] serverPrivateKey,
        final byte[] serverPublicKey,
        final byte[] preSharedKey,
        final byte[] ephemeralPrivate)
    {
        requireKeys(profile, serverPrivateKey, preSharedKey);
        if (NoiseProfile.NK == profile && (null == serverPublicKey || X25519.KEY_LENGTH != serverPublicKey.length))
        {
            throw new IllegalArgumentException("Noise NK's responder needs its 32-byte public key");
        }
        return new NoiseHandshake(profile, algorithm, false, prologue, serverPrivateKey, serverPublicKey, null,
            preSharedKey, ephemeralPrivate);
    }

    private static void requireKeys(final NoiseProfile profile, final byte[] staticKey, final byte[] preSharedKey)
    {
        final byte[] needed = NoiseProfile.NK == profile ? staticKey : preSharedKey;
        if (null == needed || X25519.KEY_LENGTH != needed.length)
        {
            throw new IllegalArgumentException(profile.protocolName(AeadAlgorithm.AES_GCM) + " needs a 32-byte " +
                (NoiseProfile.NK == profile ? "server key" : "pre-shared key"));
        }
    }

    /**
     * Write the next message: the initiator's first, the responder's second.
     *
     * @param payload carried encrypted (both messages have a key by their payload in these patterns).
     * @return the message: the ephemeral public key, then the payload's ciphertext and tag.
     */
    public byte[] writeMessage(final byte[] payload)
    {
        if (isFailed || messageIndex != (isInitiator ? 0 : 1))
        {
            throw new IllegalStateException("not this side's turn to write");
        }
        if (0 == messageIndex)
        {
            prepareFirstMessage();
        }
        else
        {
            if (null == ephemeralPublic)
            {
                ephemeralPublic = x25519.publicKey(ephemeralPrivate);
            }
            mixEphemeral(ephemeralPublic);
            symmetric.mixKey(x25519.agree(ephemeralPrivate, remoteEphemeralPublic)); // ee
        }
        final byte[] ciphertext = symmetric.encryptAndHash(payload);
        messageIndex++;
        final byte[] message = Arrays.copyOf(ephemeralPublic, X25519.KEY_LENGTH + ciphertext.length);
        System.arraycopy(ciphertext, 0, message, X25519.KEY_LENGTH, ciphertext.length);
        return message;
    }

    /**
     * The initiator's first message up to its payload — the tokens {@code psk} (NNpsk0), {@code e} and {@code es} (NK):
     * everything but the payload's encryption, and both of NK's X25519 operations. None of it depends on the payload,
     * so a client can do it before it knows what it will send (while its agent idles), and {@link #writeMessage} then
     * only encrypts the payload. Done once; {@link #writeMessage} does it itself if nobody did.
     *
     * @throws IllegalStateException if this is not an initiator before its first message.
     */
    public void prepareFirstMessage()
    {
        if (!isInitiator || isFailed || 0 != messageIndex)
        {
            throw new IllegalStateException("only an initiator's first message is prepared");
        }
        if (isFirstMessagePrepared)
        {
            return;
        }
        if (NoiseProfile.NN_PSK0 == profile)
        {
            symmetric.mixKeyAndHash(preSharedKey);
        }
        ephemeralPublic = x25519.publicKey(ephemeralPrivate);
        mixEphemeral(ephemeralPublic);
        if (NoiseProfile.NK == profile)
        {
            symmetric.mixKey(x25519.agree(ephemeralPrivate, remoteStaticPublic)); // es
        }
        isFirstMessagePrepared = true;
    }

    /**
     * Hand a responder the public key of its ephemeral private key, made ahead ({@link X25519#publicKey}), so that
     * its message does not make it: a server that idles makes its next answer's key pair then
     * ({@code EndpointKeys.prepareResponderKeyPair}).
     *
     * @param publicKey the public key of the private key this handshake was made with; the caller's word for it.
     * @throws IllegalStateException if this is not a responder before its message.
     */
    public void ephemeralPublicKey(final byte[] publicKey)
    {
        if (isInitiator || isFailed || messageIndex > 1 || X25519.KEY_LENGTH != publicKey.length)
        {
            throw new IllegalStateException("only a responder's own key, before its message, is handed over");
        }
        ephemeralPublic = publicKey.clone();
    }

    /**
     * @return a handshake in this one's state that goes on independently of it: a client reads each answer to its
     * first message on a copy of the state that message left, so a forged answer cannot spoil the genuine one's, and
     * without doing the first message's X25519 work again for each.
     */
    public NoiseHandshake copy()
    {
        return new NoiseHandshake(this);
    }

    /**
     * Read the peer's message.
     *
     * @param message the bytes received.
     * @return the payload, or null if the message is malformed or fails authentication (the handshake is then
     * unusable).
     */
    public byte[] readMessage(final byte[] message)
    {
        if (isFailed || messageIndex != (isInitiator ? 1 : 0))
        {
            throw new IllegalStateException("not this side's turn to read");
        }
        if (message.length < MESSAGE_OVERHEAD)
        {
            isFailed = true;
            return null;
        }
        try
        {
            if (0 == messageIndex && NoiseProfile.NN_PSK0 == profile)
            {
                symmetric.mixKeyAndHash(preSharedKey);
            }
            remoteEphemeralPublic = Arrays.copyOf(message, X25519.KEY_LENGTH);
            mixEphemeral(remoteEphemeralPublic);
            if (0 == messageIndex)
            {
                if (NoiseProfile.NK == profile)
                {
                    symmetric.mixKey(x25519.agree(localStaticPrivate, remoteEphemeralPublic)); // es
                }
            }
            else
            {
                symmetric.mixKey(x25519.agree(ephemeralPrivate, remoteEphemeralPublic)); // ee
            }
        }
        catch (final IllegalArgumentException smallOrder)
        {
            isFailed = true;
            return null;
        }
        final byte[] payload = symmetric.decryptAndHash(
            Arrays.copyOfRange(message, X25519.KEY_LENGTH, message.length));
        if (null == payload)
        {
            isFailed = true;
            return null;
        }
        messageIndex++;
        return payload;
    }

    /**
     * "e" (section 5.3), with the psk modifier's extra {@code MixKey(e.public_key)} (section 9.2).
     */
    private void mixEphemeral(final byte[] publicKey)
    {
        symmetric.mixHash(publicKey);
        if (NoiseProfile.NN_PSK0 == profile)
        {
            symmetric.mixKey(publicKey);
        }
    }

    /**
     * @return true once both messages are written and read.
     */
    public boolean isComplete()
    {
        return 2 == messageIndex && !isFailed;
    }

    /**
     * {@code Split()}.
     *
     * @return the initiator-to-responder and the responder-to-initiator keys, 32 bytes each.
     */
    public byte[][] split()
    {
        if (!isComplete())
        {
            throw new IllegalStateException("the handshake is not complete");
        }
        return symmetric.split();
    }

    /**
     * @return the handshake hash {@code h}, which both sides share once complete (channel binding).
     */
    public byte[] handshakeHash()
    {
        return symmetric.handshakeHash();
    }
}
