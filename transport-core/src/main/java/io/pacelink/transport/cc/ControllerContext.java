package io.pacelink.transport.cc;

/**
 * What a controller gets at construction and may read at any time: the path's datagram size and the peer's ACK delay
 * (owned by the transport, which tells the controller when the datagram size changes), the initial and minimum
 * windows derived from it, read-only RTT statistics, a seeded random source, its named parameters and a place to
 * register its counters. A controller reads these values here rather than keeping copies.
 */
public interface ControllerContext
{
    /**
     * @return the maximum datagram size in bytes (SMSS in the RFCs' terms): the size the handshake negotiated, or
     * this endpoint's own before it completes. A change is announced with
     * {@link CongestionController#onMtuChanged(int)}.
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
     * @return the minimum congestion window in bytes: RFC 9002 section 7.2, {@code 2 * max_datagram_size}; the
     * window persistent congestion collapses to.
     */
    default long minimumWindowBytes()
    {
        return 2L * maxDatagramSizeBytes();
    }

    /**
     * @return the peer's max_ack_delay (RFC 9000 section 18.2): what it announced in its handshake, or this endpoint's
     * own value until then.
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
