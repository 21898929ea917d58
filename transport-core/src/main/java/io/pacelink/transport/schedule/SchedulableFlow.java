package io.pacelink.transport.schedule;

/**
 * One connection as the endpoint's {@link PacketScheduler} sees it: an identity, the pacing its controller asks for,
 * and whether it has anything it may send right now.
 */
public interface SchedulableFlow
{
    /**
     * @return the flow's identity, stable for its life (the local connection id).
     */
    long flowId();

    /**
     * @return the pacing rate the controller asks for, bytes per second; 0 or {@link Long#MAX_VALUE} means unpaced.
     */
    long pacingRateBytesPerSecond();

    /**
     * @return bytes the flow may send back to back before pacing applies.
     */
    int sendQuantumBytes();

    /**
     * @return the maximum datagram size of the flow's path in bytes.
     */
    int maxDatagramSizeBytes();

    /**
     * @param nowNs current time.
     * @return true if the flow has an ack-eliciting packet it may send now (data or retransmissions within cwnd,
     * probes, close).
     */
    boolean hasPacketToSend(long nowNs);

    /**
     * @param nowNs current time.
     * @return true if the flow owes its peer an ACK that is due; pure ACKs are never paced (sch_fq rule).
     */
    boolean hasAckDue(long nowNs);

    /**
     * @return the departure time the flow asks for (earliest departure time, EDT), or 0 for "now".
     */
    long earliestDepartureNs();
}
