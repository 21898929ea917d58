package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.schedule.RoundRobinScheduler;
import io.pacelink.transport.stats.CountersBuffers;
import io.pacelink.transport.testing.TestNetwork;
import io.pacelink.transport.wire.FrameHeaderFlyweight;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When a data sender puts ACK frames on its packets (RFC 9000 section 13.2): only when an ack-eliciting packet of the
 * peer awaits acknowledgement. The peer's ACK-only packets are acknowledged along with those but never on their own,
 * so a bulk transfer does not spend payload on acknowledging acknowledgements.
 */
class AckPiggybackTest
{
    private static final long STEP_NS = TimeUnit.MICROSECONDS.toNanos(100);

    private final TestNetwork network = new TestNetwork();
    private final TestNetwork.Port serverPort = network.newPort(1000);
    private final TestNetwork.Port clientPort = network.newPort(2000);
    private final ArrayDeque<Connection> accepted = new ArrayDeque<>();
    private final EndpointCore server = newCore(serverPort, true, accepted);
    private final EndpointCore client = newCore(clientPort, false, accepted);
    private long nowNs = TimeUnit.SECONDS.toNanos(1);

    private long clientDataPackets;
    private long clientPacketsWithAck;
    private long serverAckOnlyPackets;
    private long serverAckElicitingPackets;

    @Test
    void dataPacketsAcknowledgeOnlyWhatTheirPeerNeedsAcknowledged()
    {
        final Connection clientSide = client.connect(serverPort.localAddress(), null, nowNs);
        Connection serverSide = null;
        while (null == serverSide || ConnectionState.CONNECTED != clientSide.state())
        {
            step();
            serverSide = null == serverSide ? accepted.poll() : serverSide;
        }
        // The handshake's tail — the server's NEW_TOKEN once it confirmed the client, and the client's ACK of it —
        // is over before the counting starts.
        for (int i = 0; i < 200; i++)
        {
            step();
        }

        network.dropWhen((datagram) ->
        {
            classify(datagram);
            return false;
        });
        final UnsafeBuffer message = new UnsafeBuffer(new byte[16 * 1024]);
        long received = 0;
        long offered = 0;
        final long totalBytes = 2L * 1024 * 1024;
        final long[] polled = new long[1];
        while (received < totalBytes)
        {
            while (offered < totalBytes && clientSide.offer(message, 0, message.capacity()) > 0)
            {
                offered += message.capacity();
            }
            step();
            serverSide.poll((buffer, offset, length) -> polled[0] += length, 100);
            received = polled[0];
        }

        // The receiver acknowledged hundreds of data packets, and sent a few ack-eliciting packets (flow-control
        // credit); the sender acknowledged those, not the ACK-only packets.
        assertTrue(clientDataPackets > 1000, "data packets " + clientDataPackets);
        assertTrue(serverAckOnlyPackets > 10, "ACK-only packets " + serverAckOnlyPackets);
        assertTrue(serverAckElicitingPackets > 0, "ack-eliciting packets " + serverAckElicitingPackets);
        assertTrue(clientPacketsWithAck <= serverAckElicitingPackets,
            clientPacketsWithAck + " packets with an ACK frame for " + serverAckElicitingPackets + " ack-eliciting");
        assertEquals(0, serverSide.stats().probeTimeouts(), "every ack-eliciting packet was acknowledged in time");
    }

    private void classify(final byte[] datagram)
    {
        final ByteBuffer packet = ByteBuffer.wrap(datagram).order(ByteOrder.LITTLE_ENDIAN);
        boolean hasAck = false;
        boolean hasData = false;
        boolean isAckEliciting = false;
        int offset = PacketHeaderFlyweight.HEADER_LENGTH;
        while (offset + FrameHeaderFlyweight.FRAME_HEADER_LENGTH <= datagram.length)
        {
            final int type = datagram[offset + FrameHeaderFlyweight.FRAME_TYPE_OFFSET] & 0xFF;
            hasAck |= FrameType.ACK == type;
            hasData |= FrameType.DATA == type;
            isAckEliciting |= FrameType.isAckEliciting(type);
            offset += FrameHeaderFlyweight.FRAME_HEADER_LENGTH +
                packet.getInt(offset + FrameHeaderFlyweight.BODY_LENGTH_OFFSET);
        }
        if (hasData)
        {
            clientDataPackets++;
            if (hasAck)
            {
                clientPacketsWithAck++;
            }
        }
        else if (isAckEliciting)
        {
            serverAckElicitingPackets++;
        }
        else if (hasAck)
        {
            serverAckOnlyPackets++;
        }
    }

    private void step()
    {
        nowNs += STEP_NS;
        client.doWork(nowNs);
        server.doWork(nowNs);
    }

    private static EndpointCore newCore(
        final TestNetwork.Port port, final boolean accept, final ArrayDeque<Connection> accepted)
    {
        final PacelinkContext context = new PacelinkContext()
            .congestionControl(FixedWindowController.NAME)
            .acceptConnections(accept)
            .sendBufferBytes(256 * 1024)
            .receiveBufferBytes(256 * 1024)
            .maxMessageLengthBytes(64 * 1024)
            .initialRttNs(TimeUnit.MILLISECONDS.toNanos(10))
            .countersBufferBytes(256 * 1024);
        return new EndpointCore(
            context,
            port,
            CongestionControlRegistry.of(FixedWindowController.factory(64 * 1024)),
            new RoundRobinScheduler(),
            CountersBuffers.newManager(256 * 1024),
            accepted::add);
    }
}
