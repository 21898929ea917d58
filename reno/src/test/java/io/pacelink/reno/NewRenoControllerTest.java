package io.pacelink.reno;

import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.RecoveryPattern;
import io.pacelink.transport.testing.ScriptedPath;
import io.pacelink.transport.testing.TestControllerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NewReno against RFC 9002 section 7 on the test kit's scripted path (fixed RTT, every packet acknowledged one RTT
 * later).
 */
class NewRenoControllerTest
{
    private static final long RTT_NS = 100_000_000L;
    private static final int MSS = TestControllerContext.DEFAULT_MAX_DATAGRAM_SIZE_BYTES;
    private static final long INITIAL_WINDOW_BYTES = 10L * MSS;

    private final TestControllerContext context = new TestControllerContext(ControllerParameters.EMPTY);
    private final NewRenoController reno =
        new NewRenoController(context, NewRenoParameters.from(ControllerParameters.EMPTY));
    private final ScriptedPath path = new ScriptedPath(reno, context, RTT_NS);

    @Test
    void slowStartDoublesPerRoundTripWithPerPacketAcks()
    {
        path.pacing(false);
        assertEquals(INITIAL_WINDOW_BYTES, reno.congestionWindowBytes());

        for (int round = 1; round <= 8; round++)
        {
            path.runUntil(round * RTT_NS);
            assertEquals(INITIAL_WINDOW_BYTES << round, reno.congestionWindowBytes(), "after round " + round);
            assertEquals(NewRenoController.STATE_SLOW_START, reno.stateName());
        }
    }

    @ParameterizedTest(name = "ACK every {0} packets")
    @ValueSource(ints = { 1, 2, 8 })
    void congestionAvoidanceAddsOneDatagramPerRoundTripAlsoWithStretchAcks(final int ackEvery)
    {
        path.ackEvery(ackEvery);
        enterCongestionAvoidanceFrom(60);

        final long startBytes = reno.congestionWindowBytes();
        final int rounds = 30;
        path.runFor(rounds * RTT_NS);
        final double datagramsPerRound = (reno.congestionWindowBytes() - startBytes) / (double)MSS / rounds;
        System.out.printf("NewReno CA, ACK every %d: %.3f datagrams per RTT%n", ackEvery, datagramsPerRound);

        // Byte counting acknowledges about one window per RTT; the per-ACK approximation SMSS*SMSS/cwnd would lose
        // growth with stretch ACKs, byte counting does not.
        assertTrue(datagramsPerRound >= 0.93 && datagramsPerRound <= 1.0, "datagrams per RTT " + datagramsPerRound);
        assertEquals(NewRenoController.STATE_CONGESTION_AVOIDANCE, reno.stateName());
    }

    @Test
    void threeLossesInOneWindowHalveOnce()
    {
        path.runUntil(Long.MAX_VALUE, () -> reno.congestionWindowBytes() >= 80L * MSS);
        path.dropNext(3);
        path.runUntil(Long.MAX_VALUE, () -> path.congestionEvents() == 1);
        final long beforeBytes = path.cwndBeforeLastCongestionEventBytes();
        assertEquals(beforeBytes / 2, reno.slowStartThresholdBytes());
        assertTrue(reno.isInRateReduction(), "PRR takes the window to ssthresh over the recovery");

        // The other two losses are detected on later ACKs of the same window and must not cut again.
        path.runUntil(Long.MAX_VALUE, () -> path.congestionEvents() == 3);
        assertEquals(beforeBytes / 2, reno.slowStartThresholdBytes());
        assertEquals(NewRenoController.STATE_RECOVERY, reno.stateName());

        path.runUntil(Long.MAX_VALUE, () -> !reno.isInRecovery());
        assertEquals(beforeBytes / 2, reno.congestionWindowBytes(), "ends at ssthresh, no growth during recovery");

        // A loss in the next window starts a new epoch and halves again.
        path.runFor(2 * RTT_NS);
        path.dropNext(1);
        path.runUntil(Long.MAX_VALUE, () -> path.congestionEvents() == 4);
        assertEquals(path.cwndBeforeLastCongestionEventBytes() / 2, reno.slowStartThresholdBytes());
        assertTrue(reno.slowStartThresholdBytes() > beforeBytes / 4);
    }

    @Test
    void recoverySendsHalfOfWhatIsDeliveredEvenlyAndEndsWithSsthreshInFlight()
    {
        // A 10 MB/s bottleneck spaces the ACKs, per-packet ACKs and no pacing show each ACK's allowance at once (RFC
        // 6937 section 5's example).
        final TestControllerContext rateContext = new TestControllerContext(ControllerParameters.EMPTY);
        final NewRenoController rateReno =
            new NewRenoController(rateContext, NewRenoParameters.from(ControllerParameters.EMPTY));
        final ScriptedPath ratePath = new ScriptedPath(rateReno, rateContext, 10_000_000, RTT_NS, 0, 0)
            .pacing(false).ackEvery(1);
        ratePath.runUntil(Long.MAX_VALUE, () -> rateReno.congestionWindowBytes() >= 100L * MSS);
        ratePath.recorder().recording(true);
        ratePath.dropNext(1);
        ratePath.runUntil(Long.MAX_VALUE, () -> rateReno.isInRecovery());
        final long ssthreshBytes = rateReno.slowStartThresholdBytes();
        ratePath.runUntil(Long.MAX_VALUE, () -> !rateReno.isInRecovery());

        final RecoveryPattern recovery = RecoveryPattern.first(ratePath.recorder());
        System.out.printf("NewReno PRR: %d ACKs, %d bytes sent for %d delivered, longest silence %d ACKs, " +
            "sent per ACK %s%n", recovery.sentPerAck().size(), recovery.sentBytes(), recovery.deliveredBytes(),
            recovery.longestSilenceInAcks(0.5), recovery.sentPerAck());
        assertEquals(MSS, recovery.sentPerAck().get(0), "the fast retransmit leaves on the ACK that found the loss");
        assertTrue(recovery.longestSilenceInAcks(0.5) <= 2,
            "one datagram for every two delivered from the start, not half a round trip of silence");
        assertTrue(recovery.largestBurstBeyondDeliveredBytes() <= MSS, "no burst");
        assertEquals(0.5, (double)recovery.sentBytes() / recovery.deliveredBytes(), 0.05,
            "ssthresh / prior cwnd of what was delivered");
        assertEquals(ssthreshBytes, recovery.flightAtEndBytes(), 2 * MSS, "the flight is down to ssthresh");
        assertEquals(ssthreshBytes, rateReno.congestionWindowBytes());
    }

    @Test
    void lossOfPacketSentBeforeRecoveryStartIsIgnoredEvenAfterRecoveryEnds()
    {
        enterCongestionAvoidanceFrom(40);
        path.dropNext(1);
        path.runUntil(Long.MAX_VALUE, () -> reno.isInRecovery());
        final long reducedBytes = reno.slowStartThresholdBytes();
        final long recoveryStartedNs = path.nowNs();

        path.runUntil(Long.MAX_VALUE, () -> !reno.isInRecovery());
        final long afterRecoveryBytes = reno.congestionWindowBytes();
        assertEquals(reducedBytes, afterRecoveryBytes);

        path.congestionEvent(recoveryStartedNs - 1, false);
        assertEquals(afterRecoveryBytes, reno.congestionWindowBytes(), "late report of an old loss");
        assertEquals(NewRenoController.STATE_CONGESTION_AVOIDANCE, reno.stateName());

        path.congestionEvent(recoveryStartedNs, false);
        assertEquals(afterRecoveryBytes, reno.congestionWindowBytes(), "sent at the recovery start time");

        path.congestionEvent(recoveryStartedNs + 1, false);
        assertEquals(afterRecoveryBytes / 2, reno.slowStartThresholdBytes(), "sent after recovery started");
        assertEquals(NewRenoController.STATE_RECOVERY, reno.stateName());
    }

    @Test
    void ecnCongestionExperiencedReducesLikeLoss()
    {
        enterCongestionAvoidanceFrom(40);
        final long beforeBytes = reno.congestionWindowBytes();
        path.ecnCongestionEvent(path.newestSentTimeNs());
        assertEquals(beforeBytes / 2, reno.slowStartThresholdBytes());
        assertTrue(reno.isInRateReduction());
        assertEquals(NewRenoController.STATE_RECOVERY, reno.stateName());
    }

    @Test
    void ceMarksFromABottleneckHalveOncePerRoundTripAndRetransmitNothing()
    {
        // 10 Mbit/s, 20 ms, a step marker at 20 packets of queue, a buffer that never overflows: marks replace drops.
        final long rttNs = 20_000_000L;
        final ScriptedPath marked = new ScriptedPath(reno, context, 1_250_000, rttNs, 0, 1)
            .ceThresholdBytes(20L * MSS);
        final long[] reductions = new long[1];
        final long[] lastReductionNs = {Long.MIN_VALUE};
        final long[] shortestGapNs = {Long.MAX_VALUE};
        final long[] windowAfterReduction = {Long.MAX_VALUE, 0};
        marked.listener((p) ->
        {
            if (p.lossRecovery().ecnCeReactions() != reductions[0])
            {
                reductions[0] = p.lossRecovery().ecnCeReactions();
                windowAfterReduction[0] = Math.min(windowAfterReduction[0], reno.congestionWindowBytes());
                windowAfterReduction[1] = Math.max(windowAfterReduction[1], reno.congestionWindowBytes());
                if (Long.MIN_VALUE != lastReductionNs[0])
                {
                    shortestGapNs[0] = Math.min(shortestGapNs[0], p.nowNs() - lastReductionNs[0]);
                }
                lastReductionNs[0] = p.nowNs();
            }
        });
        marked.runFor(20_000_000_000L);

        assertEquals(0, marked.droppedBytes());
        assertEquals(0, marked.lostBytes(), "nothing declared lost, so nothing is retransmitted");
        assertTrue(marked.ceMarkedPackets() > 5 * reductions[0], marked.ceMarkedPackets() + " marks, " +
            reductions[0] + " reductions: many marks per round trip, one reduction");
        // A sawtooth between about 20 and 41 packets: 20 round trips of growth between reductions.
        assertTrue(reductions[0] >= 20, reductions[0] + " reductions in 20 s");
        assertTrue(windowAfterReduction[0] >= 15L * MSS, "halved, never collapsed: " + windowAfterReduction[0]);
        assertTrue(shortestGapNs[0] >= rttNs, "reductions at least a round trip apart: " + shortestGapNs[0] + " ns");
        assertTrue(marked.maxQueueBytes() < 120L * MSS, "queue held near the marking threshold: " +
            marked.maxQueueBytes() + " bytes");
        assertTrue(marked.deliveredBytes() > 0.9 * 1_250_000 * 20, "the link stays busy: " + marked.deliveredBytes());
    }

    @Test
    void persistentCongestionCollapsesToMinimumWindowAndLeavesRecovery()
    {
        enterCongestionAvoidanceFrom(40);
        final long beforeBytes = reno.congestionWindowBytes();

        path.congestionEvent(path.newestSentTimeNs(), true);
        assertEquals(2L * MSS, reno.congestionWindowBytes());
        assertEquals(beforeBytes / 2, reno.slowStartThresholdBytes());
        assertEquals(2L * MSS, context.counter(NewRenoController.CWND_COUNTER));
        assertEquals(NewRenoController.STATE_SLOW_START, reno.stateName());

        // Slow start again from the minimum window, up to the halved ssthresh.
        path.runFor(2 * RTT_NS);
        assertTrue(reno.congestionWindowBytes() > 2L * MSS);
    }

    @Test
    void windowNeverFallsBelowTwoDatagrams()
    {
        for (int i = 0; i < 12; i++)
        {
            path.runFor(RTT_NS);
            path.congestionEvent(path.nowNs(), false);
            assertTrue(reno.congestionWindowBytes() >= 2L * MSS, "after reduction " + i);
            assertTrue(reno.slowStartThresholdBytes() >= 2L * MSS, "after reduction " + i);
        }
        assertEquals(2L * MSS, reno.slowStartThresholdBytes());
        assertEquals(12, path.congestionEvents());
    }

    @Test
    void applicationLimitedSenderDoesNotGrowTheWindow()
    {
        // Slow start: the application keeps only half the initial window in flight.
        path.applicationLimitBytes(INITIAL_WINDOW_BYTES / 2);
        path.runFor(20 * RTT_NS);
        assertEquals(INITIAL_WINDOW_BYTES, reno.congestionWindowBytes());

        // Congestion avoidance: same.
        path.applicationLimitBytes(Long.MAX_VALUE);
        enterCongestionAvoidanceFrom(40);
        final long caBytes = reno.congestionWindowBytes();
        path.applicationLimitBytes(caBytes / 2);
        path.runFor(50 * RTT_NS);
        assertEquals(caBytes, reno.congestionWindowBytes());

        // And it grows again once the application fills the window.
        path.applicationLimitBytes(Long.MAX_VALUE);
        path.runFor(10 * RTT_NS);
        assertTrue(reno.congestionWindowBytes() >= caBytes + 8L * MSS);
    }

    @Test
    void averageWindowUnderDeterministicLossMatchesTheResponseFunction()
    {
        // Mathis et al.: one loss every 1/p packets gives an average window of sqrt(3 / (2p)) datagrams.
        final long dropEvery = 1_000;
        path.dropEveryNth(dropEvery);
        path.runFor(100 * RTT_NS);
        final long startNs = path.nowNs();
        final long startDelivered = path.deliveredBytes();
        path.runFor(3_000 * RTT_NS);

        final double averageWindow = (path.deliveredBytes() - startDelivered) / (double)MSS /
            ((path.nowNs() - startNs) / (double)RTT_NS);
        final double expected = Math.sqrt(1.5 * dropEvery);
        System.out.printf("NewReno deterministic loss 1/%d: average window %.1f datagrams, Mathis %.1f%n",
            dropEvery, averageWindow, expected);
        assertEquals(expected, averageWindow, 0.1 * expected);
    }

    @Test
    void lossReductionParameterSetsTheCut()
    {
        final TestControllerContext gentleContext =
            new TestControllerContext(ControllerParameters.parse("reno.lossReduction=0.7"));
        final NewRenoController gentle =
            (NewRenoController)new NewRenoFactory().newController(gentleContext);
        final ScriptedPath gentlePath =
            new ScriptedPath(gentle, gentleContext, RTT_NS);
        gentlePath.runUntil(Long.MAX_VALUE, () -> gentle.congestionWindowBytes() >= 100L * MSS);
        final long beforeBytes = gentle.congestionWindowBytes();
        gentlePath.congestionEvent(gentlePath.newestSentTimeNs(), false);
        assertEquals((long)(beforeBytes * 0.7), gentle.slowStartThresholdBytes());
        assertEquals((long)(beforeBytes * 0.7), gentleContext.counter(NewRenoController.SSTHRESH_COUNTER));
    }

    private void enterCongestionAvoidanceFrom(final long packets)
    {
        path.runUntil(Long.MAX_VALUE, () -> reno.congestionWindowBytes() >= packets * MSS);
        path.dropNext(1);
        path.runUntil(Long.MAX_VALUE, () -> reno.isInRecovery());
        path.runUntil(Long.MAX_VALUE, () -> !reno.isInRecovery());
        assertEquals(NewRenoController.STATE_CONGESTION_AVOIDANCE, reno.stateName());
    }
}
