package io.pacelink.transport.admission;

import io.pacelink.transport.EndpointLimits;

import java.net.InetAddress;

/**
 * The Diffie-Hellman work a secure server spends on hellos (each key exchange costs three X25519 operations and a
 * connection's set-up): a rate with a burst for the whole endpoint ({@link EndpointLimits#keyExchangesPerSecond},
 * {@link EndpointLimits#keyExchangeBurst}), which caps the share of the agent a flood can take, and inside it a share
 * for each source of half of each. Without the share, one host could take all of it: a flood's first burst of
 * valid-MAC hellos, which the server accepts before the host's rate marks its address for validation, or a stock of
 * tokens, spent the global burst in a fraction of a second, and a returning client's hello arriving then found no
 * credit, was dropped, and waited out its retransmission timeout (0.7 s on a 20-ms path, perf/FINDINGS.md "The
 * key-exchange budget shared by source"). With it, whatever one source does, half the endpoint's burst and rate stay
 * for the others (RFC 9000 section 21.1.1.2 asks a server to keep handshakes going for clients that are not the
 * attacker). Agent thread only.
 */
public final class KeyExchangeBudget
{
    /**
     * Hash buckets of the per-source shares: 32 KiB, many more than the sources a server sees at once.
     */
    private static final int SOURCE_BUCKETS = 4096;

    private final SourceRateLimiter endpoint;
    private final SourceRateLimiter perSource;

    /**
     * @param limits   the endpoint's rate and burst of key exchanges.
     * @param hashSeed secret seed of the per-source hash.
     */
    public KeyExchangeBudget(final EndpointLimits limits, final long hashSeed)
    {
        this.endpoint = SourceRateLimiter.global(limits.keyExchangesPerSecond(), limits.keyExchangeBurst());
        this.perSource = new SourceRateLimiter(SOURCE_BUCKETS, hashSeed,
            sourceShare(limits.keyExchangesPerSecond()), sourceShare(limits.keyExchangeBurst()));
    }

    /**
     * @param endpointLimit the endpoint's rate or burst.
     * @return one source's share of it: half, at least one.
     */
    public static int sourceShare(final int endpointLimit)
    {
        return Math.max(1, endpointLimit / 2);
    }

    /**
     * @param source the hello's source address.
     * @param nowNs  the current time.
     * @return true if both the endpoint and this source have credit for a key exchange now (nothing is taken).
     */
    public boolean hasCredit(final InetAddress source, final long nowNs)
    {
        return endpoint.hasCredit(null, nowNs) && perSource.hasCredit(source, nowNs);
    }

    /**
     * Take a key exchange's credit from the endpoint and the source, or from neither.
     *
     * @param source the hello's source address.
     * @param nowNs  the current time.
     * @return true if taken.
     */
    public boolean tryAcquire(final InetAddress source, final long nowNs)
    {
        if (!hasCredit(source, nowNs))
        {
            return false;
        }
        endpoint.tryAcquire(null, nowNs);
        perSource.tryAcquire(source, nowNs);
        return true;
    }
}
