package io.pacelink.sim;

import java.util.Arrays;

/**
 * Indexed binary min-heap of {@link SimEvent}s ordered by (time, sequence). Each event knows its position, so
 * rescheduling one moves it in place: O(log n) without allocation.
 */
final class EventQueue
{
    private SimEvent[] heap = new SimEvent[64];
    private int size;

    void schedule(final SimEvent event, final long timeNs, final long sequence)
    {
        event.timeNs = timeNs;
        event.sequence = sequence;
        if (event.isScheduled())
        {
            final int index = event.heapIndex;
            if (index > 0 && before(event, heap[(index - 1) >>> 1]))
            {
                siftUp(index, event);
            }
            else
            {
                siftDown(index, event);
            }
        }
        else
        {
            if (size == heap.length)
            {
                heap = Arrays.copyOf(heap, size << 1);
            }
            siftUp(size++, event);
        }
    }

    SimEvent peek()
    {
        return size == 0 ? null : heap[0];
    }

    SimEvent poll()
    {
        if (size == 0)
        {
            return null;
        }
        final SimEvent first = heap[0];
        removeAt(0);
        return first;
    }

    void cancel(final SimEvent event)
    {
        if (event.isScheduled())
        {
            removeAt(event.heapIndex);
        }
    }

    int size()
    {
        return size;
    }

    private void removeAt(final int index)
    {
        final SimEvent removed = heap[index];
        removed.heapIndex = -1;
        final SimEvent last = heap[--size];
        heap[size] = null;
        if (index < size)
        {
            siftDown(index, last);
            if (heap[index] == last)
            {
                siftUp(index, last);
            }
        }
    }

    private void siftUp(final int start, final SimEvent event)
    {
        int index = start;
        while (index > 0)
        {
            final int parent = (index - 1) >>> 1;
            final SimEvent parentEvent = heap[parent];
            if (!before(event, parentEvent))
            {
                break;
            }
            place(parentEvent, index);
            index = parent;
        }
        place(event, index);
    }

    private void siftDown(final int start, final SimEvent event)
    {
        int index = start;
        while (true)
        {
            int child = (index << 1) + 1;
            if (child >= size)
            {
                break;
            }
            if (child + 1 < size && before(heap[child + 1], heap[child]))
            {
                child++;
            }
            if (!before(heap[child], event))
            {
                break;
            }
            place(heap[child], index);
            index = child;
        }
        place(event, index);
    }

    private void place(final SimEvent event, final int index)
    {
        heap[index] = event;
        event.heapIndex = index;
    }

    private static boolean before(final SimEvent a, final SimEvent b)
    {
        return a.timeNs < b.timeNs || (a.timeNs == b.timeNs && a.sequence < b.sequence);
    }
}
