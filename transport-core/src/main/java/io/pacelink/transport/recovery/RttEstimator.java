package io.pacelink.transport.recovery;

import io.pacelink.transport.cc.RttStats;

/**
 * RTT estimator of RFC 9002 section 5, in integer nanoseconds.
 * <ul>
 *     <li>{@code min_rtt} is the lifetime minimum of {@code latest_rtt}, never adjusted for ACK delay (5.2).</li>
 *     <li>First sample: {@code smoothed_rtt = latest_rtt}, {@code rttvar = latest_rtt / 2} (5.3).</li>
 *     <li>Later samples: the ACK delay, capped at the peer's max_ack_delay, is subtracted only if the result stays
 *     at or above {@code min_rtt}; then {@code rttvar = 3/4 rttvar + 1/4 |smoothed_rtt - adjusted_rtt|} with the
 *     previous {@code smoothed_rtt}, and {@code smoothed_rtt = 7/8 smoothed_rtt + 1/8 adjusted_rtt}. The order is the
 *     one of RFC 9002 appendix A.7 and RFC 6298 section 2.3 (rttvar first, from the old smoothed value).</li>
 *     <li>Before any sample: {@code smoothed_rtt = initial}, {@code rttvar = initial / 2} (5.3), so the first PTO is
 *     about three initial RTTs, one second with the default 333 ms (6.2.2).</li>
 * </ul>
 * The estimator neither chooses which ACK yields a sample nor reads a clock; {@link LossRecovery} does the former
 * and passes time in.
 */
public final class RttEstimator implements RttStats
{
    private final long initialRttNs;
    private final long granularityNs;
    private boolean hasSample;
    private long firstSampleTimeNs = Long.MAX_VALUE;
    private long minRttNs;
    private long smoothedRttNs;
    private long rttVarianceNs;
    private long latestRttNs;
    private long sampleCount;

    /**
     * @param initialRttNs  RTT assumed before the first sample (RFC 9002 kInitialRtt is 333 ms).
     * @param granularityNs timer granularity, the floor of the PTO's variance term (RFC 9002 kGranularity).
     */
    public RttEstimator(final long initialRttNs, final long granularityNs)
    {
        if (initialRttNs <= 0 || granularityNs <= 0)
        {
            throw new IllegalArgumentException(
                "initialRttNs=" + initialRttNs + " and granularityNs=" + granularityNs + " must be > 0");
        }
        this.initialRttNs = initialRttNs;
        this.granularityNs = granularityNs;
        this.minRttNs = initialRttNs;
        this.smoothedRttNs = initialRttNs;
        this.rttVarianceNs = initialRttNs / 2;
        this.latestRttNs = initialRttNs;
    }

    /**
     * Forget every sample: the connection moved to a new path (RFC 9000 section 9.4; RFC 9002 appendix A.3 values).
     */
    void reset()
    {
        hasSample = false;
        firstSampleTimeNs = Long.MAX_VALUE;
        minRttNs = initialRttNs;
        smoothedRttNs = initialRttNs;
        rttVarianceNs = initialRttNs / 2;
        latestRttNs = initialRttNs;
    }

    /**
     * Take one RTT sample (RFC 9002 section 5.3).
     *
     * @param nowNs          when the ACK carrying the sample was processed.
     * @param latestRttNs    ACK time minus the send time of the largest newly acknowledged packet.
     * @param ackDelayNs     the ACK delay the peer reported.
     * @param maxAckDelayNs  the peer's max_ack_delay: the reported delay is capped at it.
     */
    void onRttSample(final long nowNs, final long latestRttNs, final long ackDelayNs, final long maxAckDelayNs)
    {
        this.latestRttNs = latestRttNs;
        sampleCount++;
        if (!hasSample)
        {
            hasSample = true;
            firstSampleTimeNs = nowNs;
            minRttNs = latestRttNs;
            smoothedRttNs = latestRttNs;
            rttVarianceNs = latestRttNs / 2;
            return;
        }

        minRttNs = Math.min(minRttNs, latestRttNs);

        // A misreporting peer can only shrink the sample down to min_rtt (RFC 9002 section 5.3).
        final long ackDelayCappedNs = Math.min(Math.max(ackDelayNs, 0L), maxAckDelayNs);
        long adjustedRttNs = latestRttNs;
        if (latestRttNs >= minRttNs + ackDelayCappedNs)
        {
            adjustedRttNs = latestRttNs - ackDelayCappedNs;
        }

        rttVarianceNs = (3 * rttVarianceNs + Math.abs(smoothedRttNs - adjustedRttNs)) / 4;
        smoothedRttNs = (7 * smoothedRttNs + adjustedRttNs) / 8;
    }

    /**
     * RFC 9002 section 5.2: "Endpoints SHOULD set the min_rtt to the newest RTT sample after persistent congestion
     * is established", so a path whose RTT grew does not declare persistent congestion again and again.
     */
    void onPersistentCongestion()
    {
        if (hasSample)
        {
            minRttNs = latestRttNs;
        }
    }

    /**
     * @param maxAckDelayNs the peer's max_ack_delay.
     * @return the probe timeout period without back-off: {@code smoothed_rtt + max(4 rttvar, kGranularity) +
     * max_ack_delay} (RFC 9002 section 6.2.1); also the unit of the persistent-congestion duration (7.6.1).
     */
    public long ptoPeriodNs(final long maxAckDelayNs)
    {
        return smoothedRttNs + Math.max(4 * rttVarianceNs, granularityNs) + maxAckDelayNs;
    }

    /**
     * @return when the first RTT sample was taken, {@link Long#MAX_VALUE} before it: persistent congestion counts
     * only packets sent after it (RFC 9002 section 7.6.2).
     */
    public long firstSampleTimeNs()
    {
        return firstSampleTimeNs;
    }

    /**
     * @return RTT samples taken so far.
     */
    public long sampleCount()
    {
        return sampleCount;
    }

    public boolean hasSample()
    {
        return hasSample;
    }

    public long minRttNs()
    {
        return minRttNs;
    }

    public long smoothedRttNs()
    {
        return smoothedRttNs;
    }

    public long rttVarianceNs()
    {
        return rttVarianceNs;
    }

    public long latestRttNs()
    {
        return latestRttNs;
    }

    public long initialRttNs()
    {
        return initialRttNs;
    }

    public String toString()
    {
        return "RttEstimator{hasSample=" + hasSample + ", minRttNs=" + minRttNs + ", smoothedRttNs=" +
            smoothedRttNs + ", rttVarianceNs=" + rttVarianceNs + ", latestRttNs=" + latestRttNs + '}';
    }
}
