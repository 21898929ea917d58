package io.pacelink.transport.cc;

/**
 * Read-only view of the connection's RTT estimator (RFC 9002 section 5), shared with its congestion controller.
 */
public interface RttStats
{
    /**
     * @return true once at least one RTT sample was taken.
     */
    boolean hasSample();

    /**
     * @return lifetime minimum RTT, or {@link #initialRttNs()} before the first sample.
     */
    long minRttNs();

    /**
     * @return smoothed RTT, or {@link #initialRttNs()} before the first sample.
     */
    long smoothedRttNs();

    /**
     * @return RTT variation.
     */
    long rttVarianceNs();

    /**
     * @return the most recent RTT sample, or {@link #initialRttNs()} before the first sample.
     */
    long latestRttNs();

    /**
     * @return the RTT assumed before any sample (RFC 9002 kInitialRtt unless configured).
     */
    long initialRttNs();
}
