package io.pacelink.sim;

import java.util.Arrays;

/**
 * Indexed binary min-heap of {@link SimEvent}s ordered by (time, sequence). Each event knows its position, so
 * rescheduling one moves it in place: O(log n) without allocation.
 * <p>
 * Each place's time and sequence are kept in arrays beside the events, so that sifting compares longs that lie next to
 * each other instead of loading every event object it passes (one cache line each, scattered over the heap): with 50
 * flows a hundred agents' events are queued and the queue's own share of a run grew with the misses. The order is the
 * same total order on (time, sequence), so the events fire as before and trace hashes do not change. Neither Agrona
 * nor JCTools has a priority queue whose entries can be moved or removed; {@link java.util.PriorityQueue} removes in
 * O(n).
 */
final class EventQueue
{
    private static final int INITIAL_CAPACITY = 64;

    private SimEvent[] heap = new SimEvent[INITIAL_CAPACITY];
    private long[] timesNs = new long[INITIAL_CAPACITY];
    private long[] sequences = new long[INITIAL_CAPACITY];
    private int size;

    void schedule(final SimEvent event, final long timeNs, final long sequence)
    {
        event.timeNs = timeNs;
        event.sequence = sequence;
        if (event.isScheduled())
        {
            final int index = event.heapIndex;
            if (index > 0 && before(timeNs, sequence, (index - 1) >>> 1))
            {
                siftUp(index, event, timeNs, sequence);
            }
            else
            {
                siftDown(index, event, timeNs, sequence);
            }
        }
        else
        {
            if (size == heap.length)
            {
                heap = Arrays.copyOf(heap, size << 1);
                timesNs = Arrays.copyOf(timesNs, size << 1);
                sequences = Arrays.copyOf(sequences, size << 1);
            }
            siftUp(size++, event, timeNs, sequence);
        }
    }

    /**
     * @return the time of the first event, {@link Long#MAX_VALUE} when there is none.
     */
    long firstTimeNs()
    {
        return size == 0 ? Long.MAX_VALUE : timesNs[0];
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
        final int lastIndex = --size;
        final SimEvent last = heap[lastIndex];
        final long lastTimeNs = timesNs[lastIndex];
        final long lastSequence = sequences[lastIndex];
        heap[lastIndex] = null;
        if (index < lastIndex)
        {
            if (index > 0 && before(lastTimeNs, lastSequence, (index - 1) >>> 1))
            {
                siftUp(index, last, lastTimeNs, lastSequence);
            }
            else
            {
                siftDown(index, last, lastTimeNs, lastSequence);
            }
        }
    }

    private void siftUp(final int start, final SimEvent event, final long timeNs, final long sequence)
    {
        int index = start;
        while (index > 0)
        {
            final int parent = (index - 1) >>> 1;
            if (!before(timeNs, sequence, parent))
            {
                break;
            }
            move(parent, index);
            index = parent;
        }
        place(event, timeNs, sequence, index);
    }

    private void siftDown(final int start, final SimEvent event, final long timeNs, final long sequence)
    {
        int index = start;
        final int size = this.size;
        while (true)
        {
            int child = (index << 1) + 1;
            if (child >= size)
            {
                break;
            }
            final int right = child + 1;
            if (right < size && before(timesNs[right], sequences[right], child))
            {
                child = right;
            }
            if (!before(timesNs[child], sequences[child], timeNs, sequence))
            {
                break;
            }
            move(child, index);
            index = child;
        }
        place(event, timeNs, sequence, index);
    }

    private void move(final int from, final int to)
    {
        final SimEvent event = heap[from];
        heap[to] = event;
        timesNs[to] = timesNs[from];
        sequences[to] = sequences[from];
        event.heapIndex = to;
    }

    private void place(final SimEvent event, final long timeNs, final long sequence, final int index)
    {
        heap[index] = event;
        timesNs[index] = timeNs;
        sequences[index] = sequence;
        event.heapIndex = index;
    }

    /**
     * @return true if (timeNs, sequence) orders before the event at {@code index}.
     */
    private boolean before(final long timeNs, final long sequence, final int index)
    {
        return before(timeNs, sequence, timesNs[index], sequences[index]);
    }

    private static boolean before(
        final long timeNs, final long sequence, final long otherTimeNs, final long otherSequence)
    {
        return timeNs < otherTimeNs || (timeNs == otherTimeNs && sequence < otherSequence);
    }
}
