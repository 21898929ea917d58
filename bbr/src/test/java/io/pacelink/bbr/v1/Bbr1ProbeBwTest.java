package io.pacelink.bbr.v1;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.pacelink.bbr.v1.Bbr1Run.MS;
import static io.pacelink.bbr.v1.Bbr1Run.RATE_100_MBIT;
import static io.pacelink.bbr.v1.Bbr1Run.RATE_10_MBIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PROBE_BW gain cycling (Linux {@code bbr_pacing_gain}: [5/4, 3/4, 1 x 6], random start never the 3/4 phase).
 */
class Bbr1ProbeBwTest
{
    private static final double[] GAINS = { 1.25, 0.75, 1, 1, 1, 1, 1, 1 };

    private final List<long[]> phases = new ArrayList<>();  // {cycleIndex, startNs, inflight at end}
    private int pacingMismatches;
    private int firstIndex = -1;

    @Test
    void cyclesThroughEightPhasesWithLinuxGains()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, 100 * MS, 3);
        final Bbr1Controller bbr = run.controller;
        run.path.listener((path) ->
        {
            if (Bbr1State.PROBE_BW != bbr.state())
            {
                return;
            }
            if (phases.isEmpty() || phases.get(phases.size() - 1)[0] != bbr.cycleIndex())
            {
                phases.add(new long[]{ bbr.cycleIndex(), path.nowNs() });
            }
            // Pacing follows max_bw * gain * 0.99 on every ACK once the pipe is full.
            final long expected = Bbr1Run.expectedPacingRate(bbr.maxBandwidthBytesPerSecond(), GAINS[bbr.cycleIndex()]);
            if (expected != bbr.pacingRateBytesPerSecond() || GAINS[bbr.cycleIndex()] != bbr.pacingGain())
            {
                pacingMismatches++;
            }
        });
        run.runUntilSeconds(6.0);

        assertEquals(0, pacingMismatches);
        assertTrue(phases.size() >= 30, "phases " + phases.size());
        assertNotEquals(1, phases.get(0)[0]);
        for (int i = 1; i < phases.size(); i++)
        {
            assertEquals((phases.get(i - 1)[0] + 1) % 8, phases.get(i)[0], "phase order at " + i);
        }

        // A gain-1 phase lasts just over min_rtt (it ends on the first ACK after min_rtt elapsed).
        final long minRttNs = bbr.minRttNs();
        for (int i = 1; i < phases.size() - 1; i++)
        {
            final long index = phases.get(i)[0];
            final long durationNs = phases.get(i + 1)[1] - phases.get(i)[1];
            if (index >= 2)
            {
                assertTrue(durationNs > minRttNs && durationNs < minRttNs + 2 * MS,
                    "phase " + index + " lasted " + durationNs);
            }
            else if (0 == index)
            {
                // 5/4 lasts until inflight reaches 5/4 BDP: at least min_rtt.
                assertTrue(durationNs > minRttNs && durationNs < 2 * minRttNs, "5/4 phase lasted " + durationNs);
            }
            else
            {
                // 3/4 ends early once inflight is back to BDP, or after min_rtt.
                assertTrue(durationNs <= minRttNs + 2 * MS, "3/4 phase lasted " + durationNs);
            }
        }
        assertEquals(2000, run.context.counter("bbr-cwnd-gain-x1000"));
        assertEquals(Math.round(GAINS[bbr.cycleIndex()] * 1000), run.context.counter("bbr-pacing-gain-x1000"));
        assertEquals(bbr.cycleIndex(), run.context.counter("bbr-cycle-index"));
    }

    @Test
    void randomStartPhaseIsUniformOverAllButTheDrainPhase()
    {
        final int[] counts = new int[8];
        final int seeds = 280;
        for (int seed = 0; seed < seeds; seed++)
        {
            counts[firstProbeBwIndex(seed)]++;
        }
        assertEquals(0, counts[1], "the 3/4 phase must never start a cycle");
        for (int index = 0; index < 8; index++)
        {
            if (1 != index)
            {
                // Expected 40 each; 5 sigma is about 30.
                assertTrue(counts[index] >= 15 && counts[index] <= 70, "phase " + index + " started " + counts[index]);
            }
        }
    }

    @Test
    void sameSeedSameTrajectory()
    {
        final Bbr1Run a = new Bbr1Run(RATE_10_MBIT, 20 * MS, 99);
        final Bbr1Run b = new Bbr1Run(RATE_10_MBIT, 20 * MS, 99);
        a.runUntilSeconds(3.0);
        b.runUntilSeconds(3.0);
        assertEquals(a.path.deliveredBytes(), b.path.deliveredBytes());
        assertEquals(a.controller.cycleIndex(), b.controller.cycleIndex());
        assertEquals(a.controller.congestionWindowBytes(), b.controller.congestionWindowBytes());
        assertEquals(a.controller.pacingRateBytesPerSecond(), b.controller.pacingRateBytesPerSecond());
        assertEquals(firstProbeBwIndex(99), firstProbeBwIndex(99));
    }

    private int firstProbeBwIndex(final long seed)
    {
        final Bbr1Run run = new Bbr1Run(RATE_10_MBIT, 20 * MS, seed);
        firstIndex = -1;
        run.path.listener((path) ->
        {
            if (firstIndex < 0 && Bbr1State.PROBE_BW == run.controller.state())
            {
                firstIndex = run.controller.cycleIndex();
            }
        });
        while (firstIndex < 0)
        {
            run.path.runFor(10 * MS);
        }
        return firstIndex;
    }
}
