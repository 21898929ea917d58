package io.pacelink.bbr.v1;

import org.junit.jupiter.api.Test;

import static io.pacelink.bbr.v1.Bbr1Run.MS;
import static io.pacelink.bbr.v1.Bbr1Run.MSS;
import static io.pacelink.bbr.v1.Bbr1Run.RATE_100_MBIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * STARTUP and DRAIN on a 100 Mbit/s, 100 ms path (Linux {@code bbr_check_full_bw_reached}, {@code bbr_check_drain}).
 */
class Bbr1StartupTest
{
    private static final long PROPAGATION_RTT_NS = 100 * MS;
    private static final long MIN_RTT_NS = PROPAGATION_RTT_NS + MSS * 1_000_000_000L / RATE_100_MBIT;
    private static final long BDP_BYTES = RATE_100_MBIT * MIN_RTT_NS / 1_000_000_000L;

    private long reachedRound = -1;
    private long fullRound = -1;
    private long drainRound = -1;
    private long probeBwRound = -1;
    private long queueAtStartupExitBytes = -1;
    private long pacingDecreasesBeforeFull;
    private long lastPacingRate;
    private long firstAckPacingRate = -1;

    @Test
    void startupFindsBottleneckRateDetectsPlateauAndDrainsInOneRound()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, PROPAGATION_RTT_NS, 1);
        final Bbr1Controller bbr = run.controller;

        // Before any RTT sample: high_gain * initial cwnd / 1 ms nominal RTT, 1 % margin.
        final long initialWindow = run.context.initialWindowBytes();
        assertEquals(Bbr1Run.expectedPacingRate(initialWindow * 1000, Bbr1Parameters.LINUX_HIGH_GAIN),
            bbr.pacingRateBytesPerSecond());
        assertEquals("STARTUP", bbr.stateName());

        run.path.listener((path) ->
        {
            if (firstAckPacingRate < 0)
            {
                firstAckPacingRate = bbr.pacingRateBytesPerSecond();
            }
            if (reachedRound < 0 && bbr.maxBandwidthBytesPerSecond() >= 0.98 * RATE_100_MBIT)
            {
                reachedRound = bbr.roundCount();
            }
            if (!bbr.isFullBandwidthReached() && bbr.pacingRateBytesPerSecond() < lastPacingRate)
            {
                pacingDecreasesBeforeFull++;
            }
            lastPacingRate = bbr.pacingRateBytesPerSecond();
            if (fullRound < 0 && bbr.isFullBandwidthReached())
            {
                fullRound = bbr.roundCount();
                queueAtStartupExitBytes = path.maxQueueBytes();
            }
            if (drainRound < 0 && Bbr1State.DRAIN == bbr.state())
            {
                drainRound = bbr.roundCount();
            }
            if (probeBwRound < 0 && Bbr1State.PROBE_BW == bbr.state())
            {
                probeBwRound = bbr.roundCount();
            }
        });
        run.runUntilSeconds(4.0);

        // First RTT sample: pacing re-initialised from srtt with the initial window, then only raised.
        final long srttBandwidth = initialWindow * 1_000_000_000L / MIN_RTT_NS;
        assertEquals(Bbr1Run.expectedPacingRate(srttBandwidth, Bbr1Parameters.LINUX_HIGH_GAIN), firstAckPacingRate);
        assertEquals(0, pacingDecreasesBeforeFull);

        // BDP/IW = 1.25 MB / 14.7 KB = 85: log2 = 6.4 doublings after the first full round of samples.
        final double doublings = Math.log((double)BDP_BYTES / initialWindow) / Math.log(2);
        assertTrue(reachedRound >= Math.floor(doublings) + 1 && reachedRound <= Math.ceil(doublings) + 2,
            "reached bottleneck rate in round " + reachedRound + ", log2(BDP/IW) = " + doublings);
        // Plateau: the next round start still registers the growth, then three round starts without 25 % growth.
        assertEquals(reachedRound + 4, fullRound, "plateau detected in round " + fullRound);
        assertEquals(8, reachedRound);
        assertEquals(12, fullRound);

        final long maxBw = bbr.maxBandwidthBytesPerSecond();
        assertTrue(Math.abs(maxBw - RATE_100_MBIT) <= 0.02 * RATE_100_MBIT, "max_bw " + maxBw);

        // DRAIN at gain 1/2.885 empties the STARTUP queue within one round.
        assertEquals(fullRound, drainRound);
        assertTrue(probeBwRound - drainRound <= 1, "DRAIN took " + (probeBwRound - drainRound) + " rounds");

        // Peak queue: (high_gain - 1) * BDP plus the quantization budget (3 send quanta of ~1 ms) and a packet.
        final long budgetBytes = 3L * 64 * 1024 + 2L * MSS;
        final long bound = (long)((Bbr1Parameters.LINUX_HIGH_GAIN - 1.0) * BDP_BYTES) + budgetBytes;
        assertTrue(queueAtStartupExitBytes <= bound, "peak queue " + queueAtStartupExitBytes + " > " + bound);
        assertTrue(queueAtStartupExitBytes >= 1.5 * BDP_BYTES, "peak queue " + queueAtStartupExitBytes);

        assertEquals(Bbr1State.PROBE_BW, bbr.state());
        assertEquals(2, run.context.counter("bbr-state"));
        assertEquals(1, run.context.counter("bbr-full-bw-reached"));
        assertEquals(maxBw, run.context.counter("bbr-max-bw-bytes-per-second"));
        assertEquals(MIN_RTT_NS, run.context.counter("bbr-min-rtt-ns"));
        assertEquals(2000, run.context.counter("bbr-cwnd-gain-x1000"));
    }

    @Test
    void steadyStateUtilisationIsAboutNinetyEightPercent()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, PROPAGATION_RTT_NS, 2);
        run.runUntilSeconds(3.0);
        final long delivered = run.path.deliveredBytes();
        run.runUntilSeconds(9.0);
        final double utilisation = (run.path.deliveredBytes() - delivered) / (6.0 * RATE_100_MBIT);
        // 1 % pacing margin; the 5/4 and 3/4 phases cancel out.
        assertTrue(utilisation >= 0.97 && utilisation <= 1.0, "utilisation " + utilisation);
        // Standing queue stays small: pacing below the bottleneck drains what the 5/4 phase adds.
        run.path.resetMaxQueue();
        run.runUntilSeconds(12.0);
        assertTrue(run.path.maxQueueBytes() <= 0.3 * BDP_BYTES, "max queue " + run.path.maxQueueBytes());
    }
}
