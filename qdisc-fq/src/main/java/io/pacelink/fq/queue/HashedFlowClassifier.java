package io.pacelink.fq.queue;

/**
 * A fixed number of buckets chosen by a seeded hash of the flow key (fq_codel and sfq: flows that collide share a
 * queue). The seed plays the part of Linux's random hash perturbation, so the same seed gives the same buckets and
 * a scenario replays exactly. Stateless per packet; no allocation.
 */
final class HashedFlowClassifier implements FlowClassifier
{
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private final int buckets;
    private final long perturbation;

    /**
     * @param buckets number of buckets, positive.
     * @param seed    the perturbation seed.
     */
    HashedFlowClassifier(final int buckets, final long seed)
    {
        if (buckets < 1)
        {
            throw new IllegalArgumentException("flow buckets must be positive: " + buckets);
        }
        this.buckets = buckets;
        this.perturbation = mix(seed + GOLDEN_GAMMA);
    }

    /**
     * {@inheritDoc}
     */
    public int flowOf(final long flowKey)
    {
        // Scale the top 32 bits of the hash onto [0, buckets) (Linux reciprocal_scale), no modulo bias worth noting.
        final long hash32 = mix(flowKey ^ perturbation) >>> 32;
        return (int)((hash32 * buckets) >>> 32);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Buckets are fixed: nothing is freed, the bucket keeps its CoDel state as RFC 8290 section 4.2 expects.
     */
    public boolean release(final int flow)
    {
        return false;
    }

    /**
     * {@inheritDoc}
     */
    public int flowCapacity()
    {
        return buckets;
    }

    /**
     * MurmurHash3's 64-bit finalizer: every input bit affects every output bit.
     */
    private static long mix(final long value)
    {
        long h = value;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h;
    }
}
