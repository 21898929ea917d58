package io.pacelink.transport.secure;

import io.pacelink.transport.ServerKeyVerifier;

import java.util.function.LongSupplier;

/**
 * An endpoint's secure-mode keys and choices, made once from its configuration: as a client, which profile it speaks
 * (NK when it pins a server key or verifies one it learns from the server, else NNpsk0 when it has a pre-shared key,
 * else plaintext); as a server, which
 * profiles it answers (NK when it has a static private key, NNpsk0 when it has a pre-shared key) — an endpoint with
 * neither speaks plaintext only. Holds the {@link HelloMac} keys for each, and draws ephemeral keys from the
 * endpoint's random source (a {@code SecureRandom} on a real socket, seeded only in the simulator).
 */
public final class EndpointKeys
{
    private final byte[] serverPrivateKey;
    private final byte[] serverPublicKey;
    private final byte[] pinnedServerKey;
    private final ServerKeyVerifier serverKeyVerifier;
    private final byte[] preSharedKey;
    private final AeadAlgorithm aead;
    private final long keyUpdateIntervalPackets;
    private final LongSupplier randomSource;
    private final HelloMac nkServerMac;
    private final HelloMac pskMac;
    private final HelloMac nkClientMac;
    private NoiseHandshake preparedInitiator;
    private SecureSession lastClientSession;
    private byte[] preparedResponderPrivate;
    private byte[] preparedResponderPublic;

    /**
     * @param serverPrivateKey         this server's static private key (NK), or null.
     * @param pinnedServerKey          the server public key this client pins (NK), or null.
     * @param serverKeyVerifier        without a pinned key: decides whether to trust the key a server presents (NK),
     *                                 or null.
     * @param preSharedKey             the pre-shared key (NNpsk0), or null.
     * @param aead                     the AEAD a client proposes.
     * @param keyUpdateIntervalPackets packets sealed under one key before a key update.
     * @param randomSource             64 random bits per call, for ephemeral keys.
     */
    public EndpointKeys(
        final byte[] serverPrivateKey,
        final byte[] pinnedServerKey,
        final ServerKeyVerifier serverKeyVerifier,
        final byte[] preSharedKey,
        final AeadAlgorithm aead,
        final long keyUpdateIntervalPackets,
        final LongSupplier randomSource)
    {
        this.serverPrivateKey = null == serverPrivateKey ? null : serverPrivateKey.clone();
        this.serverPublicKey = null == serverPrivateKey ? null : new X25519().publicKey(serverPrivateKey);
        this.pinnedServerKey = null == pinnedServerKey ? null : pinnedServerKey.clone();
        this.serverKeyVerifier = null == pinnedServerKey ? serverKeyVerifier : null;
        this.preSharedKey = null == preSharedKey ? null : preSharedKey.clone();
        this.aead = aead;
        this.keyUpdateIntervalPackets = keyUpdateIntervalPackets;
        this.randomSource = randomSource;
        this.nkServerMac = null == serverPublicKey ? null : new HelloMac(serverPublicKey);
        this.pskMac = null == preSharedKey ? null : new HelloMac(preSharedKey);
        this.nkClientMac = null == pinnedServerKey ? null : new HelloMac(pinnedServerKey);
    }

    /**
     * The keys without a verifier of learned server keys.
     *
     * @param serverPrivateKey         this server's static private key (NK), or null.
     * @param pinnedServerKey          the server public key this client pins (NK), or null.
     * @param preSharedKey             the pre-shared key (NNpsk0), or null.
     * @param aead                     the AEAD a client proposes.
     * @param keyUpdateIntervalPackets packets sealed under one key before a key update.
     * @param randomSource             64 random bits per call, for ephemeral keys.
     * @deprecated since 0.1.0: use the constructor with a {@link ServerKeyVerifier} (null for none); this one goes in
     * the next minor version.
     */
    @Deprecated
    public EndpointKeys(
        final byte[] serverPrivateKey,
        final byte[] pinnedServerKey,
        final byte[] preSharedKey,
        final AeadAlgorithm aead,
        final long keyUpdateIntervalPackets,
        final LongSupplier randomSource)
    {
        this(serverPrivateKey, pinnedServerKey, null, preSharedKey, aead, keyUpdateIntervalPackets, randomSource);
    }

    /**
     * @return the profile this endpoint's connections open with, or null for plaintext.
     */
    public NoiseProfile clientProfile()
    {
        return null != pinnedServerKey || null != serverKeyVerifier ? NoiseProfile.NK :
            null != preSharedKey ? NoiseProfile.NN_PSK0 : null;
    }

    /**
     * @return this server's static public key, or null if it has none; a RETRY answering an NK hello carries it, so
     * a client that does not know it yet can learn it (docs/wire-format.md, "Secure mode").
     */
    public byte[] serverPublicKey()
    {
        return serverPublicKey;
    }

    /**
     * @return true if this endpoint as a server answers secure hellos only (it has a static key or a pre-shared key).
     */
    public boolean isSecureServer()
    {
        return null != serverPrivateKey || null != preSharedKey;
    }

    /**
     * @param profile a hello's profile.
     * @return the MAC a server checks a hello of that profile with, or null if it does not answer the profile.
     */
    public HelloMac serverMac(final NoiseProfile profile)
    {
        return NoiseProfile.NK == profile ? nkServerMac : pskMac;
    }

    /**
     * @return the MAC a client writes on its hellos and checks on the answers (its profile's); null for a client that
     * has yet to learn the server's key.
     */
    public HelloMac clientMac()
    {
        return NoiseProfile.NK == clientProfile() ? nkClientMac : pskMac;
    }

    /**
     * @return the AEAD a client proposes.
     */
    public AeadAlgorithm aead()
    {
        return aead;
    }

    /**
     * @return packets sealed under one key before a key update.
     */
    public long keyUpdateIntervalPackets()
    {
        return keyUpdateIntervalPackets;
    }

    byte[] serverPrivateKey()
    {
        return serverPrivateKey;
    }

    byte[] pinnedServerKey()
    {
        return pinnedServerKey;
    }

    ServerKeyVerifier serverKeyVerifier()
    {
        return serverKeyVerifier;
    }

    byte[] preSharedKey()
    {
        return preSharedKey;
    }

    /**
     * Make the next client connection's first message ahead, up to its payload ({@link
     * NoiseHandshake#prepareFirstMessage}: a fresh ephemeral key, its public key and, for NK, {@code es}: two X25519
     * operations, about half a millisecond on a slow two-vCPU VM), for an endpoint's agent to call while it idles, so
     * that a connect pays only the payload's encryption before its hello goes out. Nothing is made while a connect of
     * this endpoint waits for its answer (the work would hold up the answer's reading), nor for a client that learns
     * its server's key (no {@code es} can be made before the key is known), nor twice: one prepared message waits for
     * the next connect. A seeded (simulated) endpoint is never asked, so its random draws stay where they were.
     *
     * @param isIdleEndpoint true if the endpoint has no connection at all (a connect that failed is then over).
     * @return true if a first message was prepared.
     */
    public boolean prepareInitiator(final boolean isIdleEndpoint)
    {
        final NoiseProfile profile = clientProfile();
        if (null != preparedInitiator || null == profile || NoiseProfile.NK == profile && null == pinnedServerKey ||
            !isIdleEndpoint && null != lastClientSession && !lastClientSession.isClientHandshakeOver())
        {
            return false;
        }
        final NoiseHandshake initiator = NoiseHandshake.initiator(
            profile, aead, SecureSession.PROLOGUE, pinnedServerKey, preSharedKey, newEphemeralKey());
        initiator.prepareFirstMessage();
        preparedInitiator = initiator;
        return true;
    }

    /**
     * @return the first message {@link #prepareInitiator} made, handed over once, or null.
     */
    NoiseHandshake takePreparedInitiator()
    {
        final NoiseHandshake prepared = preparedInitiator;
        preparedInitiator = null;
        return prepared;
    }

    /**
     * Make the next answer's ephemeral key pair ahead (one X25519 operation of the three a secure server's answer
     * costs), for a server's agent to call while it idles; one waits for the next hello that needs it. Under a flood
     * of hellos the pairs go to the flood's handshakes as they would have been made for them: the same work, done
     * between hellos instead of inside one. A seeded (simulated) endpoint is never asked.
     *
     * @return true if a key pair was made.
     */
    public boolean prepareResponderKeyPair()
    {
        if (null != preparedResponderPrivate || !isSecureServer())
        {
            return false;
        }
        final byte[] privateKey = newEphemeralKey();
        preparedResponderPublic = new X25519().publicKey(privateKey);
        preparedResponderPrivate = privateKey;
        return true;
    }

    /**
     * @return the key pair {@link #prepareResponderKeyPair} made (private, public), handed over once, or null.
     */
    byte[][] takeResponderKeyPair()
    {
        if (null == preparedResponderPrivate)
        {
            return null;
        }
        final byte[][] pair = { preparedResponderPrivate, preparedResponderPublic };
        preparedResponderPrivate = null;
        preparedResponderPublic = null;
        return pair;
    }

    /**
     * @param session the client session a connect just made: until its answer is read, nothing is prepared.
     */
    void onClientSession(final SecureSession session)
    {
        lastClientSession = session;
    }

    /**
     * @return 32 fresh random bytes for an ephemeral private key.
     */
    byte[] newEphemeralKey()
    {
        final byte[] key = new byte[X25519.KEY_LENGTH];
        for (int i = 0; i < key.length; i += Long.BYTES)
        {
            final long random = randomSource.getAsLong();
            for (int j = 0; j < Long.BYTES; j++)
            {
                key[i + j] = (byte)(random >>> (j * Byte.SIZE));
            }
        }
        return key;
    }
}
