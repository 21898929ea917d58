package io.pacelink.fq;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FifoSchedulerTest
{
    private final FifoScheduler<TestFlow> scheduler = new FifoScheduler<>();
    private final SchedulerHarness harness = new SchedulerHarness(scheduler);

    @Test
    void flowsSendWholeBurstsInActivationOrderWithoutPacing()
    {
        // Slow pacing rates are ignored: each flow empties its (cwnd-limited) backlog before the next one starts.
        final TestFlow a = new TestFlow(1).rate(1_000).backlog(5);
        final TestFlow b = new TestFlow(2).rate(1_000).backlog(3);
        harness.activate(b, 0);
        harness.activate(a, 0);
        harness.activate(b, 0);

        final StringBuilder order = new StringBuilder();
        TestFlow next;
        while (null != (next = harness.releaseOne(0)))
        {
            order.append(next == a ? 'a' : 'b');
        }

        assertEquals("bbbaaaaa", order.toString());
        assertEquals(Long.MAX_VALUE, scheduler.nextReleaseTimeNs());
        assertEquals(0, scheduler.activeFlowCount());
    }

    @Test
    void flowWithOnlyAnAckIsReleasedForAnAckOnlyPacket()
    {
        final TestFlow flow = new TestFlow(1);
        flow.ackDue = true;
        harness.activate(flow, 0);

        assertSame(flow, harness.releaseOne(0));
        assertTrue(harness.isLastReleaseAckOnly());

        flow.backlog(1);
        assertSame(flow, harness.releaseOne(0));
        assertFalse(harness.isLastReleaseAckOnly());
    }

    @Test
    void removedFlowIsNotServed()
    {
        final TestFlow flow = new TestFlow(1).backlog(10);
        harness.activate(flow, 0);
        scheduler.removeFlow(flow);

        assertNull(harness.releaseOne(0));
        harness.activate(flow, 0);
        assertSame(flow, harness.releaseOne(0));
    }
}
