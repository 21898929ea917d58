package io.pacelink.link;

/**
 * The queue in front of a link's bottleneck: drop-tail FIFO in core, fair queues ({@code fq}, {@code fq_codel},
 * {@code sfq}) in {@code qdisc-fq}. Used by one thread (the simulator or the relay's timer loop); must not allocate
 * per packet.
 */
public interface BottleneckQueue
{
    /**
     * Offer a packet that arrived at the bottleneck.
     *
     * @param packet the packet; on success the queue holds it until {@link #dequeue(long)} returns it.
     * @param nowNs  arrival time.
     * @return null if the packet was queued; otherwise the packet the queue dropped to make its decision (the offered
     * one for drop-tail, possibly another one for a fair queue that drops from its fattest flow). The caller
     * recycles the returned packet.
     */
    LinkPacket enqueue(LinkPacket packet, long nowNs);

    /**
     * Take the next packet to serialize onto the link. An AQM (CoDel) may drop packets here; they go to the
     * listener given at construction.
     *
     * @param nowNs current time.
     * @return the next packet, or null if the queue is empty.
     */
    LinkPacket dequeue(long nowNs);

    /**
     * @return packets queued.
     */
    int packetCount();

    /**
     * @return bytes queued.
     */
    long byteCount();

    /**
     * @return packets dropped by this queue so far (on enqueue and by AQM).
     */
    long droppedPackets();

    /**
     * The length of a packet {@link #dequeue} just returned, which the link serializes: a queue that keeps it beside
     * its own ring (the FIFO) answers without reading the packet, which has often left the caches while it waited.
     *
     * @param packet the packet {@link #dequeue} returned last.
     * @return its length in bytes.
     */
    default int dequeuedLengthBytes(final LinkPacket packet)
    {
        return packet.length();
    }

    /**
     * When a packet {@link #dequeue} just returned entered the queue (its {@link LinkPacket#enqueueTimeNs()}), as
     * {@link #dequeuedLengthBytes} does.
     *
     * @param packet the packet {@link #dequeue} returned last.
     * @return its enqueue time.
     */
    default long dequeuedEnqueueTimeNs(final LinkPacket packet)
    {
        return packet.enqueueTimeNs();
    }

    /**
     * @return packets this queue marked CE instead of dropping them (RED or CoDel with ECN, a {@code ce_threshold});
     * 0 for a queue that never marks.
     */
    default long markedPackets()
    {
        return 0;
    }

    /**
     * Change the drop-tail limits from now on, as {@code tc qdisc change} does; packets already queued stay, even
     * above the new limits.
     *
     * @param limitPackets most packets queued, positive.
     * @param limitBytes   most bytes queued, positive.
     * @throws UnsupportedOperationException if this discipline's limits are fixed when it is built.
     */
    default void limits(final int limitPackets, final long limitBytes)
    {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot change its limits");
    }
}
