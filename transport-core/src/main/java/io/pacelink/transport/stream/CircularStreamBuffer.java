package io.pacelink.transport.stream;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * A power-of-two byte store addressed by 64-bit stream positions: the byte at position {@code p} lives at index
 * {@code p & mask}, so a range that crosses the end of the store is copied in two parts. The store is direct
 * (off-heap, cache-line aligned) memory, so a log of many MiB is no humongous object for the garbage collector.
 * <p>
 * After the data comes a trailer of position slots shared between the log's two threads. Each slot starts two
 * cache lines after the previous one, like Agrona's ring buffer trailer, so that a thread writing its slot does not
 * invalidate the line the other thread writes (adjacent-line prefetch included). A slot holds up to
 * {@link #SLOT_FIELDS} longs written by one thread.
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
     * Largest capacity: the trailer must still fit an int index.
     */
    static final int MAX_CAPACITY_BYTES = 1 << 30;

    private static final int SLOT_STRIDE_BYTES = 2 * BitUtil.CACHE_LINE_LENGTH;

    private final UnsafeBuffer buffer;
    private final int capacity;
    private final int mask;

    /**
     * @param capacity  data bytes, a power of two in [{@link #MIN_CAPACITY_BYTES}, {@link #MAX_CAPACITY_BYTES}].
     * @param slotCount number of position slots in the trailer.
     */
    CircularStreamBuffer(final int capacity, final int slotCount)
    {
        if (!BitUtil.isPowerOfTwo(capacity) || capacity < MIN_CAPACITY_BYTES || capacity > MAX_CAPACITY_BYTES)
        {
            throw new IllegalArgumentException("capacity must be a power of two in [" + MIN_CAPACITY_BYTES + ", " +
                MAX_CAPACITY_BYTES + "]: " + capacity);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        final int trailerLength = (slotCount + 1) * SLOT_STRIDE_BYTES;
        this.buffer = new UnsafeBuffer(
            BufferUtil.allocateDirectAligned(capacity + trailerLength, BitUtil.CACHE_LINE_LENGTH));
    }

    int capacity()
    {
        return capacity;
    }

    /**
     * @return the whole store; data indices are in [0, capacity).
     */
    UnsafeBuffer buffer()
    {
        return buffer;
    }

    int index(final long position)
    {
        return (int)position & mask;
    }

    /**
     * Copy {@code length} bytes from {@code src} into the store at {@code position}.
     */
    void write(final long position, final DirectBuffer src, final int srcOffset, final int length)
    {
        final int index = index(position);
        final int firstPart = Math.min(length, capacity - index);
        buffer.putBytes(index, src, srcOffset, firstPart);
        if (firstPart < length)
        {
            buffer.putBytes(0, src, srcOffset + firstPart, length - firstPart);
        }
    }

    /**
     * @return true if the {@code length} bytes of the store at {@code position} equal those of {@code src}.
     */
    boolean matches(final long position, final DirectBuffer src, final int srcOffset, final int length)
    {
        final int index = index(position);
        final int firstPart = Math.min(length, capacity - index);
        return regionMatches(index, src, srcOffset, firstPart) &&
            regionMatches(0, src, srcOffset + firstPart, length - firstPart);
    }

    private boolean regionMatches(final int index, final DirectBuffer src, final int srcOffset, final int length)
    {
        int i = 0;
        for (; i <= length - Long.BYTES; i += Long.BYTES)
        {
            if (buffer.getLong(index + i) != src.getLong(srcOffset + i))
            {
                return false;
            }
        }
        for (; i < length; i++)
        {
            if (buffer.getByte(index + i) != src.getByte(srcOffset + i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Copy {@code length} bytes of the store at {@code position} into {@code dst}.
     */
    void read(final long position, final MutableDirectBuffer dst, final int dstOffset, final int length)
    {
        final int index = index(position);
        final int firstPart = Math.min(length, capacity - index);
        dst.putBytes(dstOffset, buffer, index, firstPart);
        if (firstPart < length)
        {
            dst.putBytes(dstOffset + firstPart, buffer, 0, length - firstPart);
        }
    }

    /**
     * Write a little-endian int at {@code position}; it may straddle the end of the store.
     */
    void putIntLittleEndian(final long position, final int value)
    {
        final int index = index(position);
        if (index <= capacity - Integer.BYTES)
        {
            buffer.putInt(index, value, ByteOrder.LITTLE_ENDIAN);
        }
        else
        {
            for (int i = 0; i < Integer.BYTES; i++)
            {
                buffer.putByte(index(position + i), (byte)(value >>> (Byte.SIZE * i)));
            }
        }
    }

    /**
     * Read a little-endian int at {@code position}; it may straddle the end of the store.
     */
    int getIntLittleEndian(final long position)
    {
        final int index = index(position);
        if (index <= capacity - Integer.BYTES)
        {
            return buffer.getInt(index, ByteOrder.LITTLE_ENDIAN);
        }

        int value = 0;
        for (int i = 0; i < Integer.BYTES; i++)
        {
            value |= (buffer.getByte(index(position + i)) & 0xFF) << (Byte.SIZE * i);
        }
        return value;
    }

    long getPlain(final int slot, final int field)
    {
        return buffer.getLong(fieldOffset(slot, field));
    }

    void putPlain(final int slot, final int field, final long value)
    {
        buffer.putLong(fieldOffset(slot, field), value);
    }

    long getAcquire(final int slot, final int field)
    {
        return buffer.getLongAcquire(fieldOffset(slot, field));
    }

    void putRelease(final int slot, final int field, final long value)
    {
        buffer.putLongRelease(fieldOffset(slot, field), value);
    }

    boolean compareAndSet(final int slot, final int field, final long expected, final long update)
    {
        return buffer.compareAndSetLong(fieldOffset(slot, field), expected, update);
    }

    private int fieldOffset(final int slot, final int field)
    {
        return capacity + (slot + 1) * SLOT_STRIDE_BYTES + field * Long.BYTES;
    }
}
