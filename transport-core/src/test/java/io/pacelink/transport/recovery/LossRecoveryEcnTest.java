package io.pacelink.transport.recovery;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.testing.RecordingController;
import io.pacelink.transport.testing.RecordingController.Congestion;
import io.pacelink.transport.wire.EcnCodepoint;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.pacelink.transport.recovery.RecoveryDriver.PACKET_BYTES;
import static io.pacelink.transport.recovery.RecoveryDriver.ms;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ECN counts of ACK frames as {@link LossRecovery} processes them (RFC 9002 Appendix B.7 after RFC 9000 section
 * 13.4.2.1): what the controller hears, when a mark starts a recovery period, and that its reduction is never undone.
 */
class LossRecoveryEcnTest
{
    private final List<String> log = new ArrayList<>();
    private final RecordingController controller = new RecordingController(log);
    private final TestAckRanges ranges = new TestAckRanges();
    private final RecordingListener listener = new RecordingListener(log);
    private final SentPacketDescriptor sent = new SentPacketDescriptor();
    private LossRecovery lossRecovery;

    @Test
    void aValidatedCeIncreaseIsOneCongestionEventPerRecoveryPeriodAndNothingIsLost()
    {
        build(true, true);
        establishRtt();
        sendFrom(1, 10, 110);

        ranges.of(1, 10).ecn(10, 0, 1);
        assertEquals(10, lossRecovery.onAckReceived(ranges, 0, ms(210), listener));
        final AckEvent ack = controller.lastAck();
        assertEquals(1, ack.newlyEcnCePackets());
        assertEquals(PACKET_BYTES, ack.newlyEcnCeBytes(), "one packet's bytes of the ten acknowledged");
        assertEquals(PACKET_BYTES, ack.totalDeliveredCeBytes());
        assertTrue(ack.isEcnCapable());
        assertEquals(List.of(new Congestion(ms(210), ms(119), 0, 0, true, false, true)), congestions());
        assertEquals(1, lossRecovery.ecnCeReactions());
        assertEquals(0, lossRecovery.lostPackets());

        // More marks on packets sent before the reduction belong to it (RFC 9002 section 7.3.2).
        sendFrom(11, 12, 150);
        ranges.of(1, 12).ecn(11, 0, 2);
        lossRecovery.onAckReceived(ranges, 0, ms(250), listener);
        assertEquals(1, lossRecovery.ecnCeReactions());
        assertFalse(congestions().get(1).startsRecovery());
        assertTrue(congestions().get(1).isEcnCe());

        // A mark on a packet sent after it is a new round trip's congestion.
        sendFrom(13, 13, 260);
        ranges.of(1, 13).ecn(11, 0, 3);
        lossRecovery.onAckReceived(ranges, 0, ms(360), listener);
        assertEquals(2, lossRecovery.ecnCeReactions());
        assertEquals(3, lossRecovery.ecnValidation().reportedCe());
    }

    @Test
    void aReductionAMarkStartedIsNeverUndoneByLossesThatProveSpurious()
    {
        build(true, true);
        establishRtt();
        sendFrom(1, 10, 110);
        // 1..3 missing: lost by the packet threshold in the same frame whose CE mark opened the recovery period.
        ranges.of(4, 10).ecn(7, 0, 1);
        lossRecovery.onAckReceived(ranges, 0, ms(210), listener);
        assertEquals(3, lossRecovery.lostPackets());

        ranges.of(1, 10).ecn(9, 0, 2);
        lossRecovery.onAckReceived(ranges, 0, ms(220), listener);
        assertEquals(3, lossRecovery.spuriousLosses());
        assertFalse(log.contains("cc.spurious"), "a mark cannot prove spurious: " + log);
    }

    @Test
    void withoutTheMarkTheSameLossesAreUndone()
    {
        build(true, true);
        establishRtt();
        sendFrom(1, 10, 110);
        ranges.of(4, 10).ecn(8, 0, 0);
        lossRecovery.onAckReceived(ranges, 0, ms(210), listener);
        ranges.of(1, 10).ecn(11, 0, 0);
        lossRecovery.onAckReceived(ranges, 0, ms(220), listener);
        assertTrue(log.contains("cc.spurious"), String.valueOf(log));
    }

    @Test
    void aControllerThatReadsEcnFromTheAckGetsNoCongestionEvent()
    {
        build(true, false);
        establishRtt();
        sendFrom(1, 10, 110);
        ranges.of(1, 10).ecn(7, 0, 4);
        lossRecovery.onAckReceived(ranges, 0, ms(210), listener);
        assertEquals(List.of(), congestions(), "no recovery period: a later loss still gets its own response");
        assertEquals(4, controller.lastAck().newlyEcnCePackets());
        assertEquals(4 * PACKET_BYTES, controller.lastAck().sampleDeliveredCeBytes());
        assertEquals(0, lossRecovery.ecnCeReactions());
    }

    @Test
    void aBleachingPathTurnsEcnOffAndLaterCountsAreIgnored()
    {
        build(true, true);
        establishRtt(false);
        assertEquals(EcnValidation.FAILED, lossRecovery.ecnValidation().state(), "the first frame had no counts");
        assertEquals(EcnValidation.BLEACHED, lossRecovery.ecnValidation().failure());
        assertEquals(EcnCodepoint.NOT_ECT, lossRecovery.ecnCodepointToSend(ms(110)));

        sendFrom(1, 10, 110);
        ranges.of(1, 10).ecn(0, 0, 10);
        lossRecovery.onAckReceived(ranges, 0, ms(210), listener);
        assertEquals(List.of(), congestions());
        assertEquals(0, controller.lastAck().newlyEcnCePackets());
    }

    @Test
    void pathChallengesSentUnmarkedBetweenMarkedPacketsAreTrackedAndLeaveEcnCapable()
    {
        // A server whose client's NAT rebinds sends a PATH_CHALLENGE (unmarked, not in flight) toward each new
        // address between its marked packets. Each must be tracked like any packet: one that was not (the ECN
        // bookkeeping once refused a third run of marks, after the packet had left) made the peer's ACK of it
        // "an ACK of a packet never sent", and the connection closed as a protocol violation.
        build(true, true);
        establishRtt();
        sendFrom(1, 10, 110);
        ranges.of(1, 10).ecn(11, 0, 0);
        lossRecovery.onAckReceived(ranges, 0, ms(210), listener);
        assertEquals(EcnValidation.CAPABLE, lossRecovery.ecnValidation().state());

        long pn = 11;
        for (int rebinding = 0; rebinding < 4; rebinding++)
        {
            lossRecovery.onPacketSent(sent.reset(pn++, ms(220 + rebinding))
                .sizeBytes(PACKET_BYTES)
                .ackEliciting(false)
                .countsInFlight(false)
                .ecnCodepoint(EcnCodepoint.NOT_ECT));
            sendFrom(pn, pn + 1, 220 + rebinding);
            pn += 2;
        }
        assertEquals(pn - 1, lossRecovery.largestSentPacketNumber());
        // Every packet acknowledged, the eight marked ones counted, one of them CE: no error, still capable.
        ranges.of(1, pn - 1).ecn(11 + 7, 0, 1);
        assertEquals(12, lossRecovery.onAckReceived(ranges, 0, ms(320), listener), "12 newly acknowledged");
        assertEquals(EcnValidation.CAPABLE, lossRecovery.ecnValidation().state());
        assertEquals(EcnValidation.NO_FAILURE, lossRecovery.ecnValidation().failure());
        assertEquals(1, controller.lastAck().newlyEcnCePackets());
        assertEquals(0, lossRecovery.lostPackets());
    }

    @Test
    void withEcnOffNothingIsMarkedAndCountsAreIgnored()
    {
        build(false, true);
        assertEquals(EcnCodepoint.NOT_ECT, lossRecovery.ecnCodepointToSend(0));
        sendFrom(0, 0, 0);
        ranges.of(0, 0).ecn(0, 0, 1);
        lossRecovery.onAckReceived(ranges, 0, ms(100), listener);
        assertEquals(List.of(), congestions());
        assertEquals(EcnValidation.DISABLED, lossRecovery.ecnValidation().state());
    }

    private void build(final boolean ecn, final boolean isEcnCeCongestionEvent)
    {
        controller.ecnCeCongestionEvent(isEcnCeCongestionEvent);
        lossRecovery = RecoveryDriver.newRecovery(
            new RecoveryConfig().ecn(ecn), new PathParameters(PACKET_BYTES, ms(1)), controller);
        controller.rttStats(lossRecovery.rttEstimator());
    }

    /**
     * Packet 0 at 0 ms, acknowledged at 100 ms with its ECT(0) count.
     */
    private void establishRtt()
    {
        establishRtt(true);
    }

    /**
     * Packet 0 at 0 ms, acknowledged at 100 ms with its ECT(0) count, or (on a bleaching path) without counts.
     */
    private void establishRtt(final boolean withCounts)
    {
        sendFrom(0, 0, 0);
        ranges.of(0, 0);
        if (withCounts)
        {
            ranges.ecn(1, 0, 0);
        }
        lossRecovery.onAckReceived(ranges, 0, ms(100), listener);
        log.clear();
        controller.events().clear();
    }

    private void sendFrom(final long firstPn, final long lastPn, final long firstMs)
    {
        for (long pn = firstPn; pn <= lastPn; pn++)
        {
            final long nowNs = ms(firstMs + pn - firstPn);
            lossRecovery.onPacketSent(sent.reset(pn, nowNs)
                .sizeBytes(PACKET_BYTES)
                .ackEliciting(true)
                .streamRange(pn * 1000, 1000, false, false)
                .ecnCodepoint(lossRecovery.ecnCodepointToSend(nowNs)));
        }
    }

    private List<Congestion> congestions()
    {
        return controller.eventsOf(Congestion.class);
    }
}
