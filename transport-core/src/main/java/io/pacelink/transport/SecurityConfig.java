package io.pacelink.transport;

import io.pacelink.transport.secure.AeadAlgorithm;
import io.pacelink.transport.secure.EndpointKeys;

import java.util.function.LongSupplier;

/**
 * The secure mode's settings of an endpoint (docs/security.md, "Secure mode"): with none of them set the endpoint
 * speaks plaintext (every packet still carries a CRC32C); with a key it speaks the secure mode only.
 * <ul>
 * <li>A server with {@link #serverPrivateKey} answers Noise NK hellos: its clients pin the matching public key with
 * {@link #serverPublicKey}, as SSH clients pin a host key.</li>
 * <li>Endpoints sharing a {@link #preSharedKey} speak Noise NNpsk0: both authenticated by the secret.</li>
 * <li>A client with a {@link #serverKeyVerifier} and no pinned key learns the server's key from the server itself,
 * proves with Noise NK that the server holds it, and asks the verifier whether to trust it — trust on first use with
 * a known-hosts file, as SSH does.</li>
 * </ul>
 * Keys are the raw 32-byte X25519 and secret forms; {@code io.pacelink.transport.keys.KeyFiles} reads them from
 * files (PEM or raw), checking their permissions. Change in place through {@link PacelinkContext#security()}.
 */
public final class SecurityConfig
{
    /**
     * Bytes of every key.
     */
    public static final int KEY_LENGTH = 32;

    /**
     * Default packets sealed under one key before a key update: RFC 9001 section 6.6's AES-GCM confidentiality
     * limit (the ChaCha20-Poly1305 one is far higher; the lower serves both).
     */
    public static final long DEFAULT_KEY_UPDATE_INTERVAL_PACKETS = AeadAlgorithm.AES_GCM.confidentialityLimitPackets();

    private byte[] serverPrivateKey;
    private byte[] serverPublicKey;
    private byte[] preSharedKey;
    private AeadAlgorithm aead;
    private ServerKeyVerifier serverKeyVerifier;
    private long keyUpdateIntervalPackets = DEFAULT_KEY_UPDATE_INTERVAL_PACKETS;
    private byte[] statelessResetKey;

    /**
     * @param key this server's static X25519 private key, 32 bytes, or null; it answers Noise NK hellos.
     * @return this.
     */
    public SecurityConfig serverPrivateKey(final byte[] key)
    {
        serverPrivateKey = checkedKey("serverPrivateKey", key);
        return this;
    }

    /**
     * @return this server's static private key, or null.
     */
    public byte[] serverPrivateKey()
    {
        return serverPrivateKey;
    }

    /**
     * @param key the server's static X25519 public key this client pins, 32 bytes, or null; connections then speak
     *            Noise NK and fail unless the server proves it holds the private key.
     * @return this.
     */
    public SecurityConfig serverPublicKey(final byte[] key)
    {
        serverPublicKey = checkedKey("serverPublicKey", key);
        return this;
    }

    /**
     * @return the pinned server key, or null.
     */
    public byte[] serverPublicKey()
    {
        return serverPublicKey;
    }

    /**
     * @param key a 32-byte secret shared by client and server, or null; connections then speak Noise NNpsk0 (a
     *            client that also pins a server key speaks NK).
     * @return this.
     */
    public SecurityConfig preSharedKey(final byte[] key)
    {
        preSharedKey = checkedKey("preSharedKey", key);
        return this;
    }

    /**
     * @return the pre-shared key, or null.
     */
    public byte[] preSharedKey()
    {
        return preSharedKey;
    }

    /**
     * @param verifier decides whether this client trusts a server key it learns from the server, or null. Used only
     *                 when no {@link #serverPublicKey} is pinned: connections then ask the server for its key (its
     *                 RETRY carries it, unauthenticated), speak Noise NK toward it — which proves the server holds
     *                 the private key — and call the verifier before the connection is established
     *                 (docs/security.md, "Secure with zero setup").
     * @return this.
     */
    public SecurityConfig serverKeyVerifier(final ServerKeyVerifier verifier)
    {
        serverKeyVerifier = verifier;
        return this;
    }

    /**
     * @return the verifier of server keys learned from the server, or null.
     */
    public ServerKeyVerifier serverKeyVerifier()
    {
        return serverKeyVerifier;
    }

    /**
     * @param name {@code AESGCM} or {@code ChaChaPoly}: the AEAD a client proposes (a server takes either); null for
     *             the default, AES-GCM where the CPU has AES instructions, else ChaCha20-Poly1305.
     * @return this.
     */
    public SecurityConfig aead(final String name)
    {
        aead = null == name ? null : AeadAlgorithm.fromNoiseName(name);
        return this;
    }

    /**
     * @return the AEAD a client proposes.
     */
    public AeadAlgorithm aead()
    {
        if (null == aead)
        {
            aead = AeadAlgorithm.hasAesInstructions() ? AeadAlgorithm.AES_GCM : AeadAlgorithm.CHACHA20_POLY1305;
        }
        return aead;
    }

    /**
     * @param packets packets sealed under one key before the sender updates it (RFC 9001 section 6), 1..2^62;
     *                capped at the AEAD's confidentiality limit.
     * @return this.
     */
    public SecurityConfig keyUpdateIntervalPackets(final long packets)
    {
        keyUpdateIntervalPackets = PacelinkContext.requireRange("keyUpdateIntervalPackets", packets, 1, 1L << 62);
        return this;
    }

    /**
     * @return packets sealed under one key before a key update.
     */
    public long keyUpdateIntervalPackets()
    {
        return keyUpdateIntervalPackets;
    }

    /**
     * The key of the endpoint's stateless reset tokens (RFC 9000 section 10.3; docs/security.md, "Stateless
     * reset"). A server's clients recognise a reset only if the restarted server derives the same token from the
     * connection id, so the key must outlive the process. Without one, a server with a {@link #serverPrivateKey}
     * derives it from that key (which persists by nature), and any other endpoint draws a random one per process:
     * its resets then reach clients of the same process only.
     *
     * @param key 32 secret bytes, or null for the default above. Keep it as secret as a private key: whoever holds
     *            it can end any of this server's connections whose id it sees.
     * @return this.
     */
    public SecurityConfig statelessResetKey(final byte[] key)
    {
        statelessResetKey = checkedKey("statelessResetKey", key);
        return this;
    }

    /**
     * @return the configured stateless reset key, or null.
     */
    public byte[] statelessResetKey()
    {
        return statelessResetKey;
    }

    /**
     * @return true if the endpoint speaks the secure mode: any key, or a verifier of learned server keys, is set.
     */
    public boolean isSecure()
    {
        return null != serverPrivateKey || null != serverPublicKey || null != preSharedKey ||
            null != serverKeyVerifier;
    }

    /**
     * @param randomSource the endpoint's random source, for ephemeral keys.
     * @return the keys an endpoint core works with.
     */
    public EndpointKeys newEndpointKeys(final LongSupplier randomSource)
    {
        return new EndpointKeys(serverPrivateKey, serverPublicKey, serverKeyVerifier, preSharedKey, aead(),
            keyUpdateIntervalPackets, randomSource);
    }

    private static byte[] checkedKey(final String name, final byte[] key)
    {
        if (null != key && KEY_LENGTH != key.length)
        {
            throw new IllegalArgumentException(name + " must be " + KEY_LENGTH + " bytes, got " + key.length +
                ": write one with 'pacelink keygen', or give a file holding the raw 32 bytes or a PEM key");
        }
        return null == key ? null : key.clone();
    }
}
