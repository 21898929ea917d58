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
    private int[] lengthsBytes;
    private long[] enqueueTimesNs;
    private int head;
    private int dequeuedLengthBytes;
    private long dequeuedEnqueueTimeNs;
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
        this.lengthsBytes = new int[INITIAL_CAPACITY];
        this.enqueueTimesNs = new long[INITIAL_CAPACITY];
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
        final int tail = (head + count) & (ring.length - 1);
        final int lengthBytes = packet.length();
        ring[tail] = packet;
        lengthsBytes[tail] = lengthBytes;
        enqueueTimesNs[tail] = packet.enqueueTimeNs();
        count++;
        bytes += lengthBytes;
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
        dequeuedLengthBytes = lengthsBytes[head];
        dequeuedEnqueueTimeNs = enqueueTimesNs[head];
        head = (head + 1) & (ring.length - 1);
        count--;
        bytes -= dequeuedLengthBytes;
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

    /**
     * {@inheritDoc}
     * <p>
     * Kept beside the ring, so the packet is not read: it waited the queue's whole delay and is the coldest memory the
     * link touches.
     */
    public int dequeuedLengthBytes(final LinkPacket packet)
    {
        return dequeuedLengthBytes;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Kept beside the ring, as the length.
     */
    public long dequeuedEnqueueTimeNs(final LinkPacket packet)
    {
        return dequeuedEnqueueTimeNs;
    }

    private void grow()
    {
        final int capacity = ring.length << 1;
        final LinkPacket[] larger = new LinkPacket[capacity];
        final int[] largerLengthsBytes = new int[capacity];
        final long[] largerEnqueueTimesNs = new long[capacity];
        for (int i = 0; i < count; i++)
        {
            final int from = (head + i) & (ring.length - 1);
            larger[i] = ring[from];
            largerLengthsBytes[i] = lengthsBytes[from];
            largerEnqueueTimesNs[i] = enqueueTimesNs[from];
        }
        ring = larger;
        lengthsBytes = largerLengthsBytes;
        enqueueTimesNs = largerEnqueueTimesNs;
        head = 0;
    }
}
