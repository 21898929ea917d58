package io.pacelink.transport.stream;

import java.util.Arrays;

/**
 * A set of stream positions kept as disjoint, non-adjacent half-open ranges {@code [start, end)} sorted by start, in
 * two primitive arrays. Adding merges overlapping and touching ranges; removing may split one.
 * <p>
 * The arrays grow by doubling up to {@code maxRanges}, so a set allocates only when it holds more ranges than ever
 * before, never in steady state. Lookups are binary searches; inserting or deleting in the middle shifts the ranges
 * behind it, which is cheap because the sets held by stream logs have few ranges (one per gap). Single-threaded.
 */
public final class RangeSet
{
    private static final int MIN_CAPACITY = 4;

    private final int maxRanges;
    private long[] starts;
    private long[] ends;
    private int size;

    /**
     * @param initialCapacity number of ranges preallocated.
     * @param maxRanges       the most ranges the set may hold; {@link #add} and {@link #remove} refuse to go beyond.
     */
    public RangeSet(final int initialCapacity, final int maxRanges)
    {
        if (maxRanges < 1)
        {
            throw new IllegalArgumentException("maxRanges must be positive: " + maxRanges);
        }
        if (initialCapacity < 0 || initialCapacity > maxRanges)
        {
            throw new IllegalArgumentException(
                "initialCapacity must be in [0, maxRanges=" + maxRanges + "]: " + initialCapacity);
        }
        this.maxRanges = maxRanges;
        this.starts = new long[initialCapacity];
        this.ends = new long[initialCapacity];
    }

    /**
     * @return the number of disjoint ranges.
     */
    public int size()
    {
        return size;
    }

    /**
     * @return true if the set holds no position.
     */
    public boolean isEmpty()
    {
        return 0 == size;
    }

    /**
     * @return the most ranges the set may hold.
     */
    public int maxRanges()
    {
        return maxRanges;
    }

    /**
     * @param index of the range, in [0, size).
     * @return the range's first position.
     */
    public long start(final int index)
    {
        checkIndex(index);
        return starts[index];
    }

    /**
     * @param index of the range, in [0, size).
     * @return the position just after the range.
     */
    public long end(final int index)
    {
        checkIndex(index);
        return ends[index];
    }

    /**
     * @return the sum of the ranges' lengths.
     */
    public long coveredLength()
    {
        long length = 0;
        for (int i = 0; i < size; i++)
        {
            length += ends[i] - starts[i];
        }
        return length;
    }

    /**
     * Add {@code [start, end)}, merging it with every range it overlaps or touches.
     *
     * @param start first position.
     * @param end   position after the last; an empty range ({@code end <= start}) changes nothing.
     * @return false, leaving the set unchanged, if the range needs a new slot and the set already holds
     * {@link #maxRanges()} ranges.
     */
    public boolean add(final long start, final long end)
    {
        if (end <= start)
        {
            return true;
        }

        final int first = firstEndAtOrAfter(start);
        final int last = firstStartAfter(end);
        if (first == last)
        {
            if (!ensureCapacity(size + 1))
            {
                return false;
            }
            System.arraycopy(starts, first, starts, first + 1, size - first);
            System.arraycopy(ends, first, ends, first + 1, size - first);
            starts[first] = start;
            ends[first] = end;
            size++;
        }
        else
        {
            starts[first] = Math.min(starts[first], start);
            ends[first] = Math.max(ends[last - 1], end);
            delete(first + 1, last);
        }

        return true;
    }

    /**
     * Remove {@code [start, end)}; a range that contains it strictly is split in two.
     *
     * @param start first position.
     * @param end   position after the last; an empty range changes nothing.
     * @return false, leaving the set unchanged, if a split needs a new slot and the set already holds
     * {@link #maxRanges()} ranges.
     */
    public boolean remove(final long start, final long end)
    {
        if (end <= start)
        {
            return true;
        }

        int first = firstEndAfter(start);
        int last = firstStartAtOrAfter(end);
        if (first >= last)
        {
            return true;
        }

        if (last - first == 1 && starts[first] < start && ends[first] > end)
        {
            if (!ensureCapacity(size + 1))
            {
                return false;
            }
            System.arraycopy(starts, first + 1, starts, first + 2, size - first - 1);
            System.arraycopy(ends, first, ends, first + 1, size - first);
            ends[first] = start;
            starts[first + 1] = end;
            size++;
            return true;
        }

        if (starts[first] < start)
        {
            ends[first] = start;
            first++;
        }
        if (ends[last - 1] > end)
        {
            starts[last - 1] = end;
            last--;
        }
        delete(first, last);

        return true;
    }

    /**
     * Remove the range with the lowest positions.
     */
    public void removeFirst()
    {
        checkIndex(0);
        delete(0, 1);
    }

    /**
     * Remove every range.
     */
    public void clear()
    {
        size = 0;
    }

    /**
     * @param position to look up.
     * @return the end of the range containing {@code position}, or {@code position} itself if no range does: the
     * first position at or after it that is not in the set.
     */
    public long coveredEnd(final long position)
    {
        final int index = firstEndAfter(position);
        return index < size && starts[index] <= position ? ends[index] : position;
    }

    /**
     * @param position to look up.
     * @return the smallest range start greater than {@code position}, or {@link Long#MAX_VALUE} if there is none.
     */
    public long nextStart(final long position)
    {
        int index = firstEndAfter(position);
        if (index < size && starts[index] <= position)
        {
            index++;
        }
        return index < size ? starts[index] : Long.MAX_VALUE;
    }

    /**
     * @param start first position.
     * @param end   position after the last.
     * @return true if every position of {@code [start, end)} is in the set (true for an empty range).
     */
    public boolean contains(final long start, final long end)
    {
        return end <= start || coveredEnd(start) >= end;
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        final StringBuilder builder = new StringBuilder("RangeSet{");
        for (int i = 0; i < size; i++)
        {
            builder.append(i == 0 ? "" : ", ").append('[').append(starts[i]).append(", ").append(ends[i]).append(')');
        }
        return builder.append('}').toString();
    }

    private int firstEndAfter(final long position)
    {
        int low = 0;
        int high = size;
        while (low < high)
        {
            final int middle = (low + high) >>> 1;
            if (ends[middle] > position)
            {
                high = middle;
            }
            else
            {
                low = middle + 1;
            }
        }
        return low;
    }

    private int firstEndAtOrAfter(final long position)
    {
        return firstEndAfter(position - 1);
    }

    private int firstStartAfter(final long position)
    {
        int low = 0;
        int high = size;
        while (low < high)
        {
            final int middle = (low + high) >>> 1;
            if (starts[middle] > position)
            {
                high = middle;
            }
            else
            {
                low = middle + 1;
            }
        }
        return low;
    }

    private int firstStartAtOrAfter(final long position)
    {
        return firstStartAfter(position - 1);
    }

    private void delete(final int from, final int to)
    {
        final int count = to - from;
        if (count > 0)
        {
            System.arraycopy(starts, to, starts, from, size - to);
            System.arraycopy(ends, to, ends, from, size - to);
            size -= count;
        }
    }

    private boolean ensureCapacity(final int required)
    {
        if (required <= starts.length)
        {
            return true;
        }
        if (required > maxRanges)
        {
            return false;
        }
        final int newCapacity = (int)Math.min(maxRanges, Math.max(MIN_CAPACITY, 2L * starts.length));
        starts = Arrays.copyOf(starts, newCapacity);
        ends = Arrays.copyOf(ends, newCapacity);
        return true;
    }

    private void checkIndex(final int index)
    {
        if (index < 0 || index >= size)
        {
            throw new IndexOutOfBoundsException("index=" + index + " size=" + size);
        }
    }
}
