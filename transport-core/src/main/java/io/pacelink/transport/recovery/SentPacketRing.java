package io.pacelink.transport.recovery;

import java.util.Arrays;

/**
 * Everything the sender remembers about each packet it sent, as a struct of arrays indexed by
 * {@code packetNumber & (capacity - 1)}: send time, size, whether it is ack-eliciting and counts towards bytes in
 * flight, its {@link #state(int) state}, the rate-sampler stamp ({@link RateSampler}), and what it carried as the
 * engine describes it (a stream range, FIN, and the engine's frame bits, stored and returned as is).
 * <p>
 * Packet numbers only grow (RFC 9000 section 12.3); a gap between two sent numbers marks the numbers in between as
 * {@link #SKIPPED} (the optimistic-ACK defence of RFC 9000 section 21.4). A slot is reused when the number
 * {@code capacity} higher is sent: {@link #hasCapacityFor(long)} is false while that slot still holds an unresolved
 * packet that matters (ack-eliciting or counted in flight), so the sender stops instead of forgetting it. The ring
 * starts small and {@link #grow() doubles} up to its maximum as the flight needs more slots (docs/security.md,
 * "Memory"), so an idle connection holds a few kilobytes, not the maximum.
 */
public final class SentPacketRing
{
    /**
     * Slot never used.
     */
    public static final byte EMPTY = 0;

    /**
     * Sent, neither acknowledged nor declared lost yet (RFC 9002 "in flight" when it also counts in flight).
     */
    public static final byte IN_FLIGHT = 1;

    /**
     * Acknowledged.
     */
    public static final byte ACKED = 2;

    /**
     * Declared lost; remembered for a while so a late acknowledgement reveals a spurious loss.
     */
    public static final byte LOST = 3;

    /**
     * Declared lost and no longer watched for a late acknowledgement.
     */
    public static final byte ABANDONED = 4;

    /**
     * A number deliberately never sent: acknowledging it proves the peer acknowledges what it did not receive.
     */
    public static final byte SKIPPED = 5;

    /**
     * How many recently skipped packet numbers are remembered for the optimistic-ACK check; skips are occasional.
     */
    static final int SKIPPED_HISTORY = 32;

    /**
     * Heap bytes one slot takes across the ring's arrays: what each doubling charges the memory budget per new slot.
     */
    public static final int BYTES_PER_SLOT = 97;

    private final int maxCapacity;
    private int capacity;
    private int mask;

    private long[] packetNumbers;
    private byte[] states;
    private long[] sentTimesNs;
    private int[] sizesBytes;
    private boolean[] ackEliciting;
    private boolean[] countsInFlight;

    private long[] deliveredAtSendBytes;
    private long[] deliveredTimesAtSendNs;
    private long[] firstSentTimesAtSendNs;
    private boolean[] appLimitedAtSend;
    private long[] txInFlightBytes;
    private long[] lostAtSendBytes;
    private long[] deliveredCeAtSendBytes;

    private long[] streamOffsets;
    private int[] streamLengths;
    private boolean[] fins;
    private boolean[] ecnMarked;
    private int[] frameFlags;
    private long[] ackFrameLargestAcked;

    private final long[] skippedPacketNumbers = new long[SKIPPED_HISTORY];
    private int skippedCount;
    private int skippedNext;
    /**
     * The newest skipped number remembered (numbers are skipped in increasing order, so every remembered one is at
     * most this), -1 before the first.
     */
    private long newestSkipped = -1;

    private long largestSentPacketNumber = -1;
    private long oldestInFlightPacketNumber;

    /**
     * A ring of a fixed number of slots.
     *
     * @param capacity number of slots, a power of two.
     */
    public SentPacketRing(final int capacity)
    {
        this(capacity, capacity);
    }

    /**
     * @param initialCapacity number of slots to start with, a power of two.
     * @param maxCapacity     the most slots {@link #grow()} may reach, a power of two.
     */
    public SentPacketRing(final int initialCapacity, final int maxCapacity)
    {
        if (initialCapacity < 2 || Integer.bitCount(initialCapacity) != 1 || Integer.bitCount(maxCapacity) != 1 ||
            maxCapacity < initialCapacity)
        {
            throw new IllegalArgumentException("capacity=" + initialCapacity + " must be a power of two >= 2, up to " +
                "a power of two maximum, " + maxCapacity);
        }
        this.maxCapacity = maxCapacity;
        allocate(initialCapacity);
        Arrays.fill(packetNumbers, -1L);
    }

    private void allocate(final int slots)
    {
        capacity = slots;
        mask = slots - 1;
        packetNumbers = new long[slots];
        states = new byte[slots];
        sentTimesNs = new long[slots];
        sizesBytes = new int[slots];
        ackEliciting = new boolean[slots];
        countsInFlight = new boolean[slots];
        deliveredAtSendBytes = new long[slots];
        deliveredTimesAtSendNs = new long[slots];
        firstSentTimesAtSendNs = new long[slots];
        appLimitedAtSend = new boolean[slots];
        txInFlightBytes = new long[slots];
        lostAtSendBytes = new long[slots];
        deliveredCeAtSendBytes = new long[slots];
        streamOffsets = new long[slots];
        streamLengths = new int[slots];
        fins = new boolean[slots];
        ecnMarked = new boolean[slots];
        frameFlags = new int[slots];
        ackFrameLargestAcked = new long[slots];
    }

    /**
     * @return the most slots the ring may grow to.
     */
    public int maxCapacity()
    {
        return maxCapacity;
    }

    /**
     * Double the number of slots, keeping every packet the ring describes. Slots change: a slot number taken before
     * must not be used after. Allocates; called only when the flight outgrows the ring.
     *
     * @return false, changing nothing, if the ring is at its maximum.
     */
    boolean grow()
    {
        if (capacity == maxCapacity)
        {
            return false;
        }
        final int oldMask = mask;
        final long[] oldPacketNumbers = packetNumbers;
        final byte[] oldStates = states;
        final long[] oldSentTimesNs = sentTimesNs;
        final int[] oldSizesBytes = sizesBytes;
        final boolean[] oldAckEliciting = ackEliciting;
        final boolean[] oldCountsInFlight = countsInFlight;
        final long[] oldDeliveredAtSendBytes = deliveredAtSendBytes;
        final long[] oldDeliveredTimesAtSendNs = deliveredTimesAtSendNs;
        final long[] oldFirstSentTimesAtSendNs = firstSentTimesAtSendNs;
        final boolean[] oldAppLimitedAtSend = appLimitedAtSend;
        final long[] oldTxInFlightBytes = txInFlightBytes;
        final long[] oldLostAtSendBytes = lostAtSendBytes;
        final long[] oldDeliveredCeAtSendBytes = deliveredCeAtSendBytes;
        final long[] oldStreamOffsets = streamOffsets;
        final int[] oldStreamLengths = streamLengths;
        final boolean[] oldFins = fins;
        final boolean[] oldEcnMarked = ecnMarked;
        final int[] oldFrameFlags = frameFlags;
        final long[] oldAckFrameLargestAcked = ackFrameLargestAcked;

        allocate(capacity * 2);
        Arrays.fill(packetNumbers, -1L);
        for (int from = 0; from <= oldMask; from++)
        {
            final long packetNumber = oldPacketNumbers[from];
            if (packetNumber < 0)
            {
                continue;
            }
            final int to = slot(packetNumber);
            packetNumbers[to] = packetNumber;
            states[to] = oldStates[from];
            sentTimesNs[to] = oldSentTimesNs[from];
            sizesBytes[to] = oldSizesBytes[from];
            ackEliciting[to] = oldAckEliciting[from];
            countsInFlight[to] = oldCountsInFlight[from];
            deliveredAtSendBytes[to] = oldDeliveredAtSendBytes[from];
            deliveredTimesAtSendNs[to] = oldDeliveredTimesAtSendNs[from];
            firstSentTimesAtSendNs[to] = oldFirstSentTimesAtSendNs[from];
            appLimitedAtSend[to] = oldAppLimitedAtSend[from];
            txInFlightBytes[to] = oldTxInFlightBytes[from];
            lostAtSendBytes[to] = oldLostAtSendBytes[from];
            deliveredCeAtSendBytes[to] = oldDeliveredCeAtSendBytes[from];
            streamOffsets[to] = oldStreamOffsets[from];
            streamLengths[to] = oldStreamLengths[from];
            fins[to] = oldFins[from];
            ecnMarked[to] = oldEcnMarked[from];
            frameFlags[to] = oldFrameFlags[from];
            ackFrameLargestAcked[to] = oldAckFrameLargestAcked[from];
        }
        return true;
    }

    /**
     * @return number of slots.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * @return the largest packet number sent (or skipped), -1 before the first.
     */
    public long largestSentPacketNumber()
    {
        return largestSentPacketNumber;
    }

    /**
     * @return true if the next packet number has a free slot.
     */
    public boolean hasCapacity()
    {
        return hasCapacityFor(largestSentPacketNumber + 1);
    }

    /**
     * @param packetNumber the number the sender wants to use next; numbers skipped before it need slots too.
     * @return true if it is larger than every number used so far and it and every number skipped on the way have a
     * slot whose previous packet is resolved or does not matter (neither ack-eliciting nor counted in flight).
     */
    public boolean hasCapacityFor(final long packetNumber)
    {
        if (packetNumber <= largestSentPacketNumber || packetNumber - largestSentPacketNumber > capacity)
        {
            return false;
        }
        // Counted on an int, as every walk of this ring (see countedSpan): at most a capacity of numbers.
        final long first = largestSentPacketNumber + 1;
        for (int i = 0, count = countedSpan(first, packetNumber); i < count; i++)
        {
            final int slot = slot(first + i);
            if (IN_FLIGHT == states[slot] && (ackEliciting[slot] || countsInFlight[slot]))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Record a sent packet, marking any numbers between the previous largest and this one as skipped. The caller
     * writes the rate-sampler stamp with {@link #stamp}.
     *
     * @param packetNumber    the packet's number.
     * @param sentTimeNs      when it was sent.
     * @param sizeBytes       datagram size.
     * @param isAckEliciting  true if the peer must acknowledge it.
     * @param isInFlight      true if it counts towards bytes in flight.
     * @param streamOffset    offset of the stream range it carried.
     * @param streamLength    length of that range, 0 for none.
     * @param fin             true if it carried the stream's end.
     * @param carriedFlags    the engine's bits for the frames it carried.
     * @return the packet's slot.
     * @throws IllegalStateException if {@link #hasCapacityFor(long)} is false: a sender bug, never a peer's doing.
     */
    int add(
        final long packetNumber,
        final long sentTimeNs,
        final int sizeBytes,
        final boolean isAckEliciting,
        final boolean isInFlight,
        final long streamOffset,
        final int streamLength,
        final boolean fin,
        final int carriedFlags)
    {
        if (!hasCapacityFor(packetNumber))
        {
            throw new IllegalStateException("packet number " + packetNumber + " cannot be tracked: largest sent " +
                largestSentPacketNumber + ", capacity " + capacity + " (check hasCapacityFor before sending)");
        }

        final long firstSkipped = largestSentPacketNumber + 1;
        for (int i = 0, count = countedSpan(firstSkipped, packetNumber - 1); i < count; i++)
        {
            final long skipped = firstSkipped + i;
            final int skippedSlot = slot(skipped);
            packetNumbers[skippedSlot] = skipped;
            states[skippedSlot] = SKIPPED;
            skippedPacketNumbers[skippedNext] = skipped;
            skippedNext = (skippedNext + 1) & (SKIPPED_HISTORY - 1);
            skippedCount = Math.min(skippedCount + 1, SKIPPED_HISTORY);
            newestSkipped = skipped;
        }

        final int slot = slot(packetNumber);
        packetNumbers[slot] = packetNumber;
        states[slot] = IN_FLIGHT;
        sentTimesNs[slot] = sentTimeNs;
        sizesBytes[slot] = sizeBytes;
        ackEliciting[slot] = isAckEliciting;
        countsInFlight[slot] = isInFlight;
        streamOffsets[slot] = streamOffset;
        streamLengths[slot] = streamLength;
        fins[slot] = fin;
        ecnMarked[slot] = false;
        frameFlags[slot] = carriedFlags;
        largestSentPacketNumber = packetNumber;
        return slot;
    }

    /**
     * Write the rate-sampler stamp of a packet just added ({@link RateSampler}).
     *
     * @param slot                the packet's slot.
     * @param deliveredBytes      {@code C.delivered} at send.
     * @param deliveredTimeNs     {@code C.deliveredTime} at send.
     * @param firstSentTimeNs     {@code C.firstSentTime} at send.
     * @param isAppLimited        true if the connection was application-limited.
     * @param inFlightBytes       bytes in flight including this packet.
     * @param lostBytes           {@code C.lost} at send.
     * @param deliveredCeBytes    {@code C.delivered_ce} at send.
     */
    void stamp(
        final int slot,
        final long deliveredBytes,
        final long deliveredTimeNs,
        final long firstSentTimeNs,
        final boolean isAppLimited,
        final long inFlightBytes,
        final long lostBytes,
        final long deliveredCeBytes)
    {
        deliveredCeAtSendBytes[slot] = deliveredCeBytes;
        deliveredAtSendBytes[slot] = deliveredBytes;
        deliveredTimesAtSendNs[slot] = deliveredTimeNs;
        firstSentTimesAtSendNs[slot] = firstSentTimeNs;
        appLimitedAtSend[slot] = isAppLimited;
        txInFlightBytes[slot] = inFlightBytes;
        lostAtSendBytes[slot] = lostBytes;
    }

    /**
     * @param packetNumber a packet number.
     * @return its slot (whichever packet currently occupies it).
     */
    public int slot(final long packetNumber)
    {
        return (int)(packetNumber & mask);
    }

    /**
     * @param packetNumber a packet number.
     * @return true if its slot still describes that packet (it was sent or skipped and not overwritten).
     */
    public boolean contains(final long packetNumber)
    {
        return packetNumber >= 0 && packetNumbers[slot(packetNumber)] == packetNumber;
    }

    /**
     * @param packetNumber a packet number.
     * @return true if the slot still describes that packet and it is neither acknowledged nor declared lost.
     */
    public boolean isInFlight(final long packetNumber)
    {
        final int slot = slot(packetNumber);
        return packetNumbers[slot] == packetNumber && IN_FLIGHT == states[slot];
    }

    /**
     * The lower bound for walking unresolved packets: advances past resolved, skipped and overwritten numbers.
     *
     * @return the smallest packet number that may still be {@link #IN_FLIGHT}; {@code largestSent + 1} if none.
     */
    long oldestInFlightPacketNumber()
    {
        final long from = Math.max(oldestInFlightPacketNumber, largestSentPacketNumber - capacity + 1);
        int resolved = 0;
        for (final int count = countedSpan(from, largestSentPacketNumber); resolved < count; resolved++)
        {
            if (isInFlight(from + resolved))
            {
                break;
            }
        }
        oldestInFlightPacketNumber = from + resolved;
        return oldestInFlightPacketNumber;
    }

    /**
     * How many packet numbers lie from {@code smallest} to {@code largest}, both included, as the int that every
     * walk of the ring counts with: a walk never spans more than the ring's capacity (every number it visits has a
     * slot). A loop over a {@code long} packet number is one HotSpot's C2 (JDK 17) turns into a nest of loops with
     * loop-limit predicates; in the ACK path such a predicate failed mid-transfer in every 1 Gbit/s test traced (a
     * {@code loop_limit_check} deoptimisation), which threw away the compiled code of everything the walk was
     * inlined into — loss recovery's whole ACK processing — and compiled it again. Counted on an int up to a
     * limit this small, the loop needs no such predicate that could fail.
     *
     * @param smallest the first number.
     * @param largest  the last number; below {@code smallest} for none.
     * @return the count, 0 for none; a span wider than the ring (or too wide for a long) counts as its capacity.
     */
    int countedSpan(final long smallest, final long largest)
    {
        if (largest < smallest)
        {
            return 0;
        }
        final long widthLessOne = largest - smallest;
        // Negative only if the subtraction overflowed: wider than any ring.
        return widthLessOne < 0 || widthLessOne >= capacity ? capacity : (int)widthLessOne + 1;
    }

    /**
     * @param smallest smallest packet number of an acknowledged range.
     * @param largest  largest packet number of the range.
     * @return true if a recently skipped number lies in the range.
     */
    public boolean containsSkipped(final long smallest, final long largest)
    {
        return countSkipped(smallest, largest) > 0;
    }

    /**
     * @param smallest smallest packet number of a range.
     * @param largest  largest packet number of the range.
     * @return how many recently skipped numbers lie in the range.
     */
    public int countSkipped(final long smallest, final long largest)
    {
        if (smallest > newestSkipped)
        {
            // A range of packets sent since the last skip — an ACK of the last answer or two, the common case — holds
            // none: no walk of the remembered ones.
            return 0;
        }
        // Newest first: numbers are skipped in increasing order, so the remembered ones fall along the walk and it
        // stops at the first below the range. An ACK range of a valid frame holds none, and the ones above it are
        // those skipped since its largest: a walk of one or two, not of the whole history, on every ACK frame.
        int count = 0;
        int index = skippedNext;
        for (int i = 0; i < skippedCount; i++)
        {
            index = (index - 1) & (SKIPPED_HISTORY - 1);
            final long skipped = skippedPacketNumbers[index];
            if (skipped < smallest)
            {
                break;
            }
            if (skipped <= largest)
            {
                count++;
            }
        }
        return count;
    }

    /**
     * @param slot a slot.
     * @return the packet number it describes, -1 if never used.
     */
    public long packetNumber(final int slot)
    {
        return packetNumbers[slot];
    }

    /**
     * @param slot a slot.
     * @return its state: {@link #EMPTY}, {@link #IN_FLIGHT}, {@link #ACKED}, {@link #LOST}, {@link #ABANDONED} or
     * {@link #SKIPPED}.
     */
    public byte state(final int slot)
    {
        return states[slot];
    }

    /**
     * @param slot  a slot.
     * @param state its new state.
     */
    void state(final int slot, final byte state)
    {
        states[slot] = state;
    }

    /**
     * @param slot a slot.
     * @return when the packet was sent.
     */
    public long sentTimeNs(final int slot)
    {
        return sentTimesNs[slot];
    }

    /**
     * @param slot a slot.
     * @return the packet's size in bytes.
     */
    public int sizeBytes(final int slot)
    {
        return sizesBytes[slot];
    }

    /**
     * @param slot a slot.
     * @return true if the packet is ack-eliciting.
     */
    public boolean isAckEliciting(final int slot)
    {
        return ackEliciting[slot];
    }

    /**
     * @param slot a slot.
     * @return true if the packet counts towards bytes in flight.
     */
    public boolean countsInFlight(final int slot)
    {
        return countsInFlight[slot];
    }

    /**
     * The packet just added left marked ECT(0). Kept per packet because marked and unmarked packets interleave: a
     * PATH_CHALLENGE toward a new address goes out unmarked between a capable connection's marked packets (RFC 9000
     * section 13.4.2 validates ECN per path), as often as the peer's address changes.
     *
     * @param slot the packet's slot, from {@link #add}.
     */
    public void markEcn(final int slot)
    {
        ecnMarked[slot] = true;
    }

    /**
     * @param slot a slot.
     * @return true if the packet was sent marked ECT(0).
     */
    public boolean isEcnMarked(final int slot)
    {
        return ecnMarked[slot];
    }

    /**
     * @param slot a slot.
     * @return {@code C.delivered} when the packet was sent.
     */
    public long deliveredAtSendBytes(final int slot)
    {
        return deliveredAtSendBytes[slot];
    }

    /**
     * @param slot a slot.
     * @return {@code C.deliveredTime} when the packet was sent.
     */
    public long deliveredTimeAtSendNs(final int slot)
    {
        return deliveredTimesAtSendNs[slot];
    }

    /**
     * @param slot a slot.
     * @return {@code C.firstSentTime} when the packet was sent.
     */
    public long firstSentTimeAtSendNs(final int slot)
    {
        return firstSentTimesAtSendNs[slot];
    }

    /**
     * @param slot a slot.
     * @return true if the connection was application-limited when the packet was sent.
     */
    public boolean isAppLimitedAtSend(final int slot)
    {
        return appLimitedAtSend[slot];
    }

    /**
     * @param slot a slot.
     * @return bytes in flight when the packet was sent, including it.
     */
    public long txInFlightBytes(final int slot)
    {
        return txInFlightBytes[slot];
    }

    /**
     * @param slot a slot.
     * @return {@code C.lost} when the packet was sent.
     */
    public long lostAtSendBytes(final int slot)
    {
        return lostAtSendBytes[slot];
    }

    /**
     * @param slot a slot.
     * @return {@code C.delivered_ce} when the packet was sent.
     */
    public long deliveredCeAtSendBytes(final int slot)
    {
        return deliveredCeAtSendBytes[slot];
    }

    /**
     * @param slot a slot.
     * @return offset of the stream range the packet carried.
     */
    public long streamOffset(final int slot)
    {
        return streamOffsets[slot];
    }

    /**
     * @param slot a slot.
     * @return length of the stream range the packet carried.
     */
    public int streamLength(final int slot)
    {
        return streamLengths[slot];
    }

    /**
     * @param slot a slot.
     * @return true if the packet carried the end of the stream.
     */
    public boolean fin(final int slot)
    {
        return fins[slot];
    }

    /**
     * @param slot                a slot.
     * @param largestAcknowledged Largest Acknowledged of the ACK frame the packet carried.
     */
    void ackFrameLargestAcked(final int slot, final long largestAcknowledged)
    {
        ackFrameLargestAcked[slot] = largestAcknowledged;
    }

    /**
     * @param slot a slot whose packet carried an ACK frame.
     * @return that frame's Largest Acknowledged.
     */
    public long ackFrameLargestAcked(final int slot)
    {
        return ackFrameLargestAcked[slot];
    }

    /**
     * @param slot a slot.
     * @return the engine's bits for the frames the packet carried.
     */
    public int frameFlags(final int slot)
    {
        return frameFlags[slot];
    }
}
