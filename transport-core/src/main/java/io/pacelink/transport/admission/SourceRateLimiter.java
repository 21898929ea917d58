package io.pacelink.transport.admission;

import org.agrona.collections.Hashing;

import java.net.InetAddress;
import java.util.Arrays;

/**
 * How fast each source address may open connections: a token bucket per address, kept as the generic cell rate
 * algorithm (GCRA, ITU-T I.371 "virtual scheduling") in one long per bucket, so the table is a fixed array and a
 * check allocates nothing. Addresses are hashed with a secret seed into a fixed number of buckets: two addresses
 * that share a bucket share its rate (the limit errs on the strict side), and an attacker cannot choose addresses
 * that collide with a victim's. The port is ignored: one host may use any number of ports. The table is made at the
 * first request taken, so an endpoint that never gets one (a client gets no hellos) does not hold it. Agent thread
 * only.
 */
public final class SourceRateLimiter
{
    private static final long EMPTY = Long.MIN_VALUE;

    private long[] theoreticalArrivalTimesNs;
    private final int mask;
    private final long seed;
    private final long emissionIntervalNs;
    private final long burstToleranceNs;

    /**
     * @param buckets              number of buckets, a power of two.
     * @param seed                 secret hash seed.
     * @param perSecond            sustained rate per source.
     * @param burst                requests a source may make back to back (at least 1).
     */
    public SourceRateLimiter(final int buckets, final long seed, final int perSecond, final int burst)
    {
        if (buckets < 1 || Integer.bitCount(buckets) != 1 || perSecond < 1 || burst < 1)
        {
            throw new IllegalArgumentException(
                "buckets=" + buckets + " (a power of two), perSecond=" + perSecond + ", burst=" + burst);
        }
        this.mask = buckets - 1;
        this.seed = seed;
        this.emissionIntervalNs = 1_000_000_000L / perSecond;
        this.burstToleranceNs = (burst - 1) * emissionIntervalNs;
    }

    /**
     * @param perSecond sustained rate of all sources together.
     * @param burst     requests back to back (at least 1).
     * @return a limiter with one bucket: every source shares it.
     */
    public static SourceRateLimiter global(final int perSecond, final int burst)
    {
        return new SourceRateLimiter(1, 0, perSecond, Math.max(1, burst));
    }

    /**
     * Take one request of a source if its rate allows it.
     *
     * @param source the source's address (ignored, and may be null, for a {@link #global} limiter).
     * @param nowNs  the current time.
     * @return true if allowed (and counted), false if the source is over its rate.
     */
    public boolean tryAcquire(final InetAddress source, final long nowNs)
    {
        final int bucket = bucket(source);
        final long theoreticalArrivalNs = theoreticalArrivalNs(bucket, nowNs);
        if (theoreticalArrivalNs - nowNs > burstToleranceNs)
        {
            return false;
        }
        if (null == theoreticalArrivalTimesNs)
        {
            theoreticalArrivalTimesNs = new long[mask + 1];
            Arrays.fill(theoreticalArrivalTimesNs, EMPTY);
        }
        theoreticalArrivalTimesNs[bucket] = theoreticalArrivalNs + emissionIntervalNs;
        return true;
    }

    /**
     * Whether {@link #tryAcquire} would allow a request now, taking nothing.
     *
     * @param source the source's address (ignored, and may be null, for a {@link #global} limiter).
     * @param nowNs  the current time.
     * @return true if a request of the source would be allowed.
     */
    public boolean hasCredit(final InetAddress source, final long nowNs)
    {
        return theoreticalArrivalNs(bucket(source), nowNs) - nowNs <= burstToleranceNs;
    }

    private int bucket(final InetAddress source)
    {
        return 0 == mask ? 0 : Hashing.hash(source.hashCode() ^ seed, mask);
    }

    /**
     * @return true once the table is made (at the first request taken).
     */
    boolean hasTable()
    {
        return null != theoreticalArrivalTimesNs;
    }

    private long theoreticalArrivalNs(final int bucket, final long nowNs)
    {
        // No table yet: no request taken, every bucket empty.
        final long stored = null == theoreticalArrivalTimesNs ? EMPTY : theoreticalArrivalTimesNs[bucket];
        return EMPTY == stored || stored - nowNs < 0 ? nowNs : stored;
    }
}
