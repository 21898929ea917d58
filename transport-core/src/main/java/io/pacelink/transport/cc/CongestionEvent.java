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
     * @return send time of the most recently sent packet in the batch.
     */
    long newestLostSentTimeNs();

    /**
     * @return true if this batch started a new recovery period of the connection (RFC 9002 section 7.3.2): its newest
     * lost packet was sent after the current period began, or it establishes persistent congestion. A window
     * controller reduces once per period; losses of packets sent before it began belong to the reduction already
     * made. The period ends with the {@link AckEvent} whose {@link AckEvent#endsRecovery()} is true.
     */
    boolean startsRecovery();

    /**
     * @return bytes declared lost in this batch.
     */
    long lostBytes();

    /**
     * @return bytes in flight after the lost packets were removed.
     */
    long bytesInFlight();

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
