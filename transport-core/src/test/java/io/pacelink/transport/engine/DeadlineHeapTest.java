package io.pacelink.transport.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The heap against a plain list of deadlines: after any sequence of schedules, moves, removals and expiries the
 * earliest deadline is exactly the smallest one held (not a tick early or late), and taking the due entries takes
 * every entry whose deadline has passed and no other.
 */
class DeadlineHeapTest
{
    private static final class Timer implements DeadlineHeap.Entry
    {
        private final int id;
        private int heapIndex = DeadlineHeap.NOT_QUEUED;
        private long deadlineNs = Long.MAX_VALUE;

        Timer(final int id)
        {
            this.id = id;
        }

        public int heapIndex()
        {
            return heapIndex;
        }

        public void heapIndex(final int index)
        {
            heapIndex = index;
        }

        public String toString()
        {
            return "timer " + id + " at " + deadlineNs;
        }
    }

    private final DeadlineHeap<Timer> heap = new DeadlineHeap<>();

    private static long earliestOf(final List<Timer> timers)
    {
        long earliestNs = Long.MAX_VALUE;
        for (final Timer timer : timers)
        {
            earliestNs = Math.min(earliestNs, timer.deadlineNs);
        }
        return earliestNs;
    }

    private void schedule(final Timer timer, final long deadlineNs)
    {
        heap.schedule(timer, deadlineNs);
        timer.deadlineNs = deadlineNs;
    }

    @Test
    void anEmptyHeapHasNoDeadlineAndNothingDue()
    {
        assertEquals(Long.MAX_VALUE, heap.earliestDeadlineNs());
        assertNull(heap.pollDue(Long.MAX_VALUE));
        heap.remove(new Timer(0)); // not in the heap: nothing happens
        assertEquals(0, heap.size());
    }

    @Test
    void theEarliestDeadlineIsExactAndFollowsEveryChange()
    {
        final Timer a = new Timer(1);
        final Timer b = new Timer(2);
        final Timer c = new Timer(3);
        schedule(a, 1_000_001);
        schedule(b, 1_000_003);
        schedule(c, 1_000_002);
        assertEquals(1_000_001, heap.earliestDeadlineNs(), "nanosecond-exact, not rounded to a tick");
        schedule(a, 1_000_005); // moved later: the next one is the earliest
        assertEquals(1_000_002, heap.earliestDeadlineNs());
        schedule(b, 999_999); // moved earlier
        assertEquals(999_999, heap.earliestDeadlineNs());
        heap.remove(b);
        assertEquals(1_000_002, heap.earliestDeadlineNs());
        assertEquals(DeadlineHeap.NOT_QUEUED, b.heapIndex());
        assertEquals(2, heap.size());
    }

    @Test
    void aTimerIsDueAtItsDeadlineNotBefore()
    {
        final Timer timer = new Timer(1);
        schedule(timer, 5_000);
        assertNull(heap.pollDue(4_999), "one nanosecond early");
        assertSame(timer, heap.pollDue(5_000), "at its deadline");
        assertEquals(DeadlineHeap.NOT_QUEUED, timer.heapIndex());
        assertEquals(Long.MAX_VALUE, heap.earliestDeadlineNs());
    }

    @Test
    void negativeClockTimesOrderAsTheyShould()
    {
        // A nano clock's origin is arbitrary: its times may be negative.
        final Timer early = new Timer(1);
        final Timer late = new Timer(2);
        schedule(late, -10);
        schedule(early, -20);
        assertEquals(-20, heap.earliestDeadlineNs());
        assertSame(early, heap.pollDue(-15));
        assertNull(heap.pollDue(-15));
    }

    @Test
    void randomOperationsMatchAScanOfEveryTimer()
    {
        final SplittableRandom random = new SplittableRandom(27);
        final List<Timer> all = new ArrayList<>();
        for (int i = 0; i < 3_000; i++)
        {
            all.add(new Timer(i));
        }
        final List<Timer> queued = new ArrayList<>();
        long nowNs = -1_000_000;
        for (int step = 0; step < 50_000; step++)
        {
            final Timer timer = all.get(random.nextInt(all.size()));
            final int operation = random.nextInt(10);
            if (operation < 6)
            {
                // Ties are common: deadlines on a coarse grid.
                final long deadlineNs = nowNs + 100 * random.nextInt(1_000);
                if (DeadlineHeap.NOT_QUEUED == timer.heapIndex())
                {
                    queued.add(timer);
                }
                schedule(timer, deadlineNs);
                assertEquals(deadlineNs, heap.deadlineNs(timer));
            }
            else if (operation < 8)
            {
                if (DeadlineHeap.NOT_QUEUED != timer.heapIndex())
                {
                    queued.remove(timer);
                }
                heap.remove(timer);
                timer.deadlineNs = Long.MAX_VALUE;
            }
            else
            {
                nowNs += random.nextInt(5_000);
                final List<Timer> due = new ArrayList<>();
                for (Timer next = heap.pollDue(nowNs); null != next; next = heap.pollDue(nowNs))
                {
                    assertTrue(next.deadlineNs <= nowNs, next + " taken before it was due at " + nowNs);
                    due.add(next);
                }
                for (final Timer taken : due)
                {
                    queued.remove(taken);
                    taken.deadlineNs = Long.MAX_VALUE;
                }
                assertTrue(earliestOf(queued) > nowNs, "a due timer was left in the heap at " + nowNs);
            }
            assertEquals(queued.size(), heap.size());
            assertEquals(earliestOf(queued), heap.earliestDeadlineNs(), "step " + step);
        }
    }
}
