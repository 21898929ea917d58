package io.pacelink.transport.recovery;

/**
 * The values of one connection's path that the handshake settles and every layer reads, kept in one place: the
 * maximum datagram size, the smaller of the two sizes the endpoints announced (RFC 9000 section 18.2
 * {@code max_udp_payload_size}), and the peer's {@code max_ack_delay} (RFC 9000 section 18.2), which the RTT
 * estimator and the probe timeout use (RFC 9002 sections 5.3 and 6.2.1).
 * <p>
 * Written only through {@link LossRecovery#onMtuChanged(int)} and {@link LossRecovery#peerMaxAckDelayNs(long)}, which
 * also tell the congestion controller; read by the connection (the size of the packets it builds), by loss recovery
 * (the cwnd- and application-limited tests) and by the controller's context. Agent thread only.
 */
public final class PathParameters
{
    private int maxDatagramSizeBytes;
    private long peerMaxAckDelayNs;

    /**
     * @param maxDatagramSizeBytes this endpoint's maximum datagram size, used until the peer's is known.
     * @param peerMaxAckDelayNs    the peer's max_ack_delay assumed until its handshake says otherwise.
     * @throws IllegalArgumentException if the size is not positive or the delay is negative.
     */
    public PathParameters(final int maxDatagramSizeBytes, final long peerMaxAckDelayNs)
    {
        maxDatagramSizeBytes(maxDatagramSizeBytes);
        peerMaxAckDelayNs(peerMaxAckDelayNs);
    }

    /**
     * @return the maximum datagram size in bytes (SMSS in the RFCs' terms).
     */
    public int maxDatagramSizeBytes()
    {
        return maxDatagramSizeBytes;
    }

    /**
     * @return the peer's max_ack_delay.
     */
    public long peerMaxAckDelayNs()
    {
        return peerMaxAckDelayNs;
    }

    void maxDatagramSizeBytes(final int maxDatagramSizeBytes)
    {
        if (maxDatagramSizeBytes <= 0)
        {
            throw new IllegalArgumentException("maxDatagramSizeBytes=" + maxDatagramSizeBytes + " must be > 0");
        }
        this.maxDatagramSizeBytes = maxDatagramSizeBytes;
    }

    void peerMaxAckDelayNs(final long peerMaxAckDelayNs)
    {
        if (peerMaxAckDelayNs < 0)
        {
            throw new IllegalArgumentException("peerMaxAckDelayNs=" + peerMaxAckDelayNs + " must be >= 0");
        }
        this.peerMaxAckDelayNs = peerMaxAckDelayNs;
    }
}
