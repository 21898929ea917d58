package io.pacelink.bbr.v1;

import org.junit.jupiter.api.Test;

import static io.pacelink.bbr.v1.Bbr1Run.MS;
import static io.pacelink.bbr.v1.Bbr1Run.RATE_100_MBIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Long-term ("policer") bandwidth (Linux {@code bbr_lt_bw_sampling}) on a 100 Mbit/s, 20 ms path.
 * <p>
 * Linux feeds {@code bbr_lt_bw_sampling} the losses an ACK marks ({@code rs->losses}); so does this controller
 * ({@link io.pacelink.transport.cc.AckEvent#newlyLostBytes()}). At 10 Mbit/s three 1500-byte packets take 3.6 ms,
 * longer than the RFC 9002 time threshold leaves (an eighth of the RTT), so the transport's loss timer declares a
 * lost packet between ACKs and the sampler never sees a lossy ACK; at 100 Mbit/s the packet threshold finds the
 * losses while an ACK is processed.
 */
class Bbr1LongTermBandwidthTest
{
    private static final long POLICED_RATE = 625_000;

    private long engagedRound = -1;
    private long engagedNs = -1;
    private long releasedRound = -1;
    private long engagedLost;
    private long engagedSent;
    private boolean wasEngaged;
    private int pacingMismatchesWhileEngaged;
    private int modeChangesWhileEngaged;
    private int releaseCycleIndex = -1;

    @Test
    void consistentTwentyPercentLossEngagesLongTermBandwidthForFortyEightRounds()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, 20 * MS, 7);
        final Bbr1Controller bbr = run.controller;
        run.path.dropEveryNth(5);
        run.path.listener((path) ->
        {
            final boolean isEngaged = bbr.isLongTermBandwidthInUse();
            if (isEngaged && !wasEngaged && engagedRound < 0)
            {
                engagedRound = bbr.roundCount();
                assertEquals(1.0, bbr.pacingGain());
                assertEquals(bbr.longTermBandwidthBytesPerSecond(), bbr.bandwidthBytesPerSecond());
                assertEquals(1, run.context.counter("bbr-lt-bw-in-use"));
                assertEquals(1, run.context.counter("bbr-" + Bbr1Counters.LONG_TERM_BANDWIDTH_ENGAGEMENTS));
            }
            if (isEngaged && engagedRound >= 0 && releasedRound < 0)
            {
                final long expected = Bbr1Run.expectedPacingRate(bbr.longTermBandwidthBytesPerSecond(), 1.0);
                if (expected != bbr.pacingRateBytesPerSecond())
                {
                    pacingMismatchesWhileEngaged++;
                }
                if (Bbr1State.PROBE_BW != bbr.state())
                {
                    modeChangesWhileEngaged++;
                }
            }
            if (!isEngaged && wasEngaged && releasedRound < 0)
            {
                releasedRound = bbr.roundCount();
                releaseCycleIndex = bbr.cycleIndex();
            }
            wasEngaged = isEngaged;
        });
        run.runUntilSeconds(5.0);

        assertTrue(engagedRound > 0, "lt_use_bw never engaged");
        // Sampling starts at the first loss; two lossy intervals of at least 4 rounds each.
        assertTrue(engagedRound >= 8 + 1 && engagedRound <= 40, "engaged in round " + engagedRound);
        assertEquals(0, pacingMismatchesWhileEngaged);
        assertEquals(0, modeChangesWhileEngaged);
        assertEquals(engagedRound + LongTermBandwidthSampler.MAX_USE_ROUNDS, releasedRound);
        // Leaving restarts gain cycling at a random phase, never the 3/4 one.
        assertNotEquals(Bbr1Controller.DRAIN_PHASE_INDEX, releaseCycleIndex);
    }

    @Test
    void policerIsDetectedAndItsRateUsed()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, 20 * MS, 8);
        final Bbr1Controller bbr = run.controller;
        run.runUntilSeconds(3.0);
        final long lostBeforePolicer = run.path.droppedBytes();
        final long sentBeforePolicer = run.path.sentBytes();
        run.path.policer(POLICED_RATE, 30_000);
        run.path.listener((path) ->
        {
            if (engagedNs < 0 && bbr.isLongTermBandwidthInUse())
            {
                engagedNs = path.nowNs();
                engagedLost = path.droppedBytes();
                engagedSent = path.sentBytes();
            }
        });
        run.runUntilSeconds(4.0);

        assertTrue(engagedNs > 0, "policer not detected");
        final long ltBw = bbr.longTermBandwidthBytesPerSecond();
        // The average of two lossy intervals includes the tokens the bucket saved up in them: a few percent high.
        assertTrue(Math.abs(ltBw - POLICED_RATE) <= 0.08 * POLICED_RATE, "lt_bw " + ltBw);
        assertEquals(Bbr1Run.expectedPacingRate(ltBw, 1.0), bbr.pacingRateBytesPerSecond());

        // Before detection BBR probes above the policed rate and loses heavily; pacing at lt_bw it mostly does not.
        final double lossBefore = (double)(engagedLost - lostBeforePolicer) / (engagedSent - sentBeforePolicer);
        final double lossAfter = (double)(run.path.droppedBytes() - engagedLost) / (run.path.sentBytes() - engagedSent);
        assertTrue(lossBefore > 0.15, "loss before detection " + lossBefore);
        assertTrue(lossAfter < lossBefore / 3, "loss after detection " + lossAfter + " vs " + lossBefore);
    }

    @Test
    void policerIsIgnoredWhenLongTermBandwidthIsDisabled()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, 20 * MS, 8, "bbr.longTermBw=false");
        run.runUntilSeconds(3.0);
        run.path.policer(POLICED_RATE, 30_000);
        run.path.listener((path) -> engagedNs = run.controller.isLongTermBandwidthInUse() ? path.nowNs() : engagedNs);
        run.runUntilSeconds(8.0);
        assertTrue(engagedNs < 0);
        assertEquals(0, run.controller.longTermBandwidthBytesPerSecond());
    }

    @Test
    void onePercentRandomLossNeitherEngagesNorCostsMoreThanTheLoss()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, 20 * MS, 9);
        run.path.randomLoss(0.01);
        run.path.listener((path) -> engagedNs = run.controller.isLongTermBandwidthInUse() ? path.nowNs() : engagedNs);
        run.runUntilSeconds(2.0);
        final long delivered = run.path.deliveredBytes();
        run.runUntilSeconds(20.0);

        assertTrue(engagedNs < 0, "lt_use_bw engaged at 1 % random loss");
        assertTrue(run.path.lostBytes() > 0);
        final double goodput = (run.path.deliveredBytes() - delivered) / 18.0;
        // Throughput ~ bw * (1 - p) minus the pacing margin and PROBE_RTT.
        assertTrue(goodput >= 0.95 * RATE_100_MBIT, "goodput " + goodput);
        assertFalse(run.controller.isLongTermBandwidthInUse());
    }
}
