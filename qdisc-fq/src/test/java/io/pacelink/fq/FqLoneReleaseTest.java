package io.pacelink.fq;

import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.TestControllerContext;
import org.agrona.collections.LongArrayList;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lone answer's shortcut on fq: {@link FqScheduler#releasesAloneNow} says true only when an activation and a
 * release would take the flow, alone, for an ack-eliciting packet, and {@link FqScheduler#onSentAlone} leaves the
 * scheduler exactly where {@code activate}, {@code next} and {@code onSent} would: the same releases at the same
 * times afterwards, the same counters.
 */
class FqLoneReleaseTest
{
    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;
    private static final long WINDOW_BYTES = 64 * 1024;

    /**
     * 10 Mbit/s: a 1514-byte packet's time is 1.21 ms, so requests 0.2-3 ms apart find the flow's pacing sometimes
     * due and sometimes not.
     */
    private static final long RATE = 1_250_000L;

    @Test
    void aDetachedDueFlowAloneIsReleasedAloneAndNothingElseIs()
    {
        final FqScheduler<TestFlow> scheduler = newScheduler(FqConfig.defaults());
        final SchedulerHarness harness = new SchedulerHarness(scheduler);
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(1);

        assertFalse(scheduler.releasesAloneNow(flow, 0), "a flow the scheduler never saw");
        harness.activate(flow, WINDOW_BYTES, 0);
        assertFalse(scheduler.releasesAloneNow(flow, 0), "a flow on new_flows");
        harness.serve(0);
        assertTrue(scheduler.releasesAloneNow(flow, 0), "detached, with credit, due");

        final TestFlow other = new TestFlow(2).rate(RATE).backlog(1);
        harness.activate(other, WINDOW_BYTES, 0);
        assertFalse(scheduler.releasesAloneNow(flow, 0), "another flow queued");
        harness.serve(0);
        assertTrue(scheduler.releasesAloneNow(flow, 0));
    }

    @Test
    void aFlowWhosePacingIsNotYetDueOrAThrottledFlowThatIsGoesTheGeneralWay()
    {
        final FqScheduler<TestFlow> scheduler = newScheduler(FqConfig.defaults());
        final SchedulerHarness harness = new SchedulerHarness(scheduler);
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(10);
        harness.activate(flow, WINDOW_BYTES, 0);
        harness.serve(0); // the initial quantum, unpaced; the next packet is paced
        assertEquals(0, flow.backlogPackets);

        flow.backlog(1);
        assertFalse(scheduler.releasesAloneNow(flow, 0), "its next packet is paced 1.21 ms on");
        assertTrue(scheduler.releasesAloneNow(flow, 2 * MS), "due");

        // Another flow throttled: not due yet, then due.
        final TestFlow other = new TestFlow(2).rate(RATE).backlog(11);
        harness.activate(other, WINDOW_BYTES, 2 * MS);
        harness.serve(2 * MS);
        assertEquals(1, scheduler.throttledFlowCount());
        assertTrue(scheduler.releasesAloneNow(flow, 2 * MS), "the throttled flow is not due");
        assertFalse(scheduler.releasesAloneNow(flow, 4 * MS), "the throttled flow is due first");
    }

    @Test
    void theShortcutLeavesTheSchedulerAsTheGeneralPathDoesPerPacketPacing()
    {
        assertSameAsGeneral(FqConfig.defaults(), false);
        assertSameAsGeneral(FqConfig.defaults(), true);
    }

    @Test
    void theShortcutLeavesTheSchedulerAsTheGeneralPathDoesPerQuantumPacing()
    {
        assertSameAsGeneral(FqConfig.from(ControllerParameters.of(Map.of(FqConfig.PER_PACKET_PACING, "false"))),
            false);
    }

    /**
     * Two schedulers see the same requests, one at a time, some while a second flow sends a burst: one always by
     * activation and release, the other by the shortcut whenever it answers true. Every packet leaves at the same
     * time from both, and after a bulk phase that uses the whole state (credit, pacing, catch-up) too.
     */
    private static void assertSameAsGeneral(final FqConfig config, final boolean releaseAhead)
    {
        final FqScheduler<TestFlow> general = newScheduler(config);
        final FqScheduler<TestFlow> shortcut = newScheduler(config);
        general.releaseAheadInQuanta(releaseAhead);
        shortcut.releaseAheadInQuanta(releaseAhead);
        final Side a = new Side(general);
        final Side b = new Side(shortcut);
        long nowNs = 0;
        int taken = 0;
        int refused = 0;
        for (int i = 0; i < 400; i++)
        {
            nowNs += (200 + 37L * (i % 80)) * US;
            if (i % 50 == 10)
            {
                a.other.backlog(8);
                b.other.backlog(8);
                a.harness.activate(a.other, WINDOW_BYTES, nowNs);
                b.harness.activate(b.other, WINDOW_BYTES, nowNs);
            }
            a.request(nowNs, false);
            if (b.request(nowNs, true))
            {
                // What the general path released first: the same flow, for its packet.
                assertSame(a.ping, a.firstRelease, "request " + i);
                assertFalse(a.isFirstReleaseAckOnly, "request " + i);
                taken++;
            }
            else
            {
                refused++;
            }
            assertEquals(a.ping.sentPackets, b.ping.sentPackets, "request " + i);
            assertEquals(a.sendTimesNs, b.sendTimesNs, "request " + i + ": every packet at the same time");
            assertEquals(general.nextReleaseTimeNs(), shortcut.nextReleaseTimeNs(), "request " + i);
            assertEquals(general.throttledFlowCount(), shortcut.throttledFlowCount(), "request " + i);
            assertEquals(general.flowCount(), shortcut.flowCount(), "request " + i);
        }
        assertTrue(taken > 50 && refused > 30, "shortcut taken " + taken + ", refused " + refused);

        a.ping.backlog(Long.MAX_VALUE);
        b.ping.backlog(Long.MAX_VALUE);
        a.harness.activate(a.ping, WINDOW_BYTES, nowNs);
        b.harness.activate(b.ping, WINDOW_BYTES, nowNs);
        a.harness.runUntil(nowNs, nowNs + SECOND);
        b.harness.runUntil(nowNs, nowNs + SECOND);
        assertEquals(a.sendTimesNs, b.sendTimesNs, "the bulk phase after the requests");
        assertEquals(general.throttledTotal(), shortcut.throttledTotal());
        assertEquals(general.ackOnlyReleases(), shortcut.ackOnlyReleases());
        assertEquals(general.releaseLatenessHistogram().getTotalCount(),
            shortcut.releaseLatenessHistogram().getTotalCount());
    }

    private static FqScheduler<TestFlow> newScheduler(final FqConfig config)
    {
        return new FqScheduler<>(config, new TestControllerContext(ControllerParameters.EMPTY));
    }

    /**
     * One scheduler, a request/response flow and another that sends bursts now and then, every packet's time
     * recorded.
     */
    private static final class Side
    {
        private final FqScheduler<TestFlow> scheduler;
        private final SchedulerHarness harness;
        private final TestFlow ping = new TestFlow(1).rate(RATE).packetBytes(1000);
        private final TestFlow other = new TestFlow(2).rate(RATE);
        private final LongArrayList sendTimesNs = new LongArrayList();
        private TestFlow firstRelease;
        private boolean isFirstReleaseAckOnly;

        Side(final FqScheduler<TestFlow> scheduler)
        {
            this.scheduler = scheduler;
            this.harness = new SchedulerHarness(scheduler).recordSendTimes(sendTimesNs);
        }

        /**
         * A request of one packet offered now, sent as the endpoint sends an answer.
         *
         * @return true if it took the shortcut.
         */
        boolean request(final long nowNs, final boolean mayShortcut)
        {
            ping.backlog(ping.backlogPackets + 1);
            if (mayShortcut && scheduler.releasesAloneNow(ping, nowNs))
            {
                ping.sent(nowNs);
                sendTimesNs.addLong(nowNs);
                scheduler.onSentAlone(ping, ping.pacingRateBytesPerSecond, ping.sendQuantumBytes, WINDOW_BYTES,
                    ping.packetBytes, true, nowNs);
                harness.serve(nowNs);
                return true;
            }
            harness.activate(ping, WINDOW_BYTES, nowNs);
            firstRelease = harness.releaseOne(nowNs);
            isFirstReleaseAckOnly = harness.isLastReleaseAckOnly();
            harness.serve(nowNs);
            return false;
        }
    }
}
