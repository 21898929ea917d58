package io.pacelink.transport.recovery;

/**
 * Feeds RTT samples to an {@link RttEstimator} from outside this package, for test drivers that play the
 * transport's part (in production only {@link LossRecovery} feeds it).
 */
public final class RttSampleFeeder
{
    private RttSampleFeeder()
    {
    }

    /**
     * One sample of an ACK the receiver sent at once (ACK delay 0).
     *
     * @param estimator   the estimator.
     * @param nowNs       when the ACK arrived.
     * @param latestRttNs the sample.
     */
    public static void onRttSample(final RttEstimator estimator, final long nowNs, final long latestRttNs)
    {
        estimator.onRttSample(nowNs, latestRttNs, 0, 0);
    }
}
