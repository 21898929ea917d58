package io.pacelink.link;

/**
 * Packets propagating on a link, ordered by (delivery time, departure order): a binary min-heap over primitive
 * arrays. Departure order breaks ties, so packets due at the same instant leave in the order they left the
 * bottleneck, and packets overtake each other only when jitter gives them earlier delivery times. When the link
 * cannot reorder (no jitter, or {@code order=keep}) delivery times never decrease and the line is a plain FIFO ring,
 * which is what most simulations use and is cheaper than the heap.
 */
final class DelayLine
{
    private static final int INITIAL_CAPACITY = 64;

    /**
     * How many packets past the head an in-order line reads ahead ({@link #warmAhead()}), in one go once fewer than
     * half of them are left read.
     */
    static final int WARM_AHEAD_PACKETS = 8;

    private final boolean inOrder;
    private long[] deliveryNs = new long[INITIAL_CAPACITY];
    private long[] order = new long[INITIAL_CAPACITY];
    private LinkPacket[] packets = new LinkPacket[INITIAL_CAPACITY];
    private int head;
    private int size;
    private int warmedPastHead;
    private long warmedSum;

    /**
     * @param inOrder true if packets are added with non-decreasing delivery times.
     */
    DelayLine(final boolean inOrder)
    {
        this.inOrder = inOrder;
    }

    void add(final long deliveryTimeNs, final long departureOrder, final LinkPacket packet)
    {
        if (size == packets.length)
        {
            grow();
        }
        if (inOrder)
        {
            final int tail = (head + size++) & (packets.length - 1);
            deliveryNs[tail] = deliveryTimeNs;
            packets[tail] = packet;
            return;
        }
        int child = size++;
        while (child > 0)
        {
            final int parent = (child - 1) >>> 1;
            if (!before(deliveryTimeNs, departureOrder, parent))
            {
                break;
            }
            move(parent, child);
            child = parent;
        }
        set(child, deliveryTimeNs, departureOrder, packet);
    }

    /**
     * @return the earliest delivery time, {@link Long#MAX_VALUE} if empty.
     */
    long peekTimeNs()
    {
        return size == 0 ? Long.MAX_VALUE : deliveryNs[head];
    }

    /**
     * @return true if packets leave in the order they were added (no jitter, or jitter that keeps order).
     */
    boolean inOrder()
    {
        return inOrder;
    }

    /**
     * @return the departure order of the earliest packet; only kept when the line can reorder (not {@code inOrder}).
     */
    long peekOrder()
    {
        return order[head];
    }

    /**
     * @return the earliest packet, removed; the line must not be empty.
     */
    LinkPacket remove()
    {
        if (inOrder)
        {
            final LinkPacket first = packets[head];
            packets[head] = null;
            head = (head + 1) & (packets.length - 1);
            size--;
            if (--warmedPastHead < WARM_AHEAD_PACKETS / 2)
            {
                warmAhead();
            }
            return first;
        }
        final LinkPacket first = packets[0];
        final int last = --size;
        final long lastTimeNs = deliveryNs[last];
        final long lastOrder = order[last];
        final LinkPacket lastPacket = packets[last];
        packets[last] = null;
        if (last > 0)
        {
            int parent = 0;
            while (true)
            {
                int child = (parent << 1) + 1;
                if (child >= last)
                {
                    break;
                }
                if (child + 1 < last && before(deliveryNs[child + 1], order[child + 1], child))
                {
                    child++;
                }
                if (!before(deliveryNs[child], order[child], lastTimeNs, lastOrder))
                {
                    break;
                }
                move(child, parent);
                parent = child;
            }
            set(parent, lastTimeNs, lastOrder, lastPacket);
        }
        return first;
    }

    int size()
    {
        return size;
    }

    /**
     * Read the next packets' fields that their delivery reads first (length, sequence, destination), all in one go.
     * A packet leaves a simulated path long after it entered (a path's worth of packets later, megabytes at Gbit/s),
     * so its object is out of the caches by then, and each delivery alone waited for its own miss; read together the
     * misses overlap, and each delivery then finds its packet cached. NIC drivers prefetch the next receive
     * descriptors for the same reason (Linux, {@code prefetch} of the next descriptor in
     * {@code drivers/net/ethernet/intel/i40e/i40e_txrx.c}); Java has no prefetch, so the fields are read and summed.
     * Changes nothing the line or its packets do.
     */
    private void warmAhead()
    {
        final int from = Math.max(warmedPastHead, 0);
        final int to = Math.min(size, WARM_AHEAD_PACKETS);
        long sum = warmedSum;
        final int mask = packets.length - 1;
        for (int i = from; i < to; i++)
        {
            final LinkPacket packet = packets[(head + i) & mask];
            sum += packet.length() + packet.sequence() + (null == packet.destination() ? 0 : 1);
        }
        warmedSum = sum;
        warmedPastHead = Math.max(to, 0);
    }

    /**
     * @return a sum over the fields {@link #warmAhead()} read (kept so that the reads are not optimised away).
     */
    long warmedSum()
    {
        return warmedSum;
    }

    /**
     * Double the arrays; the ring is unrolled so that it starts at index 0 again (the heap always does).
     */
    /**
     * @param packets grow the storage now so that up to this many packets at once need no allocation.
     */
    void reserve(final int packets)
    {
        while (this.packets.length < packets)
        {
            grow();
        }
    }

    private void grow()
    {
        final int capacity = packets.length;
        final long[] newDeliveryNs = new long[capacity << 1];
        final long[] newOrder = new long[capacity << 1];
        final LinkPacket[] newPackets = new LinkPacket[capacity << 1];
        for (int i = 0; i < size; i++)
        {
            final int from = (head + i) & (capacity - 1);
            newDeliveryNs[i] = deliveryNs[from];
            newOrder[i] = order[from];
            newPackets[i] = packets[from];
        }
        deliveryNs = newDeliveryNs;
        order = newOrder;
        packets = newPackets;
        head = 0;
    }

    private boolean before(final long timeNs, final long departureOrder, final int index)
    {
        return before(timeNs, departureOrder, deliveryNs[index], order[index]);
    }

    private static boolean before(final long timeA, final long orderA, final long timeB, final long orderB)
    {
        return timeA < timeB || (timeA == timeB && orderA < orderB);
    }

    private void move(final int from, final int to)
    {
        set(to, deliveryNs[from], order[from], packets[from]);
    }

    private void set(final int index, final long timeNs, final long departureOrder, final LinkPacket packet)
    {
        deliveryNs[index] = timeNs;
        order[index] = departureOrder;
        packets[index] = packet;
    }
}
