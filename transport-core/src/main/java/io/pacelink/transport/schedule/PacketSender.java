package io.pacelink.transport.schedule;

/**
 * Builds and sends one packet for a flow the scheduler released (late binding: the packet is built only when it may
 * leave), and tells the scheduler what it sent.
 *
 * @param <F> the endpoint's flows.
 * @deprecated for the deprecated {@link PacketScheduler#sendPackets}; the endpoint pulls releases with
 * {@link PacketScheduler#next(long)}. To be removed in the next minor version.
 */
@Deprecated
@FunctionalInterface
public interface PacketSender<F extends SchedulableFlow>
{
    /**
     * @param flow    the released flow.
     * @param ackOnly true if the flow was released only for the ACK it owes (its data is paced into the future, or it
     *                has none): build an ACK-only packet.
     * @param nowNs   current time.
     * @return the packet sent, packed by {@link SentPacket#pack(int, boolean)}.
     */
    int sendPacket(F flow, boolean ackOnly, long nowNs);
}
