package io.pacelink.transport.recovery;

/**
 * The packets most recently declared lost, oldest first, with the time of the declaration: the index that lets an
 * ACK frame reveal a spurious loss without walking every acknowledged range through the {@link SentPacketRing}.
 * A packet leaves the history when it is acknowledged (spurious), when it is older than the retention period, or
 * when the history is full; in the last two cases its ring slot becomes {@link SentPacketRing#ABANDONED}.
 */
final class LostPacketHistory
{
    private static final long REMOVED = -1;

    private final long[] packetNumbers;
    private final long[] lostTimesNs;
    private final int capacity;
    private int head;
    private int size;

    LostPacketHistory(final int capacity)
    {
        this.capacity = capacity;
        packetNumbers = new long[capacity];
        lostTimesNs = new long[capacity];
    }

    /**
     * @return entries held, including removed ones not yet at the head.
     */
    int size()
    {
        return size;
    }

    /**
     * @param i position from the oldest entry.
     * @return its packet number, or -1 if it was removed.
     */
    long packetNumber(final int i)
    {
        return packetNumbers[index(i)];
    }

    /**
     * @param i position from the oldest entry.
     * @return when it was declared lost.
     */
    long lostTimeNs(final int i)
    {
        return lostTimesNs[index(i)];
    }

    /**
     * @param i position from the oldest entry, which was acknowledged after all.
     */
    void remove(final int i)
    {
        packetNumbers[index(i)] = REMOVED;
    }

    /**
     * @param packetNumber a packet just declared lost.
     * @param lostTimeNs   when.
     * @param ring         where an entry pushed out by a full history is marked abandoned.
     */
    void add(final long packetNumber, final long lostTimeNs, final SentPacketRing ring)
    {
        if (size == capacity)
        {
            dropOldest(ring);
        }
        final int index = index(size);
        packetNumbers[index] = packetNumber;
        lostTimesNs[index] = lostTimeNs;
        size++;
    }

    /**
     * Forget entries declared lost at or before {@code cutoffNs}, and removed entries at the head.
     *
     * @param cutoffNs latest loss time to forget.
     * @param ring     where forgotten packets are marked abandoned.
     */
    void expire(final long cutoffNs, final SentPacketRing ring)
    {
        while (size > 0 && (REMOVED == packetNumbers[head] || lostTimesNs[head] <= cutoffNs))
        {
            dropOldest(ring);
        }
    }

    private void dropOldest(final SentPacketRing ring)
    {
        final long packetNumber = packetNumbers[head];
        if (REMOVED != packetNumber && ring.contains(packetNumber))
        {
            final int slot = ring.slot(packetNumber);
            if (SentPacketRing.LOST == ring.state(slot))
            {
                ring.state(slot, SentPacketRing.ABANDONED);
            }
        }
        head = head + 1 == capacity ? 0 : head + 1;
        size--;
    }

    private int index(final int i)
    {
        final int index = head + i;
        return index >= capacity ? index - capacity : index;
    }
}
