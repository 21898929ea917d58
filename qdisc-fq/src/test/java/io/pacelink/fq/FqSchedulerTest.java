package io.pacelink.fq;

import io.pacelink.transport.testing.AllocationMeter;
import io.pacelink.transport.testing.TestControllerContext;
import io.pacelink.transport.cc.ControllerParameters;
import org.agrona.collections.LongArrayList;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FqSchedulerTest
{
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;
    private static final int MTU = TestFlow.MTU_BYTES;
    private static final int QUANTUM = 2 * MTU;

    /**
     * 100 Mbit/s.
     */
    private static final long RATE = 12_500_000L;

    /**
     * quantum / rate: 3028 B at 12.5 MB/s.
     */
    private static final long QUANTUM_GAP_NS = 242_240L;

    /**
     * MTU / rate: 1514 B at 12.5 MB/s.
     */
    private static final long PACKET_GAP_NS = 121_120L;

    private TestControllerContext counters;
    private FqScheduler<TestFlow> scheduler = newScheduler(FqConfig.defaults());
    private SchedulerHarness harness = new SchedulerHarness(scheduler);

    @Test
    void pacedFlowSendsInitialQuantumThenOnePacketPerLengthOverRate()
    {
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(Long.MAX_VALUE);
        final LongArrayList sendTimesNs = new LongArrayList();
        harness.recordSendTimes(sendTimesNs);
        harness.activate(flow, 0);

        harness.runUntil(0, SECOND - 1);

        // Per-packet pacing: the initial quantum (10 x MTU) back to back, then one packet every len / R, exactly.
        for (int i = 0; i < 10; i++)
        {
            assertEquals(0L, sendTimesNs.getLong(i), "packet " + i);
        }
        for (int i = 10; i < sendTimesNs.size(); i++)
        {
            assertEquals((i - 9) * PACKET_GAP_NS, sendTimesNs.getLong(i), "packet " + i);
        }
        assertEquals(RATE, flow.sentBytes, RATE * 0.01);
    }

    @Test
    void aLateReleaseSendsExactlyThePacketsThatFellDueAndKeepsTheSchedule()
    {
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(Long.MAX_VALUE);
        harness.activate(flow, 0);
        assertEquals(10, harness.serve(0));
        assertEquals(PACKET_GAP_NS, scheduler.nextReleaseTimeNs());
        assertEquals(0, harness.serve(PACKET_GAP_NS - 1), "never before the deadline");
        assertEquals(1, harness.serve(PACKET_GAP_NS));
        assertEquals(2 * PACKET_GAP_NS, scheduler.nextReleaseTimeNs());

        // 50 us late, less than a gap: the schedule is kept, the next packet is due one gap after this one was.
        final long late1Ns = 2 * PACKET_GAP_NS + 50_000L;
        assertEquals(1, harness.serve(late1Ns));
        assertEquals(3 * PACKET_GAP_NS, scheduler.nextReleaseTimeNs());

        // 3.5 gaps late, within the 1 ms horizon: the four packets due at 3, 4, 5 and 6 gaps go back to back (the
        // due bytes, 4 x 1514), and the next keeps its place in the schedule.
        final long late2Ns = 3 * PACKET_GAP_NS + 7 * PACKET_GAP_NS / 2;
        assertEquals(4, harness.serve(late2Ns));
        assertEquals(7 * PACKET_GAP_NS, scheduler.nextReleaseTimeNs());
        assertEquals(3, scheduler.releaseLatenessHistogram().getTotalCount());
        // sch_fq's EWMA (weight 1/8) of the three wake-ups, 0, 50 us and 3.5 gaps late.
        final long afterSecondNs = 50_000L >> 3;
        assertEquals(afterSecondNs - (afterSecondNs >> 3) + ((7 * PACKET_GAP_NS / 2) >> 3),
            counters.counter("unthrottle-latency-ns"));
        assertEquals(0, counters.counter("lateness-forgotten-ns"), "every late packet was caught up");
    }

    @Test
    void aReleaseLaterThanTheHorizonSendsTheHorizonsWorthAndForgetsTheRestWithoutDebt()
    {
        scheduler = newScheduler(FqConfig.from(ControllerParameters.of(Map.of(FqConfig.CATCH_UP_DEBT_US, "0"))));
        harness = new SchedulerHarness(scheduler);
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(Long.MAX_VALUE);
        harness.activate(flow, 0);
        assertEquals(10, harness.serve(0));
        final long dueNs = scheduler.nextReleaseTimeNs();

        // 5 ms late: only the last 3 ms of the schedule (the default horizon) are caught up, 3 ms of the rate
        // (37,500 B) rounded up to whole packets — 25, one gap apart from 3 ms ago — and the next packet is due as the
        // 25th's successor.
        final long lateNs = dueNs + 5 * MS;
        assertEquals(25, harness.serve(lateNs));
        assertTrue(25L * MTU - MTU < 3 * RATE / 1_000, "at most one packet over the horizon's bytes");
        assertEquals(lateNs - 3 * MS + 25 * PACKET_GAP_NS, scheduler.nextReleaseTimeNs());
        assertEquals(2 * MS, counters.counter("lateness-forgotten-ns"), "the 2 ms before the horizon, never sent");
        assertTrue(scheduler.releaseLatenessHistogram().valuesAreEquivalent(
            5 * MS, scheduler.releaseLatenessHistogram().getMaxValue()));
    }

    /**
     * The same 5-ms-late release with a debt of 10 ms: the horizon's 25 packets go back to back as before, and the
     * 2 ms beyond it are owed, not forgotten: each following packet leaves a quarter of its gap early until they are
     * repaid, so by the time the schedule would have sent them all the flow has sent its whole rate, and no burst was
     * larger than the horizon's.
     */
    @Test
    void aReleaseLaterThanTheHorizonRepaysTheRestAQuarterOfAGapAtATime()
    {
        useDebtOf10Ms();
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(Long.MAX_VALUE);
        final LongArrayList sendTimesNs = new LongArrayList();
        harness.recordSendTimes(sendTimesNs);
        harness.activate(flow, 0);
        assertEquals(10, harness.serve(0));
        final long dueNs = scheduler.nextReleaseTimeNs();
        final long lateNs = dueNs + 5 * MS;
        assertEquals(25, harness.serve(lateNs));
        assertEquals(0, counters.counter("lateness-forgotten-ns"));
        // The 25th's successor is due no later than on the schedule, and not yet: the debt never makes a burst.
        assertTrue(scheduler.nextReleaseTimeNs() > lateNs, "not due at once");
        assertTrue(scheduler.nextReleaseTimeNs() <= lateNs - 3 * MS + 25 * PACKET_GAP_NS);

        // 2 ms of debt at a quarter of a 121-us gap per packet: 67 packets repay it, in about 6 ms; served on time
        // from here, every packet leaves alone at 3/4 of a gap, then a whole gap once the debt is paid.
        harness.runUntil(scheduler.nextReleaseTimeNs(), lateNs + 20 * MS);
        for (int i = 36; i < sendTimesNs.size(); i++)
        {
            final long gapNs = sendTimesNs.getLong(i) - sendTimesNs.getLong(i - 1);
            assertTrue(gapNs >= PACKET_GAP_NS - PACKET_GAP_NS / 4 - 1, "never a burst: packet " + i + ", " + gapNs);
            assertTrue(i < 36 + 70 || PACKET_GAP_NS == gapNs, "repaid, the rate again: packet " + i);
        }
        // Everything the schedule held by the end was sent: 10 + the rate's packets over the time since the first
        // was due, nothing forgotten (one packet of rounding either way).
        final long scheduledPackets = 10 + (lateNs + 20 * MS - dueNs) / PACKET_GAP_NS + 1;
        assertEquals(scheduledPackets, sendTimesNs.size(), 1.0);
        assertEquals(0, counters.counter("lateness-forgotten-ns"));
    }

    @Test
    void lateReleasesOweAtMostTheDebtsBoundAndForgetTheRest()
    {
        useDebtOf10Ms();
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(Long.MAX_VALUE);
        harness.activate(flow, 0);
        assertEquals(10, harness.serve(0));
        // 15 ms late: 3 ms caught up at once, 10 ms owed, the 2 ms beyond the debt's bound forgotten.
        harness.serve(scheduler.nextReleaseTimeNs() + 15 * MS);
        assertEquals(2 * MS, counters.counter("lateness-forgotten-ns"));
        // Late again before any of it was repaid: the debt is full, so all 4 ms beyond the horizon are forgotten.
        harness.serve(scheduler.nextReleaseTimeNs() + 7 * MS);
        assertEquals(6 * MS, counters.counter("lateness-forgotten-ns"), PACKET_GAP_NS / 4,
            "at most the last packet's quarter gap was repaid between");
    }

    @Test
    void idleTimeClearsTheDebt()
    {
        useDebtOf10Ms();
        final LongArrayList sendTimesNs = new LongArrayList();
        harness.recordSendTimes(sendTimesNs);
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(35);
        harness.activate(flow, 0);
        assertEquals(10, harness.serve(0));
        harness.serve(scheduler.nextReleaseTimeNs() + 8 * MS);
        assertEquals(0, flow.backlogPackets, "the backlog went in the catch-up");
        // Nothing to send: the flow detaches with debt left; back after a while, it is paced at its rate from its
        // first packet, none early.
        harness.serve(scheduler.nextReleaseTimeNs());
        flow.backlog(20);
        final long backNs = 100 * MS;
        harness.activate(flow, backNs);
        final int before = sendTimesNs.size();
        harness.runUntil(backNs, backNs + SECOND);
        assertEquals(before + 20, sendTimesNs.size());
        for (int i = before + 1; i < sendTimesNs.size(); i++)
        {
            assertEquals(PACKET_GAP_NS, sendTimesNs.getLong(i) - sendTimesNs.getLong(i - 1), "packet " + i);
        }
    }

    private void useDebtOf10Ms()
    {
        scheduler = newScheduler(FqConfig.from(ControllerParameters.of(Map.of(FqConfig.CATCH_UP_DEBT_US, "10000"))));
        harness = new SchedulerHarness(scheduler);
    }

    @Test
    void theCatchUpHorizonIsConfigurableAndZeroForgetsAllLateness()
    {
        for (final long[] horizonUsAndPackets : new long[][]{ { 0, 1 }, { 250, 3 }, { 2_000, 17 } })
        {
            scheduler = newScheduler(FqConfig.from(ControllerParameters.of(
                Map.of(FqConfig.CATCH_UP_HORIZON_US, Long.toString(horizonUsAndPackets[0]),
                    FqConfig.CATCH_UP_DEBT_US, "0"))));
            harness = new SchedulerHarness(scheduler);
            final TestFlow flow = new TestFlow(1).rate(RATE).backlog(Long.MAX_VALUE);
            harness.activate(flow, 0);
            assertEquals(10, harness.serve(0));
            final long lateNs = scheduler.nextReleaseTimeNs() + 5 * MS;
            final long horizonNs = horizonUsAndPackets[0] * 1_000L;

            assertEquals(horizonUsAndPackets[1], harness.serve(lateNs), "horizon " + horizonUsAndPackets[0] + " us");
            assertEquals(lateNs - horizonNs + horizonUsAndPackets[1] * PACKET_GAP_NS, scheduler.nextReleaseTimeNs());
        }
    }

    @Test
    void perPacketPacedFlowResumingAfterIdleIsPacedFromItsFirstPacket()
    {
        final LongArrayList sendTimesNs = new LongArrayList();
        harness.recordSendTimes(sendTimesNs);
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(20);
        harness.activate(flow, 0);
        harness.runUntil(0, SECOND);
        assertEquals(0, flow.backlogPackets);

        for (final long idleNs : new long[]{ 20 * MS, 50 * MS, 2 * SECOND })
        {
            final long returnNs = flow.lastSendNs + idleNs;
            sendTimesNs.clear();
            flow.backlog(5);
            harness.activate(flow, returnNs);
            harness.runUntil(returnNs, returnNs + SECOND);
            for (int i = 0; i < 5; i++)
            {
                assertEquals(returnNs + i * PACKET_GAP_NS, sendTimesNs.getLong(i), "idle " + idleNs + " packet " + i);
            }
        }
    }

    @Test
    void ackIsNeverDelayedOrChargedByPerPacketPacing()
    {
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(Long.MAX_VALUE);
        harness.activate(flow, 0);
        harness.serve(0);
        assertEquals(PACKET_GAP_NS, scheduler.nextReleaseTimeNs());

        flow.ackDue = true;
        harness.activate(flow, 1_000L);
        assertSame(flow, harness.releaseOne(1_000L));
        assertTrue(harness.isLastReleaseAckOnly());
        flow.ackDue = false;

        assertNull(harness.releaseOne(1_000L));
        assertEquals(PACKET_GAP_NS, scheduler.nextReleaseTimeNs(), "the ACK neither paced nor charged the flow");
        assertEquals(1, harness.serve(PACKET_GAP_NS));
    }

    @Test
    void quantumPacedFlowSendsInitialQuantumThenOneQuantumPerQuantumOverRate()
    {
        useQuantumPacing();
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(Long.MAX_VALUE);
        final LongArrayList sendTimesNs = new LongArrayList();
        harness.recordSendTimes(sendTimesNs);
        harness.activate(flow, 0);

        harness.runUntil(0, SECOND - 1);

        // sch_fq: 10 x MTU (initial quantum) back to back, then 2 x MTU (quantum) every quantum / R.
        for (int i = 0; i < 10; i++)
        {
            assertEquals(0L, sendTimesNs.getLong(i), "packet " + i);
        }
        for (int i = 10; i < 200; i++)
        {
            final long burst = (i - 10) / 2 + 1;
            assertEquals(burst * QUANTUM_GAP_NS, sendTimesNs.getLong(i), "packet " + i);
        }
        // One second: R bytes plus the initial quantum's head start.
        assertEquals(RATE, flow.sentBytes, RATE * 0.01);
        assertTrue(scheduler.throttledTotal() > 2000);
        assertEquals(1, scheduler.throttledFlowCount());
        assertEquals(1, counters.counter("throttled-flows"), "published for pacelink stat");
        assertEquals(scheduler.throttledTotal(), counters.counter("throttled"));
    }

    @Test
    void flowBelowLowRateThresholdIsPacedPacketByPacket()
    {
        // 400 kbit/s < 550 kbit/s: no initial burst, every packet waits len / R = 1514 B / 50 kB/s = 30.28 ms.
        final TestFlow flow = new TestFlow(1).rate(50_000).backlog(Long.MAX_VALUE);
        final LongArrayList sendTimesNs = new LongArrayList();
        harness.recordSendTimes(sendTimesNs);
        harness.activate(flow, 0);

        harness.runUntil(0, 10 * SECOND);

        for (int i = 0; i < sendTimesNs.size(); i++)
        {
            assertEquals(i * 30_280_000L, sendTimesNs.getLong(i), "packet " + i);
        }
        assertEquals(10 * SECOND / 30_280_000L + 1, flow.sentPackets);
    }

    @Test
    void maxRateCapsTheFlowsPacingRate()
    {
        scheduler = newScheduler(FqConfig.from(ControllerParameters.of(Map.of(FqConfig.MAX_RATE, "1250000"))));
        harness = new SchedulerHarness(scheduler);
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(Long.MAX_VALUE);
        harness.activate(flow, 0);

        final long warmedUpNs = harness.runUntil(0, SECOND);
        final long bytesBefore = flow.sentBytes;
        final long endNs = harness.runUntil(warmedUpNs + 1, 3 * SECOND);

        final double rate = (double)(flow.sentBytes - bytesBefore) * SECOND / (endNs - warmedUpNs);
        assertEquals(1_250_000, rate, 1_250_000 * 0.01);
    }

    @Test
    void twoBackloggedUnpacedFlowsShareBytesWithinOneQuantum()
    {
        final TestFlow a = new TestFlow(1).backlog(Long.MAX_VALUE);
        final TestFlow b = new TestFlow(2).packetBytes(600).backlog(Long.MAX_VALUE);
        harness.activate(a, 0);
        harness.activate(b, 0);

        for (int i = 0; i < 100; i++)
        {
            harness.serve(0, 997);
            assertTrue(Math.abs(a.sentBytes - b.sentBytes) <= 10 * MTU, "initial quantum bounds the lead");
        }
        harness.serve(0, 100_000);

        assertTrue(Math.abs(a.sentBytes - b.sentBytes) <= QUANTUM,
            "a=" + a.sentBytes + " b=" + b.sentBytes);
        assertEquals(Long.MAX_VALUE, scheduler.nextReleaseTimeNs());
    }

    @Test
    void tenBackloggedFlowsShareBytesFairly()
    {
        final TestFlow[] flows = new TestFlow[10];
        for (int i = 0; i < flows.length; i++)
        {
            flows[i] = new TestFlow(i + 1).packetBytes(500 + 100 * i).backlog(Long.MAX_VALUE);
            harness.activate(flows[i], 0);
        }

        harness.serve(0, 100_000);

        double sum = 0;
        double sumOfSquares = 0;
        for (final TestFlow flow : flows)
        {
            sum += flow.sentBytes;
            sumOfSquares += (double)flow.sentBytes * flow.sentBytes;
        }
        final double jain = sum * sum / (flows.length * sumOfSquares);
        assertTrue(jain >= 0.99, "Jain index " + jain);
        for (final TestFlow flow : flows)
        {
            assertEquals(sum / flows.length, flow.sentBytes, QUANTUM + 1400);
        }
    }

    @Test
    void newFlowIsServedFirstForItsInitialQuantum()
    {
        final TestFlow old = new TestFlow(1).backlog(Long.MAX_VALUE);
        harness.activate(old, 0);
        // 10 + 41 packets: the old flow is half way through a quantum when the new flow arrives.
        harness.serve(0, 51);

        final TestFlow fresh = new TestFlow(2).backlog(Long.MAX_VALUE);
        harness.activate(fresh, 0);
        assertEquals(10, servedBeforeOther(fresh, old, 0));
    }

    @Test
    void returningFlowIsServedFirstButOnlyForOneQuantum()
    {
        final TestFlow old = new TestFlow(1).backlog(Long.MAX_VALUE);
        final TestFlow returning = new TestFlow(2).backlog(12);
        harness.activate(old, 0);
        harness.activate(returning, 0);
        harness.serve(0, 100);
        assertEquals(0, returning.backlogPackets);

        // Idle longer than the 40 ms refill delay: back on new_flows with one quantum (two packets), then it
        // queues behind the old flow (half way through its own quantum) like everyone else.
        returning.backlog(Long.MAX_VALUE);
        harness.serve(50 * MS, 101);
        harness.activate(returning, 50 * MS);
        assertEquals(2, servedBeforeOther(returning, old, 50 * MS));
    }

    @Test
    void flowIdleLongerThanRefillDelayRegainsOneQuantum()
    {
        useQuantumPacing();
        assertEquals(2, packetsAfterIdle(50 * MS), "idle 50 ms > 40 ms: credit refilled to one quantum");
    }

    @Test
    void flowIdleShorterThanRefillDelayKeepsItsCredit()
    {
        useQuantumPacing();
        assertEquals(1, packetsAfterIdle(20 * MS), "idle 20 ms: leftover credit of one packet only");
    }

    @Test
    void quantumPacedFlowWakesAtItsDeadlineAndLateWakeUpShortensTheNextGapByAtMostHalf()
    {
        useQuantumPacing();
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(Long.MAX_VALUE);
        harness.activate(flow, 0);
        assertEquals(10, harness.serve(0));
        assertEquals(QUANTUM_GAP_NS, scheduler.nextReleaseTimeNs());

        assertEquals(0, harness.serve(QUANTUM_GAP_NS - 1), "never before the deadline");
        assertEquals(2, harness.serve(QUANTUM_GAP_NS));
        assertEquals(2 * QUANTUM_GAP_NS, scheduler.nextReleaseTimeNs());

        // 50 us late: the next gap is 50 us shorter.
        final long late1Ns = 2 * QUANTUM_GAP_NS + 50_000L;
        assertEquals(2, harness.serve(late1Ns));
        assertEquals(late1Ns + QUANTUM_GAP_NS - 50_000L, scheduler.nextReleaseTimeNs());

        // 1 ms late (more than half the gap): the next gap is halved, no more.
        final long late2Ns = scheduler.nextReleaseTimeNs() + MS;
        assertEquals(2, harness.serve(late2Ns));
        assertEquals(late2Ns + QUANTUM_GAP_NS / 2, scheduler.nextReleaseTimeNs());

        final long maxLatenessNs = scheduler.releaseLatenessHistogram().getMaxValue();
        assertTrue(scheduler.releaseLatenessHistogram().valuesAreEquivalent(MS, maxLatenessNs), "max " + maxLatenessNs);
        assertEquals(3, scheduler.releaseLatenessHistogram().getTotalCount());
    }

    @Test
    void ackIsNeverDelayedOrChargedByQuantumPacing()
    {
        useQuantumPacing();
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(Long.MAX_VALUE);
        harness.activate(flow, 0);
        harness.serve(0);
        assertEquals(QUANTUM_GAP_NS, scheduler.nextReleaseTimeNs());

        flow.ackDue = true;
        harness.activate(flow, 1_000L);
        assertSame(flow, harness.releaseOne(1_000L));
        assertTrue(harness.isLastReleaseAckOnly());
        flow.ackDue = false;

        assertNull(harness.releaseOne(1_000L));
        assertEquals(QUANTUM_GAP_NS, scheduler.nextReleaseTimeNs(), "the ACK neither paced nor charged the flow");
        assertEquals(2, harness.serve(QUANTUM_GAP_NS));
        assertEquals(1, scheduler.ackOnlyReleases());
    }

    @Test
    void idleFlowWithOnlyAnAckIsReleasedAtOnce()
    {
        final TestFlow flow = new TestFlow(1).rate(1_000);
        flow.ackDue = true;
        harness.activate(flow, 5 * MS);

        assertSame(flow, harness.releaseOne(5 * MS));
        assertTrue(harness.isLastReleaseAckOnly());
    }

    @Test
    void flowThatOwesAnAckWhenThrottledSendsTheAckAtOnce()
    {
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(Long.MAX_VALUE);
        harness.activate(flow, 0);
        harness.serve(0, 10);
        flow.ackDue = true;

        assertSame(flow, harness.releaseOne(0));
        assertTrue(harness.isLastReleaseAckOnly());
        assertEquals(1, scheduler.throttledFlowCount());
    }

    @Test
    void flowIdleLongerThanGcAgeIsCollectedAndReturnsAsNew()
    {
        final TestFlow idle = new TestFlow(1).rate(RATE).backlog(1);
        harness.activate(idle, 0);
        harness.serve(0);
        assertEquals(1, scheduler.flowCount());

        final TestFlow other = new TestFlow(2);
        harness.activate(other, 3 * SECOND);
        assertEquals(0, scheduler.gcFlows(), "idle exactly 3 s: not yet");
        assertEquals(2, scheduler.flowCount());

        harness.activate(other, 3 * SECOND + 1);
        assertEquals(1, scheduler.gcFlows());
        assertEquals(1, scheduler.flowCount());
        assertEquals(1, counters.counter("flows"), "published for pacelink stat");

        // Forgotten, so it is a new flow again: a full initial quantum back to back.
        idle.backlog(Long.MAX_VALUE);
        harness.activate(idle, 4 * SECOND);
        assertEquals(10, harness.serve(4 * SECOND));
    }

    @Test
    void removedFlowIsForgotten()
    {
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(Long.MAX_VALUE);
        scheduler.addFlow(flow);
        harness.activate(flow, 0);
        harness.serve(0);
        assertEquals(1, scheduler.throttledFlowCount());

        scheduler.removeFlow(flow);
        assertEquals(0, scheduler.flowCount());
        assertEquals(0, scheduler.throttledFlowCount());
        assertEquals(0, counters.counter("flows"));
        assertEquals(0, counters.counter("throttled-flows"));
        assertEquals(Long.MAX_VALUE, scheduler.nextReleaseTimeNs());
        assertNull(harness.releaseOne(SECOND));
    }

    @Test
    void pacingOffIsPlainDeficitRoundRobin()
    {
        scheduler = newScheduler(FqConfig.from(ControllerParameters.of(Map.of(FqConfig.PACING, "false"))));
        harness = new SchedulerHarness(scheduler);
        final TestFlow flow = new TestFlow(1).rate(1_000).backlog(100);
        harness.activate(flow, 0);

        assertEquals(100, harness.serve(0));
        assertEquals(0, flow.sendable(0));
    }

    @Test
    void steadyStateSchedulingDoesNotAllocate()
    {
        final TestFlow[] flows = new TestFlow[10];
        for (int i = 0; i < flows.length; i++)
        {
            flows[i] = new TestFlow(i + 1).rate(RATE + 100_003L * i).backlog(Long.MAX_VALUE);
            scheduler.addFlow(flows[i]);
            harness.activate(flows[i], 0);
        }
        final long warmedUpNs = harness.runUntil(0, SECOND);

        // One virtual second of scheduling per window: about 80 000 packets.
        final long[] window = { warmedUpNs };
        AllocationMeter.assertAllocationFree("one second of scheduling 10 paced flows",
            () -> window[0] = harness.runUntil(window[0] + 1, window[0] + SECOND));
        final long endNs = window[0];

        assertTrue(endNs > warmedUpNs + 2 * SECOND);
        assertTrue(flows[0].sentPackets > 10_000);
    }

    /**
     * Run a paced flow until its credit ends one packet short of a quantum, let it idle, then count the packets it
     * may send back to back on its return.
     */
    private int packetsAfterIdle(final long idleNs)
    {
        final TestFlow flow = new TestFlow(1).rate(RATE).backlog(11);
        harness.activate(flow, 0);
        assertEquals(10, harness.serve(0));
        assertEquals(1, harness.serve(QUANTUM_GAP_NS));
        assertEquals(0, flow.backlogPackets);

        final long returnNs = QUANTUM_GAP_NS + idleNs;
        flow.backlog(Long.MAX_VALUE);
        harness.activate(flow, returnNs);
        return harness.serve(returnNs);
    }

    /**
     * sch_fq's own pacing of sockets without departure times: a quantum back to back per quantum / rate.
     */
    private void useQuantumPacing()
    {
        scheduler = newScheduler(FqConfig.from(ControllerParameters.of(Map.of(FqConfig.PER_PACKET_PACING, "false"))));
        harness = new SchedulerHarness(scheduler);
    }

    private int servedBeforeOther(final TestFlow first, final TestFlow other, final long nowNs)
    {
        final long otherBefore = other.sentPackets;
        final long firstBefore = first.sentPackets;
        while (other.sentPackets == otherBefore)
        {
            harness.serve(nowNs, 1);
        }
        return (int)(first.sentPackets - firstBefore);
    }

    private FqScheduler<TestFlow> newScheduler(final FqConfig config)
    {
        counters = new TestControllerContext(ControllerParameters.EMPTY);
        return new FqScheduler<>(config, counters);
    }
}
