package io.pacelink.transport.engine;

import io.pacelink.transport.wire.AckFrequencyFrameFlyweight;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sender's ACK frequency policy (draft-ietf-quic-ack-frequency): whom it asks, for what, when, and which delay
 * loss recovery allows for meanwhile.
 */
class AckFrequencyRequestsTest
{
    private static final long MS = 1_000_000L;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1_500]);
    private final PacketWriter writer = new PacketWriter();
    private final PacketDecoder decoder = new PacketDecoder();

    @Test
    void theDelayAskedForIsAQuarterOfTheMinRttBetweenThePeersMaxAckDelayAndTwentyFiveMilliseconds()
    {
        final AckFrequencyRequests requests = new AckFrequencyRequests(true);
        requests.onPeerHandshake(MS, MS);
        assertEquals(MS, requests.wantedAckDelayNs(2 * MS), "a LAN: never below the handshake's delay");
        assertEquals(MS, requests.wantedAckDelayNs(4 * MS), "the edge: a quarter is the handshake's delay");
        assertEquals(MS + MS / 4, requests.wantedAckDelayNs(5 * MS), "just above it");
        assertEquals(10 * MS, requests.wantedAckDelayNs(40 * MS));
        assertEquals(25 * MS, requests.wantedAckDelayNs(100 * MS), "the edge of the cap");
        assertEquals(25 * MS, requests.wantedAckDelayNs(104 * MS), "capped at 25 ms");
        assertEquals(25 * MS, requests.wantedAckDelayNs(2_000 * MS));

        final AckFrequencyRequests slowPeer = new AckFrequencyRequests(true);
        slowPeer.onPeerHandshake(30 * MS, 3 * MS);
        assertEquals(30 * MS, slowPeer.wantedAckDelayNs(40 * MS), "never below what the peer announced");
    }

    @Test
    void aPeerThatAnnouncedNoMinAckDelayOrAnImpossibleOneIsNeverAsked()
    {
        final long rtt = 40 * MS;
        final AckFrequencyRequests oldPeer = new AckFrequencyRequests(true);
        oldPeer.onPeerHandshake(MS, -1_000);
        oldPeer.refresh(rtt, false);
        assertFalse(oldPeer.isNegotiated());
        final AckFrequencyRequests beforeASample = new AckFrequencyRequests(true);
        beforeASample.onPeerHandshake(MS, MS);
        beforeASample.refresh(0, false);
        assertFalse(beforeASample.isPending(), "no request before the first RTT sample");
        assertFalse(oldPeer.isPending());
        assertFalse(oldPeer.isDelayExtended());

        final AckFrequencyRequests minAboveMax = new AckFrequencyRequests(true);
        minAboveMax.onPeerHandshake(MS, MS + 1);
        minAboveMax.refresh(rtt, false);
        assertFalse(minAboveMax.isPending(), "a min above the max announces nothing usable");

        final AckFrequencyRequests switchedOff = new AckFrequencyRequests(false);
        switchedOff.onPeerHandshake(MS, MS);
        switchedOff.refresh(rtt, false);
        assertFalse(switchedOff.isPending());
        assertFalse(switchedOff.isEnabled());
    }

    @Test
    void aRequestGoesOnceTheQuarterRttMovesByMoreThanAnEighthAndLossRecoveryAllowsForItAtOnce()
    {
        final AckFrequencyRequests requests = new AckFrequencyRequests(true);
        requests.onPeerHandshake(MS, MS);
        assertEquals(MS, requests.recoveryAckDelayNs());
        requests.refresh(4 * MS + 2 * MS / 4, false);
        assertFalse(requests.isPending(), "a quarter of 4.5 ms is 1.125 ms: within an eighth of 1 ms");
        requests.refresh(40 * MS, false);
        assertTrue(requests.isPending());

        assertTrue(write(requests));
        final AckFrequencyFrameFlyweight frame = decoder.ackFrequency();
        assertEquals(0, frame.sequenceNumber());
        assertEquals(AckFrequencyRequests.REQUESTED_ACK_ELICITING_THRESHOLD, frame.ackElicitingThreshold());
        assertEquals(10_000, frame.requestedMaxAckDelayUs());
        assertEquals(1, frame.reorderingThreshold(), "out-of-order packets are acknowledged at once");
        assertEquals(10 * MS, requests.recoveryAckDelayNs(), "a longer delay counts from the moment it is asked for");
        assertTrue(requests.isDelayExtended());

        // One in flight at a time; once acknowledged, a shorter min RTT asks for less, which counts only once
        // acknowledged.
        requests.refresh(20 * MS, false);
        assertFalse(requests.isPending(), "one request in flight at a time");
        requests.onAcked();
        requests.refresh(20 * MS, false);
        assertTrue(requests.isPending());
        assertTrue(write(requests));
        assertEquals(1, decoder.ackFrequency().sequenceNumber());
        assertEquals(10 * MS, requests.recoveryAckDelayNs(), "the longer delay until the shorter one is acknowledged");
        requests.onAcked();
        assertEquals(5 * MS, requests.recoveryAckDelayNs());
        assertEquals(2, requests.framesSent());
    }

    @Test
    void nothingIsAskedWhileTheControllerSearchesForThePathsCapacity()
    {
        final AckFrequencyRequests requests = new AckFrequencyRequests(true);
        requests.onPeerHandshake(MS, MS);
        requests.refresh(40 * MS, true);
        assertFalse(requests.isPending(), "slow start or STARTUP: every second packet stays acknowledged");
        assertFalse(requests.isDelayExtended());
        assertEquals(MS, requests.recoveryAckDelayNs());

        requests.refresh(40 * MS, false);
        assertTrue(requests.isPending(), "asked at the first ACK after it");
        assertTrue(write(requests));
        assertEquals(10_000, decoder.ackFrequency().requestedMaxAckDelayUs());
        requests.onAcked();

        // Back in startup (an undo of a spurious loss can take a controller there): the request in force stays, and
        // no new one goes however far the min RTT moves meanwhile.
        requests.refresh(20 * MS, true);
        assertFalse(requests.isPending());
        assertEquals(10 * MS, requests.recoveryAckDelayNs());
        requests.refresh(20 * MS, false);
        assertTrue(requests.isPending());
    }

    @Test
    void aLostRequestGoesAgainWithANewSequenceNumberAndALateAckOfItChangesNothing()
    {
        final AckFrequencyRequests requests = new AckFrequencyRequests(true);
        requests.onPeerHandshake(MS, MS);
        requests.refresh(40 * MS, false);
        assertTrue(write(requests));
        requests.onLost();
        assertTrue(requests.isPending());
        requests.onAcked(); // the lost packet arrived after all, before the request went again
        assertEquals(10 * MS, requests.recoveryAckDelayNs());
        assertTrue(write(requests));
        assertEquals(1, decoder.ackFrequency().sequenceNumber());
        assertEquals(10_000, decoder.ackFrequency().requestedMaxAckDelayUs());
        requests.onAcked();
        assertFalse(requests.isPending());
        assertEquals(10 * MS, requests.recoveryAckDelayNs());
    }

    @Test
    void aRequestThatDoesNotFitStaysPending()
    {
        final AckFrequencyRequests requests = new AckFrequencyRequests(true);
        requests.onPeerHandshake(MS, MS);
        requests.refresh(40 * MS, false);
        writer.wrap(buffer, 0, 40).writeHeader(PacketType.ONE_RTT, 1, 1);
        assertFalse(requests.write(writer));
        assertTrue(requests.isPending());
        assertEquals(MS, requests.recoveryAckDelayNs());
    }

    private boolean write(final AckFrequencyRequests requests)
    {
        writer.wrap(buffer, 0, 1_200).writeHeader(PacketType.ONE_RTT, 1, 1);
        final boolean written = requests.write(writer);
        assertEquals(PacketDecoder.OK, decoder.validate(buffer, 0, writer.length()));
        assertEquals(written ? FrameType.ACK_FREQUENCY : PacketDecoder.NO_MORE_FRAMES,
            decoder.firstFrame(buffer, 0, writer.length()));
        return written;
    }

}
