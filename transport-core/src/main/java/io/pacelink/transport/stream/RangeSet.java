package io.pacelink.transport.stream;

import io.pacelink.transport.memory.MemoryBudget;

import java.util.Arrays;

/**
 * A set of stream positions kept as disjoint, non-adjacent half-open ranges {@code [start, end)}: adding merges
 * overlapping and touching ranges, removing may split one.
 * <p>
 * The ranges are the nodes of an AVL tree keyed by start, held in primitive arrays (starts, ends, children, heights)
 * with a free list, so every lookup, insertion and deletion is O(log n) whatever order a peer sends its ranges in
 * (a sorted array would shift every range behind an insertion: quadratic for fragments sent in descending order).
 * No library offers an ordered map of primitives that allocates nothing per entry (the JDK's and fastutil's trees
 * allocate a node per entry), which the receive path needs under loss.
 * <p>
 * The arrays grow by doubling up to {@code maxRanges}, so a set allocates only when it holds more ranges than ever
 * before, never in steady state. A set given a {@link MemoryBudget} charges it {@link #BYTES_PER_RANGE} for every
 * slot before it grows and refuses a range the budget has no room for, so what a peer makes it hold is memory
 * accounted like the stream buffers' (docs/security.md, "Memory"). Single-threaded.
 */
public final class RangeSet
{
    /**
     * Bytes of storage one range slot takes: its start and end, two child links and a height.
     */
    public static final int BYTES_PER_RANGE = 2 * Long.BYTES + 2 * Integer.BYTES + Byte.BYTES;

    private static final int MIN_CAPACITY = 4;
    private static final int NIL = -1;

    private final int maxRanges;
    private final MemoryBudget budget;
    private boolean isMemoryReleased;
    private long[] starts;
    private long[] ends;
    private int[] lefts;
    private int[] rights;
    private byte[] heights;
    private int root = NIL;
    private int size;
    private int freeList = NIL;
    private int neverUsed;
    private long coveredLength;
    private int detachedMinimum;

    /**
     * @param initialCapacity number of ranges preallocated.
     * @param maxRanges       the most ranges the set may hold; {@link #add} and {@link #remove} refuse to go beyond.
     */
    public RangeSet(final int initialCapacity, final int maxRanges)
    {
        this(initialCapacity, maxRanges, null);
    }

    /**
     * @param initialCapacity number of ranges preallocated (charged to the budget whatever its limit, as the
     *                        creator's own commitment).
     * @param maxRanges       the most ranges the set may hold; {@link #add} and {@link #remove} refuse to go beyond.
     * @param budget          charged for the slots before they are allocated, or null for none;
     *                        {@link #releaseMemory()} credits them back.
     */
    public RangeSet(final int initialCapacity, final int maxRanges, final MemoryBudget budget)
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
        this.budget = budget;
        if (null != budget)
        {
            budget.commit((long)initialCapacity * BYTES_PER_RANGE);
        }
        this.starts = new long[initialCapacity];
        this.ends = new long[initialCapacity];
        this.lefts = new int[initialCapacity];
        this.rights = new int[initialCapacity];
        this.heights = new byte[initialCapacity];
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
     * @return bytes of range storage allocated now (slots, used or free).
     */
    public long allocatedBytes()
    {
        return (long)starts.length * BYTES_PER_RANGE;
    }

    /**
     * Credit the budget with every slot allocated, once the set is no longer used. Idempotent.
     */
    public void releaseMemory()
    {
        if (null != budget && !isMemoryReleased)
        {
            isMemoryReleased = true;
            budget.release(allocatedBytes());
        }
    }

    /**
     * @return the first position of the lowest range.
     * @throws IllegalStateException if the set is empty.
     */
    public long firstStart()
    {
        return starts[first()];
    }

    /**
     * @return the position just after the lowest range.
     * @throws IllegalStateException if the set is empty.
     */
    public long firstEnd()
    {
        return ends[first()];
    }

    /**
     * @return the sum of the ranges' lengths.
     */
    public long coveredLength()
    {
        return coveredLength;
    }

    /**
     * Add {@code [start, end)}, merging it with every range it overlaps or touches.
     *
     * @param start first position.
     * @param end   position after the last; an empty range ({@code end <= start}) changes nothing.
     * @return false, leaving the set unchanged, if the range needs a new slot and the set already holds
     * {@link #maxRanges()} ranges or the memory budget refuses the storage for more.
     */
    public boolean add(final long start, final long end)
    {
        if (end <= start)
        {
            return true;
        }

        final int before = floor(start);
        final int merged = NIL != before && ends[before] >= start ? before : ceiling(start);
        if (NIL == merged || starts[merged] > end)
        {
            if (!reserveSlot())
            {
                return false;
            }
            insert(start, end);
            coveredLength += end - start;
            return true;
        }

        // Every later range that starts at or before the end is swallowed; ranges are disjoint and non-adjacent, so
        // none beyond the last of them can touch the merged range.
        long newEnd = Math.max(end, ends[merged]);
        for (int next = higher(starts[merged]); NIL != next && starts[next] <= end; next = higher(starts[merged]))
        {
            newEnd = Math.max(newEnd, ends[next]);
            coveredLength -= ends[next] - starts[next];
            root = delete(root, starts[next]);
            size--;
        }
        // Changing the key in place keeps the order: nothing lies between the previous range and the new start.
        coveredLength -= ends[merged] - starts[merged];
        starts[merged] = Math.min(starts[merged], start);
        ends[merged] = newEnd;
        coveredLength += newEnd - starts[merged];
        return true;
    }

    /**
     * Remove {@code [start, end)}; a range that contains it strictly is split in two.
     *
     * @param start first position.
     * @param end   position after the last; an empty range changes nothing.
     * @return false, leaving the set unchanged, if a split needs a new slot and the set already holds
     * {@link #maxRanges()} ranges or the memory budget refuses the storage for more.
     */
    public boolean remove(final long start, final long end)
    {
        if (end <= start)
        {
            return true;
        }

        final int before = floor(start);
        if (NIL != before && starts[before] < start && ends[before] > start)
        {
            final long beforeEnd = ends[before];
            if (beforeEnd > end)
            {
                if (!reserveSlot())
                {
                    return false;
                }
                ends[before] = start;
                insert(end, beforeEnd);
                coveredLength -= end - start;
                return true;
            }
            ends[before] = start;
            coveredLength -= beforeEnd - start;
        }

        for (int node = ceiling(start); NIL != node && starts[node] < end; node = ceiling(start))
        {
            if (ends[node] > end)
            {
                coveredLength -= end - starts[node];
                starts[node] = end;
                break;
            }
            coveredLength -= ends[node] - starts[node];
            root = delete(root, starts[node]);
            size--;
        }
        return true;
    }

    /**
     * Remove the range with the lowest positions.
     *
     * @throws IllegalStateException if the set is empty.
     */
    public void removeFirst()
    {
        final int first = first();
        coveredLength -= ends[first] - starts[first];
        root = delete(root, starts[first]);
        size--;
    }

    /**
     * Remove every range.
     */
    public void clear()
    {
        root = NIL;
        size = 0;
        freeList = NIL;
        neverUsed = 0;
        coveredLength = 0;
    }

    /**
     * @param position to look up.
     * @return the end of the range containing {@code position}, or {@code position} itself if no range does: the
     * first position at or after it that is not in the set.
     */
    public long coveredEnd(final long position)
    {
        final int node = floor(position);
        return NIL != node && ends[node] > position ? ends[node] : position;
    }

    /**
     * @param position to look up.
     * @return the smallest range start greater than {@code position}, or {@link Long#MAX_VALUE} if there is none.
     */
    public long nextStart(final long position)
    {
        final int node = higher(position);
        return NIL == node ? Long.MAX_VALUE : starts[node];
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
     * @return the ranges in order; allocates, for tests and diagnostics.
     */
    public String toString()
    {
        final StringBuilder builder = new StringBuilder("RangeSet{");
        appendInOrder(root, builder);
        return builder.append('}').toString();
    }

    private void appendInOrder(final int node, final StringBuilder builder)
    {
        if (NIL != node)
        {
            appendInOrder(lefts[node], builder);
            builder.append(builder.length() > "RangeSet{".length() ? ", " : "")
                .append('[').append(starts[node]).append(", ").append(ends[node]).append(')');
            appendInOrder(rights[node], builder);
        }
    }

    // ---------------------------------------------------------------- lookups

    private int first()
    {
        if (NIL == root)
        {
            throw new IllegalStateException("the set is empty");
        }
        int node = root;
        while (NIL != lefts[node])
        {
            node = lefts[node];
        }
        return node;
    }

    /**
     * @return the range with the largest start at or below the position, or {@link #NIL}.
     */
    private int floor(final long position)
    {
        int found = NIL;
        int node = root;
        while (NIL != node)
        {
            if (starts[node] <= position)
            {
                found = node;
                node = rights[node];
            }
            else
            {
                node = lefts[node];
            }
        }
        return found;
    }

    /**
     * @return the range with the smallest start at or above the position, or {@link #NIL}.
     */
    private int ceiling(final long position)
    {
        int found = NIL;
        int node = root;
        while (NIL != node)
        {
            if (starts[node] >= position)
            {
                found = node;
                node = lefts[node];
            }
            else
            {
                node = rights[node];
            }
        }
        return found;
    }

    /**
     * @return the range with the smallest start above the position, or {@link #NIL}.
     */
    private int higher(final long position)
    {
        return position == Long.MAX_VALUE ? NIL : ceiling(position + 1);
    }

    // ---------------------------------------------------------------- AVL tree

    private void insert(final long start, final long end)
    {
        final int node = allocate();
        starts[node] = start;
        ends[node] = end;
        lefts[node] = NIL;
        rights[node] = NIL;
        heights[node] = 1;
        root = insert(root, node);
        size++;
    }

    private int insert(final int subtree, final int node)
    {
        if (NIL == subtree)
        {
            return node;
        }
        if (starts[node] < starts[subtree])
        {
            lefts[subtree] = insert(lefts[subtree], node);
        }
        else
        {
            rights[subtree] = insert(rights[subtree], node);
        }
        return balance(subtree);
    }

    /**
     * Remove the node keyed {@code start} from a subtree. A node with two children is replaced by the node of its
     * successor (relinked, not copied), so the indices of surviving ranges never change.
     */
    private int delete(final int subtree, final long start)
    {
        if (starts[subtree] > start)
        {
            lefts[subtree] = delete(lefts[subtree], start);
            return balance(subtree);
        }
        if (starts[subtree] < start)
        {
            rights[subtree] = delete(rights[subtree], start);
            return balance(subtree);
        }

        final int left = lefts[subtree];
        final int right = rights[subtree];
        release(subtree);
        if (NIL == left || NIL == right)
        {
            return NIL == left ? right : left;
        }
        final int remainingRight = detachMinimum(right);
        final int successor = detachedMinimum;
        lefts[successor] = left;
        rights[successor] = remainingRight;
        return balance(successor);
    }

    /**
     * Detach the leftmost node of a subtree into {@link #detachedMinimum}.
     *
     * @return the subtree without it.
     */
    private int detachMinimum(final int subtree)
    {
        if (NIL == lefts[subtree])
        {
            detachedMinimum = subtree;
            return rights[subtree];
        }
        lefts[subtree] = detachMinimum(lefts[subtree]);
        return balance(subtree);
    }

    private int balance(final int node)
    {
        updateHeight(node);
        final int balance = height(lefts[node]) - height(rights[node]);
        if (balance > 1)
        {
            if (height(lefts[lefts[node]]) < height(rights[lefts[node]]))
            {
                lefts[node] = rotateLeft(lefts[node]);
            }
            return rotateRight(node);
        }
        if (balance < -1)
        {
            if (height(rights[rights[node]]) < height(lefts[rights[node]]))
            {
                rights[node] = rotateRight(rights[node]);
            }
            return rotateLeft(node);
        }
        return node;
    }

    private int rotateRight(final int node)
    {
        final int pivot = lefts[node];
        lefts[node] = rights[pivot];
        rights[pivot] = node;
        updateHeight(node);
        updateHeight(pivot);
        return pivot;
    }

    private int rotateLeft(final int node)
    {
        final int pivot = rights[node];
        rights[node] = lefts[pivot];
        lefts[pivot] = node;
        updateHeight(node);
        updateHeight(pivot);
        return pivot;
    }

    private void updateHeight(final int node)
    {
        heights[node] = (byte)(1 + Math.max(height(lefts[node]), height(rights[node])));
    }

    private int height(final int node)
    {
        return NIL == node ? 0 : heights[node];
    }

    // ---------------------------------------------------------------- node storage

    /**
     * Make sure a new range has a slot: below the limit, and with storage for it, grown (and charged) if need be.
     *
     * @return false if the set holds {@link #maxRanges()} ranges or the budget refuses the growth.
     */
    private boolean reserveSlot()
    {
        if (size == maxRanges)
        {
            return false;
        }
        if (NIL != freeList || neverUsed < starts.length)
        {
            return true;
        }
        final int newCapacity = nextCapacity();
        if (null != budget && (isMemoryReleased ||
            !budget.tryCommit((long)(newCapacity - starts.length) * BYTES_PER_RANGE)))
        {
            return false;
        }
        starts = Arrays.copyOf(starts, newCapacity);
        ends = Arrays.copyOf(ends, newCapacity);
        lefts = Arrays.copyOf(lefts, newCapacity);
        rights = Arrays.copyOf(rights, newCapacity);
        heights = Arrays.copyOf(heights, newCapacity);
        return true;
    }

    private int nextCapacity()
    {
        return (int)Math.min(maxRanges, Math.max(MIN_CAPACITY, 2L * starts.length));
    }

    private int allocate()
    {
        if (NIL != freeList)
        {
            final int node = freeList;
            freeList = lefts[node];
            return node;
        }
        // A slot is there: callers reserve it first.
        return neverUsed++;
    }

    private void release(final int node)
    {
        lefts[node] = freeList;
        freeList = node;
    }
}
