package io.pacelink.hostile;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.PacketWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static io.pacelink.hostile.Servers.await;
import static io.pacelink.hostile.Servers.connectionCounter;
import static io.pacelink.hostile.Servers.counter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ACK_FREQUENCY and IMMEDIATE_ACK frames (draft-ietf-quic-ack-frequency) written by hand and sent from a raw socket
 * to a running server, which announced its min ACK delay in its handshake answer: a malformed frame drops its packet
 * (counted), absurd but well-formed values are followed without harm, an older frame is ignored (counted), and a
 * delay the server cannot keep is a protocol violation; the connection never crashes and nothing grows.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AckFrequencyHostileTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long QUIET_NS = TimeUnit.MILLISECONDS.toNanos(300);
    private static final int MIN_ACK_DELAY_US = 1_000;
    private static final Consumer<PacelinkContext> ON = (context) -> context.ackFrequency(true);

    @Test
    void theServerAnnouncesItsMinAckDelayAndAMalformedFrameDropsItsPacketCounted() throws Exception
    {
        try (Endpoint server = Servers.launch((context) -> context.ackFrequency(true));
            Servers.SendingApplication application = new Servers.SendingApplication(server, 0);
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            peer.handshake(SECOND_NS);
            assertEquals(MIN_ACK_DELAY_US, peer.serverMinAckDelayUs, "the server's MIN_ACK_DELAY frame");
            await(() -> 1 == application.accepted.size(), SECOND_NS, "accepted");
            final long malformedBefore = counter(server, "malformed-datagrams-dropped");

            // A negative threshold, a body a byte short, a flag, an IMMEDIATE_ACK with a body: each drops its packet.
            peer.sendOneRtt((writer) -> writer.appendAckFrequency(1, -1, 10_000, 1));
            peer.sendOneRtt((writer) ->
            {
                writer.appendPadding(8 + 23);
                writer.buffer().putByte(writer.offset() + writer.length() - 31, (byte)FrameType.ACK_FREQUENCY);
            });
            peer.sendOneRtt((writer) ->
            {
                final int frameOffset = writer.offset() + writer.length();
                writer.appendAckFrequency(2, 9, 10_000, 1);
                writer.buffer().putByte(frameOffset + 1, (byte)1);
            });
            peer.sendOneRtt((writer) ->
            {
                final int frameOffset = writer.offset() + writer.length();
                writer.appendPadding(8 + 4);
                writer.buffer().putByte(frameOffset, (byte)FrameType.IMMEDIATE_ACK);
            });
            await(() -> malformedBefore + 4 == counter(server, "malformed-datagrams-dropped"), SECOND_NS,
                "four malformed packets dropped");
            peer.receiveFor(QUIET_NS);
            assertEquals(ConnectionState.CONNECTED, application.accepted.get(0).state());
            assertEquals(0, counter(server, "protocol-violations"));
        }
    }

    @Test
    void absurdThresholdsAreFollowedHarmlesslyAndOlderFramesAreIgnoredAndCounted() throws Exception
    {
        try (Endpoint server = Servers.launch((context) -> context.ackFrequency(true));
            Servers.SendingApplication application = new Servers.SendingApplication(server, 0);
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            peer.handshake(SECOND_NS);
            await(() -> 1 == application.accepted.size(), SECOND_NS, "accepted");

            // Threshold 0 (an ACK for every packet), then the largest threshold and delay the server accepts.
            peer.sendOneRtt((writer) -> writer.appendAckFrequency(10, 0, MIN_ACK_DELAY_US, 0));
            peer.sendOneRtt((writer) -> writer.appendAckFrequency(11, Integer.MAX_VALUE, 16_383_999, 0));
            // Going backwards, and repeating: ignored, counted, whatever they ask (a delay of 1 us included). Fewer
            // than the packets without progress a connection tolerates (EndpointLimits), which these are.
            for (int i = 0; i < 36; i++)
            {
                final long sequenceNumber = i % 12;
                peer.sendOneRtt((writer) ->
                {
                    writer.appendAckFrequency(sequenceNumber, 0, 1, 1);
                    writer.appendImmediateAck();
                });
            }
            await(() -> 36 == connectionCounter(server, "ack-frequency-ignored"), 5 * SECOND_NS,
                "the old frames ignored");
            peer.receiveFor(QUIET_NS);
            assertTrue(peer.largestAcknowledgedByServer() > 0, "still acknowledged");
            assertEquals(ConnectionState.CONNECTED, application.accepted.get(0).state());
            assertEquals(0, counter(server, "protocol-violations"));
        }
    }

    @Test
    void aDelayBelowTheAnnouncedMinimumIsAProtocolViolation() throws Exception
    {
        playViolation((writer) -> writer.appendAckFrequency(0, 9, MIN_ACK_DELAY_US - 1, 1), ON);
    }

    @Test
    void aDelayOf2To14MillisecondsIsAProtocolViolation() throws Exception
    {
        playViolation((writer) -> writer.appendAckFrequency(0, 9, 16_384_000, 1), ON);
    }

    @Test
    void anAckFrequencyFrameToAServerThatDidNotOfferTheExtensionIsAProtocolViolation() throws Exception
    {
        playViolation(
            (writer) -> writer.appendAckFrequency(0, 9, 10_000, 1), (context) -> context.ackFrequency(false));
        playViolation(PacketWriter::appendImmediateAck, (context) -> context.ackFrequency(false));
    }

    private static void playViolation(
        final Consumer<PacketWriter> frame, final Consumer<PacelinkContext> customize) throws Exception
    {
        try (Endpoint server = Servers.launch(customize);
            Servers.SendingApplication application = new Servers.SendingApplication(server, 0);
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            peer.handshake(SECOND_NS);
            peer.sendOneRtt(frame);
            await(() -> 1 == application.accepted.size() &&
                CloseReason.PROTOCOL_VIOLATION == application.accepted.get(0).closeReason(), 5 * SECOND_NS,
                "the connection closed");
            assertEquals(1, peer.closeErrorCodeAfterWaiting(SECOND_NS), "PROTOCOL_VIOLATION sent to the peer");
            assertEquals(1, counter(server, "protocol-violations"));
        }
    }
}
