package io.pacelink.transport.cc;

/**
 * What a controller gets at construction: the path's datagram size, the initial window, read-only RTT statistics,
 * a seeded random source, its named parameters and a place to register its counters.
 */
public interface ControllerContext
{
    /**
     * @return the maximum datagram size in bytes (SMSS in the RFCs' terms).
     */
    int maxDatagramSizeBytes();

    /**
     * @return the initial congestion window in bytes: RFC 9002 section 7.2,
     * {@code min(10 * max_datagram_size, max(14720, 2 * max_datagram_size))}.
     */
    default long initialWindowBytes()
    {
        final long maxDatagramSizeBytes = maxDatagramSizeBytes();
        return Math.min(10L * maxDatagramSizeBytes, Math.max(14_720L, 2L * maxDatagramSizeBytes));
    }

    /**
     * @return the minimum congestion window in bytes: RFC 9002 section 7.2, {@code 2 * max_datagram_size}.
     */
    default long minimumWindowBytes()
    {
        return 2L * maxDatagramSizeBytes();
    }

    /**
     * @return the peer's maximum ACK delay.
     */
    long maxAckDelayNs();

    /**
     * @return the connection's RTT estimator.
     */
    RttStats rttStats();

    /**
     * @return the seeded random source for this connection.
     */
    ControllerRandom random();

    /**
     * @return named parameters for the controller.
     */
    ControllerParameters parameters();

    /**
     * @return where to register the controller's own counters.
     */
    ControllerCounters counters();
}
