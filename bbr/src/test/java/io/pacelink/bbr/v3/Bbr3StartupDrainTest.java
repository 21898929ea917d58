package io.pacelink.bbr.v3;

import io.pacelink.transport.testing.ScriptedPath;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * draft-ietf-ccwg-bbr-06 Appendix A.1-A.4 and A.7: Startup and Drain on a 20 Mbit/s, 40 ms scripted path (BDP 101.5 KB
 * including one packet's serialization, 67 packets of 1500 bytes).
 */
class Bbr3StartupDrainTest
{
    private static final long MS = 1_000_000L;
    private static final long RATE_BYTES_PER_SECOND = 2_500_000L;
    private static final long RTT_NS = 40 * MS;

    @Test
    void startupExitsOnBandwidthPlateauIntoDrainWithMaxBwWithinTwoPercent()
    {
        final Bbr3Run bbr = new Bbr3Run(1, "");
        final ScriptedPath path = bbr.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 1);
        final long[] plateauRound = {-1};
        final long[] drainGains = {-1, -1};
        path.listener((p) ->
        {
            if (plateauRound[0] < 0 && bbr.counter(Bbr3Counters.MAX_BW) >= 0.98 * RATE_BYTES_PER_SECOND)
            {
                plateauRound[0] = bbr.counter(Bbr3Counters.ROUND_COUNT);
            }
            if (drainGains[0] < 0 && "DRAIN".equals(bbr.stateName()))
            {
                drainGains[0] = bbr.counter(Bbr3Counters.PACING_GAIN);
                drainGains[1] = bbr.counter(Bbr3Counters.CWND_GAIN);
            }
        });

        path.runUntil(1_000 * MS);

        final Bbr3Run.Transition drain = bbr.firstTransitionTo("DRAIN");
        assertEquals("STARTUP", drain.from());
        assertEquals(-1, drain.inflightLongterm(), "a plateau exit, not a loss exit");
        // Three rounds without 25 % growth after the delivery rate reached the link rate (draft A.1 step 4).
        assertTrue(plateauRound[0] > 0);
        assertTrue(drain.roundCount() >= plateauRound[0] + 2 && drain.roundCount() <= plateauRound[0] + 3,
            "plateau at round " + plateauRound[0] + ", Drain at round " + drain.roundCount());
        final long maxBw = bbr.counter(Bbr3Counters.MAX_BW);
        assertTrue(Math.abs(maxBw - RATE_BYTES_PER_SECOND) <= 0.02 * RATE_BYTES_PER_SECOND, "max_bw " + maxBw);
        // Drain paces at 0.5 and keeps cwnd gain 2 (draft EnterDrain).
        assertEquals(500, drainGains[0]);
        assertEquals(2000, drainGains[1]);
        assertEquals(0, path.lostBytes());
    }

    @Test
    void drainExitsToProbeBwWithinOneRoundOnceInflightIsAtMostOneBdp()
    {
        final Bbr3Run bbr = new Bbr3Run(1, "");
        final ScriptedPath path = bbr.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 1);

        path.runUntil(1_000 * MS);

        final Bbr3Run.Transition drain = bbr.firstTransitionTo("DRAIN");
        final Bbr3Run.Transition exit = bbr.transitions.get(bbr.transitions.indexOf(drain) + 1);
        assertEquals("DRAIN", exit.from());
        assertTrue(exit.to().startsWith("PROBE_BW_"), exit.toString());
        assertTrue(exit.bytesInFlight() <= exit.inflightOneBdpBefore(),
            "inflight " + exit.bytesInFlight() + " vs Inflight(1.0) " + exit.inflightOneBdpBefore());
        assertTrue(exit.roundCount() - drain.roundCount() <= 1, drain + " -> " + exit);
        // Startup's queue of about one BDP is gone.
        assertTrue(path.queueBytes() <= Bbr3Run.SMSS, "queue " + path.queueBytes());
    }

    @Test
    void drainEndsThreeRoundsAfterEntryWhenInflightStaysAboveBdp()
    {
        final Bbr3Run bbr = new Bbr3Run(1, "");
        final ScriptedPath path = lengthenPathAtPlateau(bbr, (p) -> {});

        path.runUntil(3_000 * MS);

        // Draft A.4: CheckDrainDone leaves Drain once round_count > drain_start_round + 3, inflight still high.
        final Bbr3Run.Transition drain = bbr.firstTransitionTo("DRAIN");
        final Bbr3Run.Transition exit = bbr.transitions.get(bbr.transitions.indexOf(drain) + 1);
        assertEquals("PROBE_BW_DOWN", exit.to());
        assertEquals(drain.roundCount() + 4, exit.roundCount());
        assertTrue(exit.bytesInFlight() > exit.inflightOneBdpBefore(), exit.toString());
    }

    @Test
    void linuxDrainHasNoRoundTimeoutAndItsOwnGain()
    {
        final Bbr3Run bbr =
            new Bbr3Run(1, "bbr3.drainRoundsTimeout=0,bbr3.drainPacingGain=0.347");
        final long[] drainPacingGain = {-1};
        final ScriptedPath path = lengthenPathAtPlateau(bbr, (p) ->
        {
            if ("DRAIN".equals(bbr.stateName()))
            {
                drainPacingGain[0] = bbr.counter(Bbr3Counters.PACING_GAIN);
            }
        });

        path.runUntil(3_000 * MS);

        assertEquals("DRAIN", bbr.stateName(), () -> "Linux leaves Drain on inflight only: " + bbr.transitions);
        assertEquals(347, drainPacingGain[0]);
    }

    @Test
    void startupExitsOnLossWithSixLostRangesInARoundOfRecovery()
    {
        // A quarter-BDP buffer: Startup overflows it and loses many separate packets per round.
        final Bbr3Run bbr = new Bbr3Run(1, "");
        final ScriptedPath path = bbr.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 1)
            .bufferBytes(25_000);

        path.runUntil(1_000 * MS);

        final Bbr3Run.Transition drain = bbr.firstTransitionTo("DRAIN");
        assertEquals("STARTUP", drain.from());
        // Only the loss exit sets inflight_longterm in Startup: max(bdp, inflight_latest), at least one BDP.
        assertTrue(drain.inflightLongterm() >= 100_000, drain.toString());
        assertTrue(path.lostBytes() > 0);
    }

    @Test
    void oneContiguousBurstOfLossesIsNotAStartupLossExit()
    {
        final Bbr3Run bbr = new Bbr3Run(1, "");
        final ScriptedPath path = bbr.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 1);
        path.runUntil(150 * MS);
        path.dropNext(10); // one range, 10 packets: loss rate far above 2 % but a single discontiguous range

        path.runUntil(1_000 * MS);

        final Bbr3Run.Transition drain = bbr.firstTransitionTo("DRAIN");
        assertEquals(-1, drain.inflightLongterm(), "plateau exit expected: " + drain);
        assertEquals(10L * Bbr3Run.SMSS, path.lostBytes());
    }

    @Test
    void appLimitedStartupExitsOnHighLossButNeverWithoutLoss()
    {
        // Draft A.2 and A.7: the application writes half the link rate; every 5th packet is lost (20 %, each loss
        // its own range) in one run, none in the other.
        final Bbr3Run lossy = new Bbr3Run(1, "");
        final ScriptedPath lossyPath = lossy.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 1)
            .appChunks(15_000, 12 * MS)
            .dropEveryNth(5);
        final Bbr3Run clean = new Bbr3Run(1, "");
        final ScriptedPath cleanPath = clean.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 1)
            .appChunks(15_000, 12 * MS);

        lossyPath.runUntil(2_000 * MS);
        cleanPath.runUntil(4_900 * MS);

        final Bbr3Run.Transition drain = lossy.firstTransitionTo("DRAIN");
        assertEquals("STARTUP", drain.from());
        assertNotEquals(-1, drain.inflightLongterm());
        assertEquals("STARTUP", clean.stateName());
        assertTrue(clean.transitions.isEmpty(), clean.transitions.toString());
    }

    private static ScriptedPath lengthenPathAtPlateau(final Bbr3Run bbr, final ScriptedPath.AckListener also)
    {
        // Draft A.4 needs inflight to stay above Inflight(1.0) in Drain. Quadrupling the propagation delay while
        // Startup measures the link rate (but has not left Startup) keeps min_rtt, and so the BDP estimate, at the
        // old path while the volume in flight needed to drain at the Drain pacing rate is far above it. The path is
        // the simulator's link: a new delay applies to every packet leaving the bottleneck after the change, so the
        // packets queued then leave in one bunch on the longer path. At 98 % of the rate Startup's queue is 114 kB
        // (over a BDP) and that bunch, ACKed at the full link rate while Drain sends at 0.347 of it, pulls inflight
        // down to 100.5 kB, below one BDP (101.5 kB), at 799 ms: Linux then rightly leaves Drain. At 70 % the queue
        // is shorter, Linux's Drain keeps inflight above one BDP for the whole run and the draft's leaves after its
        // three rounds (round 8 to 12, 189 kB in flight against 96.6 kB).
        final ScriptedPath path = bbr.path(RATE_BYTES_PER_SECOND, RTT_NS, 0, 1);
        path.listener((p) ->
        {
            if (bbr.counter(Bbr3Counters.MAX_BW) >= 0.7 * RATE_BYTES_PER_SECOND)
            {
                p.propagationRttNs(4 * RTT_NS);
            }
            also.onAckProcessed(p);
        });
        return path;
    }
}
