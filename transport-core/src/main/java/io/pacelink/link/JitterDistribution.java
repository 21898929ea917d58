package io.pacelink.link;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How a link's jitter is drawn around its propagation delay (netem {@code distribution}).
 */
public enum JitterDistribution
{
    /**
     * Uniform in (-jitter, +jitter): netem's default when no distribution is given.
     */
    UNIFORM
    {
        long sampleOffsetNs(final SplittableRandom random, final long jitterNs)
        {
            return (long)((2 * random.nextDouble() - 1) * jitterNs);
        }
    },

    /**
     * Normal with standard deviation = jitter, cut at +-{@link #NORMAL_CUTOFF_SIGMAS} standard deviations (netem's
     * normal table is bounded the same way) so that a delay never runs away.
     */
    NORMAL
    {
        long sampleOffsetNs(final SplittableRandom random, final long jitterNs)
        {
            final double sigmas =
                Math.max(-NORMAL_CUTOFF_SIGMAS, Math.min(NORMAL_CUTOFF_SIGMAS, random.nextGaussian()));
            return (long)(sigmas * jitterNs);
        }
    };

    /**
     * Where the normal distribution is cut, in standard deviations.
     */
    public static final double NORMAL_CUTOFF_SIGMAS = 4.0;

    /**
     * @param random   the link's seeded source.
     * @param jitterNs the jitter parameter.
     * @return the offset to add to the propagation delay.
     */
    abstract long sampleOffsetNs(SplittableRandom random, long jitterNs);

    /**
     * @return the name in path-spec form.
     */
    public String specName()
    {
        return name().toLowerCase(Locale.ROOT);
    }
}
