package io.pacelink.fq;

import java.util.Arrays;

/**
 * Throttled flows ordered by {@link FqFlow#timeNextPacketNs}, ties in throttling order (sch_fq's {@code delayed}
 * rb-tree inserts equal keys to the right): a binary min-heap of pooled flow nodes, each knowing its index so it can
 * be removed in O(log n). No allocation except when the number of flows outgrows the array.
 */
final class ThrottledFlows
{
    private FqFlow[] heap;
    private int size;
    private long nextSequence;

    ThrottledFlows(final int initialCapacity)
    {
        heap = new FqFlow[Math.max(1, initialCapacity)];
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
        }
        flow.throttleSequence = nextSequence++;
        heap[size] = flow;
        flow.heapIndex = size;
        siftUp(size++);
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
            final FqFlow moved = heap[last];
            heap[index] = moved;
            moved.heapIndex = index;
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
        while (index > 0)
        {
            final int parent = (index - 1) >>> 1;
            final FqFlow parentFlow = heap[parent];
            if (!before(flow, parentFlow))
            {
                break;
            }
            heap[index] = parentFlow;
            parentFlow.heapIndex = index;
            index = parent;
        }
        heap[index] = flow;
        flow.heapIndex = index;
    }

    private void siftDown(final int start)
    {
        int index = start;
        final FqFlow flow = heap[index];
        final int half = size >>> 1;
        while (index < half)
        {
            int child = (index << 1) + 1;
            final int right = child + 1;
            if (right < size && before(heap[right], heap[child]))
            {
                child = right;
            }
            if (!before(heap[child], flow))
            {
                break;
            }
            heap[index] = heap[child];
            heap[index].heapIndex = index;
            index = child;
        }
        heap[index] = flow;
        flow.heapIndex = index;
    }

    private static boolean before(final FqFlow a, final FqFlow b)
    {
        return a.timeNextPacketNs < b.timeNextPacketNs ||
            (a.timeNextPacketNs == b.timeNextPacketNs && a.throttleSequence < b.throttleSequence);
    }
}
