package io.pacelink.cubic;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.pacelink.cubic.CubicRig.MILLIS_NS;
import static io.pacelink.cubic.CubicRig.MSS;
import static io.pacelink.cubic.CubicRig.NANOS_PER_SECOND;
import static io.pacelink.cubic.CubicRig.expectedCubicWindowPackets;
import static io.pacelink.cubic.CubicRig.expectedKSeconds;
import static io.pacelink.cubic.CubicRig.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The congestion-avoidance window and its reduction (RFC 9438 sections 4.2 to 4.7) against the RFC's closed forms on a
 * scripted path.
 */
class CubicWindowCurveTest
{
    private static final long RTT_NS = 100 * MILLIS_NS;

    @ParameterizedTest(name = "W_max = {0} segments, K = {1} s")
    @CsvSource({ "100, 4.22", "1000, 9.09", "10000, 19.6" })
    void regainsWmaxAfterKAndFollowsTheCubicFunction(final long wMaxPackets, final double referenceKSeconds)
    {
        final CubicRig rig = new CubicRig("cubic.hystart=false", RTT_NS);
        rig.slowStartToThenLose(wMaxPackets);
        final long lossNs = rig.path.nowNs();

        // Loss: ssthresh x 0.7 (PRR takes cwnd there over the recovery), W_max = cwnd, K from W_max and ssthresh.
        final long reducedBytes = (long)(wMaxPackets * MSS * 0.7);
        assertTrue(rig.cubic.isInRateReduction());
        assertEquals(reducedBytes, rig.cubic.slowStartThresholdBytes());
        assertEquals(wMaxPackets * MSS, rig.context.counter(CubicController.W_MAX_COUNTER));
        assertEquals(CubicController.STATE_RECOVERY, rig.cubic.stateName());
        final double kSeconds = expectedKSeconds(wMaxPackets);
        assertEquals(referenceKSeconds, kSeconds, 0.005 * referenceKSeconds, "the reference's K");
        assertEquals(kSeconds, rig.cubic.kSeconds(), 1e-9 * kSeconds);
        assertEquals((long)(kSeconds * NANOS_PER_SECOND), rig.context.counter(CubicController.K_COUNTER), 1.0);

        rig.runUntilEpochStarts();
        final long epochStartNs = rig.cubic.epochStartNs();
        assertEquals(CubicController.STATE_CONGESTION_AVOIDANCE, rig.cubic.stateName());
        assertEquals(epochStartNs, rig.context.counter(CubicController.EPOCH_START_COUNTER));

        // The window at ten points from 0.2 K to 2 K against max(W_cubic(t), W_est(t)) (RFC 9438 Figures 1 and 4);
        // the regain time on the way.
        double maxError = 0.0;
        long regainNs = -1;
        final double[] samplesPackets = new double[21];
        for (int i = 1; i <= 20; i++)
        {
            final long sampleNs = epochStartNs + seconds(i * kSeconds / 10.0);
            if (regainNs < 0)
            {
                rig.path.runUntil(sampleNs, () -> rig.cubic.congestionWindowBytes() >= wMaxPackets * MSS);
                if (rig.cubic.congestionWindowBytes() >= wMaxPackets * MSS)
                {
                    regainNs = rig.path.nowNs();
                }
            }
            rig.path.runUntil(sampleNs);
            samplesPackets[i] = rig.cwndPackets();
            if (0 == i % 2)
            {
                final double tSeconds = i * kSeconds / 10.0;
                final double expected = Math.max(expectedCubicWindowPackets(tSeconds, wMaxPackets),
                    renoFriendlyWindowPackets(tSeconds, wMaxPackets));
                maxError = Math.max(maxError, Math.abs(samplesPackets[i] - expected) / expected);
            }
            if (i <= 10)
            {
                assertFalse(rig.cubic.isRenoFriendly(), "up to K the cubic function sets the window");
            }
        }

        final double regainFromLossSeconds = (regainNs - lossNs) / (double)NANOS_PER_SECOND;
        final double regainFromEpochSeconds = (regainNs - epochStartNs) / (double)NANOS_PER_SECOND;
        System.out.printf("CUBIC W_max=%d: K=%.3f s, regain %.3f s after the loss (%.3f s after the epoch start, " +
            "recovery %.3f s), max curve error %.3f %% at 10 points%n", wMaxPackets, kSeconds, regainFromLossSeconds,
            regainFromEpochSeconds, (epochStartNs - lossNs) / (double)NANOS_PER_SECOND, 100 * maxError);

        // K is counted from the start of the congestion-avoidance stage (RFC 9438 Figure 2); recovery, which the
        // scripted path makes last about 1.5 RTT, comes before it.
        assertEquals(kSeconds, regainFromEpochSeconds, 0.05 * kSeconds, "regain time after the epoch start");
        assertTrue(epochStartNs - lossNs < 2 * RTT_NS, "recovery lasts less than 2 RTT");
        assertTrue(maxError < 0.02, "max deviation from max(W_cubic(t), W_est(t)) " + maxError);

        // Concave before K (growth slowing), convex after (growth accelerating).
        for (int i = 2; i <= 8; i++)
        {
            final double before = samplesPackets[i] - samplesPackets[i - 1];
            final double after = samplesPackets[i + 1] - samplesPackets[i];
            assertTrue(after < before, "concave at " + i + "/10 K: " + before + " then " + after);
        }
        for (int i = 12; i <= 19; i++)
        {
            // Where the linear Reno-friendly estimate has taken over (W_max = 100 at 100 ms from about 1.35 K), the
            // window is no longer convex.
            final double tSeconds = (i + 1) * kSeconds / 10.0;
            if (expectedCubicWindowPackets(tSeconds, wMaxPackets) > renoFriendlyWindowPackets(tSeconds, wMaxPackets))
            {
                final double before = samplesPackets[i] - samplesPackets[i - 1];
                final double after = samplesPackets[i + 1] - samplesPackets[i];
                assertTrue(after > before, "convex at " + i + "/10 K: " + before + " then " + after);
            }
        }
    }

    @Test
    void fastConvergenceLowersWmaxWhenLossComesBelowThePreviousWmax()
    {
        final CubicRig rig = new CubicRig("cubic.hystart=false", RTT_NS);
        rig.slowStartToThenLose(100);
        rig.path.runUntil(Long.MAX_VALUE, () -> rig.cwndPackets() >= 90);
        rig.path.loseNewestPacketNow();

        final double cwndAtLossBytes = rig.path.cwndBeforeLastCongestionEventBytes();
        assertTrue(cwndAtLossBytes < 100.0 * MSS);
        assertEquals(0.85 * cwndAtLossBytes, rig.cubic.wMaxBytes(), 1e-6, "W_max = cwnd (1 + beta) / 2");
        assertEquals((long)(0.7 * cwndAtLossBytes), rig.cubic.slowStartThresholdBytes(), "beta applies to cwnd");

        // Above the previous W_max the window is remembered as is.
        rig.path.runUntil(Long.MAX_VALUE, () -> !rig.cubic.isInRecovery() &&
            rig.cubic.congestionWindowBytes() > rig.cubic.wMaxBytes() + 5 * MSS);
        rig.path.loseNewestPacketNow();
        assertEquals(rig.path.cwndBeforeLastCongestionEventBytes(), rig.cubic.wMaxBytes(), 1e-6);
    }

    @Test
    void withoutFastConvergenceWmaxIsTheWindowAtLoss()
    {
        final CubicRig rig = new CubicRig("cubic.hystart=false,cubic.fastConvergence=false", RTT_NS);
        rig.slowStartToThenLose(100);
        rig.path.runUntil(Long.MAX_VALUE, () -> rig.cwndPackets() >= 90);
        rig.path.loseNewestPacketNow();

        final double cwndAtLossBytes = rig.path.cwndBeforeLastCongestionEventBytes();
        assertTrue(cwndAtLossBytes < 100.0 * MSS);
        assertEquals(cwndAtLossBytes, rig.cubic.wMaxBytes(), 1e-6);
        assertEquals((long)(0.7 * cwndAtLossBytes), rig.cubic.slowStartThresholdBytes());
    }

    @Test
    void targetClampLimitsGrowthToHalfTheWindowPerRoundTrip()
    {
        // A long RTT far into the convex region: W_cubic(t + RTT) runs away from cwnd and the clamp must hold.
        final long rttNs = 2 * NANOS_PER_SECOND;
        final CubicRig rig = new CubicRig("cubic.hystart=false", rttNs);
        rig.slowStartToThenLose(20);
        rig.runUntilEpochStarts();
        final long epochStartNs = rig.cubic.epochStartNs();

        final long stepNs = rttNs / 10;
        final double[] cwndPackets = new double[120];
        boolean wasClampBinding = false;
        for (int i = 0; i < cwndPackets.length; i++)
        {
            rig.path.runUntil(epochStartNs + i * stepNs);
            cwndPackets[i] = rig.cwndPackets();
            final double tSeconds = (rig.path.nowNs() - epochStartNs) / (double)NANOS_PER_SECOND;
            final double unclampedTargetBytes = rig.cubic.cubicWindowBytes(tSeconds + rttNs / (double)NANOS_PER_SECOND);
            wasClampBinding |= unclampedTargetBytes > 1.6 * rig.cubic.congestionWindowBytes();
        }

        double maxGrowth = 0.0;
        double maxExcessPackets = Double.NEGATIVE_INFINITY;
        for (int i = 10; i < cwndPackets.length; i++)
        {
            maxGrowth = Math.max(maxGrowth, cwndPackets[i] / cwndPackets[i - 10]);
            maxExcessPackets = Math.max(maxExcessPackets, cwndPackets[i] - 1.5 * cwndPackets[i - 10]);
        }
        System.out.printf("CUBIC target clamp: max growth per RTT x%.3f, at most %.3f datagrams above 1.5 cwnd%n",
            maxGrowth, maxExcessPackets);
        assertTrue(wasClampBinding, "the scenario must make W_cubic(t + RTT) exceed 1.5 cwnd");
        // The clamp holds per acknowledged datagram; the transport sends while bytes in flight are below cwnd, so a
        // round trip may acknowledge one datagram more than cwnd and grow by half a datagram more than 1.5 cwnd.
        assertTrue(maxExcessPackets <= 0.5 + 1e-3, "growth per RTT x" + maxGrowth + ", " + maxExcessPackets +
            " datagrams above 1.5 cwnd");
        assertTrue(maxGrowth >= 1.4, "the clamp, not the cubic function, limited growth: x" + maxGrowth);
    }

    @Test
    void renoFriendlyRegionMatchesRenoAtShortRttAndSmallWindows()
    {
        // RFC 9438 Table 2: RTT 10 ms, p = 1e-4: Reno and CUBIC both average ~120 segments; the cubic function
        // alone (Figure 8: 1.054 (RTT/p)^(3/4) = 33) would stay far below.
        final long rttNs = 10 * MILLIS_NS;
        final long dropEvery = 10_000;
        final CubicRig rig = new CubicRig("", rttNs);
        final long[] renoFriendlyAcks = new long[2];
        rig.path.dropEveryNth(dropEvery);
        rig.path.runFor(seconds(10));
        rig.path.listener((path) ->
        {
            if (CubicController.STATE_CONGESTION_AVOIDANCE.equals(rig.cubic.stateName()))
            {
                renoFriendlyAcks[rig.cubic.isRenoFriendly() ? 0 : 1]++;
            }
        });

        final double averageWindow = averageWindowPackets(rig, rttNs, seconds(60));
        final double reno = Math.sqrt(1.5 * dropEvery);
        final double renoFriendlyShare = renoFriendlyAcks[0] / (double)(renoFriendlyAcks[0] + renoFriendlyAcks[1]);
        System.out.printf("CUBIC RTT 10 ms p=1e-4: average window %.1f segments (Reno %.1f, RFC table 120), " +
            "Reno-friendly on %.1f %% of CA ACKs%n", averageWindow, reno, 100 * renoFriendlyShare);
        assertEquals(reno, averageWindow, 0.1 * reno);
        assertTrue(renoFriendlyShare > 0.9, "Reno-friendly share " + renoFriendlyShare);
    }

    @Test
    void cubicRegionExceedsRenoAtLongRttAndLargeWindows()
    {
        // RFC 9438 Table 1: RTT 100 ms, p = 1e-6: CUBIC 5926 segments, Reno 1200. Figure 8 is the average of the
        // deterministic-loss cycle whose loss falls at t = K: 1/p = (K/RTT)·W_max·(1 − (1 − β)/4) packets, which for
        // 1e6 packets gives W_max = 6395. The plateau makes that cycle only neutrally stable, so start on it; fast
        // convergence is off as RFC 9438 section 4.7 advises for a single flow.
        final long dropEvery = 1_000_000;
        final double cyclePackets = 0.1 * dropEvery / ((1 - 0.3 / 4) * Math.cbrt(0.3 / 0.4));
        final long wMaxPackets = Math.round(Math.pow(cyclePackets, 0.75));
        final CubicRig rig = new CubicRig("cubic.fastConvergence=false", RTT_NS);
        rig.slowStartToThenLose(wMaxPackets);
        rig.path.ackEvery(2).dropEveryNth(dropEvery);
        rig.path.runFor(seconds(20));

        final double averageWindow = averageWindowPackets(rig, RTT_NS, seconds(170));
        final double figure8 = 1.054 * Math.pow(0.1 / 1e-6, 0.75);
        System.out.printf("CUBIC RTT 100 ms p=1e-6: W_max %d, average window %.0f segments (RFC Figure 8 %.0f, " +
            "Reno %.0f)%n", wMaxPackets, averageWindow, figure8, Math.sqrt(1.5 / 1e-6));
        assertEquals(figure8, averageWindow, 0.03 * figure8);
        assertEquals(wMaxPackets * MSS, rig.cubic.wMaxBytes(), 0.01 * wMaxPackets * MSS, "the cycle is stable");
    }

    /**
     * W_est(t) integrated from RFC 9438 Figure 4: from 0.7 W_max it gains α = 3(1 − β)/(1 + β) segments per RTT until
     * it reaches cwnd_prior = W_max, then one per RTT.
     */
    private static double renoFriendlyWindowPackets(final double tSeconds, final double wMaxPackets)
    {
        final double alpha = 3.0 * 0.3 / 1.7;
        final double rounds = tSeconds * NANOS_PER_SECOND / RTT_NS;
        final double roundsToWmax = 0.3 * wMaxPackets / alpha;
        return rounds <= roundsToWmax ?
            0.7 * wMaxPackets + alpha * rounds : wMaxPackets + (rounds - roundsToWmax);
    }

    private static double averageWindowPackets(final CubicRig rig, final long rttNs, final long durationNs)
    {
        final long startNs = rig.path.nowNs();
        final long startDeliveredBytes = rig.path.deliveredBytes();
        rig.path.runFor(durationNs);
        final double rounds = (rig.path.nowNs() - startNs) / (double)rttNs;
        return (rig.path.deliveredBytes() - startDeliveredBytes) / (double)MSS / rounds;
    }
}
