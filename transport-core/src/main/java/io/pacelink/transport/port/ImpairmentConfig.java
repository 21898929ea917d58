package io.pacelink.transport.port;

/**
 * Impairments an {@link ImpairedDatagramPort} applies to one direction of traffic, each decided per datagram with
 * an independent draw from a generator seeded with {@code seed}, so a run is reproducible.
 *
 * @param lossRate        probability that a datagram is dropped (Bernoulli loss), in [0, 1].
 * @param duplicateRate   probability that a datagram that is not dropped or held is delivered twice, in [0, 1].
 * @param reorderRate     probability that a datagram that is not dropped is held back, in [0, 1].
 * @param reorderDistance how many later datagrams overtake a held one: it is released right after the
 *                        {@code reorderDistance}-th datagram that follows it, in [1, {@link #MAX_REORDER_DISTANCE}].
 * @param seed            seed of the direction's random generator.
 */
public record ImpairmentConfig(
    double lossRate,
    double duplicateRate,
    double reorderRate,
    int reorderDistance,
    long seed)
{
    /**
     * Largest reorder distance: each unit preallocates one datagram of storage.
     */
    public static final int MAX_REORDER_DISTANCE = 1024;

    /**
     * No impairment: every datagram passes once, in order.
     */
    public static final ImpairmentConfig NONE = new ImpairmentConfig(0, 0, 0, 1, 0);

    /**
     * @throws IllegalArgumentException if a rate is outside [0, 1] (or NaN) or the distance is out of range.
     */
    public ImpairmentConfig
    {
        checkRate("lossRate", lossRate);
        checkRate("duplicateRate", duplicateRate);
        checkRate("reorderRate", reorderRate);
        if (reorderDistance < 1 || reorderDistance > MAX_REORDER_DISTANCE)
        {
            throw new IllegalArgumentException(
                "reorderDistance must be in [1, " + MAX_REORDER_DISTANCE + "]: " + reorderDistance);
        }
    }

    /**
     * @param lossRate probability that a datagram is dropped.
     * @param seed     seed of the random generator.
     * @return a configuration with Bernoulli loss only.
     */
    public static ImpairmentConfig loss(final double lossRate, final long seed)
    {
        return new ImpairmentConfig(lossRate, 0, 0, 1, seed);
    }

    private static void checkRate(final String name, final double rate)
    {
        if (!(rate >= 0.0 && rate <= 1.0))
        {
            throw new IllegalArgumentException(name + " must be a probability in [0, 1]: " + rate);
        }
    }
}
