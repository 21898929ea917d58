package io.pacelink.scenario;

import io.pacelink.cubic.CubicController;
import io.pacelink.cubic.CubicParameters;
import io.pacelink.scenario.CubicScenarios.AppLimitedWindow;
import io.pacelink.scenario.CubicScenarios.SingleLoss;
import io.pacelink.scenario.CubicScenarios.SlowStartEnd;
import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.cc.ControllerParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;

import static io.pacelink.scenario.CubicScenarios.DEEP_BUFFER_BDP_BYTES;
import static io.pacelink.scenario.CubicScenarios.PACKET_BYTES;
import static io.pacelink.scenario.CubicScenarios.SECOND_NS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 5's acceptance of CUBIC with HyStart++ in the simulator, items 1 to 7 (item 8 is {@code ControllerBenchmark}
 * with {@code -prof gc}), with the thresholds. Each scenario runs once with fixed seeds and prints the figures
 * docs/cubic.md lists; {@link CubicNewRenoComparisonTest} measures NewReno on the same scenarios.
 */
@Timeout(120)
class CubicAcceptanceTest
{
    private static final String CUBIC = "cubic";

    /**
     * Where Linux's ACK-train check fires on the deep-buffer path, in BDP (docs/cubic.md, item 4).
     */
    private static final double KERNEL_ACK_TRAIN_EXIT_BDP = 2.91;

    /**
     * Item 1: one loss at a window of 1 000 packets on a long fat path, then none: cwnd regains W_max at
     * t = K = cbrt(0.3 W_max / 0.4) ≈ 9.1 s (± 5 %), concave before and convex after, and follows
     * W_cubic(t) = 0.4 (t − K)³ + W_max within 2 % at 10 points.
     */
    @Test
    void windowReturnsToWmaxAtKAfterOneLossAndFollowsTheCubicCurve(@TempDir final Path traces)
    {
        final ScenarioResult result = CubicScenarios.windowCurve(CUBIC, 20 * SECOND_NS, traces);

        assertEquals(1, result.forward().randomLossPackets(), "the one packet the link was told to lose");
        assertEquals(0, result.forward().queueDropPackets(), "the path never limits the window");
        assertEquals(1, result.flow(0).lostPackets(), "no further loss");

        final SingleLoss loss = SingleLoss.of(CubicTrace.read(traces, 0, CUBIC),
            result.flow(0).controllerCounters().get(CubicController.W_MAX_COUNTER));
        final CubicTrace trace = loss.trace();
        assertEquals(-1, trace.firstRowIn(CubicController.STATE_RECOVERY, loss.epochRow()), "one reduction only");

        final double wMaxPackets = loss.wMaxPackets();
        final double kSeconds = CubicScenarios.kSeconds(wMaxPackets);
        assertEquals(1000, wMaxPackets, 50, "the loss happens at a window of 1000 packets");
        assertEquals(9.1, kSeconds, 0.1);
        assertEquals(kSeconds, loss.regainAfterLossSeconds(), 0.05 * kSeconds, "regain time after the loss");

        final long epochStartNs = trace.timeNs(loss.epochRow());
        final double[] beforeK = cwndPacketsAt(trace, epochStartNs, kSeconds, 0.2, 0.4, 0.6, 0.8, 1.0);
        final double[] afterK = cwndPacketsAt(trace, epochStartNs, kSeconds, 1.0, 1.25, 1.5, 1.75);
        for (int i = 2; i < beforeK.length; i++)
        {
            assertTrue(beforeK[i] - beforeK[i - 1] < beforeK[i - 1] - beforeK[i - 2], "concave up to K");
        }
        for (int i = 2; i < afterK.length; i++)
        {
            assertTrue(afterK[i] - afterK[i - 1] > afterK[i - 1] - afterK[i - 2], "convex beyond K");
        }

        double maxErrorPercent = 0;
        for (int point = 1; point <= 10; point++)
        {
            final int row = trace.rowAt(epochStartNs + (long)(0.19 * point * kSeconds * 1e9));
            final double tSeconds = (trace.timeNs(row) - epochStartNs) / 1e9;
            final double expectedPackets = CubicScenarios.cubicWindowPackets(tSeconds, kSeconds, wMaxPackets);
            final double errorPercent =
                100 * Math.abs(trace.congestionWindowBytes(row) / (double)PACKET_BYTES - expectedPackets) /
                expectedPackets;
            assertTrue(errorPercent <= 2, "at t = " + tSeconds + " s: " + errorPercent + " % off the curve");
            maxErrorPercent = Math.max(maxErrorPercent, errorPercent);
        }

        System.out.printf("item 1: W_max %.1f packets, K %.3f s, W_max regained %.3f s after the loss " +
            "(%.3f s after the epoch start), largest curve error %.3f %% at 10 points%n",
            wMaxPackets, kSeconds, loss.regainAfterLossSeconds(), loss.regainAfterEpochSeconds(), maxErrorPercent);
    }

    /**
     * Item 2: where Reno's window is what the loss rate allows, CUBIC's Reno-friendly estimate gives at least
     * NewReno's throughput (± 10 %) on the same path and seed.
     */
    @Test
    void renoFriendlyRegionGivesAtLeastNewRenosThroughput()
    {
        final double cubicBitsPerSecond = CubicScenarios.renoFriendly(CUBIC).flow(0).goodputBitsPerSecond();
        final double renoBitsPerSecond = CubicScenarios.renoFriendly("reno").flow(0).goodputBitsPerSecond();

        System.out.printf("item 2: cubic %.3f Mbit/s, reno %.3f Mbit/s%n",
            cubicBitsPerSecond / 1e6, renoBitsPerSecond / 1e6);
        assertTrue(cubicBitsPerSecond >= 0.9 * renoBitsPerSecond);
    }

    /**
     * Item 3, first path: 500 Mbit/s, 38 ms RTT, 1 % random loss, 30 s: within ± 35 % of Linux CUBIC's 3.3 Mbit/s.
     */
    @ParameterizedTest
    @ValueSource(longs = { 1, 2 })
    void randomLossOnTheShortPathMatchesLinux(final long seed)
    {
        final FlowOutcome flow = CubicScenarios.shortLossyPath(CUBIC, seed).flow(0);

        System.out.printf("item 3 (1 %% loss, seed %d): %.3f Mbit/s, %d packets lost%n",
            seed, flow.goodputBitsPerSecond() / 1e6, flow.lostPackets());
        assertEquals(3.3e6, flow.goodputBitsPerSecond(), 0.35 * 3.3e6);
    }

    /**
     * Item 3, second path: 100 Mbit/s, 150 ms RTT with 7.5 ms jitter, 8 % random loss, 30 s: within ± 50 % of Linux
     * CUBIC's 0.27 Mbit/s.
     */
    @ParameterizedTest
    @ValueSource(longs = { 1, 2 })
    void randomLossOnTheLongJitteryPathMatchesLinux(final long seed)
    {
        final FlowOutcome flow = CubicScenarios.longLossyPath(CUBIC, seed).flow(0);

        System.out.printf("item 3 (8 %% loss, seed %d): %.3f Mbit/s, %d packets lost%n",
            seed, flow.goodputBitsPerSecond() / 1e6, flow.lostPackets());
        assertEquals(0.27e6, flow.goodputBitsPerSecond(), 0.5 * 0.27e6);
    }

    /**
     * Items 4 and 5: with HyStart++ the first slow start on a ten-BDP buffer ends without a loss (HyStart++ moves to
     * Conservative Slow Start, and no loss is detected before it enters congestion avoidance), and CUBIC keeps the
     * bottleneck at least 98 % busy over 30 s. It also prints how many packets the bottleneck dropped before
     * congestion avoidance began: Conservative Slow Start multiplies cwnd by about 1.25⁵, so it overfills the
     * eleven BDP the path holds if it starts above about 3.6 BDP.
     */
    @Test
    void hyStartPlusPlusEndsSlowStartWithoutLossAndCubicFillsTheDeepBuffer(@TempDir final Path traces)
    {
        final ScenarioResult result =
            CubicScenarios.deepBuffer(CUBIC, ControllerParameters.EMPTY, 30 * SECOND_NS, traces);
        final CubicTrace trace = CubicTrace.read(traces, 0, CUBIC);

        final int exitRow = trace.firstRowNotIn(CubicController.STATE_SLOW_START, 0);
        assertEquals(CubicController.STATE_CONSERVATIVE_SLOW_START, trace.state(exitRow), "HyStart++ ended it");
        final int congestionAvoidanceRow = trace.firstRowIn(CubicController.STATE_CONGESTION_AVOIDANCE, exitRow);
        assertNotEquals(-1, congestionAvoidanceRow);
        final int firstRecoveryRow = trace.firstRowIn(CubicController.STATE_RECOVERY, 0);
        assertTrue(-1 == firstRecoveryRow || firstRecoveryRow > congestionAvoidanceRow,
            "no loss before congestion avoidance");

        // Packets are dropped as they reach the queue, so a run that stops where congestion avoidance began counts
        // those Conservative Slow Start sent into a full buffer, whose loss is only detected later.
        final long droppedBeforeCongestionAvoidance = CubicScenarios.deepBuffer(CUBIC, ControllerParameters.EMPTY,
            trace.timeNs(congestionAvoidanceRow), traces.resolve("until-congestion-avoidance"))
            .forward().queueDropPackets();
        System.out.printf("item 4: HyStart++ left slow start at %.3f s with cwnd %.2f BDP, entered congestion " +
            "avoidance at %.3f s with cwnd %.2f BDP (%d packets dropped by then), first loss detected at %.3f s%n",
            trace.timeNs(exitRow) / 1e9, trace.congestionWindowBytes(exitRow) / DEEP_BUFFER_BDP_BYTES,
            trace.timeNs(congestionAvoidanceRow) / 1e9,
            trace.congestionWindowBytes(congestionAvoidanceRow) / DEEP_BUFFER_BDP_BYTES,
            droppedBeforeCongestionAvoidance,
            -1 == firstRecoveryRow ? Double.NaN : trace.timeNs(firstRecoveryRow) / 1e9);
        System.out.printf("item 5: utilisation %.2f %%, flow RTT p95 %.1f ms, ping RTT p95 %.1f ms, %d packets " +
            "lost%n", 100 * result.forward().utilisation(), result.flow(0).rtt().p95Ns() / 1e6,
            result.ping().p95Ns() / 1e6, result.flow(0).lostPackets());
        assertTrue(result.forward().utilisation() >= 0.98, "utilisation " + result.forward().utilisation());
    }

    /**
     * Item 4's bound on the window at the HyStart++ exit, as issue 9 settled it: RFC 9406 as specified, so at most
     * 4 BDP and no packet lost by then (measured: 3.81 BDP at 0.442 s, 0 packets dropped, on seeds 1 and 2; 3.81 to
     * 3.82 BDP on seeds 1 to 6, whose skipped packet numbers differ; 4.00 BDP while the client's confirming PING went
     * out alone ahead of the data). Issue 5 asked for 0.75 to 2.5 BDP, which RFC 9406 cannot give here: it ends a round
     * when the first packet sent in it is acknowledged and compares the minimum RTT of a whole round with the
     * previous round's; a round's samples are the ACKs of the packets sent during the round before, so a queue is
     * seen one round after it was there when a round began, while cwnd doubles every round. Slow start paced at
     * twice cwnd/srtt also sends each round's packets in one burst followed by a pause that drains the queue, and a
     * round begins with the first packet after the pause: its minimum is the empty-queue RTT until the queue
     * outlasts the pause. On this path the rounds begin at 0.95, 1.89 and 3.77 BDP, and the rise is seen in the
     * third of them (docs/cubic.md has the trace).
     */
    @ParameterizedTest
    @ValueSource(longs = { 1, 2 })
    void hyStartPlusPlusLeavesSlowStartWithoutLossBelowFourBdp(final long seed, @TempDir final Path traces)
    {
        final SlowStartEnd end = SlowStartEnd.of(CUBIC, ControllerParameters.EMPTY, seed, traces, true);

        System.out.printf("item 4 (seed %d): HyStart++ left slow start at %.3f s with cwnd %.2f BDP, %d packets " +
            "dropped by then%n", seed, end.endNs() / 1e9, end.cwndAtEndBdp(), end.droppedPackets());
        assertEquals(CubicController.STATE_CONSERVATIVE_SLOW_START, end.endedBy(), "HyStart++ ended it");
        assertEquals(0, end.droppedPackets(), "no packet lost in slow start");
        assertTrue(end.cwndAtEndBdp() <= 4.0, "cwnd at the exit: " + end.cwndAtEndBdp() + " BDP");
    }

    /**
     * Issue 9 item 2: Linux's HyStart ({@code cubic.hystart=linux}) on the same path leaves slow start without loss
     * within 15 % of where the kernel's ACK-train check fires, 2.91 BDP (the paced threshold, delay_min + 1 ms of
     * continuous ACKs in a round, replayed on this path's ACKs: 990 packets at 0.365 s), with packet-number skipping
     * switched off (a simulator-only setting, {@code PacelinkContext.packetNumberSkipping}). The kernel skips no
     * sequence numbers; a skipped packet number leaves a gap the receiver acknowledges at once (RFC 9000 sections
     * 13.2.1 and 21.4), and on seeds 1, 2, 4, 6, 7 and 8 that immediate ACK removes the last 2.7 ms pause in the ACK
     * train one round sooner, at 1.95 BDP (3.01 BDP on seeds 3, 5, 9 and 10; docs/cubic.md, "Linux's ACK train sits on
     * one pause"). That figure, with skipping on, is printed beside the gated one.
     */
    @ParameterizedTest
    @ValueSource(longs = { 1, 2 })
    void linuxHyStartLeavesSlowStartWithoutLossWhereTheKernelsAckTrainFires(
        final long seed, @TempDir final Path traces)
    {
        final ControllerParameters linux = CubicScenarios.parameters(CubicParameters.HYSTART, "linux");
        final SlowStartEnd end = SlowStartEnd.of(CUBIC, linux, seed, traces.resolve("no-skipping"), false);
        final SlowStartEnd withSkipping = SlowStartEnd.of(CUBIC, linux, seed, traces.resolve("skipping"), true);

        System.out.printf("item 4 (seed %d): Linux HyStart left slow start at %.3f s with cwnd %.2f BDP, %d " +
            "packets dropped by then; with packet-number skipping at %.3f s with %.2f BDP, %d dropped%n", seed,
            end.endNs() / 1e9, end.cwndAtEndBdp(), end.droppedPackets(), withSkipping.endNs() / 1e9,
            withSkipping.cwndAtEndBdp(), withSkipping.droppedPackets());
        assertEquals(CubicController.STATE_CONGESTION_AVOIDANCE, end.endedBy(), "straight to congestion avoidance");
        assertEquals(0, end.droppedPackets(), "no packet lost in slow start");
        assertEquals(KERNEL_ACK_TRAIN_EXIT_BDP, end.cwndAtEndBdp(), 0.15 * KERNEL_ACK_TRAIN_EXIT_BDP,
            "cwnd at the exit");
        assertEquals(CubicController.STATE_CONGESTION_AVOIDANCE, withSkipping.endedBy());
        assertEquals(0, withSkipping.droppedPackets(), "no packet lost in slow start with skipping either");
    }

    /**
     * Item 4, the other half: without HyStart++ the same slow start overshoots the ten-BDP buffer and loses packets.
     */
    @Test
    void withoutHyStartPlusPlusTheSameSlowStartLosesPackets(@TempDir final Path traces)
    {
        final SlowStartEnd end = SlowStartEnd.of(
            CUBIC, CubicScenarios.parameters(CubicParameters.HYSTART, "false"), traces);

        System.out.printf("item 4 (HyStart++ off): slow start ended by a loss at %.3f s with cwnd %.2f BDP; " +
            "it lost %d packets%n", end.endNs() / 1e9, end.cwndAtEndBdp(), end.droppedPackets());
        assertEquals(CubicController.STATE_RECOVERY, end.endedBy(), "slow start ended by a loss");
        assertTrue(end.droppedPackets() > 0);
    }

    /**
     * Item 6: two CUBIC flows with the same RTT share the link fairly over the last minute (Jain ≥ 0.95), and one
     * starting 30 s after the other gets half its fair share within 20 s (fast convergence on, the default).
     */
    @Test
    void twoFlowsShareFairlyAndALatecomerGetsHalfItsShareWithinTwentySeconds()
    {
        final ScenarioResult result = CubicScenarios.fairness(CUBIC, ControllerParameters.EMPTY);
        final double jainIndex = CubicScenarios.lastMinuteJainIndex(result);
        final long halfShareNs = CubicScenarios.latecomerHalfShareNs(result);

        System.out.printf("item 6: Jain over the last 60 s %.4f, latecomer at half its fair share after %d s " +
            "(goodput %.1f and %.1f Mbit/s)%n", jainIndex, halfShareNs / SECOND_NS,
            result.flow(0).goodputBitsPerSecond() / 1e6, result.flow(1).goodputBitsPerSecond() / 1e6);
        assertTrue(jainIndex >= 0.95, "Jain index " + jainIndex);
        assertTrue(halfShareNs > 0 && halfShareNs <= 20 * SECOND_NS, "half share after " + halfShareNs + " ns");
    }

    /**
     * Item 7: a flow that sends 5 Mbit/s for 30 s and then turns bulk does not burst: cwnd at the switch is at most
     * twice the bytes in flight it used (CUBIC grows only while cwnd-limited).
     */
    @Test
    void applicationLimitedFlowDoesNotBurstWhenItTurnsBulk(@TempDir final Path traces)
    {
        final AppLimitedWindow window = AppLimitedWindow.of(CUBIC, traces);

        System.out.println("item 7: " + window);
        assertEquals(5e6, window.appLimitedBitsPerSecond(), 0.05 * 5e6, "the flow was application-limited");
        assertTrue(window.cwndAtSwitchBytes() <= 2 * window.maxInFlightBytes());
    }

    private static double[] cwndPacketsAt(
        final CubicTrace trace, final long epochStartNs, final double kSeconds, final double... fractionsOfK)
    {
        final double[] packets = new double[fractionsOfK.length];
        for (int i = 0; i < packets.length; i++)
        {
            final int row = trace.rowAt(epochStartNs + (long)(fractionsOfK[i] * kSeconds * 1e9));
            packets[i] = trace.congestionWindowBytes(row) / (double)PACKET_BYTES;
        }
        return packets;
    }
}
