package io.pacelink.fq;

import java.util.Arrays;

/**
 * Throttled flows ordered by {@link FqFlow#timeNextPacketNs}, ties in throttling order (sch_fq's {@code delayed}
 * rb-tree inserts equal keys to the right): a binary min-heap of pooled flow nodes, each knowing its index so it can
 * be removed in O(log n). The keys (deadline, throttling sequence) are kept in primitive arrays beside the nodes,
 * so sifting compares without touching the nodes: with thousands of flows most nodes are not in cache. A flow's
 * deadline does not change while it is throttled. No allocation except when the number of flows outgrows the
 * arrays.
 */
final class ThrottledFlows
{
    private FqFlow[] heap;
    private long[] deadlinesNs;
    private long[] sequences;
    private int size;
    private long nextSequence;

    ThrottledFlows(final int initialCapacity)
    {
        final int capacity = Math.max(1, initialCapacity);
        heap = new FqFlow[capacity];
        deadlinesNs = new long[capacity];
        sequences = new long[capacity];
    }

    int size()
    {
        return size;
    }

    boolean isEmpty()
    {
        return 0 == size;
    }

    /**
     * @return the flow with the earliest deadline, or null if none is throttled.
     */
    FqFlow peek()
    {
        return 0 == size ? null : heap[0];
    }

    void add(final FqFlow flow)
    {
        if (size == heap.length)
        {
            heap = Arrays.copyOf(heap, size * 2);
            deadlinesNs = Arrays.copyOf(deadlinesNs, size * 2);
            sequences = Arrays.copyOf(sequences, size * 2);
        }
        final int index = size++;
        place(flow, flow.timeNextPacketNs, nextSequence++, index);
        siftUp(index);
    }

    FqFlow poll()
    {
        final FqFlow first = heap[0];
        removeAt(0);
        return first;
    }

    void remove(final FqFlow flow)
    {
        removeAt(flow.heapIndex);
    }

    private void removeAt(final int index)
    {
        final FqFlow removed = heap[index];
        final int last = --size;
        if (index != last)
        {
            place(heap[last], deadlinesNs[last], sequences[last], index);
            final FqFlow moved = heap[index];
            siftDown(index);
            siftUp(moved.heapIndex);
        }
        heap[last] = null;
        removed.heapIndex = -1;
    }

    private void siftUp(final int start)
    {
        int index = start;
        final FqFlow flow = heap[index];
        final long deadlineNs = deadlinesNs[index];
        final long sequence = sequences[index];
        while (index > 0)
        {
            final int parent = (index - 1) >>> 1;
            if (!before(deadlineNs, sequence, parent))
            {
                break;
            }
            place(heap[parent], deadlinesNs[parent], sequences[parent], index);
            index = parent;
        }
        place(flow, deadlineNs, sequence, index);
    }

    private void siftDown(final int start)
    {
        int index = start;
        final FqFlow flow = heap[index];
        final long deadlineNs = deadlinesNs[index];
        final long sequence = sequences[index];
        final int half = size >>> 1;
        while (index < half)
        {
            int child = (index << 1) + 1;
            final int right = child + 1;
            if (right < size && before(deadlinesNs[right], sequences[right], child))
            {
                child = right;
            }
            // Sequences are unique, so "not before the child" means "after it".
            if (before(deadlineNs, sequence, child))
            {
                break;
            }
            place(heap[child], deadlinesNs[child], sequences[child], index);
            index = child;
        }
        place(flow, deadlineNs, sequence, index);
    }

    private void place(final FqFlow flow, final long deadlineNs, final long sequence, final int index)
    {
        heap[index] = flow;
        deadlinesNs[index] = deadlineNs;
        sequences[index] = sequence;
        flow.heapIndex = index;
    }

    /**
     * @return true if the key (deadline, sequence) orders before the entry at {@code index}.
     */
    private boolean before(final long deadlineNs, final long sequence, final int index)
    {
        return deadlineNs < deadlinesNs[index] || (deadlineNs == deadlinesNs[index] && sequence < sequences[index]);
    }
}
