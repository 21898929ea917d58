package io.pacelink.transport.schedule;

/**
 * One connection as the endpoint's {@link PacketScheduler} sees it: an identity, and what it may send right now.
 */
public interface SchedulableFlow
{
    /**
     * {@link #sendable(long)}: the flow has an ack-eliciting packet it may send now (data or retransmissions within
     * its window, probes, a close).
     */
    int ACK_ELICITING = 1;

    /**
     * {@link #sendable(long)}: the flow owes its peer an ACK that is due; pure ACKs are never paced (sch_fq rule).
     */
    int ACK_DUE = 2;

    /**
     * @return the flow's identity, stable for its life (the local connection id).
     */
    long flowId();

    /**
     * Asking changes nothing.
     *
     * @param nowNs current time.
     * @return {@link #ACK_ELICITING} and {@link #ACK_DUE} combined, 0 for nothing to send.
     */
    int sendable(long nowNs);
}
