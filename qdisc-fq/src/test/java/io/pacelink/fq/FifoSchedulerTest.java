package io.pacelink.fq;

import io.pacelink.transport.schedule.SchedulableFlow;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FifoSchedulerTest
{
    private final FifoScheduler scheduler = new FifoScheduler();

    @Test
    void flowsSendWholeBurstsInActivationOrderWithoutPacing()
    {
        // Slow pacing rates are ignored: each flow empties its (cwnd-limited) backlog before the next one starts.
        final TestFlow a = new TestFlow(1).rate(1_000).backlog(5);
        final TestFlow b = new TestFlow(2).rate(1_000).backlog(3);
        scheduler.activate(b, 0);
        scheduler.activate(a, 0);
        scheduler.activate(b, 0);

        final StringBuilder order = new StringBuilder();
        SchedulableFlow next;
        while (null != (next = scheduler.nextFlow(0)))
        {
            final TestFlow flow = (TestFlow)next;
            order.append(flow == a ? 'a' : 'b');
            flow.sent(0);
            scheduler.onPacketSent(flow, flow.packetBytes, false, 0);
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
        scheduler.activate(flow, 0);

        assertSame(flow, scheduler.nextFlow(0));
        assertTrue(scheduler.releasedForAckOnly());

        flow.ackDue = false;
        flow.backlog(1);
        assertSame(flow, scheduler.nextFlow(0));
        assertFalse(scheduler.releasedForAckOnly());
    }

    @Test
    void removedFlowIsNotServed()
    {
        final TestFlow flow = new TestFlow(1).backlog(10);
        scheduler.activate(flow, 0);
        scheduler.removeFlow(flow);

        assertNull(scheduler.nextFlow(0));
        scheduler.activate(flow, 0);
        assertSame(flow, scheduler.nextFlow(0));
    }
}
