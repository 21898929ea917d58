package io.pacelink.transport.recovery;

import io.pacelink.transport.memory.MemoryBudget;
import io.pacelink.transport.testing.RecordingController;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.pacelink.transport.recovery.RecoveryDriver.ms;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LossRecoveryTest
{
    private final RecoveryDriver driver = new RecoveryDriver(new RecoveryConfig(), ms(5));
    private final LossRecovery lossRecovery = driver.lossRecovery;
    private final RecordingController controller = driver.controller;
    private final RecordingListener listener = driver.listener;

    @Test
    void callbacksForOneAckFollowDesignSectionSix()
    {
        driver.establishRtt100Ms();
        driver.sendOnePerMs(1, 5, 200);
        driver.ackAtMs(305, 3, 5);
        assertEquals(List.of(1L, 2L), listener.lost);
        // Everything is resolved at 305 ms: packet 6 restarts the rate sampler's clock at 306 ms.
        driver.sendOnePerMs(6, 12, 306);
        driver.log.clear();
        controller.clear();

        // One frame acknowledges 7..12 (new), 1 (declared lost before: spurious), and leaves 6 six positions behind.
        // No cc.spurious: packet 2 of the first recovery is still lost, and packet 6 starts a new recovery whose
        // reduction a late packet of the earlier one must not undo.
        assertEquals(7, driver.ackAtMs(412, 7, 12, 1, 1));

        assertEquals(List.of(
            "acked 12", "acked 11", "acked 10", "acked 9", "acked 8", "acked 7",
            "ackedAfterLoss 1",
            "cc.lost 6", "lost 6",
            "cc.congestion",
            "cc.ack"), driver.log);

        final RecordingController.Lost lost = controller.losses().get(0);
        assertEquals(ms(100), lost.rtt().latestRttNs(), "the RTT was updated before losses were reported");
        assertEquals(11 * 1200, lost.totalDeliveredBytes(), "the rate sampler counted the acknowledged packets first");
        assertEquals(3 * 1200, lost.totalLostBytes());
        assertEquals(2 * 1200, lost.lostAtSendBytes());
        assertEquals(ms(306), lost.sentTimeNs());
        assertEquals(0, lost.bytesInFlight());

        final RecordingController.Ack ack = controller.acks().get(controller.acks().size() - 1);
        assertEquals(ms(412), ack.nowNs());
        assertEquals(6 * 1200, ack.newlyAckedBytes());
        assertEquals(1200, ack.newlyLostBytes());
        assertEquals(7 * 1200, ack.priorBytesInFlightBytes());
        assertEquals(0, ack.bytesInFlight());
        assertEquals(12, ack.largestAckedPacketNumber());
        assertTrue(controller.congestionEvents().get(0).startsRecovery(), "packet 6 was sent after 305 ms");
        assertFalse(ack.endsRecovery(), "the period packet 6 started at 412 ms has not seen a later packet");
        assertEquals(ms(100), ack.latestRttNs());
        // Source packet 12 was sent when C.delivered was 4800 and C.lost 2400; the sample was generated after the
        // frame's loss of packet 6, so rs.lost includes it.
        assertTrue(ack.hasRateSample());
        assertEquals(4800, ack.samplePriorDeliveredBytes());
        assertEquals(13_200 - 4800, ack.sampleDeliveredBytes());
        assertEquals(1200, ack.sampleLostBytes());
        assertEquals(7 * 1200, ack.sampleTxInFlightBytes());
        // max(send 312 - 306, ack 412 - 306) = 106 ms.
        assertEquals(ms(106), ack.sampleIntervalNs());
        assertEquals(8400L * 1_000_000_000L / ms(106), ack.deliveryRateBytesPerSecond());
        assertFalse(ack.isSampleAppLimited());
    }

    @Test
    void anAckSaysWhetherItAcknowledgedTheOldestPacketInFlight()
    {
        driver.establishRtt100Ms();
        driver.sendOnePerMs(1, 6, 200);

        driver.ackAtMs(300, 2, 3);
        assertFalse(lastAck().acknowledgesOldestInFlight(), "beyond the hole at 1");
        driver.ackAtMs(301, 1, 1);
        assertTrue(lastAck().acknowledgesOldestInFlight(), "the prefix advanced: TCP's snd_una would");
        driver.ackAtMs(302, 5, 5);
        assertFalse(lastAck().acknowledgesOldestInFlight(), "4 is still outstanding");
        driver.ackAtMs(303, 4, 4);
        assertTrue(lastAck().acknowledgesOldestInFlight());
        driver.ackAtMs(304, 6, 6);
        assertTrue(lastAck().acknowledgesOldestInFlight(), "the last one in flight is the oldest");
    }

    private RecordingController.Ack lastAck()
    {
        return controller.acks().get(controller.acks().size() - 1);
    }

    @Test
    void ackOfANumberNeverSentIsAnErrorAndChangesNothing()
    {
        driver.sendOnePerMs(0, 2, 0);

        assertEquals(LossRecovery.ERROR_ACK_OF_UNSENT_PACKET, driver.ackAtMs(100, 5, 5));
        assertEquals(LossRecovery.ERROR_ACK_OF_UNSENT_PACKET, driver.ackAtMs(100, 0, 3));

        assertEquals(3 * 1200, lossRecovery.bytesInFlight());
        assertEquals(-1, lossRecovery.largestAckedPacketNumber());
        assertFalse(lossRecovery.rttEstimator().hasSample());
        assertTrue(driver.log.isEmpty());
    }

    @Test
    void ackOfASkippedNumberIsAnError()
    {
        driver.sendAtMs(0, 0);
        driver.sendAtMs(1, 1);
        assertTrue(lossRecovery.canSend(3));
        driver.sendAtMs(3, 2);

        assertEquals(LossRecovery.ERROR_ACK_OF_UNSENT_PACKET, driver.ackAtMs(100, 0, 3));
        assertTrue(driver.log.isEmpty());

        assertEquals(3, driver.ackAtMs(100, 3, 3, 0, 1));
        assertEquals(List.of(3L, 1L, 0L), listener.acked);
    }

    @Test
    void aSkippedNumberInAnyOfAnAcksRangesIsAnErrorWithTheSkipHistoryWrapped()
    {
        // Numbers 1, 4, 7, ... 3k + 1 are skipped: 40 skips, more than the ring remembers (32), so the history wraps
        // and the oldest eight (1 to 22) are forgotten. Sent: every number not of the form 3k + 1, from 0 to 119.
        for (long pn = 0; pn < 120; pn++)
        {
            if (pn % 3 != 1)
            {
                driver.sendAtMs(pn, pn);
            }
        }

        // A skip in only the lowest, only a middle or only the highest of several ranges, or at the edge of a range
        // (25, the oldest remembered): each is an error, and nothing changes.
        assertEquals(LossRecovery.ERROR_ACK_OF_UNSENT_PACKET, driver.ackAtMs(200, 119, 119, 98, 99, 60, 61));
        assertEquals(LossRecovery.ERROR_ACK_OF_UNSENT_PACKET, driver.ackAtMs(200, 119, 119, 60, 62, 27, 27));
        assertEquals(LossRecovery.ERROR_ACK_OF_UNSENT_PACKET, driver.ackAtMs(200, 117, 118, 99, 99, 27, 27));
        assertEquals(LossRecovery.ERROR_ACK_OF_UNSENT_PACKET, driver.ackAtMs(200, 119, 119, 24, 26));
        assertTrue(driver.log.isEmpty());
        assertEquals(-1, lossRecovery.largestAckedPacketNumber());
        // Ranges between the skips pass; a forgotten skip (22) is no longer caught, as before: the history's 32 are
        // what is checked.
        assertEquals(4, driver.ackAtMs(200, 119, 119, 117, 117, 21, 23));
        assertEquals(List.of(119L, 117L, 23L, 21L), listener.acked);
    }

    @Test
    void anRttSampleBelowTheFloorIsRejected()
    {
        final RecoveryDriver floored = new RecoveryDriver(new RecoveryConfig().minRttSampleNs(ms(1)), ms(5));
        floored.sendAtNs(0, 0, false);
        floored.sendAtNs(1, 0, false);
        // Acknowledged 66 us after it was sent: faster than the floor, an ACK sent before the packet arrived.
        floored.ackAtNs(66_000, 0, 0);
        assertFalse(floored.lossRecovery.rttEstimator().hasSample());
        assertEquals(1, floored.lossRecovery.rejectedRttSamples());
        assertEquals(1200, floored.lossRecovery.bytesInFlight(), "the acknowledgement itself still counts");

        floored.ackAtNs(ms(20), 1, 1);
        assertEquals(ms(20), floored.lossRecovery.rttEstimator().minRttNs());
        assertEquals(1, floored.lossRecovery.rejectedRttSamples());
    }

    @Test
    void theSentPacketRingGrowsWithTheFlightAsTheBudgetAllows()
    {
        final MemoryBudget budget = new MemoryBudget(
            (LossRecovery.INITIAL_SENT_PACKET_SLOTS * 2 + 2) * (SentPacketRing.BYTES_PER_SLOT + 2L * Integer.BYTES));
        final LossRecovery bounded = new LossRecovery(new RecoveryConfig().sentPacketCapacity(1024),
            new PathParameters(1200, ms(5)), new RttEstimator(ms(333), ms(1)), controller, budget);
        long packetNumber = 0;
        while (bounded.canSend(packetNumber))
        {
            bounded.onPacketSent(new SentPacketDescriptor().reset(packetNumber, ms(packetNumber))
                .sizeBytes(1200).ackEliciting(true));
            packetNumber++;
        }
        assertEquals(2 * LossRecovery.INITIAL_SENT_PACKET_SLOTS, packetNumber,
            "the ring doubled once, then the budget refused");
        assertTrue(budget.refusals() > 0);
        assertEquals(bounded.committedBytes(), budget.committedBytes());
        bounded.releaseMemory();
        assertEquals(0, budget.committedBytes());
    }

    @Test
    void malformedRangesAreRejected()
    {
        driver.sendOnePerMs(0, 9, 0);

        assertEquals(LossRecovery.ERROR_MALFORMED_ACK_RANGES, driver.ackAtMs(100, 2, 3, 5, 6), "ascending");
        assertEquals(LossRecovery.ERROR_MALFORMED_ACK_RANGES, driver.ackAtMs(100, 5, 6, 4, 5), "overlapping");
        assertEquals(LossRecovery.ERROR_MALFORMED_ACK_RANGES, driver.ackAtMs(100, 6, 5), "smallest > largest");
        assertEquals(LossRecovery.ERROR_MALFORMED_ACK_RANGES, driver.ackAtMs(100, -1, 3), "negative");
        assertTrue(driver.log.isEmpty());
        assertEquals(10 * 1200, lossRecovery.bytesInFlight());
    }

    @Test
    void duplicateAckChangesNothing()
    {
        driver.establishRtt100Ms();
        driver.sendAtMs(1, 200);
        assertEquals(1, driver.ackAtMs(300, 0, 1));
        final int acks = controller.acks().size();

        assertEquals(0, driver.ackAtMs(301, 0, 1));
        assertEquals(acks, controller.acks().size(), "no onAck without news");
    }

    @Test
    void rttIsSampledOnlyWhenTheLargestIsNewlyAcknowledged()
    {
        driver.sendAtMs(0, 0);
        driver.sendAtMs(1, 10);
        driver.ackAtMs(110, 1, 1);
        assertEquals(ms(100), lossRecovery.rttEstimator().latestRttNs());

        driver.ackAtMs(150, 0, 1);
        assertEquals(ms(100), lossRecovery.rttEstimator().latestRttNs(), "largest 1 was acknowledged before");
        assertEquals(List.of(1L, 0L), listener.acked);
    }

    @Test
    void packetsThatNeitherElicitAcksNorCountInFlightStayOutOfTheControllersView()
    {
        lossRecovery.onPacketSent(new SentPacketDescriptor().reset(0, 0).sizeBytes(60).frameFlags(4));
        assertEquals(0, lossRecovery.bytesInFlight());
        assertEquals(0, controller.packetsSent());
        assertEquals(Long.MAX_VALUE, lossRecovery.timerDeadlineNs(), "no PTO without ack-eliciting packets");

        assertEquals(1, driver.ackAtMs(100, 0, 0));
        assertFalse(lossRecovery.rttEstimator().hasSample(), "no ack-eliciting packet was acknowledged");
        assertEquals(List.of(0L), listener.acked);
        assertEquals(0, controller.acks().get(0).newlyAckedBytes());
        assertEquals(0, lossRecovery.deliveredBytes());
    }

    @Test
    void aDescribedPacketRecordsItsAckFrameAndPaysAProbe()
    {
        driver.establishRtt100Ms();
        driver.sendAtMs(1, 200);
        lossRecovery.onTimeout(lossRecovery.timerDeadlineNs(), listener);
        assertTrue(lossRecovery.probesToSend() > 0, "the probe timer fired");
        final long packetNumber = 2;
        final int probesOwed = lossRecovery.probesToSend();
        lossRecovery.onPacketSent(new SentPacketDescriptor().reset(packetNumber, ms(10_000))
            .sizeBytes(1200).ackEliciting(true).streamRange(0, 1000, false, true)
            .ackFrameLargestAcked(77).probe(true));
        assertEquals(probesOwed - 1, lossRecovery.probesToSend(), "a probe pays one probe owed");
        assertEquals(77, lossRecovery.ackFrameLargestAcked(packetNumber), "the ACK frame it carried");
        assertEquals(1, lossRecovery.retransmittedPackets());
    }

    @Test
    @SuppressWarnings("deprecation")
    void theDeprecatedLooseParametersDescribeThePacketTheSameWay()
    {
        lossRecovery.onPacketSent(0, 0, 60, false, false, 0, 0, false, 4, false);
        lossRecovery.onPacketSent(1, ms(1), 1200, true, true, 0, 1000, false, 0, true);
        assertEquals(1200, lossRecovery.bytesInFlight());
        assertEquals(1, controller.packetsSent());
        assertEquals(1, lossRecovery.retransmittedPackets());
    }

    @Test
    void firstSendAfterIdleWhileAppLimitedRestartsTheController()
    {
        driver.establishRtt100Ms();
        assertTrue(lossRecovery.onAppLimitedCheck(0, true, true));

        driver.sendAtMs(1, 600);
        assertEquals(List.of(ms(500)), controller.idleRestartsNs(), "idle since the ACK at 100 ms");

        driver.sendAtMs(2, 601);
        driver.ackAtMs(701, 1, 2);
        assertFalse(lossRecovery.rateSampler().isAppLimited(), "delivered passed the mark");
        driver.sendAtMs(3, 900);
        assertEquals(1, controller.idleRestartsNs().size(), "not application-limited this time");
    }

    @Test
    void noIdleRestartBeforeAnythingWasSent()
    {
        controller.windowBytes(12_000);
        assertTrue(lossRecovery.onAppLimitedCheck(0, true, true));
        driver.sendAtMs(0, 0);
        assertTrue(controller.idleRestartsNs().isEmpty());
    }

    @Test
    void cwndLimitedLastsUntilTheAcksReachTheLastPacketSentWithAFullWindow()
    {
        controller.windowBytes(3 * 1200);
        driver.sendAtMs(0, 0);
        assertFalse(lossRecovery.isCwndLimited(), "1200 in flight, two more packets fit");
        driver.sendAtMs(1, 1);
        assertTrue(lossRecovery.isCwndLimited(), "2400 in flight: within one MSS of 3600");

        driver.ackAtMs(100, 0, 0);
        assertTrue(controller.acks().get(0).isCwndLimited());
        driver.ackAtMs(101, 0, 1);
        assertTrue(controller.acks().get(1).isCwndLimited(), "back-to-back ACKs of the same flight");
        assertFalse(lossRecovery.isCwndLimited());

        driver.sendAtMs(2, 200);
        driver.ackAtMs(300, 0, 2);
        assertFalse(controller.acks().get(2).isCwndLimited());
    }

    @Test
    void probesAreCountedDown()
    {
        driver.establishRtt100Ms();
        driver.sendAtMs(1, 200);
        lossRecovery.onTimeout(lossRecovery.timerDeadlineNs(), listener);
        assertEquals(2, lossRecovery.probesToSend());
        lossRecovery.onProbeSent();
        lossRecovery.onProbeSent();
        lossRecovery.onProbeSent();
        assertEquals(0, lossRecovery.probesToSend());
    }

    @Test
    void onePacketProbeConfiguration()
    {
        final RecoveryDriver single = new RecoveryDriver(new RecoveryConfig().probePackets(1), ms(25));
        single.sendAtMs(0, 0);
        single.lossRecovery.onTimeout(single.lossRecovery.timerDeadlineNs(), single.listener);
        assertEquals(1, single.lossRecovery.probesToSend());
    }

    @Test
    void countersAddUp()
    {
        driver.establishRtt100Ms();
        driver.sendOnePerMs(1, 5, 200);
        driver.sendAtNs(6, ms(205), true);
        driver.ackAtMs(306, 2, 6);

        assertEquals(7, lossRecovery.sentPackets());
        assertEquals(7 * 1200, lossRecovery.sentBytes());
        assertEquals(1, lossRecovery.retransmittedPackets());
        assertEquals(1, lossRecovery.lostPackets());
        assertEquals(1200, lossRecovery.lostBytes());
        assertEquals(6 * 1200, lossRecovery.deliveredBytes());
        assertEquals(6, lossRecovery.largestAckedPacketNumber());
        assertEquals(6, lossRecovery.largestSentPacketNumber());
        assertEquals(0, lossRecovery.bytesInFlight());
        assertEquals(7, controller.packetsSent());
    }

    @Test
    void senderStopsWhenTheRingIsFullOfUnresolvedPackets()
    {
        final RecoveryDriver small = new RecoveryDriver(new RecoveryConfig().sentPacketCapacity(4), ms(25));
        for (long pn = 0; pn < 4; pn++)
        {
            small.sendAtMs(pn, pn);
        }
        assertFalse(small.lossRecovery.canSend());
        assertThrows(IllegalStateException.class, () -> small.sendAtMs(4, 4));

        small.ackAtMs(100, 0, 0);
        assertTrue(small.lossRecovery.canSend());
        small.sendAtMs(4, 101);
        assertEquals(4 * 1200, small.lossRecovery.bytesInFlight());
    }

    @Test
    void cwndAndApplicationLimitedTestsUseTheNegotiatedDatagramSize()
    {
        controller.windowBytes(3 * 1200);
        lossRecovery.onMtuChanged(1000);
        driver.sendAtMs(0, 0);
        driver.sendAtMs(1, 1);
        assertFalse(lossRecovery.isCwndLimited(), "2400 in flight: a 1000-byte datagram still fits under 3600");
        assertFalse(lossRecovery.onAppLimitedCheck(1000, true, true), "a whole datagram of the new size is waiting");
        assertTrue(lossRecovery.onAppLimitedCheck(999, true, true), "less than one datagram of the new size");
    }

    @Test
    void mtuChangeIsStoredOnceAndReachesTheController()
    {
        lossRecovery.onMtuChanged(1000);
        assertEquals(1000, driver.path.maxDatagramSizeBytes());
        assertEquals(List.of("cc.mtu 1000"), driver.log);
    }

    @Test
    void invalidConfigurationFailsFast()
    {
        assertThrows(IllegalArgumentException.class, () -> newRecovery(new RecoveryConfig().sentPacketCapacity(3)));
        assertThrows(IllegalArgumentException.class, () -> newRecovery(new RecoveryConfig().packetThreshold(0)));
        assertThrows(IllegalArgumentException.class, () -> newRecovery(new RecoveryConfig().timeThreshold(7, 8)));
        assertThrows(IllegalArgumentException.class, () -> newRecovery(new RecoveryConfig().probePackets(3)));
        assertThrows(IllegalArgumentException.class, () -> newRecovery(new RecoveryConfig().initialRttNs(0)));
    }

    private LossRecovery newRecovery(final RecoveryConfig config)
    {
        return RecoveryDriver.newRecovery(config, driver.path, driver.controller);
    }
}
