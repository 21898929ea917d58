package io.pacelink.transport.engine;

import java.util.Arrays;

/**
 * Entries ordered by deadline in a binary min-heap (an "indexed" heap: each entry knows its place, so its deadline can
 * be moved or removed in O(log n) without a search). The earliest deadline is the root, read in O(1); taking the due
 * entries costs O(log n) each. No garbage once grown: the arrays double when full and never shrink.
 * <p>
 * Chosen over Agrona's {@code DeadlineTimerWheel} (which this class replaced for the connections' timers) because the
 * endpoint must know its earliest deadline after every change to sleep until it, and the wheel has no query for it:
 * its only view of the timers it holds is a pass over all of them ({@code forEach}), which made each expiry of the
 * earliest timer cost O(connections) (10,000 idle connections' keep-alives, one after another). Neither Agrona nor
 * JCTools has a priority queue whose entries can be moved or removed; {@link java.util.PriorityQueue} removes in O(n)
 * and boxes.
 *
 * @param <E> the entries: each stores its own place ({@link Entry}).
 */
final class DeadlineHeap<E extends DeadlineHeap.Entry>
{
    /**
     * {@link Entry#heapIndex()} of an entry that is not in the heap.
     */
    static final int NOT_QUEUED = -1;

    private static final int INITIAL_CAPACITY = 16;

    /**
     * An entry of the heap: where it is, kept by the heap.
     */
    interface Entry
    {
        /**
         * @return its place in the heap, {@link #NOT_QUEUED} if it is not in one.
         */
        int heapIndex();

        /**
         * @param index its place in the heap, {@link #NOT_QUEUED} when it leaves it.
         */
        void heapIndex(int index);
    }

    private Entry[] entries = new Entry[INITIAL_CAPACITY];
    private long[] deadlinesNs = new long[INITIAL_CAPACITY];
    private int size;

    /**
     * Put the entry in the heap at its deadline, or move it there if it is in the heap already.
     *
     * @param entry      the entry.
     * @param deadlineNs its deadline.
     */
    void schedule(final E entry, final long deadlineNs)
    {
        final int index = entry.heapIndex();
        if (NOT_QUEUED == index)
        {
            if (size == entries.length)
            {
                entries = Arrays.copyOf(entries, 2 * size);
                deadlinesNs = Arrays.copyOf(deadlinesNs, 2 * size);
            }
            siftUp(size++, entry, deadlineNs);
        }
        else if (deadlineNs < deadlinesNs[index])
        {
            siftUp(index, entry, deadlineNs);
        }
        else
        {
            siftDown(index, entry, deadlineNs);
        }
    }

    /**
     * Take the entry out of the heap; nothing if it is not in it.
     *
     * @param entry the entry.
     */
    void remove(final E entry)
    {
        final int index = entry.heapIndex();
        if (NOT_QUEUED == index)
        {
            return;
        }
        entry.heapIndex(NOT_QUEUED);
        final int last = --size;
        final Entry moved = entries[last];
        final long movedDeadlineNs = deadlinesNs[last];
        entries[last] = null;
        if (index != last)
        {
            if (movedDeadlineNs < deadlinesNs[index])
            {
                siftUp(index, moved, movedDeadlineNs);
            }
            else
            {
                siftDown(index, moved, movedDeadlineNs);
            }
        }
    }

    /**
     * @return the earliest deadline, {@link Long#MAX_VALUE} if the heap is empty.
     */
    long earliestDeadlineNs()
    {
        return 0 == size ? Long.MAX_VALUE : deadlinesNs[0];
    }

    /**
     * Take out the entry with the earliest deadline if that deadline is at or before {@code nowNs}.
     *
     * @param nowNs the current time.
     * @return the entry, or null if none is due.
     */
    @SuppressWarnings("unchecked")
    E pollDue(final long nowNs)
    {
        if (0 == size || deadlinesNs[0] > nowNs)
        {
            return null;
        }
        final E earliest = (E)entries[0];
        remove(earliest);
        return earliest;
    }

    /**
     * @param entry an entry in the heap.
     * @return its deadline.
     */
    long deadlineNs(final E entry)
    {
        return deadlinesNs[entry.heapIndex()];
    }

    /**
     * @return entries in the heap.
     */
    int size()
    {
        return size;
    }

    /**
     * Place {@code entry} at {@code index} or above it, moving the later parents down.
     */
    private void siftUp(final int index, final Entry entry, final long deadlineNs)
    {
        final Entry[] entries = this.entries;
        final long[] deadlinesNs = this.deadlinesNs;
        int i = index;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 1;
            if (deadlinesNs[parent] <= deadlineNs)
            {
                break;
            }
            place(i, entries[parent], deadlinesNs[parent]);
            i = parent;
        }
        place(i, entry, deadlineNs);
    }

    /**
     * Place {@code entry} at {@code index} or below it, moving the earlier children up.
     */
    private void siftDown(final int index, final Entry entry, final long deadlineNs)
    {
        final Entry[] entries = this.entries;
        final long[] deadlinesNs = this.deadlinesNs;
        final int size = this.size;
        int i = index;
        while (true)
        {
            int child = 2 * i + 1;
            if (child >= size)
            {
                break;
            }
            if (child + 1 < size && deadlinesNs[child + 1] < deadlinesNs[child])
            {
                child++;
            }
            if (deadlineNs <= deadlinesNs[child])
            {
                break;
            }
            place(i, entries[child], deadlinesNs[child]);
            i = child;
        }
        place(i, entry, deadlineNs);
    }

    private void place(final int index, final Entry entry, final long deadlineNs)
    {
        entries[index] = entry;
        deadlinesNs[index] = deadlineNs;
        entry.heapIndex(index);
    }
}
