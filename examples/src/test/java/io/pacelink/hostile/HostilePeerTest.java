package io.pacelink.hostile;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.stream.RangeSet;
import io.pacelink.transport.stream.ReceiveLog;
import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static io.pacelink.hostile.Servers.await;
import static io.pacelink.hostile.Servers.counter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The findings of the hostile-input review (docs/security.md), one test each, played against a running endpoint on
 * loopback by a raw {@link java.nio.channels.DatagramChannel} that writes the attacker's packets by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostilePeerTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long QUIET_NS = TimeUnit.MILLISECONDS.toNanos(300);

    /**
     * The first skipped packet number of a connection lies in [1, 512] (engine's {@code PacketNumbers}: the packets
     * between two skips are drawn below its {@code MAX_PACKETS_BETWEEN_SKIPS}).
     */
    private static final long FIRST_SKIP_BOUND = 512;

    @Test
    void aHelloDeclaringADatagramSizeBelow1200IsRefused()
    {
        try (Endpoint server = Servers.launch((context) -> { });
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            peer.sendHello(20, HostilePeer.HELLO_BYTES, null, 0);
            peer.receiveFor(QUIET_NS);

            assertTrue(peer.received().isEmpty(), "answered a hello it refuses");
            await(() -> 1 == counter(server, "handshakes-refused-parameters"), SECOND_NS, "the refusal counted");
            assertEquals(0, counter(server, "connections-opened"));
        }
    }

    @Test
    void aHelloShorterThan1200BytesIsDroppedUnanswered()
    {
        try (Endpoint server = Servers.launch((context) -> { });
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            final int sent = peer.sendHello(1472, 0, null, 0);
            assertTrue(sent < 100, "a bare hello of " + sent + " bytes");
            peer.receiveFor(QUIET_NS);

            assertTrue(peer.received().isEmpty(), "answered a hello below the floor");
            await(() -> 1 == counter(server, "handshakes-too-small"), SECOND_NS, "the drop counted");
        }
    }

    @Test
    void aHelloOfAnotherVersionIsRefusedClearlyInItsOwnVersion()
    {
        try (Endpoint server = Servers.launch((context) -> { });
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            final UnsafeBuffer hello = new UnsafeBuffer(new byte[HostilePeer.HELLO_BYTES]);
            final PacketWriter writer = new PacketWriter().wrap(hello, 0, hello.capacity());
            writer.writeHeader(PacketType.HANDSHAKE, 0, 0);
            writer.appendHandshake(peer.clientId, false, 1472, 1_000, 30_000, 1 << 20, 1 << 20, null, 0, 0);
            writer.appendPadding(writer.remaining());
            hello.putByte(PacketHeaderFlyweight.VERSION_OFFSET, (byte)1);
            peer.sendRaw(hello, writer.length());

            final byte[] refusal = peer.awaitPacket(PacketType.CLOSE, SECOND_NS);
            assertEquals(1, refusal[PacketHeaderFlyweight.VERSION_OFFSET], "written in the client's version");
            final UnsafeBuffer refusalBuffer = new UnsafeBuffer(refusal);
            assertEquals(peer.clientId, refusalBuffer.getLong(
                PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET, PacketHeaderFlyweight.BYTE_ORDER));
            final String reason = new String(refusal, StandardCharsets.UTF_8);
            assertTrue(reason.contains("speaks version " + PacketHeaderFlyweight.CURRENT_VERSION), reason);
            assertTrue(refusal.length * 3 <= HostilePeer.HELLO_BYTES, "refusal of " + refusal.length + " bytes");
            await(() -> 1 == counter(server, "handshakes-refused-version"), SECOND_NS, "the refusal counted");
            assertEquals(0, counter(server, "connections-opened"));
        }
    }

    @Test
    void aVersion3HelloIsRefusedInVersion3WithTheTrailerItExpects()
    {
        // Wire version 4 added the ACK frame's ECN counts; a version-3 client checks a CRC32C trailer on everything
        // it receives, so its refusal must carry one, computed over its own version byte.
        try (Endpoint server = Servers.launch((context) -> { });
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            final UnsafeBuffer hello = new UnsafeBuffer(new byte[HostilePeer.HELLO_BYTES]);
            final PacketWriter writer =
                new PacketWriter().wrap(hello, 0, hello.capacity() - Crc32cPacketCheck.TRAILER_LENGTH);
            writer.writeHeader(PacketType.HANDSHAKE, 0, 0);
            writer.appendHandshake(peer.clientId, false, 1472, 1_000, 30_000, 1 << 20, 1 << 20, null, 0, 0);
            writer.appendPadding(writer.remaining());
            hello.putByte(PacketHeaderFlyweight.VERSION_OFFSET, (byte)3);
            final Crc32cPacketCheck crc = new Crc32cPacketCheck();
            peer.sendRaw(hello, crc.seal(hello, 0, writer.length()));

            final byte[] refusal = peer.awaitPacket(PacketType.CLOSE, SECOND_NS);
            assertEquals(3, refusal[PacketHeaderFlyweight.VERSION_OFFSET], "written in the client's version");
            assertTrue(crc.isIntact(new UnsafeBuffer(refusal), 0, refusal.length), "with a valid version-3 trailer");
            final String reason = new String(refusal, StandardCharsets.UTF_8);
            assertTrue(reason.contains("speaks version " + PacketHeaderFlyweight.CURRENT_VERSION), reason);
            await(() -> 1 == counter(server, "handshakes-refused-version"), SECOND_NS, "the refusal counted");
            assertEquals(0, counter(server, "connections-opened"));
        }
    }

    @Test
    void helloesWithoutATokenGetOnlyASmallRetryAndLeaveNoState()
    {
        // Every hello is to draw its RETRY here: the per-source answer rate (HandshakeBudgetTest tests it) is raised
        // above the 500 this test sends.
        try (Endpoint server = Servers.launch(
            (context) -> context.limits().unvalidatedAnswersPerSecondPerSource(10_000));
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            final int countersBefore = Servers.allocatedCounters(server);
            final UnsafeBuffer hello = new UnsafeBuffer(new byte[HostilePeer.HELLO_BYTES]);
            final PacketWriter writer = new PacketWriter().wrap(hello, 0, hello.capacity());
            writer.writeHeader(PacketType.HANDSHAKE, 0, 0);
            writer.appendHandshake(peer.clientId, false, 1472, 1_000, 30_000, 1 << 20, 1 << 20, null, 0, 0);
            writer.appendPadding(writer.remaining() - Crc32cPacketCheck.TRAILER_LENGTH);
            final Crc32cPacketCheck crc = new Crc32cPacketCheck();
            final int hellos = 500;
            for (int i = 0; i < hellos; i++)
            {
                hello.putLong(HostilePeer.helloClientIdOffset(), 1000 + i, PacketHeaderFlyweight.BYTE_ORDER);
                peer.sendRaw(hello, crc.seal(hello, 0, writer.length()));
                if (i % 20 == 19)
                {
                    // Paced, so neither side's socket buffer drops any.
                    final int answered = i + 1;
                    final long deadlineNs = System.nanoTime() + 5 * SECOND_NS;
                    while (peer.received().size() < answered && System.nanoTime() < deadlineNs)
                    {
                        peer.receiveFor(TimeUnit.MILLISECONDS.toNanos(1));
                    }
                }
            }
            await(() -> hellos == counter(server, "retries-sent"), 5 * SECOND_NS, "a RETRY per hello");
            peer.receiveFor(QUIET_NS);

            assertEquals(hellos, peer.received().size());
            for (final byte[] retry : peer.received())
            {
                assertEquals(PacketType.RETRY, retry[PacketHeaderFlyweight.PACKET_TYPE_OFFSET]);
            }
            assertTrue(peer.bytesReceived * 3 <= peer.bytesSent,
                "amplification: sent " + peer.bytesSent + ", got back " + peer.bytesReceived);
            assertEquals(0, counter(server, "connections-opened"));
            assertEquals(countersBefore, Servers.allocatedCounters(server), "no counters for unvalidated peers");
        }
    }

    @Test
    void aValidatedClientThatNeverConfirmsIsNeverAcceptedAndTimesOutWithoutALeak() throws Exception
    {
        try (Endpoint server = Servers.launch((context) -> context.handshakeTimeoutNs(
                TimeUnit.MILLISECONDS.toNanos(500)));
            Servers.SendingApplication application = new Servers.SendingApplication(server, 1 << 20);
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            final int countersBefore = Servers.allocatedCounters(server);
            peer.sendHello(1472, HostilePeer.HELLO_BYTES, null, 0);
            final byte[] retry = peer.awaitPacket(PacketType.RETRY, SECOND_NS);
            final UnsafeBuffer token = new UnsafeBuffer(retry, RetryPacketFlyweight.TOKEN_OFFSET,
                retry.length - RetryPacketFlyweight.TOKEN_OFFSET - Crc32cPacketCheck.TRAILER_LENGTH);
            peer.sendHello(1472, HostilePeer.HELLO_BYTES, token, token.capacity());
            peer.awaitPacket(PacketType.HANDSHAKE, SECOND_NS);

            await(() -> 1 == counter(server, "handshake-timeouts"), 5 * SECOND_NS, "the server's handshake timeout");
            await(() -> 1 == counter(server, "connections-closed"), SECOND_NS, "the connection closed");
            peer.receiveFor(QUIET_NS);

            assertTrue(application.accepted.isEmpty(), "the application got an unconfirmed connection");
            assertTrue(peer.bytesReceived <= 3 * peer.bytesSent,
                "before confirmation sent " + peer.bytesReceived + " bytes for " + peer.bytesSent + " received");
            assertEquals(countersBefore, Servers.allocatedCounters(server), "counter slots returned");
        }
    }

    @Test
    void theClientPadsItsHellosTo1200BytesAndEchoesTheRetryToken()
    {
        try (HostilePeer fakeServer = new HostilePeer(null);
            Endpoint client = Servers.launch((context) -> context.acceptConnections(false)))
        {
            final Connection connection = client.connect(fakeServer.localAddress());
            final byte[] hello = fakeServer.awaitPacket(PacketType.HANDSHAKE, SECOND_NS);
            assertTrue(hello.length >= 1200, "first datagram of " + hello.length + " bytes");

            final long clientId = new UnsafeBuffer(hello).getLong(
                HostilePeer.helloClientIdOffset(), PacketHeaderFlyweight.BYTE_ORDER);
            final UnsafeBuffer token = new UnsafeBuffer("opaque-token".getBytes(StandardCharsets.US_ASCII));
            final UnsafeBuffer retry = new UnsafeBuffer(new byte[64]);
            final PacketWriter writer = new PacketWriter().wrap(retry, 0, retry.capacity());
            writer.writeRetry(clientId, token, 0, token.capacity());
            fakeServer.sendRawTo(
                retry, new Crc32cPacketCheck().seal(retry, 0, writer.length()), client.localAddress());

            final byte[] second = fakeServer.awaitPacket(PacketType.HANDSHAKE, SECOND_NS);
            assertTrue(second.length >= 1200, "second hello of " + second.length + " bytes");
            assertTrue(new String(second, StandardCharsets.US_ASCII).contains("opaque-token"), "token echoed");
            assertEquals(ConnectionState.CONNECTING, connection.state());
        }
    }

    @Test
    void connectionIdsAreRandomAndUnrelated()
    {
        final List<Long> ids = new ArrayList<>();
        for (int launch = 0; launch < 2; launch++)
        {
            try (Endpoint client = Servers.launch((context) -> context.acceptConnections(false)))
            {
                for (int i = 0; i < 2; i++)
                {
                    ids.add(client.connect(new InetSocketAddress("127.0.0.1", 9)).connectionId());
                }
            }
        }
        assertEquals(4, new TreeSet<>(ids).size(), ids.toString());
        for (final long id : ids)
        {
            assertNotEquals(0xe2c1a1555ebf6dfcL, id, "the old seeded id");
        }
        assertNotEquals(ids.get(0) + 1, (long)ids.get(1));
    }

    @Test
    void aCloseOrDataFromAnotherAddressIsDroppedAndCounted()
    {
        try (Endpoint server = Servers.launch((context) -> { });
            Endpoint client = Servers.launch((context) -> context.acceptConnections(false));
            HostilePeer attacker = new HostilePeer(server.localAddress()))
        {
            final Connection clientSide = client.connect(server.localAddress());
            final Connection[] serverSide = new Connection[1];
            await(() -> null != (serverSide[0] = null == serverSide[0] ? server.accept() : serverSide[0]) &&
                ConnectionState.CONNECTED == clientSide.state(), 5 * SECOND_NS, "connect");
            attacker.serverId = serverSide[0].connectionId();
            attacker.nextPacketNumber = 5;

            final UnsafeBuffer forged = new UnsafeBuffer("forged".getBytes(StandardCharsets.US_ASCII));
            attacker.sendOneRtt((writer) ->
            {
                final int offset = writer.appendDataHeader(0, 0, false, 4 + forged.capacity());
                writer.buffer().putInt(offset, forged.capacity(), PacketHeaderFlyweight.BYTE_ORDER);
                writer.buffer().putBytes(offset + 4, forged, 0, forged.capacity());
            });
            attacker.send((writer) ->
            {
                writer.writeHeader(PacketType.CLOSE, attacker.serverId, 6);
                writer.appendClose(0, null, 0, 0);
            });
            await(() -> 2 == counter(server, "packets-from-wrong-address"), SECOND_NS, "both forgeries dropped");

            final UnsafeBuffer real = new UnsafeBuffer(ByteBuffer.allocateDirect(4));
            real.putInt(0, 42);
            assertTrue(clientSide.offer(real, 0, 4) > 0);
            final List<Integer> delivered = new ArrayList<>();
            await(() ->
            {
                serverSide[0].poll((buffer, offset, length) -> delivered.add(length), 10);
                return !delivered.isEmpty();
            }, 5 * SECOND_NS, "the real message");
            assertEquals(List.of(4), delivered, "only the real message was delivered");
            assertEquals(ConnectionState.CONNECTED, serverSide[0].state());
        }
    }

    @Test
    void anAckOfASkippedPacketNumberIsAProtocolViolation() throws Exception
    {
        // The peer cannot tell a skipped number from a packet the kernel dropped (a busy machine overflows its socket
        // buffer), so it does not guess: the server skips its first number within the first FIRST_SKIP_BOUND packets
        // (engine's PacketNumbers), and an ACK of everything up to a number beyond that bound covers it, whatever
        // else was lost. Until then the peer acknowledges honestly what arrived, and only when something new did, so
        // it never looks like a peer without progress.
        try (Endpoint server = Servers.launch((context) -> { });
            Servers.SendingApplication application = new Servers.SendingApplication(server, 64L << 20);
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            peer.handshake(SECOND_NS);
            final TreeSet<Long> received = new TreeSet<>();
            final long deadlineNs = System.nanoTime() + 20 * SECOND_NS;
            while (received.isEmpty() || received.last() <= FIRST_SKIP_BOUND)
            {
                assertTrue(System.nanoTime() < deadlineNs, "no packet beyond " + FIRST_SKIP_BOUND + " in " +
                    received.size());
                peer.receiveFor(TimeUnit.MILLISECONDS.toNanos(2));
                final int before = received.size();
                received.addAll(peer.oneRttPacketNumbers());
                peer.received().clear();
                if (received.size() > before)
                {
                    sendAck(peer, received);
                }
            }

            final long largest = received.last();
            peer.sendOneRtt((writer) -> writer.appendAck(largest, 0, (int)largest, 0));
            await(() -> 1 == counter(server, "acks-of-skipped-packets"), 5 * SECOND_NS, "the violation");
            await(() -> CloseReason.PROTOCOL_VIOLATION == application.accepted.get(0).closeReason(), SECOND_NS,
                "the connection closed");
            assertEquals(1, peer.closeErrorCodeAfterWaiting(SECOND_NS), "PROTOCOL_VIOLATION sent to the peer");
            assertEquals(1, counter(server, "protocol-violations"));
        }
    }

    @Test
    void aPingWithAHugePacketNumberIsDroppedAndNeverAcknowledged() throws Exception
    {
        try (Endpoint server = Servers.launch((context) -> { });
            Servers.SendingApplication application = new Servers.SendingApplication(server, 0);
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            peer.handshake(SECOND_NS);
            peer.send((writer) ->
            {
                writer.writeHeader(PacketType.ONE_RTT, peer.serverId, 1L << 62);
                writer.appendPing();
            });
            await(() -> 1 == counter(server, "packet-numbers-out-of-window"), SECOND_NS, "the drop");
            peer.sendOneRtt(PacketWriter::appendPing);
            peer.sendOneRtt(PacketWriter::appendPing);
            peer.receiveFor(QUIET_NS);

            final long largest = peer.largestAcknowledgedByServer();
            assertTrue(largest >= 0 && largest < 1L << 62, "acknowledged up to " + largest);
            await(() -> 1 == application.accepted.size(), SECOND_NS, "accepted");
            assertEquals(ConnectionState.CONNECTED, application.accepted.get(0).state());
        }
    }

    @Test
    void descendingOneByteFragmentsHitTheReassemblyLimitByMemory() throws Exception
    {
        // No count configured: the limit is the range bookkeeping an eighth of the 1 MiB window pays for (5,242
        // ranges), which this peer reaches with about 5 KB of data; legitimate packets would need under 1 %.
        final int receiveBufferBytes = 1 << 20;
        final long maxRanges = ReceiveLog.maxGapMemoryBytes(receiveBufferBytes) / RangeSet.BYTES_PER_RANGE;
        try (Endpoint server = Servers.launch((context) -> context.receiveBufferBytes(receiveBufferBytes));
            Servers.SendingApplication application = new Servers.SendingApplication(server, 0);
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            peer.handshake(SECOND_NS);
            final long start = receiveBufferBytes - 100;
            final int fragmentsPerPacket = 40;
            for (int fragment = 0; fragment < maxRanges + 2L * fragmentsPerPacket; fragment += fragmentsPerPacket)
            {
                final int first = fragment;
                peer.sendOneRtt((writer) ->
                {
                    for (int i = first; i < first + fragmentsPerPacket; i++)
                    {
                        final int offset = writer.appendDataHeader(0, start - 2L * i, false, 1);
                        writer.buffer().putByte(offset, (byte)i);
                    }
                });
            }

            await(() -> 1 == counter(server, "reassembly-limit-closes"), 5 * SECOND_NS, "the limit");
            await(() -> 1 == application.accepted.size() &&
                CloseReason.PROTOCOL_VIOLATION == application.accepted.get(0).closeReason(), SECOND_NS, "the close");
            assertEquals(1, peer.closeErrorCodeAfterWaiting(SECOND_NS));
            assertTrue(peer.closeReasonText().contains("reassembly limit"), peer.closeReasonText());
            assertEquals(1, counter(server, "protocol-violations"), "counted once per connection");
        }
    }

    @Test
    void overlappingDataWithDifferentBytesIsAProtocolViolation() throws Exception
    {
        try (Endpoint server = Servers.launch((context) -> { });
            Servers.SendingApplication application = new Servers.SendingApplication(server, 0);
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            peer.handshake(SECOND_NS);
            // Out of order, so neither copy is consumed before the second arrives.
            sendData(peer, 1_000, 100, (byte)'a');
            sendData(peer, 1_050, 100, (byte)'a');
            await(() -> 1 == application.accepted.size(), SECOND_NS, "accepted");
            assertEquals(ConnectionState.CONNECTED, application.accepted.get(0).state(), "equal bytes are fine");

            sendData(peer, 1_100, 100, (byte)'b');
            await(() -> 1 == counter(server, "data-mismatch-closes"), SECOND_NS, "the mismatch");
            await(() -> CloseReason.PROTOCOL_VIOLATION == application.accepted.get(0).closeReason(), SECOND_NS,
                "the close");
        }
    }

    @Test
    void aPeerThatKeepsTheConnectionAliveButNeverAcknowledgesIsDeclaredDead() throws Exception
    {
        try (Endpoint server = Servers.launch((context) -> context.limits().maxUnacknowledgedPtos(3));
            Servers.SendingApplication application = new Servers.SendingApplication(server, 1 << 20);
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            peer.handshake(SECOND_NS);
            await(() -> 1 == application.accepted.size(), SECOND_NS, "accepted");
            final Connection connection = application.accepted.get(0);
            final long deadlineNs = System.nanoTime() + 20 * SECOND_NS;
            while (ConnectionState.CLOSED != connection.state())
            {
                assertTrue(System.nanoTime() < deadlineNs, "still open: " + connection);
                // Padding keeps the connection from idling out; no ACK ever.
                peer.sendOneRtt((writer) -> writer.appendPadding(100));
                peer.receiveFor(TimeUnit.MILLISECONDS.toNanos(20));
            }
            assertEquals(CloseReason.PEER_UNRESPONSIVE, connection.closeReason());
            assertEquals(1, counter(server, "dead-peer-closes"));
        }
    }

    @Test
    void aReceiptForDataNeverSentIsAProtocolViolation() throws Exception
    {
        try (Endpoint server = Servers.launch((context) -> { });
            Servers.SendingApplication application = new Servers.SendingApplication(server, 0);
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            peer.handshake(SECOND_NS);
            // The server's application sent nothing: a receipt for a MiB consumed would let a graceful close report
            // undelivered data as delivered.
            peer.sendOneRtt((writer) -> writer.appendConsumed(0, 1L << 20, 1));
            await(() -> 1 == application.accepted.size() &&
                CloseReason.PROTOCOL_VIOLATION == application.accepted.get(0).closeReason(), 5 * SECOND_NS,
                "the connection closed");
            assertEquals(1, peer.closeErrorCodeAfterWaiting(SECOND_NS), "PROTOCOL_VIOLATION sent to the peer");
            assertEquals(1, counter(server, "protocol-violations"));
        }
    }

    @Test
    void protocolViolationsAreCountedOncePerConnection() throws Exception
    {
        try (Endpoint server = Servers.launch((context) -> { });
            Servers.SendingApplication application = new Servers.SendingApplication(server, 0);
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            peer.handshake(SECOND_NS);
            for (int i = 0; i < 5; i++)
            {
                // Far beyond the flow-control credit: a violation in every frame of every packet.
                peer.sendOneRtt((writer) ->
                {
                    for (int frame = 0; frame < 3; frame++)
                    {
                        writer.appendDataHeader(0, 1L << 40, false, 1);
                    }
                });
            }
            await(() -> 1 == application.accepted.size() &&
                ConnectionState.CLOSED == application.accepted.get(0).state(), 5 * SECOND_NS, "the close");
            peer.receiveFor(QUIET_NS);
            assertEquals(1, counter(server, "protocol-violations"));
        }
    }

    private static void sendData(final HostilePeer peer, final long offset, final int length, final byte fill)
    {
        peer.sendOneRtt((writer) ->
        {
            final int payloadOffset = writer.appendDataHeader(0, offset, false, length);
            writer.buffer().setMemory(payloadOffset, length, fill);
        });
    }

    /**
     * Acknowledge exactly the packet numbers received, newest ranges first (at most 64 of them).
     */
    private static void sendAck(final HostilePeer peer, final TreeSet<Long> received)
    {
        if (received.isEmpty())
        {
            return;
        }
        final List<long[]> ranges = new ArrayList<>();
        for (final long packetNumber : received.descendingSet())
        {
            final long[] last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
            if (null != last && last[0] == packetNumber + 1)
            {
                last[0] = packetNumber;
            }
            else
            {
                ranges.add(new long[]{ packetNumber, packetNumber });
            }
        }
        final int additional = Math.min(64, ranges.size() - 1);
        peer.sendOneRtt((writer) ->
        {
            final long[] first = ranges.get(0);
            final int frameOffset = writer.appendAck(first[1], 0, (int)(first[1] - first[0]), additional);
            final AckFrameFlyweight ack = new AckFrameFlyweight();
            ack.wrap(writer.buffer(), frameOffset);
            for (int i = 1; i <= additional; i++)
            {
                final long[] range = ranges.get(i);
                final long gap = ranges.get(i - 1)[0] - range[1] - 2;
                ack.range(i - 1, (int)gap, (int)(range[1] - range[0]));
            }
        });
    }
}
