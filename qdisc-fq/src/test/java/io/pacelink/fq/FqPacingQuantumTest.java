package io.pacelink.fq;

import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.schedule.PacingQuantum;
import io.pacelink.transport.testing.TestControllerContext;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pacer's quantum as a real-clock agent uses it, in virtual time: an agent that serves each release a quantum from
 * now ({@code WakeCoalescing}) and wakes a little late sends a burst of about ten datagrams per wake at low rates, 750
 * µs of the rate at high rates, and loses no rate at either, because fq's catch-up horizon is sized from the same
 * quantum.
 */
class FqPacingQuantumTest
{
    private static final long SECOND = 1_000_000_000L;
    private static final String LATENESS_FORGOTTEN = "lateness-forgotten-ns";
    private static final int MTU = TestFlow.MTU_BYTES;

    /**
     * 50 Mbit/s: ten 1514-byte datagrams take 2,422,400 ns.
     */
    private static final long RATE_50_MBIT = 6_250_000L;
    private static final long QUANTUM_50_MBIT_NS = 2_422_400L;
    private static final long GAP_50_MBIT_NS = 242_240L;

    /**
     * 1 Gbit/s: ten datagrams take 121 µs, less than the shortest quantum.
     */
    private static final long RATE_1_GBIT = 125_000_000L;
    private static final long GAP_1_GBIT_NS = 12_112L;

    /**
     * Releasing ahead at 1 Gbit/s: 64 KiB less a datagram at the rate (fq.releaseAheadMaxBytes), under the quantum.
     */
    private static final long AHEAD_1_GBIT_NS = (FqConfig.DEFAULT_RELEASE_AHEAD_MAX_BYTES - MTU) * SECOND / RATE_1_GBIT;

    /**
     * 500 Mbit/s, with a window of 5 MB: a quarter of it takes 20 ms at the rate.
     */
    private static final long RATE_500_MBIT = 62_500_000L;
    private static final long WINDOW_500_MBIT_BYTES = 5_000_000L;

    /**
     * A sender runnable but not running for a while: longer than the fixed 3-ms horizon, shorter than a quarter of
     * the window above at its rate.
     */
    private static final long STALL_NS = 10_000_000L;

    /**
     * How late each wake-up comes: less than the quarter of the horizon left for it.
     */
    private static final long WAKE_LATENESS_NS = 200_000L;

    /**
     * A sender descheduled for a while: longer than a 1 ms horizon leaves after the shortest quantum, shorter than
     * the default leaves.
     */
    private static final long DESCHEDULED_LATENESS_NS = 1_500_000L;

    /**
     * A real agent's duty cycle: longer than a datagram's time at 1 Gbit/s.
     */
    private static final long CYCLE_NS = 15_000L;

    /**
     * The endpoint's send batch: the most datagrams one duty cycle sends ({@code PacelinkContext.sendBatchLimit}).
     */
    private static final int SEND_BATCH_LIMIT = 64;

    private final FqScheduler<TestFlow> scheduler =
        new FqScheduler<>(FqConfig.defaults(), new TestControllerContext(ControllerParameters.EMPTY));
    private final SchedulerHarness harness = new SchedulerHarness(scheduler);

    private long wakes;
    private int largestBurst;
    private long lastWakeNs;

    @Test
    void at50MbitPerSecondTheAgentWakesOncePerTenDatagramsAndLosesNoRate()
    {
        final TestFlow flow = new TestFlow(1).rate(RATE_50_MBIT).backlog(Long.MAX_VALUE);
        serveInQuanta(flow, Long.MAX_VALUE, SECOND);

        assertEquals(QUANTUM_50_MBIT_NS, scheduler.nextReleaseQuantumNs(), "ten datagrams at the rate");
        assertEquals(RATE_50_MBIT, flow.sentBytes - 10L * MTU, RATE_50_MBIT * 0.01, "the rate, after the first 10");
        // One wake per quantum plus its lateness: about 380 a second, where the 750-µs quantum woke about 1,050 times.
        final long expectedWakes = SECOND / (QUANTUM_50_MBIT_NS + WAKE_LATENESS_NS);
        assertTrue(Math.abs(wakes - expectedWakes) <= 2, wakes + " wakes, expected about " + expectedWakes);
        assertTrue(largestBurst <= (QUANTUM_50_MBIT_NS + WAKE_LATENESS_NS) / GAP_50_MBIT_NS + 1,
            "a burst is what fell due in one quantum and its lateness: " + largestBurst);
    }

    @Test
    void wakesThatOutsleepAOneMillisecondHorizonWouldLoseRate()
    {
        // The other side of the horizon: a flow activated once, before it sent a datagram, keeps the shortest quantum
        // and, configured here, a 1 ms horizon; the same wakes, a long quantum apart, lose what fell due more than
        // 1 ms before each.
        final FqScheduler<TestFlow> oneMillisecond = schedulerWithHorizonUs(1_000);
        final SchedulerHarness oneMillisecondHarness = new SchedulerHarness(oneMillisecond);
        final TestFlow flow = new TestFlow(1).rate(RATE_50_MBIT).backlog(Long.MAX_VALUE);
        long nowNs = 0;
        oneMillisecondHarness.activate(flow, nowNs);
        oneMillisecondHarness.serve(nowNs);
        final long startBytes = flow.sentBytes;
        while (nowNs + QUANTUM_50_MBIT_NS + WAKE_LATENESS_NS <= SECOND)
        {
            nowNs += QUANTUM_50_MBIT_NS + WAKE_LATENESS_NS;
            oneMillisecondHarness.serve(nowNs);
        }
        assertEquals(PacingQuantum.MIN_QUANTUM_NS, oneMillisecond.nextReleaseQuantumNs());
        final long sentBytes = flow.sentBytes - startBytes;
        assertTrue(sentBytes < RATE_50_MBIT * 6 / 10, "the 1 ms horizon forgets most of each wait: " + sentBytes +
            " B in a second at " + RATE_50_MBIT + " B/s");
    }

    @Test
    void at1GbitPerSecondTheQuantumAndTheHorizonStayAsTheyWereAndNoRateIsLost()
    {
        final TestFlow flow = new TestFlow(1).rate(RATE_1_GBIT).backlog(Long.MAX_VALUE);
        serveInQuanta(flow, Long.MAX_VALUE, SECOND / 10);

        assertEquals(PacingQuantum.MIN_QUANTUM_NS, scheduler.nextReleaseQuantumNs());
        assertEquals(RATE_1_GBIT / 10, flow.sentBytes - 10L * MTU, RATE_1_GBIT / 10 * 0.01);
        assertTrue(largestBurst <= (PacingQuantum.MIN_QUANTUM_NS + WAKE_LATENESS_NS) / GAP_1_GBIT_NS + 1,
            "a burst is at most 750 µs and the wake's lateness of the rate: " + largestBurst);
    }

    @Test
    void at1GbitPerSecondWakesDeschedulingTheSenderForOneAndAHalfMillisecondsLoseNoRate()
    {
        // A sender that shares its cores is descheduled now and then: every wake 1.5 ms late, on top of the 750 µs
        // quantum. The default horizon (3 ms: the quantum and 2.25 ms) catches all of it up.
        final TestFlow flow = new TestFlow(1).rate(RATE_1_GBIT).backlog(Long.MAX_VALUE);
        serveInQuanta(scheduler, harness, flow, Long.MAX_VALUE, SECOND / 10, DESCHEDULED_LATENESS_NS);

        // Everything due by the last wake was sent (the wakes are 2.25 ms apart: the run's last one is up to that
        // much before its end).
        assertEquals(RATE_1_GBIT * lastWakeNs / SECOND, flow.sentBytes - 10L * MTU, RATE_1_GBIT / 10 * 0.01);
        assertTrue(largestBurst <= (PacingQuantum.MIN_QUANTUM_NS + DESCHEDULED_LATENESS_NS) / GAP_1_GBIT_NS + 1,
            "a burst is what fell due in one quantum and its lateness: " + largestBurst);
    }

    @Test
    void at1GbitPerSecondTheSameWakesLoseMoreThanHalfTheRateWithAOneMillisecondHorizon()
    {
        // The other side: with the horizon of before (1 ms), each wake 2.25 ms after the last forgets the 1.25 ms of
        // the schedule that fell due before the horizon: the flow sends 1 ms of every 2.25 ms, under half its rate.
        final TestFlow flow = new TestFlow(1).rate(RATE_1_GBIT).backlog(Long.MAX_VALUE);
        final FqScheduler<TestFlow> oneMillisecond = schedulerWithHorizonUs(1_000);
        serveInQuanta(
            oneMillisecond, new SchedulerHarness(oneMillisecond), flow, Long.MAX_VALUE, SECOND / 10,
            DESCHEDULED_LATENESS_NS);

        final long sentBytes = flow.sentBytes - 10L * MTU;
        assertTrue(sentBytes < RATE_1_GBIT / 10 / 2, "the 1 ms horizon forgets most of each wait: " + sentBytes +
            " B in 100 ms at " + RATE_1_GBIT + " B/s");
    }

    @Test
    void at500MbitPerSecondASenderDescheduledForTenMillisecondsAtATimeLosesNoRateWithAQuarterOfItsWindowConfigured()
    {
        // A sender on cores shared with its receiver and a path emulator's real-time threads is runnable but not
        // running for ten milliseconds and more at a time: every wake here comes 10 ms after its quantum. Its window
        // (5 MB: BBR's two BDPs of a 500 Mbit/s, 38 ms path with room to spare) has a quarter of 20 ms at the rate,
        // so what fell due while it was away all goes when it runs again, and nothing is forgotten.
        final TestControllerContext quarterCounters = new TestControllerContext(ControllerParameters.EMPTY);
        final FqScheduler<TestFlow> quarter = schedulerWithCwndPercent(25, quarterCounters);
        final TestFlow flow = new TestFlow(1).rate(RATE_500_MBIT).backlog(Long.MAX_VALUE);
        serveInQuanta(quarter, new SchedulerHarness(quarter), flow, WINDOW_500_MBIT_BYTES, SECOND / 2, STALL_NS);

        assertEquals(RATE_500_MBIT * lastWakeNs / SECOND, flow.sentBytes - 10L * MTU, RATE_500_MBIT / 2 * 0.01,
            "everything due by the last wake");
        assertEquals(0, quarterCounters.counter(LATENESS_FORGOTTEN), "nothing forgotten");
        // The burst after a stall is what fell due in it and the quantum: under a quarter of the window.
        assertTrue((long)largestBurst * MTU <= WINDOW_500_MBIT_BYTES / 4, "burst of " + largestBurst);
    }

    @Test
    void at500MbitPerSecondTheSameStallsLoseMostOfTheRateWithTheFixedHorizonAlone()
    {
        // The other side, the default pacer (fq.catchUpCwndPercent=0): each wake 10.75 ms after the last catches up
        // only the 3-ms horizon and forgets the rest, so the flow sends well under half its rate.
        final TestControllerContext fixedCounters = new TestControllerContext(ControllerParameters.EMPTY);
        final FqScheduler<TestFlow> fixedHorizon = new FqScheduler<>(FqConfig.defaults(), fixedCounters);
        final TestFlow flow = new TestFlow(1).rate(RATE_500_MBIT).backlog(Long.MAX_VALUE);
        serveInQuanta(
            fixedHorizon, new SchedulerHarness(fixedHorizon), flow, WINDOW_500_MBIT_BYTES, SECOND / 2, STALL_NS);

        final long sentBytes = flow.sentBytes - 10L * MTU;
        assertTrue(sentBytes < RATE_500_MBIT / 2 / 2, "the 3-ms horizon forgets most of each stall: " + sentBytes +
            " B in 500 ms at " + RATE_500_MBIT + " B/s");
        final long forgottenNs = fixedCounters.counter(LATENESS_FORGOTTEN);
        assertTrue(forgottenNs > SECOND / 4, "forgotten " + forgottenNs + " ns of 500 ms");
    }

    @Test
    void theWindowsShareNeverShortensTheFixedHorizonAndAnUnknownWindowAddsNothing()
    {
        // With a quarter configured: a small window (a quarter of 60 KB is under 1 ms at 500 Mbit/s) keeps the 3-ms
        // horizon, so stalls of 1.5 ms lose nothing; an unknown window (Long.MAX_VALUE) adds nothing either, so
        // 10-ms stalls forget most of their time.
        final TestControllerContext smallCounters = new TestControllerContext(ControllerParameters.EMPTY);
        final FqScheduler<TestFlow> small = schedulerWithCwndPercent(25, smallCounters);
        final TestFlow smallWindow = new TestFlow(1).rate(RATE_500_MBIT).backlog(Long.MAX_VALUE);
        serveInQuanta(small, new SchedulerHarness(small), smallWindow, 60_000, SECOND / 10, DESCHEDULED_LATENESS_NS);
        assertEquals(0, smallCounters.counter(LATENESS_FORGOTTEN), "within the fixed horizon");

        final TestControllerContext otherCounters = new TestControllerContext(ControllerParameters.EMPTY);
        final FqScheduler<TestFlow> other = schedulerWithCwndPercent(25, otherCounters);
        final TestFlow unknown = new TestFlow(2).rate(RATE_500_MBIT).backlog(Long.MAX_VALUE);
        serveInQuanta(other, new SchedulerHarness(other), unknown, Long.MAX_VALUE, SECOND / 10, STALL_NS);
        assertTrue(otherCounters.counter(LATENESS_FORGOTTEN) > SECOND / 20,
            "forgotten " + otherCounters.counter(LATENESS_FORGOTTEN) + " ns of 100 ms");
    }

    @Test
    void aSmallWindowKeepsTheBurstToAQuarterOfIt()
    {
        // 16 datagrams of window: a quarter is 4 datagrams, 969 µs at 50 Mbit/s, above the shortest quantum.
        final TestFlow flow = new TestFlow(1).rate(RATE_50_MBIT).backlog(Long.MAX_VALUE);
        serveInQuanta(flow, 16L * MTU, SECOND / 10);
        assertEquals(4 * GAP_50_MBIT_NS, scheduler.nextReleaseQuantumNs());
        assertTrue(largestBurst <= (4 * GAP_50_MBIT_NS + WAKE_LATENESS_NS) / GAP_50_MBIT_NS + 1, "" + largestBurst);

        // 12 datagrams: a quarter (727 µs) is below the shortest quantum, which applies.
        harness.activate(flow, 12L * MTU, SECOND);
        assertEquals(PacingQuantum.MIN_QUANTUM_NS, scheduler.nextReleaseQuantumNs());
    }

    @Test
    void withSeveralThrottledFlowsTheAgentGetsTheShortestQuantum()
    {
        final TestFlow slow = new TestFlow(1).rate(RATE_50_MBIT).backlog(Long.MAX_VALUE);
        final TestFlow other = new TestFlow(2).rate(RATE_50_MBIT).backlog(Long.MAX_VALUE);
        serveInQuanta(slow, Long.MAX_VALUE, SECOND / 100);
        assertEquals(QUANTUM_50_MBIT_NS, scheduler.nextReleaseQuantumNs(), "one throttled flow: its own");

        final long nowNs = SECOND / 100 + QUANTUM_50_MBIT_NS;
        harness.activate(slow, nowNs);
        harness.activate(other, nowNs);
        harness.serve(nowNs);
        harness.activate(other, nowNs);
        harness.serve(nowNs);
        assertEquals(2, scheduler.throttledFlowCount());
        assertEquals(PacingQuantum.MIN_QUANTUM_NS, scheduler.nextReleaseQuantumNs(),
            "another flow's shorter horizon must not be outslept");
    }

    @Test
    void at1GbitPerSecondAnAgentWhoseCyclesOutlastAPacketSendsAQuantumPerWakeWhenReleasingAhead()
    {
        // A real agent's duty cycle takes time: here 15 µs, more than a datagram's 12 µs at 1 Gbit/s. A cycle that
        // sent is followed at once by another (its idle strategy does not sleep after work), which finds the next
        // datagram or two already due: without releasing ahead the agent never sleeps and sends a datagram or two
        // per cycle, each cycle with its own system calls. Releasing up to a quantum ahead, each wake sends a
        // quantum, the cycle after it finds the flow throttled, and the agent sleeps until the quantum is due.
        final FqScheduler<TestFlow> ahead =
            new FqScheduler<>(FqConfig.defaults(), new TestControllerContext(ControllerParameters.EMPTY));
        ahead.releaseAheadInQuanta(true);
        final TestFlow aheadFlow = new TestFlow(1).rate(RATE_1_GBIT).backlog(Long.MAX_VALUE);
        final long aheadSendingCycles = runTimedCycles(ahead, aheadFlow, SECOND / 10, true);

        final TestFlow dueFlow = new TestFlow(2).rate(RATE_1_GBIT).backlog(Long.MAX_VALUE);
        final long dueSendingCycles = runTimedCycles(scheduler, dueFlow, SECOND / 10, false);

        final long rateBytes = RATE_1_GBIT / 10;
        assertEquals(rateBytes, aheadFlow.sentBytes - 10L * MTU, rateBytes * 0.01, "no rate lost, none gained");
        assertEquals(rateBytes, dueFlow.sentBytes - 10L * MTU, rateBytes * 0.01, "no rate lost, none gained");
        // 100 ms of releases 64 KiB (512 µs) ahead: about 140 wakes (each a little late), each one or two send
        // batches (the ahead and the wake's lateness can outgrow one), against a send every 15-µs cycle and no sleep.
        final long aheadWakes = wakes;
        assertTrue(aheadWakes <= SECOND / 10 / AHEAD_1_GBIT_NS + 2, aheadWakes + " wakes");
        assertTrue(aheadSendingCycles <= 2 * aheadWakes, aheadSendingCycles + " sending cycles releasing ahead");
        assertTrue(dueSendingCycles >= SECOND / 10 / CYCLE_NS - 2, dueSendingCycles + " sending cycles");
        assertEquals(aheadWakes, wakes, "without releasing ahead the agent never slept");
    }

    @Test
    void releasingAheadIsOffUntilTheEndpointAsksAndWithFqReleaseAheadFalse()
    {
        final FqScheduler<TestFlow> configuredOff = new FqScheduler<>(
            FqConfig.from(ControllerParameters.of(Map.of(FqConfig.RELEASE_AHEAD, "false"))),
            new TestControllerContext(ControllerParameters.EMPTY));
        configuredOff.releaseAheadInQuanta(true);
        final TestFlow flow = new TestFlow(1).rate(RATE_1_GBIT).backlog(Long.MAX_VALUE);
        final SchedulerHarness offHarness = new SchedulerHarness(configuredOff);
        offHarness.activate(flow, 0);
        offHarness.serve(0); // the initial quantum, unpaced
        assertEquals(1, offHarness.serve(GAP_1_GBIT_NS * 3 / 2), "only what is due");

        final TestFlow other = new TestFlow(2).rate(RATE_1_GBIT).backlog(Long.MAX_VALUE);
        harness.activate(other, 0);
        harness.serve(0);
        assertEquals(1, harness.serve(GAP_1_GBIT_NS * 3 / 2), "off until the endpoint asks");

        scheduler.releaseAheadInQuanta(true);
        final long nowNs = 3 * GAP_1_GBIT_NS;
        harness.activate(other, nowNs);
        final int burst = harness.serve(nowNs);
        assertEquals((nowNs + AHEAD_1_GBIT_NS) / GAP_1_GBIT_NS - 1, burst, 1, "up to the ahead once asked: " + burst);
        assertEquals(0, harness.serve(nowNs + CYCLE_NS), "throttled until due again");
        assertTrue(scheduler.nextReleaseTimeNs() > nowNs + AHEAD_1_GBIT_NS - GAP_1_GBIT_NS);
    }

    @Test
    void at1GbitPerSecondAReleaseOnTimeCarriesAtMost64KibLikeALinuxTsoBurstAndAWholeQuantumUnbounded()
    {
        // Above about 680 Mbit/s 64 KiB is sent sooner than the 750-µs quantum: 43 datagrams of 1,514 bytes, as Linux
        // TCP's TSO burst there is 64 KiB (tcp_tso_autosize); without the bound a whole quantum, 62 datagrams here.
        assertEquals(43, releaseOnTime(scheduler, RATE_1_GBIT, 10 * SECOND / 1000), "64 KiB at most");
        assertTrue(43L * MTU <= FqConfig.DEFAULT_RELEASE_AHEAD_MAX_BYTES);
        final FqScheduler<TestFlow> unbounded = schedulerReleasingAheadAtMost(FqConfig.MAX_QUANTUM_BYTES);
        assertEquals(PacingQuantum.MIN_QUANTUM_NS / GAP_1_GBIT_NS + 1,
            releaseOnTime(unbounded, RATE_1_GBIT, 10 * SECOND / 1000), "a whole quantum");
        // At BBR's probing gain (1.25 × 1 Gbit/s) still 43: the bound is in bytes.
        final FqScheduler<TestFlow> probing = schedulerReleasingAheadAtMost(FqConfig.DEFAULT_RELEASE_AHEAD_MAX_BYTES);
        assertEquals(43, releaseOnTime(probing, RATE_1_GBIT * 5 / 4, 10 * SECOND / 1000));
    }

    @Test
    void at50MbitPerSecondTheQuantumBindsAndTheBoundChangesNothing()
    {
        // Ten datagrams' time at 50 Mbit/s is 15,140 bytes, far below 64 KiB: a release on time is the quantum's.
        final int bounded = releaseOnTime(scheduler, RATE_50_MBIT, SECOND / 10);
        final int unbounded =
            releaseOnTime(schedulerReleasingAheadAtMost(FqConfig.MAX_QUANTUM_BYTES), RATE_50_MBIT, SECOND / 10);
        assertEquals(QUANTUM_50_MBIT_NS / GAP_50_MBIT_NS + 1, bounded);
        assertEquals(unbounded, bounded);
    }

    /**
     * A backlogged flow releasing ahead, served on time at every release for a while (each wake activating it, as
     * the endpoint's duty cycle does): the datagrams of the last release.
     */
    private static int releaseOnTime(final FqScheduler<TestFlow> fq, final long rateBytesPerSecond, final long forNs)
    {
        fq.releaseAheadInQuanta(true);
        final SchedulerHarness fqHarness = new SchedulerHarness(fq);
        final TestFlow flow = new TestFlow(1).rate(rateBytesPerSecond).backlog(Long.MAX_VALUE);
        long nowNs = 0;
        fqHarness.activate(flow, nowNs);
        fqHarness.serve(nowNs); // the initial quantum, unpaced
        int burst = 0;
        while (nowNs < forNs)
        {
            nowNs = Math.max(nowNs + 1, fq.nextReleaseTimeNs());
            fqHarness.activate(flow, nowNs);
            burst = fqHarness.serve(nowNs);
        }
        return burst;
    }

    private static FqScheduler<TestFlow> schedulerReleasingAheadAtMost(final int maxBytes)
    {
        final Map<String, String> bound = Map.of(FqConfig.RELEASE_AHEAD_MAX_BYTES, Integer.toString(maxBytes));
        return new FqScheduler<>(
            FqConfig.from(ControllerParameters.of(bound)), new TestControllerContext(ControllerParameters.EMPTY));
    }

    /**
     * Play a real-clock agent whose duty cycles take {@link #CYCLE_NS}: a cycle that sent is followed at once by
     * another; one that sent nothing sleeps until the release — on time for a pacer that releases ahead, else a
     * quantum from now if that is closer ({@code WakeCoalescing}) — and wakes {@link #WAKE_LATENESS_NS} late (counted
     * in {@link #wakes}). Each cycle sends at most a send batch.
     *
     * @return cycles that sent.
     */
    private long runTimedCycles(
        final FqScheduler<TestFlow> fq, final TestFlow flow, final long durationNs, final boolean servesOnTime)
    {
        final SchedulerHarness fqHarness = new SchedulerHarness(fq);
        long nowNs = 0;
        fqHarness.activate(flow, nowNs);
        fqHarness.serve(nowNs); // the initial quantum, unpaced
        long sendingCycles = 0;
        while (true)
        {
            nowNs += CYCLE_NS;
            if (nowNs > durationNs)
            {
                return sendingCycles;
            }
            fqHarness.activate(flow, nowNs);
            final int burst = fqHarness.serve(nowNs, SEND_BATCH_LIMIT);
            if (burst > 0)
            {
                sendingCycles++;
                largestBurst = Math.max(largestBurst, burst);
                continue;
            }
            final long releaseNs = fq.nextReleaseTimeNs();
            final long quantumEndNs = nowNs + (servesOnTime ? 0 : fq.nextReleaseQuantumNs());
            nowNs = (releaseNs < quantumEndNs ? quantumEndNs : releaseNs) + WAKE_LATENESS_NS - CYCLE_NS;
            wakes++;
        }
    }

    /**
     * Play the real-clock agent: each wake activates the flow (as the endpoint's duty cycle does), sends what the
     * pacer releases, then sleeps until the release, or a quantum from now if that is closer, and wakes a little late.
     */
    private void serveInQuanta(final TestFlow flow, final long congestionWindowBytes, final long durationNs)
    {
        serveInQuanta(scheduler, harness, flow, congestionWindowBytes, durationNs, WAKE_LATENESS_NS);
    }

    /**
     * As above, on the given scheduler (served through the given harness), each wake this late.
     */
    private void serveInQuanta(
        final FqScheduler<TestFlow> fq,
        final SchedulerHarness fqHarness,
        final TestFlow flow,
        final long congestionWindowBytes,
        final long durationNs,
        final long wakeLatenessNs)
    {
        long nowNs = 0;
        fqHarness.activate(flow, congestionWindowBytes, nowNs);
        fqHarness.serve(nowNs); // the initial quantum, unpaced
        while (true)
        {
            final long releaseNs = fq.nextReleaseTimeNs();
            final long quantumEndNs = nowNs + fq.nextReleaseQuantumNs();
            nowNs = (releaseNs < quantumEndNs ? quantumEndNs : releaseNs) + wakeLatenessNs;
            if (nowNs > durationNs)
            {
                return;
            }
            fqHarness.activate(flow, congestionWindowBytes, nowNs);
            final int burst = fqHarness.serve(nowNs);
            largestBurst = Math.max(largestBurst, burst);
            lastWakeNs = nowNs;
            wakes++;
        }
    }

    private static FqScheduler<TestFlow> schedulerWithCwndPercent(
        final int percent, final TestControllerContext context)
    {
        return new FqScheduler<>(
            FqConfig.from(ControllerParameters.of(Map.of(FqConfig.CATCH_UP_CWND_PERCENT, Integer.toString(percent)))),
            context);
    }

    private static FqScheduler<TestFlow> schedulerWithHorizonUs(final long horizonUs)
    {
        return new FqScheduler<>(
            FqConfig.from(ControllerParameters.of(Map.of(FqConfig.CATCH_UP_HORIZON_US, Long.toString(horizonUs),
                FqConfig.CATCH_UP_DEBT_US, "0"))),
            new TestControllerContext(ControllerParameters.EMPTY));
    }
}
