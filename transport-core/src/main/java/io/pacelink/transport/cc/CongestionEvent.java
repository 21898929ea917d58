package io.pacelink.transport.cc;

/**
 * Read-only view of one batch of losses detected together. Reused by the transport: valid only during
 * {@link CongestionController#onCongestionEvent(CongestionEvent)}.
 */
public interface CongestionEvent
{
    /**
     * @return the time the losses were detected.
     */
    long nowNs();

    /**
     * @return send time of the most recently sent packet in the batch: a window controller reduces once per
     * recovery epoch, ignoring losses of packets sent before the epoch began (RFC 9002 section 7.3.2).
     */
    long newestLostSentTimeNs();

    /**
     * @return bytes declared lost in this batch.
     */
    long lostBytes();

    /**
     * @return bytes in flight after the lost packets were removed.
     */
    long bytesInFlightBytes();

    /**
     * @return true if the batch establishes persistent congestion (RFC 9002 section 7.6): collapse to the minimum
     * window.
     */
    boolean isPersistentCongestion();

    /**
     * @return true if the event is an ECN congestion-experienced signal rather than loss.
     */
    boolean isEcnCe();
}
