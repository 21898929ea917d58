package io.pacelink.transport.recovery;

import io.pacelink.transport.testing.RecordingController;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.pacelink.transport.recovery.RecoveryDriver.ms;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The loss-detection cases of RFC 9002 section 6 (thresholds, probe timeout, persistent congestion, spurious loss),
 * driven through {@link LossRecovery} with a hand-advanced clock. Every scenario first measures an RTT of 100 ms
 * (packet 0 sent at 0, acknowledged at 100 ms); the peer's max_ack_delay is 5 ms, so the PTO period is then
 * 100 + 4 * 50 + 5 = 305 ms.
 */
class LossDetectionTest
{
    private final RecoveryDriver driver = new RecoveryDriver(new RecoveryConfig(), ms(5));
    private final LossRecovery lossRecovery = driver.lossRecovery;
    private final RecordingController controller = driver.controller;
    private final RecordingListener listener = driver.listener;

    @Test
    void reorderByTwoPacketsIsNoLoss()
    {
        driver.establishRtt100Ms();
        driver.sendOnePerMs(1, 5, 200);

        assertEquals(2, driver.ackAtMs(303, 2, 3));
        assertEquals(1, driver.ackAtMs(304, 1, 3));

        assertTrue(listener.lost.isEmpty());
        assertTrue(controller.losses().isEmpty());
        assertTrue(controller.congestionEvents().isEmpty());
        assertEquals(List.of(3L, 2L, 1L), listener.acked.subList(1, 4));
    }

    @Test
    void aSkippedPacketNumberDoesNotCountTowardsThePacketThreshold()
    {
        driver.establishRtt100Ms();
        driver.sendAtMs(1, 200);
        driver.sendAtMs(3, 201); // 2 is skipped (the optimistic-ACK defence, RFC 9000 section 21.4)
        driver.sendAtMs(4, 202);

        assertEquals(2, driver.ackAtMs(302, 3, 4));
        assertTrue(listener.lost.isEmpty(), "overtaken by two packets, not three: " + listener.lost);

        driver.sendAtMs(5, 203);
        assertEquals(1, driver.ackAtMs(303, 5, 5));
        assertEquals(List.of(1L), listener.lost, "overtaken by three packets");
    }

    @Test
    void reorderByThreePacketsIsALoss()
    {
        driver.establishRtt100Ms();
        driver.sendOnePerMs(1, 5, 200);

        assertEquals(3, driver.ackAtMs(304, 2, 4));

        assertEquals(List.of(1L), listener.lost);
        assertEquals(List.of(1000L), listener.lostStreamOffsets);
        assertEquals(List.of(1L), controller.losses().stream().map(RecordingController.Lost::packetNumber).toList());
        assertEquals(1, controller.congestionEvents().size());
        final RecordingController.Congestion event = controller.congestionEvents().get(0);
        assertEquals(ms(200), event.newestLostSentTimeNs());
        assertEquals(1200, event.lostBytes());
        assertEquals(1200, event.bytesInFlight(), "packet 5 is still in flight");
        assertFalse(event.isPersistentCongestion());
        assertEquals(1, lossRecovery.lostPackets());
        assertEquals(1200, lossRecovery.lostBytes());
    }

    @Test
    void timeThresholdDeclaresLossAtSentPlusNineEighthsOfTheLargerRtt()
    {
        driver.establishRtt100Ms();
        driver.sendAtMs(1, 200);
        driver.sendAtMs(2, 210);

        // latest_rtt 120 ms > smoothed 102.5 ms: loss delay 9/8 * 120 = 135 ms, packet 1 is lost at 335 ms.
        driver.ackAtMs(330, 2, 2);
        assertEquals(ms(120), lossRecovery.rttEstimator().latestRttNs());
        assertEquals(102_500_000L, lossRecovery.rttEstimator().smoothedRttNs());
        assertEquals(ms(135), lossRecovery.lossDetector().lossDelayNs(lossRecovery.rttEstimator()));
        assertTrue(listener.lost.isEmpty());
        assertEquals(ms(335), lossRecovery.timerDeadlineNs());

        lossRecovery.onTimeout(ms(335) - 1, listener);
        assertTrue(listener.lost.isEmpty());

        lossRecovery.onTimeout(ms(335), listener);
        assertEquals(List.of(1L), listener.lost);
        assertEquals(1, controller.congestionEvents().size());
        assertEquals(ms(335), controller.congestionEvents().get(0).nowNs());
        assertEquals(0, lossRecovery.bytesInFlight());
        assertEquals(Long.MAX_VALUE, lossRecovery.timerDeadlineNs());
        assertTrue(controller.acks().stream().noneMatch(ack -> ack.nowNs() == ms(335)), "a timer is not an ACK");
    }

    @Test
    void delayShorterThanTheTimeThresholdIsNoLoss()
    {
        driver.establishRtt100Ms();
        driver.sendAtMs(1, 200);
        driver.sendAtMs(2, 210);
        driver.ackAtMs(330, 2, 2);

        assertEquals(1, driver.ackAtMs(334, 1, 2));

        assertTrue(listener.lost.isEmpty());
        assertTrue(controller.congestionEvents().isEmpty());
        assertEquals(Long.MAX_VALUE, lossRecovery.timerDeadlineNs());
    }

    @Test
    void tailLossIsRepairedByAProbeTimeoutThatLeavesTheControllerAlone()
    {
        driver.establishRtt100Ms();
        driver.sendOnePerMs(1, 4, 200);
        driver.ackAtMs(303, 1, 3);
        driver.log.clear();

        // latest 101 ms: srtt 100.125 ms, rttvar 37.75 ms; PTO = 100.125 + 151 + 5 = 256.125 ms after packet 4 (203).
        assertEquals(100_125_000L, lossRecovery.rttEstimator().smoothedRttNs());
        assertEquals(37_750_000L, lossRecovery.rttEstimator().rttVarianceNs());
        assertEquals(Long.MAX_VALUE, lossRecovery.lossDetector().lossTimeNs(), "nothing below the largest is missing");
        final long ptoDeadlineNs = 459_125_000L;
        assertEquals(ptoDeadlineNs, lossRecovery.timerDeadlineNs());

        lossRecovery.onTimeout(ptoDeadlineNs - 1, listener);
        assertEquals(0, lossRecovery.probesToSend());

        lossRecovery.onTimeout(ptoDeadlineNs, listener);
        assertEquals(2, lossRecovery.probesToSend());
        assertEquals(1, lossRecovery.ptoExpirations());
        assertEquals(1, lossRecovery.lossDetector().ptoCount());
        assertTrue(driver.log.isEmpty(), "a PTO is not a loss signal: " + driver.log);

        // The probe retransmits packet 4's data; the next PTO is backed off to twice the period.
        driver.sendAtNs(5, ptoDeadlineNs, true);
        lossRecovery.onProbeSent();
        assertEquals(1, lossRecovery.probesToSend());
        assertEquals(ptoDeadlineNs + 2 * 256_125_000L, lossRecovery.timerDeadlineNs());
        assertTrue(controller.congestionEvents().isEmpty());

        driver.ackAtNs(ptoDeadlineNs + ms(100), 5, 5);
        assertEquals(List.of(4L), listener.lost, "the tail is declared lost once the probe is acknowledged");
        assertEquals(List.of(4000L), listener.lostStreamOffsets);
        assertEquals(0, lossRecovery.lossDetector().ptoCount());
        assertEquals(1, lossRecovery.retransmittedPackets());
        assertEquals(6, lossRecovery.sentPackets());
        assertEquals(0, lossRecovery.bytesInFlight());
    }

    @Test
    void blackholeLongerThanThreePtoPeriodsEstablishesPersistentCongestionOnce()
    {
        driver.establishRtt100Ms();
        driver.sendOnePerMs(1, 10, 200);

        // PTOs at 209 + 305, then backed off by 2, 4 and 8; two probes each.
        final long[] expectedDeadlinesMs = {514, 1124, 2344, 4784};
        long pn = 11;
        for (final long deadlineMs : expectedDeadlinesMs)
        {
            assertEquals(ms(deadlineMs), lossRecovery.timerDeadlineNs());
            lossRecovery.onTimeout(ms(deadlineMs), listener);
            while (lossRecovery.probesToSend() > 0)
            {
                driver.sendAtMs(pn++, deadlineMs);
                lossRecovery.onProbeSent();
            }
        }
        assertEquals(4, lossRecovery.ptoExpirations());
        assertTrue(controller.congestionEvents().isEmpty());

        // The path comes back: the last probe is acknowledged with latest_rtt 150 ms. srtt 106.25, rttvar 50:
        // duration 3 * (106.25 + 200 + 5) = 933.75 ms, far less than packet 1 (200 ms) to packet 16 (2344 ms).
        driver.ackAtMs(4934, 18, 18);

        assertEquals(1, controller.congestionEvents().size());
        assertTrue(controller.congestionEvents().get(0).isPersistentCongestion());
        assertEquals(1, lossRecovery.persistentCongestionEvents());
        assertEquals(16, listener.lost.size(), "packets 1..16; 17 waits for the time threshold");
        assertEquals(ms(150), lossRecovery.rttEstimator().minRttNs(), "RFC 9002 5.2: min_rtt restarts");

        // 9/8 * 150 = 168.75 ms after packet 17 was sent.
        assertEquals(4_952_750_000L, lossRecovery.timerDeadlineNs());
        lossRecovery.onTimeout(4_952_750_000L, listener);
        assertEquals(17, listener.lost.size());
        assertEquals(2, controller.congestionEvents().size());
        assertEquals(1, persistentCongestionEvents());
        assertEquals(1, lossRecovery.persistentCongestionEvents());
    }

    @Test
    void noPersistentCongestionWithoutAnRttSampleBeforeTheLostPackets()
    {
        driver.sendOnePerMs(0, 9, 0);
        long pn = 10;
        for (int timeouts = 0; timeouts < 4; timeouts++)
        {
            final long deadlineNs = lossRecovery.timerDeadlineNs();
            lossRecovery.onTimeout(deadlineNs, listener);
            while (lossRecovery.probesToSend() > 0)
            {
                driver.sendAtNs(pn++, deadlineNs, false);
                lossRecovery.onProbeSent();
            }
        }

        driver.ackAtNs(lossRecovery.timerDeadlineNs() - 1, pn - 1, pn - 1);

        assertFalse(controller.congestionEvents().isEmpty());
        assertEquals(0, persistentCongestionEvents());
        assertEquals(0, lossRecovery.persistentCongestionEvents());
    }

    @Test
    void persistentCongestionNeedsNoAcknowledgementBetweenTheLostPackets()
    {
        driver.establishRtt100Ms();
        driver.sendOnePerMs(1, 10, 200);
        long pn = 11;
        for (final long deadlineMs : new long[] {514, 1124, 2344, 4784})
        {
            lossRecovery.onTimeout(ms(deadlineMs), listener);
            while (lossRecovery.probesToSend() > 0)
            {
                driver.sendAtMs(pn++, deadlineMs);
                lossRecovery.onProbeSent();
            }
        }

        // Packet 14 (a probe of the second PTO, sent at 1124 ms) got through: the losses before it span 924 ms and
        // those after it 0 ms, both within the 933.75 ms duration, although packets 1 to 16 span 2144 ms.
        driver.ackAtMs(4934, 18, 18, 14, 14);

        assertEquals(1, controller.congestionEvents().size());
        assertFalse(controller.congestionEvents().get(0).isPersistentCongestion());
    }

    @Test
    void spuriousLossIsReportedOnceAndWidensTheReorderingWindowUntilItDecays()
    {
        driver.establishRtt100Ms();
        driver.sendOnePerMs(1, 5, 200);
        driver.ackAtMs(304, 2, 4);
        assertEquals(List.of(1L), listener.lost);
        final LossDetector detector = lossRecovery.lossDetector();
        assertEquals(1, lossRecovery.recoveryCount());

        // Packet 1 arrives after all, three positions late.
        assertEquals(2, driver.ackAtMs(305, 1, 5));
        assertEquals(List.of(1L), listener.ackedAfterLoss);
        assertEquals(1, controller.spuriousLosses());
        assertEquals(1, lossRecovery.spuriousLosses());
        assertEquals(2, detector.reorderWindowMultiplier());
        assertEquals(16, detector.reorderWindowPersist());
        assertEquals(4, detector.packetThreshold(), "reordering distance 3, plus one");
        // rtt = max(101, 100.234375) = 101 ms: max(9/8 * 101, 101 + min(2 * 100 / 4, srtt)) = 151 ms.
        assertEquals(ms(151), detector.lossDelayNs(lossRecovery.rttEstimator()));

        // Reordering by three positions is now tolerated.
        driver.sendOnePerMs(6, 9, 400);
        driver.ackAtMs(503, 7, 9);
        assertEquals(List.of(1L), listener.lost);
        driver.ackAtMs(504, 6, 9);

        // Sixteen recoveries without new evidence: the window holds through fifteen and returns with the sixteenth.
        long pn = 10;
        long atMs = 600;
        for (int recoveryIndex = 1; recoveryIndex <= 16; recoveryIndex++)
        {
            driver.sendOnePerMs(pn, pn + 5, atMs);
            driver.ackAtMs(atMs + 105, pn + 1, pn + 5);
            assertEquals(pn, (long)listener.lost.get(listener.lost.size() - 1));
            if (recoveryIndex < 16)
            {
                assertEquals(2, detector.reorderWindowMultiplier(), "after " + recoveryIndex + " recoveries");
                assertEquals(4, detector.packetThreshold());
            }
            pn += 6;
            atMs += 200;
        }
        assertEquals(17, lossRecovery.recoveryCount());
        assertEquals(1, detector.reorderWindowMultiplier());
        assertEquals(0, detector.reorderWindowPersist());
        assertEquals(3, detector.packetThreshold());
        final RttEstimator rtt = lossRecovery.rttEstimator();
        assertEquals(
            Math.max(rtt.latestRttNs(), rtt.smoothedRttNs()) * 9 / 8, detector.lossDelayNs(rtt), "back to RFC 9002");
        assertEquals(1, controller.spuriousLosses());
    }

    @Test
    void severalSpuriousLossesOfOneRecoveryAreReportedOnceAndGrowTheWindowOnce()
    {
        driver.establishRtt100Ms();
        driver.sendOnePerMs(1, 5, 200);
        driver.ackAtMs(305, 3, 5);
        assertEquals(List.of(1L, 2L), listener.lost);
        driver.log.clear();

        assertEquals(2, driver.ackAtMs(306, 1, 5), "two packets declared lost are acknowledged");

        assertEquals(List.of("ackedAfterLoss 1", "ackedAfterLoss 2", "cc.spurious", "cc.ack"), driver.log);
        assertEquals(2, lossRecovery.spuriousLosses());
        assertEquals(2, lossRecovery.lossDetector().reorderWindowMultiplier());
        assertEquals(5, lossRecovery.lossDetector().packetThreshold(), "largest 5 before packet 1 arrived");
        final RecordingController.Ack ack = controller.acks().get(controller.acks().size() - 1);
        assertEquals(0, ack.newlyAckedBytes(), "already out of bytes in flight");
        assertEquals(6 * 1200, ack.totalDeliveredBytes(), "spurious retransmissions count as delivered");
        assertEquals(2 * 1200, ack.totalLostBytes(), "C.lost never decreases");
    }

    @Test
    void reductionIsUndoneOnlyOnceEveryLossOfTheRecoveryProvedSpurious()
    {
        driver.establishRtt100Ms();
        driver.sendOnePerMs(1, 5, 200);
        driver.ackAtMs(305, 3, 5);
        assertEquals(List.of(1L, 2L), listener.lost);
        assertEquals(1, controller.congestionEvents().size());

        // Packet 1 was only reordered, packet 2 is still missing: the reduction stands (Linux undo_retrans != 0),
        // though the reordering evidence widens the window.
        assertEquals(1, driver.ackAtMs(306, 3, 5, 1, 1));
        assertEquals(List.of(1L), listener.ackedAfterLoss);
        assertEquals(1, lossRecovery.spuriousLosses());
        assertEquals(0, controller.spuriousLosses());
        assertEquals(2, lossRecovery.lossDetector().reorderWindowMultiplier());

        // Packet 2 arrives too: the recovery had no real loss, undo once.
        assertEquals(1, driver.ackAtMs(307, 1, 5));
        assertEquals(List.of(1L, 2L), listener.ackedAfterLoss);
        assertEquals(2, lossRecovery.spuriousLosses());
        assertEquals(1, controller.spuriousLosses());
    }

    @Test
    void lossDeclaredByTheFrameThatProvesTheOthersSpuriousKeepsTheReduction()
    {
        final RecoveryDriver fixed = new RecoveryDriver(new RecoveryConfig().adaptiveReordering(false), ms(5));
        fixed.establishRtt100Ms();
        fixed.sendOnePerMs(1, 9, 200);
        fixed.ackAtMs(305, 3, 5);
        assertEquals(List.of(1L, 2L), fixed.listener.lost);

        // Packets 1 and 2 arrive late, but the same frame shows packet 6, sent before the recovery began, lost
        // (9 - 6 >= 3): it belongs to the same recovery, which therefore had a real loss.
        fixed.ackAtMs(306, 9, 9, 1, 5);
        assertEquals(List.of(1L, 2L), fixed.listener.ackedAfterLoss);
        assertEquals(List.of(1L, 2L, 6L), fixed.listener.lost);
        assertEquals(1, fixed.lossRecovery.recoveryCount(), "still one lossRecovery");
        assertEquals(0, fixed.controller.spuriousLosses());
    }

    @Test
    void spuriousLossOfAnEarlierRecoveryIsCountedButDoesNotUndoTheLatestReduction()
    {
        driver.establishRtt100Ms();
        driver.sendOnePerMs(1, 5, 200);
        driver.ackAtMs(304, 2, 4);
        driver.sendOnePerMs(6, 10, 400);
        driver.ackAtMs(504, 7, 10, 5, 5);
        assertEquals(List.of(1L, 6L), listener.lost);
        assertEquals(2, lossRecovery.recoveryCount());

        assertEquals(1, driver.ackAtMs(505, 7, 10, 5, 5, 1, 3));

        assertEquals(List.of(1L), listener.ackedAfterLoss);
        assertEquals(1, lossRecovery.spuriousLosses());
        assertEquals(0, controller.spuriousLosses());
        assertEquals(2, lossRecovery.lossDetector().reorderWindowMultiplier());
    }

    @Test
    void lostPacketAcknowledgedAfterTheRetentionPeriodIsNoLongerTracked()
    {
        driver.establishRtt100Ms();
        driver.sendOnePerMs(1, 5, 200);
        driver.ackAtMs(304, 2, 5);
        assertEquals(List.of(1L), listener.lost);

        // Retention is the persistent-congestion duration, about 0.8 s here.
        assertEquals(0, driver.ackAtMs(3000, 1, 5));

        assertTrue(listener.ackedAfterLoss.isEmpty());
        assertEquals(0, lossRecovery.spuriousLosses());
        assertEquals(0, controller.spuriousLosses());
    }

    @Test
    void withoutAdaptiveReorderingSpuriousLossesLeaveTheThresholdsAlone()
    {
        final RecoveryDriver fixed = new RecoveryDriver(new RecoveryConfig().adaptiveReordering(false), ms(5));
        fixed.establishRtt100Ms();
        for (long pn = 1; pn <= 5; pn++)
        {
            fixed.sendAtMs(pn, 199 + pn);
        }
        fixed.ackAtMs(304, 2, 4);
        fixed.ackAtMs(305, 1, 5);

        assertEquals(1, fixed.controller.spuriousLosses());
        assertEquals(1, fixed.lossRecovery.spuriousLosses());
        assertEquals(1, fixed.lossRecovery.lossDetector().reorderWindowMultiplier());
        assertEquals(3, fixed.lossRecovery.lossDetector().packetThreshold());
    }

    @Test
    void packetThresholdIsCapped()
    {
        final RecoveryDriver capped = new RecoveryDriver(new RecoveryConfig().maxPacketThreshold(4), ms(5));
        capped.establishRtt100Ms();
        for (long pn = 1; pn <= 12; pn++)
        {
            capped.sendAtMs(pn, 199 + pn);
        }
        capped.ackAtMs(320, 2, 12);
        capped.ackAtMs(321, 1, 12);

        assertEquals(4, capped.lossRecovery.lossDetector().packetThreshold(), "distance 11 capped at 4");
    }

    private long persistentCongestionEvents()
    {
        return controller.congestionEvents().stream().filter(RecordingController.Congestion::isPersistentCongestion)
            .count();
    }
}
