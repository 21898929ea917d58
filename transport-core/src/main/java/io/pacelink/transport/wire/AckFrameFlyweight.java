package io.pacelink.transport.wire;

/**
 * Flyweight over an ACK frame (type {@link FrameType#ACK}); RFC 9000 section 19.3 semantics with fixed-width fields.
 * With flag {@link #FLAG_ECN} the frame ends in the three ECN counts, as RFC 9000's ACK frame of type 0x03 does
 * (section 19.3.2); without it the layout is the one below, so a receiver that sees no ECT packets sends no counts.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |   Type = 2    |  Flags (ECN)  |           Reserved            |
 * +---------------+---------------+-------------------------------+
 * |     Body Length = 20 + 8 * Range Count (+ 24 with ECN)        |
 * +---------------------------------------------------------------+
 * |                    Largest Acknowledged (64)                  |
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                      ACK Delay, us (32)                       |
 * +---------------------------------------------------------------+
 * |                 Additional ACK Range Count (32)               |
 * +---------------------------------------------------------------+
 * |                       First ACK Range (32)                    |
 * +---------------------------------------------------------------+
 * |                            Gap (32)                           |  repeated
 * +---------------------------------------------------------------+  Range Count
 * |                     ACK Range Length (32)                     |  times
 * +---------------------------------------------------------------+
 * |                     ECT(0) Count (64)                         |  flag ECN
 * |                     ECT(1) Count (64)                         |  only
 * |                     ECN-CE Count (64)                         |
 * +---------------------------------------------------------------+
 * </pre>
 * Range arithmetic (RFC 9000 section 19.3.1): the first range covers
 * {@code [largest - firstRange, largest]}; each further range lies below the previous one with
 * {@code largest = previousSmallest - gap - 2} and {@code smallest = largest - rangeLength}
 * ({@link #nextRangeLargest(long, int)}, {@link #rangeSmallest(long, int)}). A gap of 0 therefore means exactly one
 * unacknowledged packet between two ranges.
 */
public final class AckFrameFlyweight extends FrameHeaderFlyweight
{
    /**
     * Frame flag: the ECN counts follow the ranges (RFC 9000 section 19.3.2, the ACK frame of type 0x03).
     */
    public static final int FLAG_ECN = 0x1;

    /**
     * Bytes the three ECN counts add to the body.
     */
    public static final int ECN_COUNTS_LENGTH = 3 * 8;

    /**
     * Offset of the largest acknowledged packet number (64 bits).
     */
    public static final int LARGEST_ACKED_OFFSET = FRAME_HEADER_LENGTH;

    /**
     * Offset of the ACK delay in microseconds (32 bits, RFC 9000 section 13.2.5).
     */
    public static final int ACK_DELAY_OFFSET = LARGEST_ACKED_OFFSET + 8;

    /**
     * Offset of the number of additional gap/length ranges after the first range (32 bits).
     */
    public static final int RANGE_COUNT_OFFSET = ACK_DELAY_OFFSET + 4;

    /**
     * Offset of the first ACK range: packets acknowledged below the largest (32 bits).
     */
    public static final int FIRST_RANGE_OFFSET = RANGE_COUNT_OFFSET + 4;

    /**
     * Offset of the first additional range.
     */
    public static final int RANGES_OFFSET = FIRST_RANGE_OFFSET + 4;

    /**
     * Offset of the gap within one additional range.
     */
    public static final int GAP_OFFSET_IN_RANGE = 0;

    /**
     * Offset of the ACK range length within one additional range.
     */
    public static final int RANGE_LENGTH_OFFSET_IN_RANGE = 4;

    /**
     * Bytes per additional range (gap and length).
     */
    public static final int BYTES_PER_RANGE = 8;

    /**
     * Body length of an ACK frame without additional ranges.
     */
    public static final int FIXED_BODY_LENGTH = RANGES_OFFSET - FRAME_HEADER_LENGTH;

    /**
     * @param additionalRangeCount number of gap/length ranges after the first range.
     * @return the body length of such a frame.
     */
    public static int bodyLength(final int additionalRangeCount)
    {
        return FIXED_BODY_LENGTH + additionalRangeCount * BYTES_PER_RANGE;
    }

    /**
     * @param additionalRangeCount number of gap/length ranges after the first range.
     * @param hasEcnCounts         true if the frame carries the ECN counts.
     * @return the body length of such a frame.
     */
    public static int bodyLength(final int additionalRangeCount, final boolean hasEcnCounts)
    {
        return bodyLength(additionalRangeCount) + (hasEcnCounts ? ECN_COUNTS_LENGTH : 0);
    }

    /**
     * @param additionalRangeCount number of gap/length ranges after the first range.
     * @return the total length of such a frame without ECN counts, header included.
     */
    public static int frameLength(final int additionalRangeCount)
    {
        return FRAME_HEADER_LENGTH + bodyLength(additionalRangeCount);
    }

    /**
     * @param additionalRangeCount number of gap/length ranges after the first range.
     * @param hasEcnCounts         true if the frame carries the ECN counts.
     * @return the total length of such a frame, header included.
     */
    public static int frameLength(final int additionalRangeCount, final boolean hasEcnCounts)
    {
        return FRAME_HEADER_LENGTH + bodyLength(additionalRangeCount, hasEcnCounts);
    }

    /**
     * RFC 9000 section 19.3.1: {@code largest = previous_smallest - gap - 2}.
     *
     * @param previousSmallest smallest packet number of the range above.
     * @param gap              the gap field.
     * @return the largest packet number of the next (lower) range.
     */
    public static long nextRangeLargest(final long previousSmallest, final int gap)
    {
        return previousSmallest - gap - 2;
    }

    /**
     * RFC 9000 section 19.3.1: {@code smallest = largest - ack_range}.
     *
     * @param rangeLargest largest packet number of the range.
     * @param rangeLength  the range length field (or the first range).
     * @return the smallest packet number of the range.
     */
    public static long rangeSmallest(final long rangeLargest, final int rangeLength)
    {
        return rangeLargest - rangeLength;
    }

    /**
     * @return the largest acknowledged packet number.
     */
    public long largestAcked()
    {
        return buffer().getLong(offset() + LARGEST_ACKED_OFFSET, BYTE_ORDER);
    }

    /**
     * @param packetNumber the largest acknowledged packet number.
     * @return this.
     */
    public AckFrameFlyweight largestAcked(final long packetNumber)
    {
        mutableBuffer().putLong(offset() + LARGEST_ACKED_OFFSET, packetNumber, BYTE_ORDER);
        return this;
    }

    /**
     * @return time between receiving the largest acknowledged packet and sending this ACK, in microseconds.
     */
    public int ackDelayUs()
    {
        return buffer().getInt(offset() + ACK_DELAY_OFFSET, BYTE_ORDER);
    }

    /**
     * @param ackDelayUs time between receiving the largest acknowledged packet and sending this ACK.
     * @return this.
     */
    public AckFrameFlyweight ackDelayUs(final int ackDelayUs)
    {
        mutableBuffer().putInt(offset() + ACK_DELAY_OFFSET, ackDelayUs, BYTE_ORDER);
        return this;
    }

    /**
     * @return number of gap/length ranges after the first range.
     */
    public int rangeCount()
    {
        return buffer().getInt(offset() + RANGE_COUNT_OFFSET, BYTE_ORDER);
    }

    /**
     * @param count number of gap/length ranges after the first range.
     * @return this.
     */
    public AckFrameFlyweight rangeCount(final int count)
    {
        mutableBuffer().putInt(offset() + RANGE_COUNT_OFFSET, count, BYTE_ORDER);
        return this;
    }

    /**
     * @return number of contiguous packets acknowledged below the largest.
     */
    public int firstRange()
    {
        return buffer().getInt(offset() + FIRST_RANGE_OFFSET, BYTE_ORDER);
    }

    /**
     * @param firstRange number of contiguous packets acknowledged below the largest.
     * @return this.
     */
    public AckFrameFlyweight firstRange(final int firstRange)
    {
        mutableBuffer().putInt(offset() + FIRST_RANGE_OFFSET, firstRange, BYTE_ORDER);
        return this;
    }

    /**
     * @param index of the additional range, from 0.
     * @return its gap field.
     */
    public int gap(final int index)
    {
        return buffer().getInt(rangeOffset(index) + GAP_OFFSET_IN_RANGE, BYTE_ORDER);
    }

    /**
     * @param index of the additional range, from 0.
     * @return its ACK range length field.
     */
    public int rangeLength(final int index)
    {
        return buffer().getInt(rangeOffset(index) + RANGE_LENGTH_OFFSET_IN_RANGE, BYTE_ORDER);
    }

    /**
     * @param index          of the additional range, from 0.
     * @param gap            unacknowledged packets between this range and the one above, minus one.
     * @param rangeLength    acknowledged packets in this range, minus one.
     * @return this.
     */
    public AckFrameFlyweight range(final int index, final int gap, final int rangeLength)
    {
        final int rangeOffset = rangeOffset(index);
        mutableBuffer().putInt(rangeOffset + GAP_OFFSET_IN_RANGE, gap, BYTE_ORDER);
        mutableBuffer().putInt(rangeOffset + RANGE_LENGTH_OFFSET_IN_RANGE, rangeLength, BYTE_ORDER);
        return this;
    }

    private int rangeOffset(final int index)
    {
        return offset() + RANGES_OFFSET + index * BYTES_PER_RANGE;
    }

    /**
     * @return true if the frame carries ECN counts ({@link #FLAG_ECN}).
     */
    public boolean hasEcnCounts()
    {
        return 0 != (frameFlags() & FLAG_ECN);
    }

    /**
     * @return packets the peer received with ECT(0) (RFC 9000 section 19.3.2); only with {@link #hasEcnCounts()}.
     */
    public long ect0Count()
    {
        return buffer().getLong(ecnCountsOffset(), BYTE_ORDER);
    }

    /**
     * @return packets the peer received with ECT(1); only with {@link #hasEcnCounts()}.
     */
    public long ect1Count()
    {
        return buffer().getLong(ecnCountsOffset() + 8, BYTE_ORDER);
    }

    /**
     * @return packets the peer received with ECN-CE; only with {@link #hasEcnCounts()}.
     */
    public long ceCount()
    {
        return buffer().getLong(ecnCountsOffset() + 16, BYTE_ORDER);
    }

    /**
     * Write the ECN counts of a frame appended with room for them ({@link PacketWriter#appendAck(long, int, int, int,
     * boolean)}); the range count must already be written, since the counts follow the ranges.
     *
     * @param ect0 packets received with ECT(0).
     * @param ect1 packets received with ECT(1).
     * @param ce   packets received with ECN-CE.
     * @return this.
     */
    public AckFrameFlyweight ecnCounts(final long ect0, final long ect1, final long ce)
    {
        final int countsOffset = ecnCountsOffset();
        mutableBuffer().putLong(countsOffset, ect0, BYTE_ORDER);
        mutableBuffer().putLong(countsOffset + 8, ect1, BYTE_ORDER);
        mutableBuffer().putLong(countsOffset + 16, ce, BYTE_ORDER);
        return this;
    }

    private int ecnCountsOffset()
    {
        return rangeOffset(rangeCount());
    }
}
