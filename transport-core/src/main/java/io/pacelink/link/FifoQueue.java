package io.pacelink.link;

/**
 * Drop-tail FIFO: packets leave in arrival order; an arriving packet that would take the queue past its packet or
 * byte limit is dropped (Linux {@code pfifo}/{@code bfifo}, netem's own {@code limit}). The storage is a ring of
 * references that doubles when full, so steady state allocates nothing.
 */
public final class FifoQueue implements BottleneckQueue
{
    private static final int INITIAL_CAPACITY = 64;

    private int limitPackets;
    private long limitBytes;
    private LinkPacket[] ring;
    private int head;
    private int count;
    private long bytes;
    private long droppedPackets;

    /**
     * @param limitPackets most packets queued.
     * @param limitBytes   most bytes queued.
     */
    public FifoQueue(final int limitPackets, final long limitBytes)
    {
        limits(limitPackets, limitBytes);
        this.ring = new LinkPacket[INITIAL_CAPACITY];
    }

    /**
     * {@inheritDoc}
     * <p>
     * Linux's {@code pfifo}/{@code bfifo} take a new limit the same way: {@code fifo_init} in net/sched/sch_fifo.c is
     * both their init and change operation, and it only stores the limit.
     */
    public void limits(final int limitPackets, final long limitBytes)
    {
        if (limitPackets <= 0 || limitBytes <= 0)
        {
            throw new IllegalArgumentException("queue limits must be positive");
        }
        this.limitPackets = limitPackets;
        this.limitBytes = limitBytes;
    }

    /**
     * {@inheritDoc}
     */
    public LinkPacket enqueue(final LinkPacket packet, final long nowNs)
    {
        if (count >= limitPackets || bytes + packet.length() > limitBytes)
        {
            droppedPackets++;
            return packet;
        }
        if (count == ring.length)
        {
            grow();
        }
        ring[(head + count) & (ring.length - 1)] = packet;
        count++;
        bytes += packet.length();
        return null;
    }

    /**
     * {@inheritDoc}
     */
    public LinkPacket dequeue(final long nowNs)
    {
        if (count == 0)
        {
            return null;
        }
        final LinkPacket packet = ring[head];
        ring[head] = null;
        head = (head + 1) & (ring.length - 1);
        count--;
        bytes -= packet.length();
        return packet;
    }

    /**
     * {@inheritDoc}
     */
    public int packetCount()
    {
        return count;
    }

    /**
     * {@inheritDoc}
     */
    public long byteCount()
    {
        return bytes;
    }

    /**
     * {@inheritDoc}
     */
    public long droppedPackets()
    {
        return droppedPackets;
    }

    private void grow()
    {
        final LinkPacket[] larger = new LinkPacket[ring.length << 1];
        for (int i = 0; i < count; i++)
        {
            larger[i] = ring[(head + i) & (ring.length - 1)];
        }
        ring = larger;
        head = 0;
    }
}
