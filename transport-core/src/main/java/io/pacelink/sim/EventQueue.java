package io.pacelink.sim;

import java.util.Arrays;

/**
 * Indexed 4-ary min-heap of {@link SimEvent}s ordered by (time, sequence). Each event knows its position, so
 * rescheduling one moves it in place: O(log n) without allocation.
 * <p>
 * Four children per place rather than two halve the heap's depth (three levels instead of seven for the hundred-odd
 * events of 50 flows), so a poll or a reschedule moves half as many events, and each move writes the moved event's
 * position into the event object, a cache line of its own; the four children a sift compares lie side by side in
 * the arrays below. A d-ary heap with d = 4 is the usual choice for this trade (D. B. Johnson, "Priority queues with
 * update and finding minimum spanning trees", Information Processing Letters 4(3), 1975; LaMarca and Ladner, "The
 * influence of caches on the performance of heaps", ACM JEA 1, 1996).
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

    /**
     * Children per place.
     */
    private static final int ARITY = 4;

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
            if (index > 0 && before(timeNs, sequence, parent(index)))
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
            if (index > 0 && before(lastTimeNs, lastSequence, parent(index)))
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
            final int parent = parent(index);
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
            final int first = (index << 2) + 1;
            if (first >= size)
            {
                break;
            }
            int child = first;
            long childTimeNs = timesNs[first];
            long childSequence = sequences[first];
            for (int other = first + 1, end = Math.min(first + ARITY, size); other < end; other++)
            {
                final long otherTimeNs = timesNs[other];
                final long otherSequence = sequences[other];
                if (before(otherTimeNs, otherSequence, childTimeNs, childSequence))
                {
                    child = other;
                    childTimeNs = otherTimeNs;
                    childSequence = otherSequence;
                }
            }
            if (!before(childTimeNs, childSequence, timeNs, sequence))
            {
                break;
            }
            move(child, index);
            index = child;
        }
        place(event, timeNs, sequence, index);
    }

    private static int parent(final int index)
    {
        return (index - 1) >>> 2;
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
