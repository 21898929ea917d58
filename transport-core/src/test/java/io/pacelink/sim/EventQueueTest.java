package io.pacelink.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventQueueTest
{
    private static final Comparator<SimEvent> ORDER =
        Comparator.<SimEvent>comparingLong((event) -> event.timeNs).thenComparingLong((event) -> event.sequence);

    @Test
    void emptyQueueHasNoFirstEvent()
    {
        final EventQueue queue = new EventQueue();

        assertEquals(0, queue.size());
        assertEquals(Long.MAX_VALUE, queue.firstTimeNs());
        assertNull(queue.poll());
    }

    @Test
    void equalTimesFireInScheduleOrder()
    {
        final EventQueue queue = new EventQueue();
        final List<Event> events = new ArrayList<>();
        for (int i = 0; i < 10; i++)
        {
            final Event event = new Event(i);
            events.add(event);
            queue.schedule(event, 5, i);
        }

        for (int i = 0; i < 10; i++)
        {
            assertEquals(5, queue.firstTimeNs());
            assertSame(events.get(i), queue.poll());
        }
        assertEquals(0, queue.size());
    }

    @Test
    void rescheduleMovesAnEventBothWaysAndCancelRemovesIt()
    {
        final EventQueue queue = new EventQueue();
        final Event a = new Event(0);
        final Event b = new Event(1);
        final Event c = new Event(2);
        queue.schedule(a, 10, 0);
        queue.schedule(b, 20, 1);
        queue.schedule(c, 30, 2);

        queue.schedule(c, 5, 3); // earlier: to the front
        assertEquals(5, queue.firstTimeNs());
        queue.schedule(c, 40, 4); // later: to the back
        queue.cancel(a);
        assertFalse(a.isScheduled());
        queue.cancel(a); // not queued: nothing happens
        assertEquals(2, queue.size());

        assertSame(b, queue.poll());
        assertSame(c, queue.poll());
        assertFalse(c.isScheduled());
        assertNull(queue.poll());
    }

    /**
     * Schedules, reschedules, cancels and polls at random, beyond the first capacity, against a sorted set: every poll
     * must return the earliest (time, sequence), the order the simulator's trace hash depends on.
     */
    @Test
    void randomOperationsPollInTheOrderOfASortedSet()
    {
        for (int seed = 1; seed <= 20; seed++)
        {
            final SplittableRandom random = new SplittableRandom(seed);
            final EventQueue queue = new EventQueue();
            final TreeSet<SimEvent> reference = new TreeSet<>(ORDER);
            final List<Event> events = new ArrayList<>();
            for (int i = 0; i < 300; i++)
            {
                events.add(new Event(i));
            }
            long sequence = 0;
            for (int step = 0; step < 20_000; step++)
            {
                final int operation = random.nextInt(10);
                final Event event = events.get(random.nextInt(events.size()));
                if (operation < 6)
                {
                    reference.remove(event);
                    // Few distinct times, so that ties are broken by the sequence often.
                    queue.schedule(event, random.nextLong(50), sequence++);
                    reference.add(event);
                }
                else if (operation < 7)
                {
                    reference.remove(event);
                    queue.cancel(event);
                    assertFalse(event.isScheduled());
                }
                else
                {
                    final SimEvent expected = reference.pollFirst();
                    assertEquals(null == expected ? Long.MAX_VALUE : expected.timeNs, queue.firstTimeNs());
                    assertSame(expected, queue.poll());
                }
                assertEquals(reference.size(), queue.size());
            }
            while (!reference.isEmpty())
            {
                final SimEvent expected = reference.pollFirst();
                assertSame(expected, queue.poll());
                assertFalse(expected.isScheduled());
            }
            assertTrue(0 == queue.size() && null == queue.poll());
        }
    }

    private static final class Event extends SimEvent
    {
        Event(final int id)
        {
            super(id);
        }

        void fire(final long nowNs)
        {
        }
    }
}
