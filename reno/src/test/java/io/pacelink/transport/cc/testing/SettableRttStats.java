package io.pacelink.transport.cc.testing;

import io.pacelink.transport.cc.RttStats;

/**
 * RTT statistics for controller tests: fed one sample at a time with the RFC 9002 section 5 estimator (no ACK delay),
 * or set outright.
 */
public final class SettableRttStats implements RttStats
{
    /**
     * RFC 9002 kInitialRtt.
     */
    public static final long INITIAL_RTT_NS = 333_000_000L;

    private boolean hasSample;
    private long minRttNs = INITIAL_RTT_NS;
    private long smoothedRttNs = INITIAL_RTT_NS;
    private long rttVarianceNs = INITIAL_RTT_NS / 2;
    private long latestRttNs = INITIAL_RTT_NS;

    /**
     * Fold one RTT sample in as RFC 9002 section 5.3 does (ack delay 0).
     *
     * @param rttNs the sample.
     */
    public void onSample(final long rttNs)
    {
        latestRttNs = rttNs;
        if (!hasSample)
        {
            hasSample = true;
            minRttNs = rttNs;
            smoothedRttNs = rttNs;
            rttVarianceNs = rttNs / 2;
            return;
        }
        minRttNs = Math.min(minRttNs, rttNs);
        rttVarianceNs = (3 * rttVarianceNs + Math.abs(smoothedRttNs - rttNs)) / 4;
        smoothedRttNs = (7 * smoothedRttNs + rttNs) / 8;
    }

    /**
     * Set every statistic to one value, as if the path had always had this RTT.
     *
     * @param rttNs the RTT.
     */
    public void set(final long rttNs)
    {
        hasSample = true;
        minRttNs = rttNs;
        smoothedRttNs = rttNs;
        rttVarianceNs = rttNs / 2;
        latestRttNs = rttNs;
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
        return INITIAL_RTT_NS;
    }
}
