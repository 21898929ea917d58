package io.pacelink.cubic;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.pacelink.cubic.CubicRig.MILLIS_NS;
import static io.pacelink.cubic.CubicRig.MSS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HyStart++ (RFC 9406), alone and inside CUBIC on a scripted path whose RTT the test moves.
 */
class HyStartPlusPlusTest
{
    @ParameterizedTest(name = "base RTT {0} ms, rise {1} ms -> CSS {2}")
    @CsvSource({
        "20, 3, false", "20, 5, true",     // threshold clamped up to MIN_RTT_THRESH = 4 ms
        "48, 5, false", "48, 7, true",     // lastRoundMinRtt / 8 = 6 ms
        "200, 15, false", "200, 17, true", // threshold clamped down to MAX_RTT_THRESH = 16 ms
    })
    void roundMinimumRttRisingBeyondTheClampedThresholdEntersConservativeSlowStart(
        final long baseRttMs, final long riseMs, final boolean expectCss)
    {
        final CubicRig rig = new CubicRig("", baseRttMs * MILLIS_NS);
        rig.path.runFor(4 * baseRttMs * MILLIS_NS);
        assertEquals(CubicController.STATE_SLOW_START, rig.cubic.stateName());

        rig.path.propagationRttNs((baseRttMs + riseMs) * MILLIS_NS);
        final boolean enteredCss = rig.path.runUntil(
            rig.path.nowNs() + 4 * (baseRttMs + riseMs) * MILLIS_NS, () -> rig.cubic.stateName().equals(
            CubicController.STATE_CONSERVATIVE_SLOW_START));

        assertEquals(expectCss, enteredCss);
        assertEquals(expectCss ? 1 : 0, rig.context.counter(CubicController.IN_CSS_COUNTER));
        assertEquals(Long.MAX_VALUE, rig.cubic.slowStartThresholdBytes(), "no loss, no ssthresh");
    }

    @Test
    void conservativeSlowStartGrowsAtAQuarterAndEndsInCongestionAvoidanceAfterFiveRounds()
    {
        final long baseRttNs = 50 * MILLIS_NS;
        final long highRttNs = 60 * MILLIS_NS;
        final CubicRig rig = new CubicRig("", baseRttNs);
        rig.path.runFor(4 * baseRttNs);
        rig.path.propagationRttNs(highRttNs);
        rig.path.runUntil(Long.MAX_VALUE, () -> rig.cubic.stateName().equals(
            CubicController.STATE_CONSERVATIVE_SLOW_START));
        final long cssStartNs = rig.path.nowNs();
        final long cssStartBytes = rig.cubic.congestionWindowBytes();

        // Growth per acknowledged byte: 1/4 (L = infinity).
        rig.path.runFor(highRttNs);
        final long deliveredBefore = rig.path.deliveredBytes();
        final long cwndBefore = rig.cubic.congestionWindowBytes();
        rig.path.runFor(highRttNs);
        assertEquals(CubicController.STATE_CONSERVATIVE_SLOW_START, rig.cubic.stateName());
        final double growthPerAckedByte = (rig.cubic.congestionWindowBytes() - cwndBefore) /
            (double)(rig.path.deliveredBytes() - deliveredBefore);
        assertEquals(0.25, growthPerAckedByte, 0.001);

        // CSS_ROUNDS = 5 rounds, the partial entry round included, then ssthresh = cwnd.
        final long[] caStart = new long[2];
        rig.path.runUntil(Long.MAX_VALUE, () ->
        {
            if (!rig.cubic.isInSlowStart())
            {
                caStart[0] = rig.path.nowNs();
                caStart[1] = rig.cubic.slowStartThresholdBytes();
                return true;
            }
            return false;
        });
        final double cssRounds = (caStart[0] - cssStartNs) / (double)highRttNs;
        final double cssGrowth = rig.cubic.congestionWindowBytes() / (double)cssStartBytes;
        System.out.printf("HyStart++: CSS lasted %.2f RTT and grew cwnd x%.2f%n", cssRounds, cssGrowth);
        assertTrue(cssRounds > 4.0 && cssRounds <= 5.0, "CSS rounds " + cssRounds);
        assertTrue(cssGrowth > 2.0 && cssGrowth < Math.pow(1.25, 5), "CSS growth x" + cssGrowth);

        assertEquals(CubicController.STATE_CONGESTION_AVOIDANCE, rig.cubic.stateName());
        assertTrue(rig.cubic.congestionWindowBytes() - caStart[1] < MSS, "ssthresh = cwnd at the exit");
        assertEquals(0.0, rig.cubic.kSeconds(), "RFC 9438 section 4.10: K = 0");
        assertEquals(caStart[1], rig.cubic.wMaxBytes(), 1.0, "W_max = cwnd at the start of the epoch");
        assertEquals(0, rig.context.counter(CubicController.IN_CSS_COUNTER));
    }

    @Test
    void rttFallingBackDuringConservativeSlowStartResumesSlowStart()
    {
        // RFC 9406 section 4.2: a one-round 20 ms RTT spike enters CSS and returns to slow start when RTT falls back.
        final long baseRttNs = 50 * MILLIS_NS;
        final long spikeRttNs = 70 * MILLIS_NS;
        final CubicRig rig = new CubicRig("", baseRttNs);
        rig.path.runFor(4 * baseRttNs);
        rig.path.propagationRttNs(spikeRttNs);
        rig.path.runFor(spikeRttNs);
        rig.path.propagationRttNs(baseRttNs);

        rig.path.runUntil(Long.MAX_VALUE, () -> rig.cubic.stateName().equals(
            CubicController.STATE_CONSERVATIVE_SLOW_START));
        final boolean resumed = rig.path.runUntil(rig.path.nowNs() + 3 * spikeRttNs, () -> rig.cubic.stateName()
            .equals(CubicController.STATE_SLOW_START));
        assertTrue(resumed, "back to slow start");
        assertEquals(Long.MAX_VALUE, rig.cubic.slowStartThresholdBytes());

        // HyStart++ is still watching: a lasting rise enters CSS again.
        rig.path.runFor(2 * baseRttNs);
        rig.path.propagationRttNs(spikeRttNs);
        assertTrue(rig.path.runUntil(rig.path.nowNs() + 4 * spikeRttNs, () -> rig.cubic.stateName().equals(
            CubicController.STATE_CONSERVATIVE_SLOW_START)));
    }

    @Test
    void disabledHyStartKeepsStandardSlowStartUntilLoss()
    {
        final long baseRttNs = 50 * MILLIS_NS;
        final CubicRig rig = new CubicRig("cubic.hystart=false", baseRttNs);
        rig.path.runFor(4 * baseRttNs);
        rig.path.propagationRttNs(baseRttNs + 20 * MILLIS_NS);
        final long beforeBytes = rig.cubic.congestionWindowBytes();
        rig.path.runFor(5 * (baseRttNs + 20 * MILLIS_NS));

        assertEquals(CubicController.STATE_SLOW_START, rig.cubic.stateName());
        assertEquals(Long.MAX_VALUE, rig.cubic.slowStartThresholdBytes());
        assertTrue(rig.cubic.congestionWindowBytes() >= 16 * beforeBytes, "doubling every RTT");

        rig.path.dropNext(1);
        rig.path.runUntil(Long.MAX_VALUE, () -> rig.path.congestionEvents() == 1);
        assertEquals((long)(rig.path.cwndBeforeLastCongestionEventBytes() * 0.7), rig.cubic.slowStartThresholdBytes());
        assertFalse(rig.cubic.isInSlowStart());
    }

    @Test
    void thresholdIsInclusiveAndNeedsEightSamples()
    {
        // lastRoundMinRtt = 40 ms: threshold 5 ms, so 45 ms exits, 44.999 ms does not; 7 samples are not enough.
        assertEquals(HyStartPlusPlus.Phase.SLOW_START, phaseAfterRounds(40_000_000L, 44_999_999L, 8));
        assertEquals(HyStartPlusPlus.Phase.CONSERVATIVE_SLOW_START, phaseAfterRounds(40_000_000L, 45_000_000L, 8));
        assertEquals(HyStartPlusPlus.Phase.SLOW_START, phaseAfterRounds(40_000_000L, 45_000_000L, 7));
    }

    @Test
    void roundEndsWhenTheFirstPacketSentAfterItBeganIsAcknowledged()
    {
        // RFC 9406 section 4.2: windowEnd = SND.NXT at the round start. An initial window of packets 0 to 9 (sent in
        // the same instant), acknowledged one by one at 40 ms: the ACK of packet 0 starts a round whose windowEnd is
        // 10, so packets 1 to 9 belong to it, however close their send times.
        final HyStartPlusPlus hyStart = new HyStartPlusPlus(true);
        hyStart.onPacketSent(9);
        for (long packetNumber = 0; packetNumber <= 9; packetNumber++)
        {
            assertFalse(hyStart.onAck(packetNumber, 40_000_000L));
            hyStart.onPacketSent(10 + 2 * packetNumber);
            hyStart.onPacketSent(11 + 2 * packetNumber);
        }

        // Packets 10 onwards were sent in that round and see a 5 ms queue: the ACK of packet 10 starts the next round,
        // whose eighth sample (packet 17) leaves slow start. Had packet 9 ended the first round, its 40 ms sample
        // would have been the second round's minimum, and it would not.
        for (long packetNumber = 10; packetNumber < 17; packetNumber++)
        {
            assertFalse(hyStart.onAck(packetNumber, 45_000_000L));
            assertEquals(HyStartPlusPlus.Phase.SLOW_START, hyStart.phase(), "after packet " + packetNumber);
        }
        assertFalse(hyStart.onAck(17, 45_000_000L));
        assertEquals(HyStartPlusPlus.Phase.CONSERVATIVE_SLOW_START, hyStart.phase());
    }

    @Test
    void partialEntryRoundCountsTowardsTheFiveCssRounds()
    {
        final HyStartPlusPlus hyStart = new HyStartPlusPlus(true);
        long packetNumber = 0;
        packetNumber = round(hyStart, packetNumber, 40_000_000L, 8);
        packetNumber = round(hyStart, packetNumber, 50_000_000L, 8);
        assertEquals(HyStartPlusPlus.Phase.CONSERVATIVE_SLOW_START, hyStart.phase());

        // Round ends seen in CSS: 4 keep it in CSS, the 5th ends it.
        for (int i = 1; i <= 4; i++)
        {
            packetNumber = round(hyStart, packetNumber, 50_000_000L, 8);
            assertEquals(HyStartPlusPlus.Phase.CONSERVATIVE_SLOW_START, hyStart.phase(), "round end " + i);
        }
        assertTrue(hyStart.onAck(packetNumber, 50_000_000L), "the fifth round end enters congestion avoidance");
        assertEquals(HyStartPlusPlus.Phase.DONE, hyStart.phase());
    }

    @Test
    void stopAndUndoStop()
    {
        final HyStartPlusPlus hyStart = new HyStartPlusPlus(true);
        hyStart.stop();
        assertEquals(HyStartPlusPlus.Phase.DONE, hyStart.phase());
        assertFalse(hyStart.onAck(1, 40_000_000L));
        hyStart.undoStop();
        assertEquals(HyStartPlusPlus.Phase.SLOW_START, hyStart.phase());
        assertEquals(HyStartPlusPlus.Phase.DONE, new HyStartPlusPlus(false).phase());
    }

    private static HyStartPlusPlus.Phase phaseAfterRounds(
        final long firstRoundRttNs, final long secondRoundRttNs, final int secondRoundSamples)
    {
        final HyStartPlusPlus hyStart = new HyStartPlusPlus(true);
        final long packetNumber = round(hyStart, 0, firstRoundRttNs, HyStartPlusPlus.N_RTT_SAMPLE);
        round(hyStart, packetNumber, secondRoundRttNs, secondRoundSamples);
        return hyStart.phase();
    }

    /**
     * One round: {@code samples} ACKs, one per packet from {@code firstPacketNumber} on, all sent in the round before
     * (the first of them was SND.NXT when that round began, so its ACK ends it); the next round's first packet is sent
     * right after this round's first ACK.
     *
     * @return the number of the next round's first packet: its ACK will end this round.
     */
    private static long round(
        final HyStartPlusPlus hyStart, final long firstPacketNumber, final long rttNs, final int samples)
    {
        final long nextRoundFirstPacketNumber = firstPacketNumber + samples;
        hyStart.onPacketSent(nextRoundFirstPacketNumber - 1);
        for (int i = 0; i < samples; i++)
        {
            assertFalse(hyStart.onAck(firstPacketNumber + i, rttNs));
            hyStart.onPacketSent(nextRoundFirstPacketNumber + i);
        }
        return nextRoundFirstPacketNumber;
    }
}
