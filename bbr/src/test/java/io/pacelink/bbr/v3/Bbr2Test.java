package io.pacelink.bbr.v3;

import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.ScriptedPath;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BBRv2 alpha ({@code bbr2}, {@link Bbr3Variant#V2_ALPHA}): the v3 state machine with {@code tcp_bbr2.c}'s constants
 * and the rules where v2 differs: ProbeBW_UP ends on inflight, not on a bandwidth plateau; Drain has no round limit;
 * the Startup loss exit counts lossy ACKs and bounds inflight_longterm by the BDP.
 */
class Bbr2Test
{
    private static final long MS = 1_000_000L;
    private static final long RATE_BYTES_PER_SECOND = 2_500_000L;
    private static final long RTT_NS = 40 * MS;

    @Test
    void isFoundByNameAndReadsItsOwnParameters()
    {
        assertInstanceOf(Bbr2ControllerFactory.class, CongestionControlRegistry.load().factory("bbr2"));
        final Bbr2ControllerFactory factory = new Bbr2ControllerFactory();
        assertEquals("bbr2", factory.name());
        factory.validate(ControllerParameters.parse("bbr2.downPacingGain=0.8,bbr3.whatever=1,bbr.cwndGain=9"));
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> factory.validate(ControllerParameters.parse("bbr2.drainGain=0.5")));
        assertTrue(unknown.getMessage().contains("bbr2.drainPacingGain"), unknown.getMessage());
    }

    @Test
    void presetIsTcpBbr2sConstantsWhereTheyDifferFromTheDraft()
    {
        final Bbr3Parameters v2 = Bbr3Parameters.from(ControllerParameters.EMPTY, Bbr3Variant.V2_ALPHA);
        final Bbr3Parameters v3 = Bbr3Parameters.from(ControllerParameters.EMPTY, Bbr3Variant.V3);
        assertEquals(739.0 / 256, v2.startupPacingGain);    // bbr_high_gain
        assertEquals(739.0 / 256, v2.startupCwndGain);      // bbr_startup_cwnd_gain
        assertEquals(88.0 / 256, v2.drainPacingGain);       // bbr_drain_gain
        assertEquals(0, v2.drainRoundsTimeout);              // bbr2_check_drain: inflight only
        assertEquals(0.75, v2.downPacingGain);               // bbr_pacing_gain[BBR_BW_PROBE_DOWN]
        assertEquals(2.0, v2.upCwndGain);                    // bbr_cwnd_gain in every PROBE_BW phase
        assertEquals(8, v2.startupFullLossCount);            // bbr_full_loss_cnt
        assertEquals(5.0 / 256, v2.lossThreshold);           // bbr_loss_thresh
        assertEquals(180.0 / 256, v2.beta);                  // 1 - bbr_beta (76/256)
        assertEquals(38.0 / 256, v2.headroom);               // bbr_inflight_headroom
        // Shared with v3 (draft values): the rest.
        assertEquals(v3.cwndGain, v2.cwndGain);
        assertEquals(v3.upPacingGain, v2.upPacingGain);
        assertEquals(v3.probeRttIntervalNs, v2.probeRttIntervalNs);
        assertEquals(v3.probeRttDurationNs, v2.probeRttDurationNs);
        assertEquals(v3.probeRttCwndGain, v2.probeRttCwndGain);
        assertEquals(v3.minRttFilterLengthNs, v2.minRttFilterLengthNs);
        assertEquals(v3.probeMaxRounds, v2.probeMaxRounds);
        assertEquals(v3.pacingMarginPercent, v2.pacingMarginPercent);
        assertEquals(6, v3.startupFullLossCount);
        assertEquals(0.90, v3.downPacingGain);
    }

    @Test
    void startsWithV2GainsAndUsesV2GainsInEveryState()
    {
        final Bbr3Run bbr = new Bbr3Run(Bbr3Variant.V2_ALPHA, 1, "");
        // bbr_high_gain and bbr_startup_cwnd_gain = 739/256.
        assertEquals(2887, bbr.counter(Bbr3Counters.PACING_GAIN));
        assertEquals(2887, bbr.counter(Bbr3Counters.CWND_GAIN));
        assertEquals(739.0 / 256 * 14_720_000, bbr.pacingRateBytesPerSecond(), 1.0);

        final long[][] gains = new long[Bbr3State.values().length][];
        final ScriptedPath path = bbr.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 1);
        path.listener((p) -> gains[Bbr3State.valueOf(bbr.stateName()).ordinal()] =
            new long[] { bbr.counter(Bbr3Counters.PACING_GAIN), bbr.counter(Bbr3Counters.CWND_GAIN) });
        path.runUntil(12_000 * MS);

        assertGains(gains, Bbr3State.DRAIN, 344, 2887);        // bbr_drain_gain 88/256, startup cwnd gain kept
        assertGains(gains, Bbr3State.PROBE_BW_DOWN, 750, 2000);  // bbr_pacing_gain[BBR_BW_PROBE_DOWN] = 3/4
        assertGains(gains, Bbr3State.PROBE_BW_CRUISE, 1000, 2000);
        assertGains(gains, Bbr3State.PROBE_BW_REFILL, 1000, 2000);
        assertGains(gains, Bbr3State.PROBE_BW_UP, 1250, 2000);   // bbr_cwnd_gain in every PROBE_BW phase
    }

    @Test
    void rttSamplesEqualToTheMinimumPostponeProbeRttWhereV3ProbesEveryFiveSeconds()
    {
        // A path without jitter: every uncongested sample equals the minimum. v2 refreshes its 5 s window on them
        // (bbr_update_min_rtt, <=) and never needs ProbeRTT; the draft refreshes only on a lower sample.
        final Bbr3Run v2 = new Bbr3Run(Bbr3Variant.V2_ALPHA, 1, "");
        final Bbr3Run v3 = new Bbr3Run(Bbr3Variant.V3, 1, "");
        v2.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 1).runUntil(16_000 * MS);
        v3.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 1).runUntil(16_000 * MS);

        assertEquals(List.of(), v2.transitionsTo("PROBE_RTT"));
        assertTrue(v3.transitionsTo("PROBE_RTT").size() >= 2, v3.transitionsTo("PROBE_RTT").toString());
    }

    @Test
    void probeUpEndsOnceInflightReachesFiveQuartersOfTheBdpWhereV3WaitsForAPlateau()
    {
        final List<Long> v2Rounds = upRounds(Bbr3Variant.V2_ALPHA);
        final List<Long> v3Rounds = upRounds(Bbr3Variant.V3);
        assertTrue(v2Rounds.size() >= 4 && v3Rounds.size() >= 4, v2Rounds + " " + v3Rounds);
        // v2: one min_rtt at 1.25 puts 1.25 BDP in flight, so UP ends after one or two rounds; v3 needs three
        // rounds without 25 % growth of the delivery rate.
        v2Rounds.forEach((rounds) -> assertTrue(rounds <= 2, "v2 UP rounds " + v2Rounds));
        v3Rounds.forEach((rounds) -> assertTrue(rounds >= 3, "v3 UP rounds " + v3Rounds));
    }

    @Test
    void startupLossExitBoundsInflightByTheBdpOfMaxBw()
    {
        // A quarter-BDP buffer: Startup overflows it and loses packets on many ACKs of a round.
        final Bbr3Run bbr = new Bbr3Run(Bbr3Variant.V2_ALPHA, 1, "");
        final ScriptedPath path = bbr.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 1).bufferBytes(25_000);
        final long[] inflightOneBdpOfMaxBw = { -1 };
        path.listener((p) ->
        {
            if ("STARTUP".equals(bbr.stateName()))
            {
                // Inflight(max_bw, 1.0) as the controller will compute it on the exiting ACK, up to one ACK's change.
                inflightOneBdpOfMaxBw[0] = Math.max(Math.max((long)Math.ceil(
                    (double)bbr.counter(Bbr3Counters.MAX_BW) * bbr.counter(Bbr3Counters.MIN_RTT) / 1e9),
                    bbr.sendQuantumBytes()), 4L * Bbr3Run.SMSS);
            }
        });

        path.runUntil(1_000 * MS);

        final Bbr3Run.Transition drain = bbr.firstTransitionTo("DRAIN");
        assertTrue(path.lostBytes() > 0);
        assertTrue(Math.abs(drain.inflightLongterm() - inflightOneBdpOfMaxBw[0]) <= 2L * Bbr3Run.SMSS,
            drain + " against " + inflightOneBdpOfMaxBw[0]);
    }

    @Test
    void aCeCongestionEventChangesNothingInEitherVariant()
    {
        // Marks reach both through the ACK (Bbr3EcnTest); a CE congestion event is not a loss for Linux BBRv3.
        for (final Bbr3Variant variant : Bbr3Variant.values())
        {
            final Bbr3Run bbr = ceMarkedRound(variant);
            assertEquals(-1, bbr.counter(Bbr3Counters.BW_SHORTTERM), variant.controllerName());
            assertEquals(-1, bbr.counter(Bbr3Counters.INFLIGHT_SHORTTERM), variant.controllerName());
        }
    }

    @Test
    void spuriousLossUndoRestoresCwndWithoutResumingTheProbe()
    {
        // Losses stop the first ProbeBW_UP; then the transport learns they were spurious. v3 resumes probing
        // (REFILL: Bbr3ProbeBwTest.spuriousLossUndoesTheProbeStopAndRefills, draft HandleSpuriousLossDetection);
        // v2's bbr2_undo_cwnd only returns the cwnd saved on entering recovery (bbr2_ssthresh) and the bounds, and
        // the cycle goes on in DOWN.
        final Bbr3Run bbr = new Bbr3Run(Bbr3Variant.V2_ALPHA, 1, "");
        final ScriptedPath path = bbr.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 1);
        final boolean[] dropped = { false };
        final long[] undo = { -1, -1, -1 };  // cwnd before the congestion event, cwnd after the undo, still in DOWN
        path.listener((p) ->
        {
            if (!dropped[0] && "PROBE_BW_UP".equals(bbr.stateName()))
            {
                dropped[0] = true;
                p.dropNext(10);  // 15 kB of about 110 kB in flight: far above the 2 % loss threshold
            }
            if (undo[0] < 0 && "PROBE_BW_DOWN".equals(bbr.stateName()) && p.congestionEvents() > 0)
            {
                undo[0] = p.cwndBeforeLastCongestionEventBytes();
                p.recorder().onSpuriousLoss(p.nowNs());
                undo[1] = bbr.congestionWindowBytes();
                undo[2] = "PROBE_BW_DOWN".equals(bbr.stateName()) ? 1 : 0;
            }
        });

        path.runUntil(6_000 * MS);

        final Bbr3Run.Transition stop = bbr.transitions.stream()
            .filter((t) -> "PROBE_BW_UP".equals(t.from())).findFirst().orElseThrow();
        assertEquals("lost", stop.cause(), "the losses stopped the probe");
        assertTrue(undo[0] > 0, "never undone");
        assertEquals(undo[0], undo[1], "cwnd back to the one saved on entering recovery");
        assertEquals(1, undo[2], "still in DOWN after the undo");
        assertEquals(List.of(), bbr.transitions.stream().filter((t) -> "spurious".equals(t.cause())).toList());
    }

    private static Bbr3Run ceMarkedRound(final Bbr3Variant variant)
    {
        final Bbr3Run bbr = new Bbr3Run(variant, 1, "");
        final ScriptedPath path = bbr.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 1);
        // In CRUISE: the bounds adapt only while not probing (draft AdaptLowerBoundsFromCongestion).
        assertTrue(path.runUntil(5_000 * MS, () -> "PROBE_BW_CRUISE".equals(bbr.stateName())), variant + ": cruise");
        assertEquals(-1, bbr.counter(Bbr3Counters.BW_SHORTTERM), variant + ": no congestion yet");
        path.ecnCongestionEvent(path.newestSentTimeNs());
        path.runFor(3 * RTT_NS);
        assertEquals("PROBE_BW_CRUISE", bbr.stateName(), variant + ": still cruising");
        return bbr;
    }

    private static List<Long> upRounds(final Bbr3Variant variant)
    {
        // 20 Mbit/s, 40 ms, no loss and a deep buffer: only the exit rule ends UP.
        final Bbr3Run bbr = new Bbr3Run(variant, 2, "");
        final ScriptedPath path = bbr.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 2);
        path.runUntil(20_000 * MS);
        final List<Bbr3Run.Transition> ups = bbr.transitionsTo("PROBE_BW_UP");
        final List<Bbr3Run.Transition> downs = bbr.transitionsTo("PROBE_BW_DOWN");
        return ups.stream()
            .map((up) -> downs.stream().filter((down) -> down.timeNs() > up.timeNs() &&
                "PROBE_BW_UP".equals(down.from())).findFirst().map((down) -> down.roundCount() - up.roundCount()))
            .filter(java.util.Optional::isPresent).map(java.util.Optional::get).toList();
    }

    private static void assertGains(final long[][] gains, final Bbr3State state, final long pacing, final long cwnd)
    {
        assertTrue(null != gains[state.ordinal()], "never in " + state);
        assertEquals(pacing, gains[state.ordinal()][0], state + " pacing gain x1000");
        assertEquals(cwnd, gains[state.ordinal()][1], state + " cwnd gain x1000");
    }
}
