package io.pacelink.transport.secure;

import io.pacelink.transport.SecurityConfig;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * A server's stateless reset tokens (RFC 9000 section 10.3): {@code HMAC-SHA-256(key, connection id)} truncated to
 * {@link #TOKEN_LENGTH} bytes, as section 10.3.2 suggests, so an endpoint that lost every connection's state — a
 * restarted process — still knows the token of any connection id a packet names, and nobody without the key can
 * compute one. The server gives each client its connection's token in its handshake answer; a datagram ending in it
 * tells the client the server has no state for the connection any more.
 * <p>
 * Where the key comes from ({@link #key}) decides whether a reset survives a restart: a configured key
 * ({@link SecurityConfig#statelessResetKey}), else one derived from the server's static private key (it persists
 * with the host key, so nothing more needs storing), else a random one per process. Agent thread only; nothing is
 * allocated after construction.
 */
public final class StatelessResetTokens
{
    /**
     * Bytes of a token (RFC 9000 section 10.3).
     */
    public static final int TOKEN_LENGTH = 16;

    private static final byte[] DERIVATION_SALT = "pacelink stateless reset key".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DERIVATION_INFO = "v1".getBytes(StandardCharsets.US_ASCII);

    private final HmacSha256 hmac;
    private final byte[] message = new byte[Long.BYTES];
    private final UnsafeBuffer messageBuffer = new UnsafeBuffer(message);
    private final byte[] mac = new byte[HmacSha256.MAC_LENGTH];

    /**
     * @param key the secret key, {@link SecurityConfig#KEY_LENGTH} bytes ({@link #key}).
     */
    public StatelessResetTokens(final byte[] key)
    {
        if (SecurityConfig.KEY_LENGTH != key.length)
        {
            throw new IllegalArgumentException("a stateless reset key is " + SecurityConfig.KEY_LENGTH + " bytes");
        }
        this.hmac = new HmacSha256(key);
    }

    /**
     * The endpoint's token key: the configured one; else, for a server with a static private key, HKDF (RFC 5869)
     * of that key under a label of its own, so the tokens outlive the process with the host key and reveal nothing
     * of it; else one derived from a secret of this process (a pre-shared key is not used: every client holds it).
     *
     * @param security      the endpoint's security settings.
     * @param processSecret random bytes drawn when the endpoint started (its address-validation key: deriving from
     *                      it draws nothing more from the endpoint's random source, so a simulation's other random
     *                      choices stay as they were).
     * @return the key, {@link SecurityConfig#KEY_LENGTH} bytes.
     */
    public static byte[] key(final SecurityConfig security, final byte[] processSecret)
    {
        if (null != security.statelessResetKey())
        {
            return security.statelessResetKey();
        }
        final byte[] secret = null != security.serverPrivateKey() ? security.serverPrivateKey() : processSecret;
        return hkdfSha256(DERIVATION_SALT, secret, DERIVATION_INFO);
    }

    /**
     * HKDF-SHA-256 (RFC 5869) with one block of output, {@link HmacSha256#MAC_LENGTH} bytes, on {@link HmacSha256}:
     * the same bytes as {@link Hkdf}'s extract then expand, without {@code javax.crypto.Mac}, whose look-ups through
     * the security providers made this derivation a quarter of a simulated endpoint's construction (perf/FINDINGS.md,
     * "Simulator speed, round 13").
     *
     * @param salt the extract's salt (not empty).
     * @param ikm  the input keying material.
     * @param info the expand's context.
     * @return {@code T(1) = HMAC(HMAC(salt, ikm), info || 0x01)}.
     */
    static byte[] hkdfSha256(final byte[] salt, final byte[] ikm, final byte[] info)
    {
        final byte[] pseudorandomKey = new byte[HmacSha256.MAC_LENGTH];
        new HmacSha256(salt).compute(ikm, 0, ikm.length, pseudorandomKey, 0);
        final byte[] block = new byte[info.length + 1];
        System.arraycopy(info, 0, block, 0, info.length);
        block[info.length] = 1;
        final byte[] output = new byte[HmacSha256.MAC_LENGTH];
        new HmacSha256(pseudorandomKey).compute(block, 0, block.length, output, 0);
        return output;
    }

    /**
     * @param processSecret random bytes drawn when the endpoint started.
     * @return a seed for a reset's unpredictable bytes: a one-way function of this key and the process's secret, so
     * the bytes reveal neither and differ from one process to the next.
     */
    public long paddingSeed(final byte[] processSecret)
    {
        final byte[] seed = new byte[HmacSha256.MAC_LENGTH];
        hmac.compute(processSecret, 0, processSecret.length, seed, 0);
        return new UnsafeBuffer(seed).getLong(0);
    }

    /**
     * Write the token of a connection id.
     *
     * @param connectionId the id this endpoint chose for the connection (the one its peer's packets carry).
     * @param buffer       receives {@link #TOKEN_LENGTH} bytes.
     * @param offset       where the first goes.
     */
    public void write(final long connectionId, final MutableDirectBuffer buffer, final int offset)
    {
        messageBuffer.putLong(0, connectionId);
        hmac.compute(message, 0, Long.BYTES, mac, 0);
        buffer.putBytes(offset, mac, 0, TOKEN_LENGTH);
    }
}
