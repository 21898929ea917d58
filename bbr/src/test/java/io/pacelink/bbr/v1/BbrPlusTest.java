package io.pacelink.bbr.v1;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.ControllerParameters;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.pacelink.bbr.v1.Bbr1Run.MS;
import static io.pacelink.bbr.v1.Bbr1Run.RATE_100_MBIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BBRplus's differences from mainline BBRv1 ({@code tcp_bbrplus.c}, {@link Bbr1Variant#BBRPLUS}): the
 * drain-to-target gain cycle of 2 to 8 min_rtts with its 5/4 exits, the 10-round ACK-aggregation window, pacing
 * without a margin, the plain quantization budget, the undo that keeps the estimators; and its name, parameters and
 * counters.
 */
class BbrPlusTest
{
    /**
     * One PROBE_BW phase as the controller reported it: cycle index and length, when it began, and the ACK that ended
     * it (inflight before that ACK, and whether it declared losses).
     */
    private record Phase(int index, int cycleLength, long startNs, long endingPriorInflightBytes, boolean endedOnLoss)
    {
    }

    @Test
    void isFoundByNameAndReadsItsOwnParameters()
    {
        final CongestionControlRegistry registry = CongestionControlRegistry.load();
        assertInstanceOf(BbrPlusControllerFactory.class, registry.factory("bbrplus"));
        final BbrPlusControllerFactory factory = new BbrPlusControllerFactory();
        assertEquals("bbrplus", factory.name());

        factory.validate(ControllerParameters.parse("bbrplus.cwndGain=2.5,bbr.whatever=1,bbr3.beta=0.5"));
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> factory.validate(ControllerParameters.parse("bbrplus.cwndGian=2")));
        assertTrue(unknown.getMessage().contains("bbrplus.cwndGain"), unknown.getMessage());

        final Bbr1Run run = new Bbr1Run(Bbr1Variant.BBRPLUS, RATE_100_MBIT, 20 * MS, 1, "bbrplus.cwndGain=3");
        run.runUntilSeconds(2.0);
        assertEquals(3000, run.context.counter("bbrplus-cwnd-gain-x1000"));
        assertEquals(Bbr1State.PROBE_BW.ordinal(), run.context.counter("bbrplus-state"));
    }

    @Test
    void eachCycleStartsInTheFiveQuarterPhaseDrainsToTheTargetAndLastsTwoToEightMinRtts()
    {
        final Bbr1Run run = new Bbr1Run(Bbr1Variant.BBRPLUS, RATE_100_MBIT, 40 * MS, 7, "");
        final List<Phase> phases = recordPhases(run);
        run.runUntilSeconds(9.5);  // before the first PROBE_RTT, which restarts the cycle at a random phase

        final Bbr1Controller bbr = run.controller;
        final long minRttNs = bbr.minRttNs();
        assertEquals(40 * MS, minRttNs, 1 * MS);
        // Entering PROBE_BW picks a random phase (bbr_reset_probe_bw_mode); with no cycle length yet, the next ACK
        // starts the first cycle, in 5/4.
        assertEquals(0, phases.get(1).index());

        final Set<Integer> lengths = new HashSet<>();
        int cycles = 0;
        for (int i = 1; i < phases.size() - 1; i++)
        {
            final Phase phase = phases.get(i);
            final Phase next = phases.get(i + 1);
            final long durationNs = next.startNs() - phase.startNs();
            assertTrue(phase.cycleLength() >= 2 && phase.cycleLength() <= 8, "cycle length " + phase);
            switch (phase.index())
            {
                case 0 ->
                {
                    // 5/4 for at least min_rtt, then until inflight reaches the 5/4 target (the path drops nothing).
                    assertEquals(1, next.index(), "5/4 is followed by 3/4: " + next);
                    assertTrue(durationNs > minRttNs, "5/4 lasted " + durationNs);
                    assertTrue(phase.endingPriorInflightBytes() >= bbr.inflightTargetBytes(1.25), phase.toString());
                }
                case 1 ->
                {
                    // 3/4 until inflight is down to the BDP target, then cruise; however long that takes, unless
                    // the cycle ends first (a 2-min_rtt cycle has no time left for it).
                    if (0 == next.index())
                    {
                        final long cycleNs = next.startNs() - phases.get(i - 1).startNs();
                        assertTrue(cycleNs > phase.cycleLength() * minRttNs, "cycle lasted " + cycleNs);
                        lengths.add(phase.cycleLength());
                        cycles++;
                    }
                    else
                    {
                        assertEquals(Bbr1Controller.CRUISE_PHASE_INDEX, next.index(), "3/4 ends in cruise: " + next);
                        assertTrue(phase.endingPriorInflightBytes() <= bbr.inflightTargetBytes(1.0),
                            phase.toString());
                    }
                }
                case Bbr1Controller.CRUISE_PHASE_INDEX ->
                {
                    // Cruise to the end of the cycle: cycle length x min_rtt after the 5/4 phase began.
                    assertEquals(0, next.index(), "the cycle restarts in 5/4: " + next);
                    final long cycleNs = next.startNs() - phases.get(i - 2).startNs();
                    assertTrue(cycleNs > phase.cycleLength() * minRttNs &&
                        cycleNs < phase.cycleLength() * minRttNs + 2 * MS, "cycle lasted " + cycleNs + ": " + phase);
                    lengths.add(phase.cycleLength());
                    cycles++;
                }
                default -> throw new AssertionError("phase " + phase + " outside a 5/4, 3/4, cruise cycle");
            }
        }
        assertTrue(cycles >= 25, "cycles " + cycles);
        assertEquals(Set.of(2, 3, 4, 5, 6, 7, 8), lengths, "every cycle length of 8 minus a random 0 to 6");
    }

    @Test
    void fiveQuarterPhaseEndsOnTheFirstLossAfterOneMinRtt()
    {
        final Bbr1Run run = new Bbr1Run(Bbr1Variant.BBRPLUS, RATE_100_MBIT, 40 * MS, 11, "");
        run.path.randomLoss(0.002);
        final List<Phase> phases = recordPhases(run);
        run.runUntilSeconds(9.5);

        int endedByLossShortOfTheTarget = 0;
        for (int i = 1; i < phases.size() - 1; i++)
        {
            final Phase phase = phases.get(i);
            if (0 == phase.index())
            {
                assertTrue(phases.get(i + 1).startNs() - phase.startNs() > run.controller.minRttNs(), phase.toString());
                if (phase.endedOnLoss() &&
                    phase.endingPriorInflightBytes() < run.controller.inflightTargetBytes(1.25))
                {
                    endedByLossShortOfTheTarget++;
                }
            }
        }
        assertTrue(endedByLossShortOfTheTarget >= 3, "5/4 phases ended by a loss: " + endedByLossShortOfTheTarget);
    }

    @Test
    void fiveQuarterPhaseEndsOnAnApplicationLimitedSampleAfterOneMinRtt()
    {
        // Bulk until PROBE_BW, then the application writes 40 % of the link rate: inflight never reaches the 5/4
        // target and nothing is lost, so only the app-limited rule (rs->is_app_limited) ends 5/4, after one min_rtt;
        // without it 5/4 would last the whole cycle of 2 to 8 min_rtts.
        final Bbr1Run run = new Bbr1Run(Bbr1Variant.BBRPLUS, RATE_100_MBIT, 40 * MS, 5, "");
        final List<Phase> phases = recordPhases(run);
        run.runUntilSeconds(2.0);
        run.path.appChunks(25_000, 5 * MS);
        phases.clear();
        run.runUntilSeconds(9.5);

        int checked = 0;
        for (int i = 1; i < phases.size() - 1; i++)
        {
            final Phase phase = phases.get(i);
            if (0 == phase.index())
            {
                final long lengthNs = phases.get(i + 1).startNs() - phase.startNs();
                assertTrue(lengthNs > run.controller.minRttNs() && lengthNs < 3 * run.controller.minRttNs() / 2,
                    phase + " lasted " + lengthNs + " ns");
                assertTrue(!phase.endedOnLoss() &&
                    phase.endingPriorInflightBytes() < run.controller.inflightTargetBytes(1.25), phase.toString());
                checked++;
            }
        }
        assertTrue(checked >= 5, "5/4 phases checked: " + checked + " " + phases);
    }

    @Test
    void undoKeepsTheLongTermRateWhereLinuxResetsIt()
    {
        // 20 % loss engages the long-term ("policer") rate; then the transport reports the losses spurious. Linux's
        // bbr_undo_cwnd resets long-term sampling (and the full-pipe count); tcp_bbrplus.c's returns cwnd only.
        assertTrue(isLongTermRateInUseAfterUndo(Bbr1Variant.BBRPLUS));
        assertTrue(!isLongTermRateInUseAfterUndo(Bbr1Variant.LINUX));
    }

    private static boolean isLongTermRateInUseAfterUndo(final Bbr1Variant variant)
    {
        final Bbr1Run run = new Bbr1Run(variant, RATE_100_MBIT, 20 * MS, 7, "");
        run.path.dropEveryNth(5);
        assertTrue(run.path.runUntil(run.path.nowNs() + 5_000 * MS, run.controller::isLongTermBandwidthInUse),
            variant + ": long-term rate never engaged");
        run.controller.onSpuriousLoss(run.path.nowNs());
        return run.controller.isLongTermBandwidthInUse();
    }

    @Test
    void pacesAtTheEstimateWithAPlainQuantizationBudget()
    {
        final Bbr1Run plus = new Bbr1Run(Bbr1Variant.BBRPLUS, RATE_100_MBIT, 40 * MS, 3, "");
        final Bbr1Run linux = new Bbr1Run(RATE_100_MBIT, 40 * MS, 3);
        final int[] checked = new int[2];
        plus.path.listener((path) -> checkCruise(plus.controller, 1.0, checked, 0));
        linux.path.listener((path) -> checkCruise(linux.controller, 0.99, checked, 1));
        plus.runUntilSeconds(5.0);
        linux.runUntilSeconds(5.0);
        assertTrue(checked[0] > 1000 && checked[1] > 1000, "cruising ACKs checked " + checked[0] + ", " + checked[1]);

        // bbr_inflight: BDP plus three send quanta, no rounding to an even number of packets (Linux rounds up).
        final Bbr1Controller bbr = plus.controller;
        final long bdpBytes = (long)Math.ceil(bbr.maxBandwidthBytesPerSecond() * (double)bbr.minRttNs() / 1e9);
        assertEquals(bdpBytes + 3L * bbr.sendQuantumBytes(), bbr.inflightTargetBytes(1.0));
        final long linuxBudget = linux.controller.inflightTargetBytes(1.0);
        assertEquals(0, linuxBudget % (2L * Bbr1Run.MSS), "Linux rounds to an even number of packets");
    }

    @Test
    void ackAggregationIsRememberedForTenToTwentyRounds()
    {
        final long plusRounds = roundsToForgetAggregation(Bbr1Variant.BBRPLUS);
        final long linuxRounds = roundsToForgetAggregation(Bbr1Variant.LINUX);
        assertTrue(plusRounds >= 10 && plusRounds <= 20, "BBRplus forgot after " + plusRounds + " rounds");
        assertTrue(linuxRounds >= 5 && linuxRounds <= 10, "Linux forgot after " + linuxRounds + " rounds");
    }

    private static long roundsToForgetAggregation(final Bbr1Variant variant)
    {
        final Bbr1Run run = new Bbr1Run(variant, RATE_100_MBIT, 10 * MS, 1, "");
        run.path.ackBurstPeriodNs(20 * MS);
        run.runUntilSeconds(3.0);
        final long burstExtraBytes = run.controller.extraAckedBytes();
        assertTrue(burstExtraBytes > 100_000, "extra_acked " + burstExtraBytes);
        // ACKs on arrival from now on, at half the rate: the ACK rate stays below the estimate, so every epoch is
        // short and the bursts' excess must age out of both buckets.
        run.path.ackBurstPeriodNs(0).bottleneckBytesPerSecond(RATE_100_MBIT / 2);
        final long fromRound = run.controller.roundCount();
        run.path.runUntil(run.path.nowNs() + 3_000 * MS, () -> run.controller.extraAckedBytes() < burstExtraBytes / 2);
        return run.controller.roundCount() - fromRound;
    }

    private static void checkCruise(
        final Bbr1Controller bbr, final double pacingFactor, final int[] checked, final int slot)
    {
        if (Bbr1State.PROBE_BW == bbr.state() && 1.0 == bbr.pacingGain() && !bbr.isLongTermBandwidthInUse())
        {
            assertEquals((long)(bbr.maxBandwidthBytesPerSecond() * pacingFactor), bbr.pacingRateBytesPerSecond());
            checked[slot]++;
        }
    }

    private static List<Phase> recordPhases(final Bbr1Run run)
    {
        final List<Phase> phases = new ArrayList<>();
        run.path.listener((path) ->
        {
            final Bbr1Controller bbr = run.controller;
            final AckEvent ack = path.lastAck();
            if (Bbr1State.PROBE_BW == bbr.state() &&
                (phases.isEmpty() || phases.get(phases.size() - 1).index() != bbr.cycleIndex()))
            {
                if (!phases.isEmpty())
                {
                    final Phase ended = phases.remove(phases.size() - 1);
                    phases.add(new Phase(ended.index(), ended.cycleLength(), ended.startNs(),
                        ack.priorBytesInFlightBytes(), ack.newlyLostBytes() > 0));
                }
                phases.add(new Phase(bbr.cycleIndex(), bbr.cycleLengthMinRtts(), path.nowNs(), -1, false));
            }
        });
        return phases;
    }
}
