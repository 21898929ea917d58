package io.pacelink.bbr.v3;

import io.pacelink.transport.testing.ScriptedPath;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * draft-ietf-ccwg-bbr-06 Appendix A.5, A.8, A.21: the ProbeBW cycle, probe scheduling, bandwidth probing and its loss
 * response, on scripted paths.
 */
class Bbr3ProbeBwTest
{
    private static final long MS = 1_000_000L;
    private static final int SMSS = Bbr3Run.SMSS;

    /**
     * The cycle moves DOWN -> CRUISE -> REFILL -> UP -> DOWN; ProbeRTT may interrupt and resumes in CRUISE
     * (through DOWN, in the same ACK); DOWN goes straight to REFILL only if it is already time to probe.
     */
    private static final Set<String> CYCLE_STEPS = Set.of(
        "PROBE_BW_DOWN>PROBE_BW_CRUISE",
        "PROBE_BW_CRUISE>PROBE_BW_REFILL",
        "PROBE_BW_REFILL>PROBE_BW_UP",
        "PROBE_BW_UP>PROBE_BW_DOWN",
        "PROBE_BW_DOWN>PROBE_BW_REFILL",
        "PROBE_BW_CRUISE>PROBE_RTT",
        "PROBE_BW_DOWN>PROBE_RTT",
        "PROBE_BW_REFILL>PROBE_RTT",
        "PROBE_BW_UP>PROBE_RTT",
        "PROBE_RTT>PROBE_BW_CRUISE");

    @Test
    void cycleRunsDownCruiseRefillUpWithOneRoundOfRefillAndUpGains()
    {
        final Bbr3Run bbr = new Bbr3Run(1, "");
        final ScriptedPath path = bbr.path(2_500_000L, 40 * MS, 0, 1);
        final long[] upGains = {-1, -1};
        path.listener((p) ->
        {
            if ("PROBE_BW_UP".equals(bbr.stateName()))
            {
                upGains[0] = bbr.counter(Bbr3Counters.PACING_GAIN);
                upGains[1] = bbr.counter(Bbr3Counters.CWND_GAIN);
            }
        });

        path.runUntil(30_000 * MS);

        final List<Bbr3Run.Transition> steady = afterDrain(bbr);
        int fullCycles = 0;
        for (int i = 0; i < steady.size(); i++)
        {
            final Bbr3Run.Transition t = steady.get(i);
            assertTrue(CYCLE_STEPS.contains(t.from() + ">" + t.to()), "unexpected step " + t);
            if ("PROBE_BW_REFILL".equals(t.from()))
            {
                assertEquals(steady.get(i - 1).roundCount() + 1, t.roundCount(), "REFILL lasts one round: " + t);
            }
            // A whole cycle: cruising (entered from DOWN, or from Drain or ProbeRTT through DOWN), refill, up, down.
            if (i >= 3 && "PROBE_BW_UP>PROBE_BW_DOWN".equals(t.from() + ">" + t.to()) &&
                "PROBE_BW_REFILL".equals(steady.get(i - 1).from()) &&
                "PROBE_BW_CRUISE".equals(steady.get(i - 2).from()) &&
                "PROBE_BW_CRUISE".equals(steady.get(i - 3).to()))
            {
                fullCycles++;
            }
        }
        assertTrue(fullCycles >= 4, "complete DOWN-CRUISE-REFILL-UP-DOWN cycles: " + fullCycles);
        assertEquals(1250, upGains[0]);
        assertEquals(2250, upGains[1]);
    }

    @Test
    void shortRttPathProbesEvery62Or63Rounds()
    {
        // 100 Mbit/s, 10 ms: BDP 126.5 KB = 84 packets > 63, so the Reno-coexistence bound of 63 rounds (started at 0
        // or 1) comes long before the 2-3 s wall clock: a probe about every 0.63 s (draft IsRenoCoexistenceProbeTime).
        final Bbr3Run bbr = new Bbr3Run(3, "");
        final ScriptedPath path = bbr.path(12_500_000L, 10 * MS, 0, 3);

        path.runUntil(20_000 * MS);

        final List<long[]> waits = probeWaits(bbr);
        assertTrue(waits.size() >= 15, "probes: " + waits.size());
        boolean saw62 = false;
        boolean saw63 = false;
        for (final long[] wait : waits)
        {
            assertTrue(wait[1] == 62 || wait[1] == 63, "rounds " + wait[1]);
            assertTrue(wait[0] < 1_000 * MS, "wall clock " + wait[0]);
            saw62 |= 62 == wait[1];
            saw63 |= 63 == wait[1];
        }
        assertTrue(saw62 && saw63, "the random start of the round count shows both bounds");
    }

    @Test
    void longRttPathProbesAfterTwoToThreeSeconds()
    {
        // 20 Mbit/s, 100 ms: 63 rounds would take 6.3 s, so the BBR-native wall clock U[2, 3) s decides.
        final Bbr3Run bbr = new Bbr3Run(5, "");
        final ScriptedPath path = bbr.path(2_500_000L, 100 * MS, 0, 5);

        path.runUntil(40_000 * MS);

        final List<long[]> waits = probeWaits(bbr);
        assertTrue(waits.size() >= 8, "probes: " + waits.size());
        long shortest = Long.MAX_VALUE;
        long longest = 0;
        for (final long[] wait : waits)
        {
            // Checked on ACKs, which arrive every 0.6 ms at this rate.
            assertTrue(wait[0] > 2_000 * MS && wait[0] <= 3_001 * MS, "wait " + wait[0] / 1e6 + " ms");
            assertTrue(wait[1] < 40, "rounds " + wait[1]);
            shortest = Math.min(shortest, wait[0]);
            longest = Math.max(longest, wait[0]);
        }
        assertTrue(longest - shortest > 300 * MS, "randomised waits: " + shortest + ".." + longest);
    }

    @Test
    void tinyBdpPathProbesAfterTargetInflightInPacketsRounds()
    {
        // 1 Mbit/s, 40 ms plus 12 ms serialization: BDP 6.5 KB, 4 packets; the Reno bound is min(4, 63) rounds
        // counted from 0 or 1.
        final Bbr3Run bbr = new Bbr3Run(1, "");
        final ScriptedPath path = bbr.path(125_000L, 40 * MS, 0, 1);

        path.runUntil(10_000 * MS);

        final long bdpPackets =
            (long)(bbr.counter(Bbr3Counters.MAX_BW) * (bbr.counter(Bbr3Counters.MIN_RTT) / 1e9)) / SMSS;
        assertEquals(4, bdpPackets);
        final List<long[]> waits = probeWaits(bbr);
        assertTrue(waits.size() >= 10, "probes: " + waits.size());
        for (final long[] wait : waits)
        {
            assertTrue(wait[1] == bdpPackets - 1 || wait[1] == bdpPackets, "rounds " + wait[1]);
        }
    }

    @Test
    void upGrowsInflightLongtermByDoublingPacketsPerRound()
    {
        // A quarter-BDP buffer makes Startup exit on loss with inflight_longterm = 126 KB; then the buffer becomes
        // unlimited, so the first UP is held at inflight_longterm without loss and must raise it.
        final Bbr3Run bbr = new Bbr3Run(1, "");
        final ScriptedPath path = bbr.path(2_500_000L, 40 * MS, 0, 1).bufferBytes(25_000);
        final List<Long> inflightLongtermAtRoundStart = new ArrayList<>();
        final long[] lastRound = {-1};
        final long[] droppedInStartup = {-1};
        path.listener((p) ->
        {
            if (droppedInStartup[0] < 0 && bbr.stateName().startsWith("PROBE_BW_"))
            {
                p.bufferBytes(Long.MAX_VALUE);
                droppedInStartup[0] = p.droppedBytes();
            }
            final long round = bbr.counter(Bbr3Counters.ROUND_COUNT);
            if (round != lastRound[0])
            {
                lastRound[0] = round;
                if ("PROBE_BW_UP".equals(bbr.stateName()) && bbr.transitionsTo("PROBE_BW_UP").size() == 1 &&
                    bbr.congestionWindowBytes() == bbr.counter(Bbr3Counters.INFLIGHT_LONGTERM))
                {
                    inflightLongtermAtRoundStart.add(bbr.counter(Bbr3Counters.INFLIGHT_LONGTERM));
                }
            }
        });

        path.runUntil(4_000 * MS);

        final List<Long> growthPackets = new ArrayList<>();
        for (int i = 1; i < inflightLongtermAtRoundStart.size(); i++)
        {
            growthPackets.add((inflightLongtermAtRoundStart.get(i) - inflightLongtermAtRoundStart.get(i - 1)) / SMSS);
        }
        // The first UP round ramps inflight up to inflight_longterm (limited for part of it only: no increment);
        // from then on 1 << bw_probe_up_rounds packets per round, until cwnd's own cap (2.25 BDP) takes over. A
        // round acknowledges cwnd plus the datagram the transport may send beyond it (it sends while bytes in flight
        // are below cwnd), so with the remainder carried over a round may add one increment more.
        assertEquals(0L, growthPackets.get(0), inflightLongtermAtRoundStart.toString());
        for (int round = 1; round <= 4; round++)
        {
            final long growth = growthPackets.get(round);
            assertTrue(growth == 1L << round || growth == (1L << round) + 1,
                "round " + round + ": " + growthPackets + " " + inflightLongtermAtRoundStart);
        }
        for (final long growth : growthPackets.subList(5, growthPackets.size()))
        {
            assertTrue(growth <= 32, growthPackets.toString());
        }
        assertTrue(droppedInStartup[0] > 0);
        assertEquals(droppedInStartup[0], path.droppedBytes(), "no loss while probing");
    }

    @Test
    void excessLossInUpStopsTheProbeAtTheLossOnset()
    {
        final Bbr3Run bbr = new Bbr3Run(1, "");
        final ScriptedPath path = shallowBufferAfterStartup(bbr, (p) -> {});

        path.runUntil(4_000 * MS);

        // Draft A.21 / HandleInflightTooHigh: decided on the lost packet itself, inflight_longterm where the loss
        // rate crossed 2 %, i.e. about the path's capacity (pipe 101.5 KB plus the 25 KB buffer).
        final Bbr3Run.Transition stop = bbr.firstTransitionTo("PROBE_BW_DOWN");
        assertEquals("PROBE_BW_UP", stop.from());
        assertEquals("lost", stop.cause());
        final long onsetBytes = 101_500 + 25_000;
        assertTrue(Math.abs(stop.inflightLongterm() - onsetBytes) <= 2 * SMSS, stop.toString());
        assertTrue(stop.inflightLongterm() >= 0.7 * 101_500, stop.toString());
        // The next probes stay near that bound: far less loss than the first probe.
        final long lostAfterFirstProbe = path.lostBytes();
        path.runUntil(12_000 * MS);
        assertTrue(path.lostBytes() - lostAfterFirstProbe < 3 * lostAfterFirstProbe,
            "first probe lost " + lostAfterFirstProbe + ", then " + (path.lostBytes() - lostAfterFirstProbe));
    }

    @Test
    void spuriousLossUndoesTheProbeStopAndRefills()
    {
        final Bbr3Run bbr = new Bbr3Run(1, "");
        final boolean[] undone = {false};
        final long[] cwndBeforeStop = {0};
        final ScriptedPath path = shallowBufferAfterStartup(bbr, (p) ->
        {
            if ("PROBE_BW_UP".equals(bbr.stateName()))
            {
                cwndBeforeStop[0] = bbr.congestionWindowBytes();
            }
            if (!undone[0] && "PROBE_BW_DOWN".equals(bbr.stateName()) && !bbr.transitionsTo("PROBE_BW_DOWN").isEmpty())
            {
                undone[0] = true;
                // The transport learns the losses that stopped the probe were spurious (draft A.18).
                p.recorder().onSpuriousLoss(p.nowNs());
            }
        });

        path.runUntil(4_000 * MS);

        assertTrue(undone[0]);
        final Bbr3Run.Transition stop = bbr.firstTransitionTo("PROBE_BW_DOWN");
        assertEquals("lost", stop.cause());
        final Bbr3Run.Transition undo = bbr.transitions.get(bbr.transitions.indexOf(stop) + 1);
        assertEquals("spurious", undo.cause());
        assertEquals("PROBE_BW_REFILL", undo.to());
        // inflight_longterm was unset before the loss episode: restored to unset.
        assertEquals(-1, undo.inflightLongterm());
        assertTrue(undo.congestionWindowBytes() >= cwndBeforeStop[0] - SMSS, undo + " cwnd in UP " + cwndBeforeStop[0]);
    }

    private static ScriptedPath shallowBufferAfterStartup(
        final Bbr3Run bbr, final ScriptedPath.AckListener also)
    {
        // Unlimited buffer for Startup (no loss, inflight_longterm stays unset), then a quarter-BDP buffer for
        // the first probe.
        final ScriptedPath path = bbr.path(2_500_000L, 40 * MS, 0, 1);
        path.listener((p) ->
        {
            if ("PROBE_BW_CRUISE".equals(bbr.stateName()))
            {
                p.bufferBytes(25_000);
            }
            also.onAckProcessed(p);
        });
        return path;
    }

    private static List<Bbr3Run.Transition> afterDrain(final Bbr3Run bbr)
    {
        final List<Bbr3Run.Transition> all = bbr.transitions;
        int first = 0;
        while (!"DRAIN".equals(all.get(first).from()))
        {
            first++;
        }
        return all.subList(first + 1, all.size());
    }

    /**
     * @return for each REFILL entry: {wall-clock ns, rounds} since the cycle began (DOWN entry, including the
     * implicit DOWN of Drain or ProbeRTT exit straight to CRUISE).
     */
    private static List<long[]> probeWaits(final Bbr3Run bbr)
    {
        final List<long[]> waits = new ArrayList<>();
        long cycleStartNs = -1;
        long cycleStartRound = -1;
        for (final Bbr3Run.Transition t : bbr.transitions)
        {
            final boolean startsCycle = "PROBE_BW_DOWN".equals(t.to()) ||
                ("PROBE_BW_CRUISE".equals(t.to()) && !"PROBE_BW_DOWN".equals(t.from()));
            if (startsCycle)
            {
                cycleStartNs = t.timeNs();
                cycleStartRound = t.roundCount();
            }
            else if ("PROBE_BW_REFILL".equals(t.to()) && cycleStartNs >= 0)
            {
                waits.add(new long[] {t.timeNs() - cycleStartNs, t.roundCount() - cycleStartRound});
            }
        }
        return waits;
    }
}
