package io.pacelink.cubic;

import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.RecoveryPattern;
import io.pacelink.transport.testing.ScriptedPath;
import io.pacelink.transport.testing.TestControllerContext;
import org.junit.jupiter.api.Test;

import static io.pacelink.cubic.CubicRig.MILLIS_NS;
import static io.pacelink.cubic.CubicRig.MSS;
import static io.pacelink.cubic.CubicRig.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CUBIC's reactions other than the curve itself: recovery epochs, persistent congestion, application-limited and
 * idle periods, spurious-loss undo and the β and C parameters.
 */
class CubicControllerTest
{
    private static final long RTT_NS = 100 * MILLIS_NS;

    @Test
    void threeLossesInOneWindowReduceOnce()
    {
        final CubicRig rig = congestionAvoidanceAfterLossAt(200);
        rig.path.runFor(seconds(1));

        rig.path.dropNext(3);
        rig.path.runUntil(Long.MAX_VALUE, () -> rig.path.congestionEvents() == 2);
        final long beforeBytes = rig.path.cwndBeforeLastCongestionEventBytes();
        final long reducedBytes = (long)(beforeBytes * 0.7);
        assertEquals(reducedBytes, rig.cubic.slowStartThresholdBytes());
        assertTrue(rig.cubic.isInRateReduction(), "the window follows PRR towards ssthresh");
        assertTrue(beforeBytes < 200L * MSS);
        assertEquals(0.85 * beforeBytes, rig.cubic.wMaxBytes(), 1e-6, "fast convergence below the old W_max");
        assertEquals(CubicController.STATE_RECOVERY, rig.cubic.stateName());

        rig.path.runUntil(Long.MAX_VALUE, () -> rig.path.congestionEvents() == 4);
        assertEquals(reducedBytes, rig.cubic.slowStartThresholdBytes(), "later losses of the same window");
        assertEquals(0.85 * beforeBytes, rig.cubic.wMaxBytes(), 1e-6);

        rig.path.runUntil(Long.MAX_VALUE, () -> !rig.cubic.isInRecovery());
        assertEquals(CubicController.STATE_CONGESTION_AVOIDANCE, rig.cubic.stateName());
        assertEquals(reducedBytes, rig.cubic.congestionWindowBytes(), "PRR ends at ssthresh, no growth in recovery");
    }

    @Test
    void recoverySendsSeventyPercentOfWhatIsDeliveredEvenlyAndEndsWithSsthreshInFlight()
    {
        // A 10 MB/s bottleneck spaces the ACKs, per-packet ACKs and no pacing show each ACK's allowance at once.
        final TestControllerContext context = new TestControllerContext(ControllerParameters.parse(""));
        final CubicController cubic = (CubicController)new CubicFactory().newController(context);
        final ScriptedPath path = new ScriptedPath(cubic, context, 10_000_000, RTT_NS, 0, 0).pacing(false).ackEvery(1);
        path.runUntil(Long.MAX_VALUE, () -> cubic.congestionWindowBytes() >= 100L * MSS);
        path.recorder().recording(true);
        path.dropNext(1);
        path.runUntil(Long.MAX_VALUE, cubic::isInRecovery);
        final long ssthreshBytes = cubic.slowStartThresholdBytes();
        path.runUntil(Long.MAX_VALUE, () -> !cubic.isInRecovery());

        final RecoveryPattern recovery = RecoveryPattern.first(path.recorder());
        System.out.printf("CUBIC PRR: %d ACKs, %d bytes sent for %d delivered, longest silence %d ACKs, " +
            "sent per ACK %s%n", recovery.sentPerAck().size(), recovery.sentBytes(), recovery.deliveredBytes(),
            recovery.longestSilenceInAcks(0.5), recovery.sentPerAck());
        assertEquals(MSS, recovery.sentPerAck().get(0), "the fast retransmit leaves on the ACK that found the loss");
        assertTrue(recovery.longestSilenceInAcks(0.5) <= 1, "seven datagrams for every ten delivered from the start");
        assertTrue(recovery.largestBurstBeyondDeliveredBytes() <= MSS, "no burst");
        assertEquals(0.7, (double)recovery.sentBytes() / recovery.deliveredBytes(), 0.05, "beta of what was delivered");
        assertEquals(ssthreshBytes, recovery.flightAtEndBytes(), 2 * MSS, "the flight is down to ssthresh");
        assertEquals(ssthreshBytes, cubic.congestionWindowBytes());
    }

    @Test
    void lossOfPacketSentBeforeRecoveryStartIsIgnoredEvenAfterRecoveryEnds()
    {
        final CubicRig rig = new CubicRig("cubic.hystart=false", RTT_NS);
        rig.slowStartToThenLose(100);
        final long recoveryStartNs = rig.path.nowNs();
        rig.runUntilEpochStarts();
        rig.path.runFor(seconds(1));
        final long congestionWindowBytes = rig.cubic.congestionWindowBytes();

        rig.path.congestionEvent(recoveryStartNs, false);
        assertEquals(congestionWindowBytes, rig.cubic.congestionWindowBytes());
        assertEquals(CubicController.STATE_CONGESTION_AVOIDANCE, rig.cubic.stateName());

        rig.path.congestionEvent(recoveryStartNs + 1, false);
        assertEquals((long)(congestionWindowBytes * 0.7), rig.cubic.slowStartThresholdBytes());
        assertEquals(CubicController.STATE_RECOVERY, rig.cubic.stateName());
    }

    @Test
    void ecnCongestionExperiencedReducesLikeLoss()
    {
        final CubicRig rig = congestionAvoidanceAfterLossAt(100);
        rig.path.runFor(seconds(1));
        final long congestionWindowBytes = rig.cubic.congestionWindowBytes();
        rig.path.ecnCongestionEvent(rig.path.newestSentTimeNs());
        assertEquals((long)(congestionWindowBytes * 0.7), rig.cubic.slowStartThresholdBytes());
        assertTrue(rig.cubic.isInRateReduction());
    }

    @Test
    void ceMarksFromABottleneckReduceByBetaWithoutAnyLoss()
    {
        final TestControllerContext context = new TestControllerContext(ControllerParameters.EMPTY);
        final CubicController cubic = (CubicController)new CubicFactory().newController(context);
        final ScriptedPath path = new ScriptedPath(cubic, context, 2_500_000, 40 * MILLIS_NS, 0, 1)
            .ceThresholdBytes(30L * MSS);
        final double[] smallestCut = {1.0};
        final long[] cwndBefore = {cubic.congestionWindowBytes()};
        path.listener((p) ->
        {
            if (cubic.congestionWindowBytes() < cwndBefore[0])
            {
                smallestCut[0] = Math.min(smallestCut[0], cubic.congestionWindowBytes() / (double)cwndBefore[0]);
            }
            cwndBefore[0] = cubic.congestionWindowBytes();
        });
        path.runFor(seconds(30));

        final long reductions = path.lossRecovery().ecnCeReactions();
        assertTrue(reductions >= 10, reductions + " reductions in 30 s");
        assertTrue(path.ceMarkedPackets() > 5 * reductions, path.ceMarkedPackets() + " marks, one reduction per RTT");
        assertEquals(0, path.droppedBytes());
        assertEquals(0, path.lostBytes());
        assertTrue(smallestCut[0] >= 0.7 - 1e-4, "RFC 9438 beta: " + smallestCut[0]);
        assertTrue(path.maxQueueBytes() < 150L * MSS, path.maxQueueBytes() + " bytes queued at most");
    }

    @Test
    void persistentCongestionCollapsesToMinimumWindowAndStartsAFreshEpoch()
    {
        final CubicRig rig = congestionAvoidanceAfterLossAt(200);
        rig.path.runFor(seconds(1));
        final long beforeBytes = rig.cubic.congestionWindowBytes();

        rig.path.congestionEvent(rig.path.newestSentTimeNs(), true);
        assertEquals(2L * MSS, rig.cubic.congestionWindowBytes());
        assertEquals((long)(beforeBytes * 0.7), rig.cubic.slowStartThresholdBytes());
        assertEquals(CubicController.STATE_SLOW_START, rig.cubic.stateName());
        assertEquals(0, rig.context.counter(CubicController.W_MAX_COUNTER), "W_max undefined");
        assertEquals(Long.MIN_VALUE, rig.context.counter(CubicController.EPOCH_START_COUNTER));

        rig.cubic.onSpuriousLoss(rig.path.nowNs());
        assertEquals(2L * MSS, rig.cubic.congestionWindowBytes(), "persistent congestion is not undone");

        // Slow start up to ssthresh, then RFC 9438 section 4.8: K = 0 and W_max = cwnd at the epoch start.
        rig.runUntilEpochStarts();
        assertEquals(CubicController.STATE_CONGESTION_AVOIDANCE, rig.cubic.stateName());
        assertEquals(0.0, rig.cubic.kSeconds());
        assertEquals(rig.cubic.slowStartThresholdBytes(), rig.cubic.wMaxBytes(), MSS);
    }

    @Test
    void applicationLimitedSenderDoesNotGrowAndItsTimeIsExcludedFromTheEpoch()
    {
        final CubicRig rig = new CubicRig("", RTT_NS);
        final long initialBytes = rig.cubic.congestionWindowBytes();
        rig.path.applicationLimitBytes(initialBytes / 2);
        rig.path.runFor(20 * RTT_NS);
        assertEquals(initialBytes, rig.cubic.congestionWindowBytes(), "slow start");
        rig.path.applicationLimitBytes(Long.MAX_VALUE);

        rig.slowStartToThenLose(1_000);
        rig.runUntilEpochStarts();
        final double kSeconds = rig.cubic.kSeconds();
        rig.path.runFor(seconds(kSeconds / 2));

        // Three K of application-limited sending: no growth, and the epoch moves with the clock. (The first RTT
        // after the limit is set still acknowledges packets sent while cwnd-limited.)
        rig.path.applicationLimitBytes(rig.cubic.congestionWindowBytes() / 2);
        rig.path.runFor(RTT_NS);
        final long congestionWindowBytes = rig.cubic.congestionWindowBytes();
        final long epochStartNs = rig.cubic.epochStartNs();
        final long appLimitedNs = seconds(3 * kSeconds);
        rig.path.runFor(appLimitedNs);
        assertEquals(congestionWindowBytes, rig.cubic.congestionWindowBytes(), "congestion avoidance");
        final long shiftNs = rig.cubic.epochStartNs() - epochStartNs;
        assertEquals(appLimitedNs, shiftNs, 2 * RTT_NS, "epoch shifted by the application-limited time");

        // Back to cwnd-limited: the curve resumes in its concave region instead of jumping by 1.5 per RTT.
        rig.path.applicationLimitBytes(Long.MAX_VALUE);
        rig.path.runFor(2 * RTT_NS);
        final double growth = rig.cubic.congestionWindowBytes() / (double)congestionWindowBytes;
        assertTrue(growth < 1.02, "growth in the first two RTTs after the application-limited period x" + growth);
        assertTrue(rig.cubic.congestionWindowBytes() < rig.cubic.wMaxBytes());
    }

    @Test
    void idleForTenKThenResumeDoesNotJump()
    {
        final CubicRig rig = new CubicRig("cubic.hystart=false", RTT_NS);
        rig.slowStartToThenLose(100);
        rig.runUntilEpochStarts();
        final double kSeconds = rig.cubic.kSeconds();
        rig.path.runFor(seconds(kSeconds / 2));
        final long congestionWindowBytes = rig.cubic.congestionWindowBytes();
        final long epochStartNs = rig.cubic.epochStartNs();
        final double tBeforeSeconds = (rig.path.nowNs() - epochStartNs) / 1e9;

        rig.path.pauseApplication();
        rig.path.runFor(seconds(10 * kSeconds));
        assertEquals(0, rig.path.bytesInFlight(), "idle");
        rig.path.resumeApplication();
        rig.path.runFor(RTT_NS);

        final long shiftNs = rig.cubic.epochStartNs() - epochStartNs;
        assertEquals(seconds(10 * kSeconds), shiftNs, 2 * RTT_NS, "epoch shifted by the pause");
        final double tAfterSeconds = (rig.path.nowNs() - rig.cubic.epochStartNs()) / 1e9;
        assertTrue(tAfterSeconds - tBeforeSeconds < 3 * RTT_NS / 1e9, "t resumed where it paused");

        final double growth = rig.cubic.congestionWindowBytes() / (double)congestionWindowBytes;
        System.out.printf("CUBIC idle 10 K (%.1f s): epoch shifted %.3f s, growth in the first RTT x%.4f%n",
            10 * kSeconds, shiftNs / 1e9, growth);
        assertTrue(growth < 1.02, "growth in the first RTT after idle x" + growth);
    }

    @Test
    void spuriousLossUndoRestoresTheStateExactly()
    {
        final CubicRig rig = congestionAvoidanceAfterLossAt(200);
        rig.path.runFor(seconds(rig.cubic.kSeconds() / 2));
        final long congestionWindowBytes = rig.cubic.congestionWindowBytes();
        final long ssthreshBytes = rig.cubic.slowStartThresholdBytes();
        final double wMaxBytes = rig.cubic.wMaxBytes();
        final double kSeconds = rig.cubic.kSeconds();
        final long epochStartNs = rig.cubic.epochStartNs();
        final long kCounter = rig.context.counter(CubicController.K_COUNTER);

        rig.path.loseNewestPacketNow();
        assertEquals((long)(congestionWindowBytes * 0.7), rig.cubic.slowStartThresholdBytes());
        assertEquals(congestionWindowBytes * 0.85, rig.cubic.wMaxBytes(), 1e-6, "fast convergence");
        assertEquals(Long.MIN_VALUE, rig.cubic.epochStartNs());

        rig.cubic.onSpuriousLoss(rig.path.nowNs());
        assertEquals(congestionWindowBytes, rig.cubic.congestionWindowBytes());
        assertEquals(ssthreshBytes, rig.cubic.slowStartThresholdBytes());
        assertEquals(wMaxBytes, rig.cubic.wMaxBytes());
        assertEquals(kSeconds, rig.cubic.kSeconds());
        assertEquals(epochStartNs, rig.cubic.epochStartNs());
        assertEquals(kCounter, rig.context.counter(CubicController.K_COUNTER));
        assertEquals(congestionWindowBytes, rig.context.counter(CubicController.CWND_COUNTER));
        assertEquals(CubicController.STATE_CONGESTION_AVOIDANCE, rig.cubic.stateName());
        assertFalse(rig.cubic.isInRateReduction(), "the undone reduction no longer sets the window");

        // Once per reduction.
        rig.path.runFor(RTT_NS);
        final long laterBytes = rig.cubic.congestionWindowBytes();
        rig.cubic.onSpuriousLoss(rig.path.nowNs());
        assertEquals(laterBytes, rig.cubic.congestionWindowBytes());
    }

    @Test
    void spuriousLossDetectedAfterTheWindowRegrewChangesNothing()
    {
        final CubicRig rig = congestionAvoidanceAfterLossAt(200);
        rig.path.runFor(seconds(1));
        final long congestionWindowBytes = rig.cubic.congestionWindowBytes();
        rig.path.loseNewestPacketNow();
        rig.path.runUntil(Long.MAX_VALUE, () -> rig.cubic.congestionWindowBytes() > congestionWindowBytes);

        final long regrownBytes = rig.cubic.congestionWindowBytes();
        final double wMaxBytes = rig.cubic.wMaxBytes();
        final long epochStartNs = rig.cubic.epochStartNs();
        rig.cubic.onSpuriousLoss(rig.path.nowNs());
        assertEquals(regrownBytes, rig.cubic.congestionWindowBytes());
        assertEquals(wMaxBytes, rig.cubic.wMaxBytes());
        assertEquals(epochStartNs, rig.cubic.epochStartNs());
    }

    @Test
    void spuriousLossInSlowStartResumesSlowStart()
    {
        final CubicRig rig = new CubicRig("", RTT_NS);
        rig.slowStartToThenLose(50);
        assertEquals(CubicController.STATE_RECOVERY, rig.cubic.stateName());
        rig.cubic.onSpuriousLoss(rig.path.nowNs());
        assertEquals(50L * MSS, rig.cubic.congestionWindowBytes());
        assertEquals(Long.MAX_VALUE, rig.cubic.slowStartThresholdBytes());
        assertEquals(CubicController.STATE_SLOW_START, rig.cubic.stateName());
        assertEquals(0.0, rig.cubic.wMaxBytes(), "W_max undefined again");

        rig.path.runFor(3 * RTT_NS);
        assertTrue(rig.cubic.congestionWindowBytes() > 4 * 50L * MSS, "still doubling per RTT");
    }

    @Test
    void betaAndCParametersShapeTheReductionAndK()
    {
        final CubicRig rig = new CubicRig("cubic.hystart=false,cubic.beta=0.8,cubic.c=0.04", RTT_NS);
        rig.slowStartToThenLose(1_000);
        assertEquals((long)(1_000L * MSS * 0.8), rig.cubic.slowStartThresholdBytes());
        assertEquals(Math.cbrt(1_000 * 0.2 / 0.04), rig.cubic.kSeconds(), 1e-6);
    }

    private static CubicRig congestionAvoidanceAfterLossAt(final long packets)
    {
        final CubicRig rig = new CubicRig("", RTT_NS);
        rig.slowStartToThenLose(packets);
        rig.runUntilEpochStarts();
        assertEquals(CubicController.STATE_CONGESTION_AVOIDANCE, rig.cubic.stateName());
        return rig;
    }
}
