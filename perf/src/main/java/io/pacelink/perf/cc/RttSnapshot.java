package io.pacelink.perf.cc;

import io.pacelink.transport.cc.RttStats;

/**
 * The connection's RTT statistics at the moment a controller callback was recorded; replayed with the event so the
 * controller reads the same srtt and min_rtt it read when the trace was made.
 *
 * @param hasSample     true once an RTT sample was taken.
 * @param minRttNs      lifetime minimum RTT.
 * @param smoothedRttNs smoothed RTT.
 * @param rttVarianceNs RTT variation.
 * @param latestRttNs   latest RTT sample.
 */
public record RttSnapshot(
    boolean hasSample, long minRttNs, long smoothedRttNs, long rttVarianceNs, long latestRttNs)
{
    /**
     * @param stats the estimator to copy.
     * @return its current values.
     */
    static RttSnapshot of(final RttStats stats)
    {
        return new RttSnapshot(
            stats.hasSample(), stats.minRttNs(), stats.smoothedRttNs(), stats.rttVarianceNs(), stats.latestRttNs());
    }

    /**
     * @param stats an estimator.
     * @return true if it holds exactly these values, so consecutive events can share one snapshot.
     */
    boolean matches(final RttStats stats)
    {
        return hasSample == stats.hasSample() && minRttNs == stats.minRttNs() &&
            smoothedRttNs == stats.smoothedRttNs() && rttVarianceNs == stats.rttVarianceNs() &&
            latestRttNs == stats.latestRttNs();
    }
}
