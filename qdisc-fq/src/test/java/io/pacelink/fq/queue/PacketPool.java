package io.pacelink.fq.queue;

import io.pacelink.link.LinkPacket;
import io.pacelink.link.PacketDropListener;
import io.pacelink.transport.wire.EcnCodepoint;

import java.util.ArrayDeque;

/**
 * Recycled test packets, and a drop listener that counts drops, remembers the last one and recycles it.
 * Allocation-free once the pool holds enough packets.
 */
final class PacketPool implements PacketDropListener
{
    private static final int CAPACITY_BYTES = 1600;

    private final ArrayDeque<LinkPacket> free = new ArrayDeque<>(1024);
    private long sequence;
    long drops;
    long lastDropNs = -1;
    LinkPacket lastDropped;

    LinkPacket packet(final long flowKey, final int lengthBytes)
    {
        final LinkPacket packet = free.isEmpty() ? new LinkPacket(CAPACITY_BYTES) : free.pollFirst();
        return packet.length(lengthBytes).flowKey(flowKey).sequence(sequence++).ecnCodepoint(EcnCodepoint.NOT_ECT);
    }

    LinkPacket ectPacket(final long flowKey, final int lengthBytes)
    {
        return packet(flowKey, lengthBytes).ecnCodepoint(EcnCodepoint.ECT_0);
    }

    void recycle(final LinkPacket packet)
    {
        if (null != packet)
        {
            free.offerLast(packet);
        }
    }

    public void onDrop(final LinkPacket packet, final long nowNs)
    {
        drops++;
        lastDropNs = nowNs;
        lastDropped = packet;
        recycle(packet);
    }
}
