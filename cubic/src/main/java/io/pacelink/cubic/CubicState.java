package io.pacelink.cubic;

/**
 * The variables of one CUBIC congestion-avoidance epoch (RFC 9438 section 4.1), in bytes and seconds. Kept together so
 * that a reduction can be undone by copying a saved instance back.
 */
final class CubicState
{
    /**
     * {@link #epochStartNs} before the first congestion-avoidance ACK of an epoch.
     */
    static final long NO_EPOCH = Long.MIN_VALUE;

    /**
     * W_max: the window before the last reduction, possibly lowered by fast convergence; 0 while undefined.
     */
    double wMaxBytes;

    /**
     * cwnd_prior: the window when the last congestion event was detected; the Reno-friendly α switches to 1 once
     * W_est reaches it.
     */
    double cwndPriorBytes;

    /**
     * K: the time the cubic function takes to climb from cwnd_epoch back to W_max.
     */
    double kSeconds;

    /**
     * t_epoch: when the current congestion-avoidance epoch started, shifted forward by time spent idle or
     * application-limited; {@link #NO_EPOCH} until the first congestion-avoidance ACK after a reduction.
     */
    long epochStartNs = NO_EPOCH;

    /**
     * cwnd_epoch: the window at the start of the epoch.
     */
    double cwndEpochBytes;

    /**
     * W_est: the window an AIMD flow with the same loss rate would have (the Reno-friendly estimate).
     */
    double wEstBytes;

    /**
     * α_cubic in force: {@code 3(1 − β)/(1 + β)} until W_est reaches cwnd_prior, then 1.
     */
    double alpha;

    /**
     * @param other the state to copy from.
     */
    void copyFrom(final CubicState other)
    {
        wMaxBytes = other.wMaxBytes;
        cwndPriorBytes = other.cwndPriorBytes;
        kSeconds = other.kSeconds;
        epochStartNs = other.epochStartNs;
        cwndEpochBytes = other.cwndEpochBytes;
        wEstBytes = other.wEstBytes;
        alpha = other.alpha;
    }

    /**
     * Forget everything: W_max undefined and no epoch, as after persistent congestion (RFC 9438 section 4.8).
     *
     * @param initialAlpha the Reno-friendly α to start with.
     */
    void reset(final double initialAlpha)
    {
        wMaxBytes = 0.0;
        cwndPriorBytes = 0.0;
        kSeconds = 0.0;
        epochStartNs = NO_EPOCH;
        cwndEpochBytes = 0.0;
        wEstBytes = 0.0;
        alpha = initialAlpha;
    }
}
