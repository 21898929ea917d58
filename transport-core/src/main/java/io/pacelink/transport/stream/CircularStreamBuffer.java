package io.pacelink.transport.stream;

import io.pacelink.transport.memory.SegmentSource;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * A byte store addressed by 64-bit stream positions that holds at most {@code capacity} bytes beyond the oldest one
 * still needed, committed in fixed-size segments only where data is (docs/security.md, "Memory"). Position {@code p}
 * lives in segment number {@code p / segmentBytes}, kept in table slot {@code segmentNumber % (capacity /
 * segmentBytes + 1)} at index {@code p % segmentBytes}. The extra slot lets the window of positions in use,
 * {@code [floor(oldest), oldest + capacity)}, span one more segment than the capacity without two live segments
 * sharing a slot, so the whole capacity is always usable whatever the oldest position.
 * <p>
 * One thread commits segments before writing into them ({@link #commit}) and, for a log whose consumed segments are
 * given back, releases them ({@link #releaseBelow}); the other thread only reads segments already published to it by
 * a release store of a position. The table itself is created with the first segment, so a log that never carries
 * data costs a few hundred bytes.
 * <p>
 * After the data come the position slots shared between the log's two threads, each two cache lines after the
 * previous one, like Agrona's ring buffer trailer, so a thread writing its slot does not invalidate the line the other
 * thread writes (adjacent-line prefetch included). A slot holds up to {@link #SLOT_FIELDS} longs written by one
 * thread. Every long of a slot is 8-byte aligned on any JVM ({@link #alignmentPadBytes}).
 */
final class CircularStreamBuffer
{
    /**
     * Longs one slot can hold, written by the same thread.
     */
    static final int SLOT_FIELDS = 4;

    /**
     * Smallest capacity: at least a length prefix and a few bytes.
     */
    static final int MIN_CAPACITY_BYTES = 64;

    /**
     * Largest capacity: positions map to int indices.
     */
    static final int MAX_CAPACITY_BYTES = 1 << 30;

    private static final int SLOT_STRIDE_BYTES = 2 * BitUtil.CACHE_LINE_LENGTH;

    private final SegmentSource source;
    private final int capacity;
    private final int segmentBytes;
    private final int segmentShift;
    private final int segmentMask;
    private final int segmentSlots;
    private final int segmentSlotMask;
    private final UnsafeBuffer positions;
    private UnsafeBuffer[] segments;
    private UnsafeBuffer[] spareSegments;
    private int spareSegmentCount;
    private int committedSegments;
    private long releasedBelowSegment;

    /**
     * @param capacity  data bytes, a power of two in [{@link #MIN_CAPACITY_BYTES}, {@link #MAX_CAPACITY_BYTES}].
     * @param slotCount number of position slots in the trailer.
     * @param source    where segments come from; its segment size is a power of two no larger than the capacity.
     */
    CircularStreamBuffer(final int capacity, final int slotCount, final SegmentSource source)
    {
        if (!BitUtil.isPowerOfTwo(capacity) || capacity < MIN_CAPACITY_BYTES || capacity > MAX_CAPACITY_BYTES)
        {
            throw new IllegalArgumentException("capacity must be a power of two in [" + MIN_CAPACITY_BYTES + ", " +
                MAX_CAPACITY_BYTES + "]: " + capacity);
        }
        final int segmentBytes = source.segmentBytes();
        if (!BitUtil.isPowerOfTwo(segmentBytes) || segmentBytes > capacity)
        {
            throw new IllegalArgumentException(
                "segment size must be a power of two no larger than the capacity " + capacity + ": " + segmentBytes);
        }
        this.source = source;
        this.capacity = capacity;
        this.segmentBytes = segmentBytes;
        this.segmentShift = Integer.numberOfTrailingZeros(segmentBytes);
        this.segmentMask = segmentBytes - 1;
        // A window of a capacity's bytes spans at most capacity / segmentBytes + 1 segments; the table has the next
        // power of two of slots (a lap is then longer than a capacity, which the take-out below only makes safer), so
        // a segment's slot is its number masked, not divided: every read and write of the log looks its segment up,
        // and a 64-bit division by 513 (the default 32 MiB in 64 KiB segments) sits on the path of each access,
        // several per 32-byte message (perf/FINDINGS.md, branch lat11).
        this.segmentSlots = BitUtil.findNextPositivePowerOfTwo(capacity / segmentBytes + 1);
        this.segmentSlotMask = segmentSlots - 1;
        final int positionsBytes = (slotCount + 1) * SLOT_STRIDE_BYTES;
        final int padBytes = alignmentPadBytes(BufferUtil.ARRAY_BASE_OFFSET);
        this.positions = new UnsafeBuffer(new byte[positionsBytes + padBytes], padBytes, positionsBytes);
    }

    /**
     * Bytes to skip at the start of a {@code byte[]} so that its longs are 8-byte aligned. The positions are read and
     * written by two threads with acquire/release stores and compare-and-set, which x86 makes atomic only for a long
     * that does not cross a cache line; a locked compare-and-set across two lines is a split lock, which the CPU runs
     * as a bus lock (every core stalls) and Linux traps ("x86/split lock detection", kernel
     * Documentation/arch/x86/buslock.rst) and may throttle. Objects are 8-byte aligned, but a {@code byte[]}'s data
     * starts 16 bytes into it with the classic object header and 12 with compact object headers (JDK 25's
     * {@code -XX:+UseCompactObjectHeaders}, JEP 519, which {@code pacelink sim} runs with): there every long at an
     * index of 8 k is misaligned by 4, and one in eight crosses a line, wherever the collector moves the array.
     *
     * @param arrayBaseOffset where a {@code byte[]}'s first element lies from the object's (8-aligned) address.
     * @return 0 to 7.
     */
    static int alignmentPadBytes(final long arrayBaseOffset)
    {
        return (int)(-arrayBaseOffset & (Long.BYTES - 1));
    }

    /**
     * @return where the position slots' buffer starts from its array's address: a multiple of 8.
     */
    long positionsAddressOffset()
    {
        return positions.addressOffset();
    }

    int capacity()
    {
        return capacity;
    }

    int segmentBytes()
    {
        return segmentBytes;
    }

    /**
     * Committing thread: make sure every segment holding a position of {@code [from, to)} is present. Segments
     * committed before a refusal stay.
     *
     * @return the number of segments newly committed, or -1 if the source refused one.
     */
    int commit(final long from, final long to)
    {
        int committed = 0;
        int result;
        while ((result = commitNext(from, to)) > 0)
        {
            committed++;
        }
        return result < 0 ? -1 : committed;
    }

    /**
     * Committing thread: commit the first segment of {@code [from, to)} that is missing.
     *
     * @return 1 if one was committed, 0 if none was missing, -1 if the source refused.
     */
    int commitNext(final long from, final long to)
    {
        if (to <= from)
        {
            return 0;
        }
        UnsafeBuffer[] table = segments;
        if (null == table)
        {
            table = new UnsafeBuffer[segmentSlots];
            segments = table;
        }
        final int firstSlot = (int)((from >>> segmentShift) & segmentSlotMask);
        for (int i = 0, count = segmentsSpanned(from, to); i < count; i++)
        {
            final int slot = (firstSlot + i) & segmentSlotMask;
            if (null == table[slot])
            {
                if (spareSegmentCount > 0)
                {
                    table[slot] = takeSpareSegment();
                    return 1;
                }
                final UnsafeBuffer segment = source.acquire();
                if (null == segment)
                {
                    return -1;
                }
                table[slot] = segment;
                committedSegments++;
                return 1;
            }
        }
        return 0;
    }

    /**
     * @return true if every segment holding a position of {@code [from, to)} is present (committing thread).
     */
    boolean isCommitted(final long from, final long to)
    {
        final UnsafeBuffer[] table = segments;
        if (to <= from)
        {
            return true;
        }
        if (null == table)
        {
            return false;
        }
        final int firstSlot = (int)((from >>> segmentShift) & segmentSlotMask);
        for (int i = 0, count = segmentsSpanned(from, to); i < count; i++)
        {
            if (null == table[(firstSlot + i) & segmentSlotMask])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * How many table slots a walk of the segments holding {@code [from, to)} visits, counted on an {@code int}: the
     * segments spanned, or the table's whole lap when they span more (a longer walk would only visit the same slots
     * again, in the same order, and find them as the first lap left them). The walks above count on this rather than
     * on a {@code long} segment number up to an inclusive last one: HotSpot's C2 turns a {@code long} loop into a
     * nest of loops guarded by a loop-limit predicate, and that predicate's uncommon trap ({@code loop_limit_check})
     * fired at these loops in every 1 Gbit/s run, recompiling the sender's and the receiver's largest compile units
     * mid-transfer (perf/FINDINGS.md, branches thr11 and thr12).
     *
     * @param from first position.
     * @param to   position after the last.
     * @return segments to visit, in [0, the table's slots]: 0 when the last segment's number is below the first's.
     */
    int segmentsSpanned(final long from, final long to)
    {
        final long spanned = ((to - 1) >>> segmentShift) - (from >>> segmentShift) + 1;
        return spanned <= 0 ? 0 : (int)Math.min(spanned, segmentSlots);
    }

    /**
     * Committing thread: give back every segment that lies wholly below {@code position}, which the other thread no
     * longer reads. Costs nothing when no new segment was passed.
     *
     * @param position the oldest position still needed.
     * @return segments released.
     */
    int releaseBelow(final long position)
    {
        final int released = takeOutBelow(position, false);
        committedSegments -= released;
        return released;
    }

    /**
     * Committing thread: keep every segment that lies wholly below {@code position}, which the other thread no longer
     * reads, as a spare that {@link #commitNext} takes before asking the source for a new one. A log whose segments
     * are never given back (the send log's: its producer may not hand them to another thread's pool) then holds
     * the segments its oldest needed position and its newest one span, plus those it kept, instead of one per
     * table slot — a slot is otherwise first reused only a whole table (more than a capacity) further on. Spares
     * stay committed.
     * <p>
     * Call it before committing any segment a capacity beyond one still in the table, with a position the other
     * thread published: a slot's entry is taken out by segment number, so the segment a lap below must not still
     * share the slot with the live one.
     *
     * @param position the oldest position still needed, as published by the thread that reads the log.
     * @return segments kept as spares.
     */
    int recycleBelow(final long position)
    {
        return takeOutBelow(position, true);
    }

    /**
     * @return segments kept by {@link #recycleBelow} and not taken back yet (committing thread).
     */
    int spareSegments()
    {
        return spareSegmentCount;
    }

    private int takeOutBelow(final long position, final boolean keepAsSpares)
    {
        final long belowSegment = position >>> segmentShift;
        int takenOut = 0;
        final UnsafeBuffer[] table = segments;
        if (null != table)
        {
            // A slot holds the newest segment written to it; an older one below the position was taken out first.
            for (long segmentNumber = Math.max(releasedBelowSegment, belowSegment - segmentSlots);
                segmentNumber < belowSegment;
                segmentNumber++)
            {
                final int slot = (int)(segmentNumber & segmentSlotMask);
                final UnsafeBuffer segment = table[slot];
                if (null != segment)
                {
                    table[slot] = null;
                    if (keepAsSpares)
                    {
                        keepSpareSegment(segment);
                    }
                    else
                    {
                        source.release(segment);
                    }
                    takenOut++;
                }
            }
        }
        releasedBelowSegment = Math.max(releasedBelowSegment, belowSegment);
        return takenOut;
    }

    private void keepSpareSegment(final UnsafeBuffer segment)
    {
        if (null == spareSegments)
        {
            // Every segment the log holds was once in the table, so its slots bound the spares too.
            spareSegments = new UnsafeBuffer[segmentSlots];
        }
        spareSegments[spareSegmentCount++] = segment;
    }

    private UnsafeBuffer takeSpareSegment()
    {
        final UnsafeBuffer segment = spareSegments[--spareSegmentCount];
        spareSegments[spareSegmentCount] = null;
        return segment;
    }

    /**
     * @return segments committed now, spares included (committing thread).
     */
    int committedSegments()
    {
        return committedSegments;
    }

    /**
     * @return the segment holding {@code position}; it must be committed.
     */
    UnsafeBuffer segment(final long position)
    {
        return segments[(int)((position >>> segmentShift) & segmentSlotMask)];
    }

    /**
     * @return the index of {@code position} within its segment.
     */
    int indexInSegment(final long position)
    {
        return (int)position & segmentMask;
    }

    /**
     * @return true if {@code [position, position + length)} lies within one segment, so it can be handed out in place.
     */
    boolean isWithinOneSegment(final long position, final int length)
    {
        return indexInSegment(position) + length <= segmentBytes;
    }

    /**
     * Copy {@code length} bytes from {@code src} into the store at {@code position}; the segments must be committed.
     */
    void write(final long position, final DirectBuffer src, final int srcOffset, final int length)
    {
        int done = 0;
        while (done < length)
        {
            final long at = position + done;
            final int index = indexInSegment(at);
            final int part = Math.min(length - done, segmentBytes - index);
            segment(at).putBytes(index, src, srcOffset + done, part);
            done += part;
        }
    }

    /**
     * Copy {@code length} bytes of the store at {@code position} into {@code dst}.
     */
    void read(final long position, final MutableDirectBuffer dst, final int dstOffset, final int length)
    {
        int done = 0;
        while (done < length)
        {
            final long at = position + done;
            final int index = indexInSegment(at);
            final int part = Math.min(length - done, segmentBytes - index);
            dst.putBytes(dstOffset + done, segment(at), index, part);
            done += part;
        }
    }

    /**
     * @return true if the {@code length} bytes of the store at {@code position} equal those of {@code src}.
     */
    boolean matches(final long position, final DirectBuffer src, final int srcOffset, final int length)
    {
        int done = 0;
        while (done < length)
        {
            final long at = position + done;
            final int index = indexInSegment(at);
            final int part = Math.min(length - done, segmentBytes - index);
            if (!regionMatches(segment(at), index, src, srcOffset + done, part))
            {
                return false;
            }
            done += part;
        }
        return true;
    }

    private static boolean regionMatches(
        final UnsafeBuffer segment, final int index, final DirectBuffer src, final int srcOffset, final int length)
    {
        int i = 0;
        for (; i <= length - Long.BYTES; i += Long.BYTES)
        {
            if (segment.getLong(index + i) != src.getLong(srcOffset + i))
            {
                return false;
            }
        }
        for (; i < length; i++)
        {
            if (segment.getByte(index + i) != src.getByte(srcOffset + i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Write a little-endian int at {@code position}; it may straddle two segments.
     */
    void putIntLittleEndian(final long position, final int value)
    {
        final int index = indexInSegment(position);
        if (index <= segmentBytes - Integer.BYTES)
        {
            segment(position).putInt(index, value, ByteOrder.LITTLE_ENDIAN);
        }
        else
        {
            for (int i = 0; i < Integer.BYTES; i++)
            {
                segment(position + i).putByte(indexInSegment(position + i), (byte)(value >>> (Byte.SIZE * i)));
            }
        }
    }

    /**
     * Read a little-endian int at {@code position}; it may straddle two segments.
     */
    int getIntLittleEndian(final long position)
    {
        final int index = indexInSegment(position);
        if (index <= segmentBytes - Integer.BYTES)
        {
            return segment(position).getInt(index, ByteOrder.LITTLE_ENDIAN);
        }

        int value = 0;
        for (int i = 0; i < Integer.BYTES; i++)
        {
            value |= (segment(position + i).getByte(indexInSegment(position + i)) & 0xFF) << (Byte.SIZE * i);
        }
        return value;
    }

    long getPlain(final int slot, final int field)
    {
        return positions.getLong(fieldOffset(slot, field));
    }

    void putPlain(final int slot, final int field, final long value)
    {
        positions.putLong(fieldOffset(slot, field), value);
    }

    long getAcquire(final int slot, final int field)
    {
        return positions.getLongAcquire(fieldOffset(slot, field));
    }

    void putRelease(final int slot, final int field, final long value)
    {
        positions.putLongRelease(fieldOffset(slot, field), value);
    }

    boolean compareAndSet(final int slot, final int field, final long expected, final long update)
    {
        return positions.compareAndSetLong(fieldOffset(slot, field), expected, update);
    }

    private static int fieldOffset(final int slot, final int field)
    {
        return (slot + 1) * SLOT_STRIDE_BYTES + field * Long.BYTES;
    }
}
