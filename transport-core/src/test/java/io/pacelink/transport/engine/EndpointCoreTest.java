package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.testing.TestPackets;
import io.pacelink.transport.testing.TestNetwork;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sans-IO endpoint core driven by hand: two cores over an in-memory network, time advanced by the test. No
 * sockets, no threads, no sleeps.
 */
class EndpointCoreTest
{
    private static final long IDLE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(2);
    private static final long HANDSHAKE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);

    private final CoreTestBed bed = new CoreTestBed(IDLE_TIMEOUT_NS, HANDSHAKE_TIMEOUT_NS);
    private final TestNetwork network = bed.network();
    private TestNetwork.Port serverPort;
    private TestNetwork.Port clientPort;
    private EndpointCore server;
    private EndpointCore client;

    @BeforeEach
    void setUp()
    {
        serverPort = network.newPort(1000);
        clientPort = network.newPort(2000);
        server = newCore(serverPort, true, 16);
        client = newCore(clientPort, false, 16);
    }

    private EndpointCore newCore(final TestNetwork.Port port, final boolean accept, final int maxConnections)
    {
        return bed.newCore(port, accept, maxConnections);
    }

    private EndpointCore newCore(
        final TestNetwork.Port port,
        final boolean accept,
        final int maxConnections,
        final CongestionControlRegistry registry)
    {
        return bed.newCore(port, accept, maxConnections, new PacelinkContext(), new ArrayList<>(), registry);
    }

    private EndpointCore newCore(
        final TestNetwork.Port port,
        final boolean accept,
        final int maxConnections,
        final PacelinkContext context,
        final List<FixedWindowController> controllers)
    {
        return bed.newCore(port, accept, maxConnections, context, controllers, null);
    }

    private Connection accept(final EndpointCore core)
    {
        return bed.accept(core);
    }

    private void run(final BooleanSupplier until, final long maxNs, final String what)
    {
        bed.run(until, maxNs, what);
    }

    private void runFor(final long durationNs)
    {
        bed.runFor(durationNs);
    }

    private void step()
    {
        bed.step();
    }

    private long nowNs()
    {
        return bed.nowNs();
    }

    private Connection[] connect()
    {
        return bed.connect(client, server, serverPort);
    }

    @Test
    void connectsAndDeliversMessagesInOrder()
    {
        final Connection[] pair = connect();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[1000]);
        final List<Integer> received = new ArrayList<>();
        for (int i = 0; i < 200; i++)
        {
            message.putInt(0, i);
            while (pair[0].offer(message, 0, 4 + i) < 0)
            {
                step();
            }
        }
        run(() ->
        {
            pair[1].poll((buffer, offset, length) ->
            {
                assertEquals(4 + buffer.getInt(offset), length);
                received.add(buffer.getInt(offset));
            }, 100);
            return received.size() == 200;
        }, TimeUnit.SECONDS.toNanos(1), "delivery");

        for (int i = 0; i < 200; i++)
        {
            assertEquals(i, received.get(i));
        }
        assertTrue(pair[0].stats().smoothedRttNs() > 0);
        assertEquals(0, server.counters().malformedDropped().get());
    }

    @Test
    void negotiatedDatagramSizeAndPeerAckDelayReachEveryUser()
    {
        // Issue 9 items 8 and 9: the client offers 1400-byte datagrams and a 3 ms max_ack_delay, the server 1200 and
        // 7 ms. Both sides must use 1200 from the handshake on, and each controller must see the peer's ACK delay.
        final List<FixedWindowController> clientControllers = new ArrayList<>();
        final List<FixedWindowController> serverControllers = new ArrayList<>();
        final TestNetwork.Port smallPort = network.newPort(4000);
        final TestNetwork.Port largePort = network.newPort(5000);
        final EndpointCore small = newCore(smallPort, true, 16, new PacelinkContext()
            .maxDatagramSizeBytes(1200).maxAckDelayNs(TimeUnit.MILLISECONDS.toNanos(7)), serverControllers);
        final EndpointCore large = newCore(largePort, false, 16, new PacelinkContext()
            .maxDatagramSizeBytes(1400).maxAckDelayNs(TimeUnit.MILLISECONDS.toNanos(3)), clientControllers);

        final Connection clientSide = large.connect(smallPort.localAddress(), null, nowNs());
        final Connection[] serverSide = new Connection[1];
        run(() -> (null != serverSide[0] || null != (serverSide[0] = accept(small))) &&
            ConnectionState.CONNECTED == clientSide.state(), TimeUnit.SECONDS.toNanos(1), "connect");
        assertEquals(1400, largePort.takeLargestSentBytes(), "the client's padded handshake proves its own size");

        final FixedWindowController client = clientControllers.get(0);
        final FixedWindowController server = serverControllers.get(0);
        assertEquals(List.of(1200), client.mtuChanges);
        assertEquals(1200, client.context.maxDatagramSizeBytes());
        assertEquals(2400, client.context.minimumWindowBytes());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(7), client.context.maxAckDelayNs());
        assertEquals(List.of(), server.mtuChanges);
        assertEquals(1200, server.context.maxDatagramSizeBytes());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(3), server.context.maxAckDelayNs());

        final UnsafeBuffer message = new UnsafeBuffer(new byte[20_000]);
        assertTrue(clientSide.offer(message, 0, message.capacity()) > 0);
        final long[] bytes = new long[1];
        run(() -> serverSide[0].poll((buffer, offset, length) -> bytes[0] += length, 10) > 0,
            TimeUnit.SECONDS.toNanos(1), "delivery");
        assertEquals(1200, largePort.takeLargestSentBytes(), "data packets are built at the negotiated size");
    }

    @Test
    void dropsAndCountsMalformedDatagramsWithoutHarmingConnections()
    {
        final Connection[] pair = connect();
        final InetSocketAddress attacker = new InetSocketAddress("127.0.0.1", 6666);
        final List<byte[]> garbage = new ArrayList<>();
        garbage.add(new byte[0]);
        garbage.add(new byte[]{ 1, 2, 3, 4, 5 });
        // Each is damaged before its CRC32C is computed, so the check passes and the decoder must catch it.
        final byte[] badVersion = TestPackets.withoutCrc(validPacket(pair[1].connectionId(), 5));
        badVersion[0] = 9;
        garbage.add(TestPackets.withCrc(badVersion));
        final byte[] hugeFrame = TestPackets.withoutCrc(validPacket(pair[1].connectionId(), 6));
        new UnsafeBuffer(hugeFrame).putInt(20 + 4, 0xFFFFFFFF, ByteOrder.LITTLE_ENDIAN);
        garbage.add(TestPackets.withCrc(hugeFrame));
        final byte[] truncated = TestPackets.withoutCrc(validPacket(pair[1].connectionId(), 7));
        garbage.add(TestPackets.withCrc(java.util.Arrays.copyOf(truncated, truncated.length - 3)));

        for (final byte[] datagram : garbage)
        {
            serverPort.inject(datagram, attacker);
        }
        step();

        assertEquals(garbage.size(), server.counters().malformedDropped().get());
        assertEquals(0, server.counters().errors().get());

        final UnsafeBuffer message = new UnsafeBuffer(new byte[]{ 42 });
        assertTrue(pair[0].offer(message, 0, 1) > 0);
        final byte[][] got = new byte[1][];
        run(() -> pair[1].poll((buffer, offset, length) ->
        {
            got[0] = new byte[length];
            buffer.getBytes(offset, got[0]);
        }, 1) > 0, TimeUnit.SECONDS.toNanos(1), "message after garbage");
        assertArrayEquals(new byte[]{ 42 }, got[0]);
    }

    private static byte[] validPacket(final long destinationId, final long packetNumber)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final PacketWriter writer = new PacketWriter().wrap(buffer, 0, 64);
        writer.writeHeader(PacketType.ONE_RTT, destinationId, packetNumber);
        writer.appendPing();
        final byte[] datagram = TestPackets.withCrc(buffer, writer.length());
        return datagram;
    }

    @Test
    void aSpoofedPingWithAHugePacketNumberFromThePeersAddressIsDroppedUnacknowledged()
    {
        final Connection[] pair = connect();
        // An off-path attacker who spoofs the client's address and guessed the id: the window still holds.
        serverPort.inject(validPacket(pair[1].connectionId(), 1L << 62), clientPort.localAddress());
        step();
        assertEquals(1, server.securityCounters().packetNumbersOutOfWindow().get());

        final UnsafeBuffer message = new UnsafeBuffer(new byte[]{ 7 });
        assertTrue(pair[0].offer(message, 0, 1) > 0);
        run(() -> pair[1].poll((buffer, offset, length) -> { }, 1) > 0, TimeUnit.SECONDS.toNanos(1), "delivery");
        runFor(TimeUnit.MILLISECONDS.toNanos(50));
        assertEquals(ConnectionState.CONNECTED, pair[0].state(), "no ACK of 2^62 reached the client");
        assertEquals(0, client.counters().protocolViolations().get());
    }

    @Test
    void packetsFromAnotherAddressAreDroppedAndCounted()
    {
        final Connection[] pair = connect();
        final InetSocketAddress attacker = new InetSocketAddress("127.0.0.1", 6666);
        serverPort.inject(validPacket(pair[1].connectionId(), 100), attacker);
        step();
        assertEquals(1, server.securityCounters().packetsFromWrongAddress().get());
        assertEquals(ConnectionState.CONNECTED, pair[1].state());
    }

    @Test
    void anAckOfAnUnsentPacketInAPacketWithDataClosesTheConnectionInTheCycleItArrives()
    {
        final Connection[] pair = connect();
        // A DATA frame makes it a packet whose valid ACK frame would be parked until the answer is sent
        // (FrameReceiver#onAck): this one is checked at once all the same.
        final UnsafeBuffer forged = new UnsafeBuffer(new byte[64]);
        final PacketWriter writer = new PacketWriter().wrap(forged, 0, 64);
        writer.writeHeader(PacketType.ONE_RTT, pair[1].connectionId(), 1_000_000);
        writer.appendAck(1_000_000, 0, 0, 0);
        writer.appendDataHeader(ConnectionCore.STREAM_ID, 0, false, 0);
        serverPort.inject(TestPackets.withCrc(forged, writer.length()), clientPort.localAddress());
        step();
        assertEquals(CloseReason.PROTOCOL_VIOLATION, pair[1].closeReason(), "closed by the cycle that read it");
        assertEquals(1, server.securityCounters().acksOfSkippedPackets().get());
        assertEquals(1, server.counters().protocolViolations().get());
    }

    @Test
    void anAckOfASkippedPacketNumberClosesTheConnectionAsAViolationCountedOnce()
    {
        final Connection[] pair = connect();
        final long[] largest = {-1};
        final long[] skipped = {-1};
        network.dropWhen((datagram) ->
        {
            final UnsafeBuffer packet = new UnsafeBuffer(datagram);
            if (PacketType.ONE_RTT == datagram[1] &&
                packet.getLong(4, ByteOrder.LITTLE_ENDIAN) == pair[0].connectionId())
            {
                final long packetNumber = packet.getLong(12, ByteOrder.LITTLE_ENDIAN);
                if (skipped[0] < 0 && packetNumber > largest[0] + 1 && largest[0] >= 0)
                {
                    skipped[0] = largest[0] + 1;
                }
                largest[0] = Math.max(largest[0], packetNumber);
            }
            return false;
        });
        final UnsafeBuffer message = new UnsafeBuffer(new byte[1000]);
        run(() ->
        {
            pair[1].offer(message, 0, message.capacity());
            pair[0].poll((buffer, offset, length) -> { }, 100);
            return skipped[0] >= 0;
        }, TimeUnit.SECONDS.toNanos(5), "a skipped packet number");

        final long acked = largest[0];
        final UnsafeBuffer forged = new UnsafeBuffer(new byte[64]);
        for (int i = 0; i < 3; i++)
        {
            final PacketWriter writer = new PacketWriter().wrap(forged, 0, 64);
            writer.writeHeader(PacketType.ONE_RTT, pair[1].connectionId(), 1_000_000 + i);
            writer.appendAck(acked, 0, (int)acked, 0);
            final byte[] datagram = TestPackets.withCrc(forged, writer.length());
            serverPort.inject(datagram, clientPort.localAddress());
        }
        run(() -> ConnectionState.CLOSED == pair[1].state(), TimeUnit.SECONDS.toNanos(1), "the close");
        assertEquals(CloseReason.PROTOCOL_VIOLATION, pair[1].closeReason());
        assertEquals(1, server.securityCounters().acksOfSkippedPackets().get());
        assertEquals(1, server.counters().protocolViolations().get(), "three forged ACKs, one violation");
    }

    @Test
    void withSkippingSwitchedOffASimulatedEndpointNumbersItsPacketsWithoutGaps()
    {
        server.close(nowNs());
        server = newCore(serverPort, true, 16, new PacelinkContext().packetNumberSkipping(false), new ArrayList<>());
        final Connection[] pair = connect();
        final long[] largest = {-1};
        final long[] gaps = {0};
        network.dropWhen((datagram) ->
        {
            final UnsafeBuffer packet = new UnsafeBuffer(datagram);
            if (PacketType.ONE_RTT == datagram[1] &&
                packet.getLong(4, ByteOrder.LITTLE_ENDIAN) == pair[0].connectionId())
            {
                final long packetNumber = packet.getLong(12, ByteOrder.LITTLE_ENDIAN);
                gaps[0] += largest[0] >= 0 && packetNumber > largest[0] + 1 ? 1 : 0;
                largest[0] = Math.max(largest[0], packetNumber);
            }
            return false;
        });
        final UnsafeBuffer message = new UnsafeBuffer(new byte[1000]);
        run(() ->
        {
            pair[1].offer(message, 0, message.capacity());
            pair[0].poll((buffer, offset, length) -> { }, 100);
            return largest[0] >= 2_000;
        }, TimeUnit.SECONDS.toNanos(5), "2000 packets");
        assertEquals(0, gaps[0], "no packet number skipped in " + largest[0]);

        assertThrows(IllegalStateException.class, () -> new PacelinkContext().packetNumberSkipping(false).conclude(),
            "refused on a real socket");
    }

    @Test
    void aClientFollowsAtMostTwoRetries()
    {
        final TestNetwork.Port fakeServer = network.newPort(8000);
        final Connection connection = client.connect(fakeServer.localAddress(), null, nowNs());
        step();
        final UnsafeBuffer retry = new UnsafeBuffer(new byte[64]);
        final PacketWriter writer = new PacketWriter().wrap(retry, 0, 64);
        writer.writeRetry(connection.connectionId(), new UnsafeBuffer(new byte[]{ 1, 2, 3 }), 0, 3);
        final byte[] datagram = TestPackets.withCrc(retry, writer.length());

        final long sentBefore = clientPort.sent();
        for (int i = 0; i < 10; i++)
        {
            clientPort.inject(datagram, fakeServer.localAddress());
            step();
        }
        assertEquals(2, clientPort.sent() - sentBefore, "one new hello per RETRY followed, two at most");

        // A client with one peer restricts its port to it, as a connected socket (ICMP reports), so nothing from
        // elsewhere arrives; with a second peer its port hears everyone, and the core checks the source itself.
        assertEquals(fakeServer.localAddress(), clientPort.restrictedTo());
        client.connect(network.newPort(8001).localAddress(), null, nowNs());
        step();
        assertEquals(null, clientPort.restrictedTo());
        clientPort.inject(datagram, new InetSocketAddress("127.0.0.1", 9999));
        step();
        assertEquals(1, client.securityCounters().packetsFromWrongAddress().get(), "a RETRY from elsewhere");
    }

    @Test
    void theFirstDataPacketConfirmsTheHandshakeWithoutAPingAheadOfIt()
    {
        final Connection clientSide = client.connect(serverPort.localAddress(), null, nowNs());
        final List<Integer> clientFirstFrames = recordFirstFramesTowardsOtherThan(clientSide.connectionId());
        run(() -> ConnectionState.CONNECTED == clientSide.state(), TimeUnit.SECONDS.toNanos(1), "connected");
        // The application offers as soon as it hears of the connection, as the simulator's and most senders do.
        final UnsafeBuffer message = new UnsafeBuffer(new byte[1000]);
        assertTrue(clientSide.offer(message, 0, message.capacity()) > 0);
        run(() -> null != accept(server), TimeUnit.SECONDS.toNanos(1), "accepted");

        assertEquals(FrameType.DATA, clientFirstFrames.get(0), "packet 0 carries the data and confirms");
        assertTrue(!clientFirstFrames.contains(FrameType.PING), "no PING: " + clientFirstFrames);
    }

    @Test
    void aClientWithNothingToSendConfirmsTheHandshakeWithAPing()
    {
        final Connection clientSide = client.connect(serverPort.localAddress(), null, nowNs());
        final List<Integer> clientFirstFrames = recordFirstFramesTowardsOtherThan(clientSide.connectionId());
        run(() -> null != accept(server), TimeUnit.SECONDS.toNanos(1), "accepted");
        assertEquals(List.of(FrameType.PING), clientFirstFrames, "the confirmation went alone");
    }

    /**
     * @param clientId the client's connection id: packets to it are the server's.
     * @return the first frame type of every ONE_RTT packet the client sends, in order.
     */
    private List<Integer> recordFirstFramesTowardsOtherThan(final long clientId)
    {
        final List<Integer> firstFrames = new ArrayList<>();
        network.dropWhen((datagram) ->
        {
            final UnsafeBuffer packet = new UnsafeBuffer(datagram);
            if (PacketType.ONE_RTT == datagram[1] && clientId != packet.getLong(4, ByteOrder.LITTLE_ENDIAN) &&
                datagram.length > PacketHeaderFlyweight.HEADER_LENGTH)
            {
                firstFrames.add(datagram[PacketHeaderFlyweight.HEADER_LENGTH] & 0xFF);
            }
            return false;
        });
        return firstFrames;
    }

    @Test
    void aServerConnectionWhoseClientNeverConfirmsTimesOutUnseenWithoutLeakingCounters()
    {
        // The client's confirming packets never arrive: the server never hands the connection over.
        network.dropWhen((datagram) -> PacketType.ONE_RTT == datagram[1]);
        client.connect(serverPort.localAddress(), null, nowNs());
        run(() -> 1 == server.securityCounters().handshakeTimeouts().get(), 2 * HANDSHAKE_TIMEOUT_NS,
            "the server's handshake timeout");
        assertEquals(null, accept(server));
        assertEquals(1, server.counters().connectionsClosed().get());
    }

    @Test
    void aPeerThatKeepsTheConnectionAliveButNeverAcknowledgesIsDeclaredDead()
    {
        // Its padding makes no progress either: the progress bound (LivenessByProgressTest) is lifted here so the
        // dead-peer limit is what ends it.
        final PacelinkContext context = new PacelinkContext();
        context.limits().maxPacketsWithoutProgress(1_000_000);
        bed.stop(server);
        server = newCore(serverPort, true, 16, context, new ArrayList<>());
        final Connection[] pair = connect();
        // The real client is cut off both ways; only the attacker's padding reaches the server.
        network.dropWhen((datagram) -> true);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[1000]);
        assertTrue(pair[1].offer(message, 0, message.capacity()) > 0);
        final UnsafeBuffer padding = new UnsafeBuffer(new byte[128]);
        long packetNumber = 1 << 20;
        final long deadlineNs = nowNs() + TimeUnit.SECONDS.toNanos(60);
        while (ConnectionState.CLOSED != pair[1].state())
        {
            assertTrue(nowNs() < deadlineNs, "still open: " + pair[1]);
            // Padding from the client's address keeps the idle timer quiet; no ACK ever arrives.
            final PacketWriter writer = new PacketWriter().wrap(padding, 0, padding.capacity());
            writer.writeHeader(PacketType.ONE_RTT, pair[1].connectionId(), packetNumber++);
            writer.appendPadding(100);
            final byte[] datagram = TestPackets.withCrc(padding, writer.length());
            serverPort.inject(datagram, clientPort.localAddress());
            runFor(TimeUnit.MILLISECONDS.toNanos(10));
        }
        assertEquals(CloseReason.PEER_UNRESPONSIVE, pair[1].closeReason());
        assertEquals(1, server.securityCounters().deadPeerCloses().get());
    }

    @Test
    void aConnectionThatCannotMakeProgressIsNotReleasedAgainInTheSameDutyCycle()
    {
        final List<FixedWindowController> controllers = new ArrayList<>();
        final TestNetwork.Port flappingPort = network.newPort(4000);
        final EndpointCore flapping = newCore(flappingPort, false, 16, new PacelinkContext(), controllers);
        // A server that sends nothing ack-eliciting: its NEW_TOKEN would draw an ACK from the client in one of the
        // cycles counted, a packet beside the one the window allows.
        final TestNetwork.Port quietPort = network.newPort(4001);
        final PacelinkContext quietContext = new PacelinkContext();
        quietContext.limits().newTokenLifetimeNs(0);
        final EndpointCore quiet = newCore(quietPort, true, 16, quietContext, new ArrayList<>());
        final Connection clientSide = flapping.connect(quietPort.localAddress(), null, nowNs());
        run(() -> ConnectionState.CONNECTED == clientSide.state() && null != accept(quiet),
            TimeUnit.SECONDS.toNanos(1), "connect");

        controllers.get(0).flap();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[60_000]);
        assertTrue(clientSide.offer(message, 0, message.capacity()) > 0);
        for (int i = 0; i < 50; i++)
        {
            final long sentBefore = flappingPort.sent();
            controllers.get(0).startDutyCycle();
            step();
            assertTrue(flappingPort.sent() - sentBefore <= 1, "cycle " + i + " sent " +
                (flappingPort.sent() - sentBefore) + " packets");
        }
        assertTrue(flapping.securityCounters().stalledSends().get() > 0);
    }

    @Test
    void countsPacketsForUnknownConnections()
    {
        serverPort.inject(validPacket(0x1234, 0), new InetSocketAddress("127.0.0.1", 7777));
        step();
        assertEquals(1, server.counters().unknownConnection().get());
        assertEquals(0, server.counters().malformedDropped().get());
    }

    @Test
    void acknowledgementOfAPacketNeverSentClosesTheConnection()
    {
        final Connection[] pair = connect();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        final PacketWriter writer = new PacketWriter().wrap(buffer, 0, 128);
        writer.writeHeader(PacketType.ONE_RTT, pair[1].connectionId(), 1_000);
        writer.appendAck(1_000_000, 0, 0, 0);
        final byte[] datagram = TestPackets.withCrc(buffer, writer.length());
        serverPort.inject(datagram, clientPort.localAddress());

        run(() -> ConnectionState.CLOSED == pair[1].state(), TimeUnit.SECONDS.toNanos(1), "server close");
        assertEquals(CloseReason.PROTOCOL_VIOLATION, pair[1].closeReason());
        assertEquals(1, server.counters().protocolViolations().get());
        run(() -> ConnectionState.CLOSED == pair[0].state(), TimeUnit.SECONDS.toNanos(1), "client close");
        assertEquals(CloseReason.PROTOCOL_VIOLATION, pair[0].closeReason(), "the server says the client broke it");
    }

    @Test
    void handshakeTimesOutWhenNobodyAnswers()
    {
        // A port that swallows everything: no answer, and no ICMP report either (a firewall that drops).
        final TestNetwork.Port blackHole = network.newPort(9);
        final Connection connection = client.connect(blackHole.localAddress(), null, nowNs());
        run(() -> ConnectionState.CLOSED == connection.state(), 2 * HANDSHAKE_TIMEOUT_NS, "handshake timeout");
        assertEquals(CloseReason.HANDSHAKE_TIMEOUT, connection.closeReason());
        assertTrue(clientPort.sent() >= 3, "the handshake was retried: " + clientPort.sent());
    }

    @Test
    void serverRunsTheControllerItsClientAskedForWhenItHasIt()
    {
        final CongestionControlRegistry both = CongestionControlRegistry.of(
            FixedWindowController.factory(64 * 1024), FixedWindowController.factory("test-small", 16 * 1024));
        final CongestionControlRegistry clientOnly = CongestionControlRegistry.of(
            FixedWindowController.factory(64 * 1024), FixedWindowController.factory("test-client-only", 16 * 1024));
        final TestNetwork.Port choosingServerPort = network.newPort(3000);
        final EndpointCore choosingServer = newCore(choosingServerPort, true, 16, both);
        final EndpointCore choosingClient = newCore(network.newPort(4000), false, 16, clientOnly);

        final Connection known = newCore(network.newPort(5000), false, 16, both)
            .connect(choosingServerPort.localAddress(), "test-small", nowNs());
        final Connection unknown =
            choosingClient.connect(choosingServerPort.localAddress(), "test-client-only", nowNs());
        final Connection unnamed = choosingClient.connect(choosingServerPort.localAddress(), null, nowNs());
        run(() -> ConnectionState.CONNECTED == known.state() && ConnectionState.CONNECTED == unknown.state() &&
            ConnectionState.CONNECTED == unnamed.state(), TimeUnit.SECONDS.toNanos(1), "connect");
        // The server hands each connection over once its client's confirming packet arrives.
        runFor(TimeUnit.MILLISECONDS.toNanos(10));

        final List<String> served = new ArrayList<>();
        Connection accepted;
        while (null != (accepted = accept(choosingServer)))
        {
            served.add(accepted.remoteAddress().getPort() + " " + accepted.congestionControl());
        }
        served.sort(null);
        assertEquals(List.of("4000 test-fixed", "4000 test-fixed", "5000 test-small"), served,
            "the client's choice when the server has it, else the server's own (the default client asks for its " +
                "context's, test-fixed)");
    }

    @Test
    void serverRejectsConnectionsBeyondItsLimit()
    {
        final TestNetwork.Port limitedPort = network.newPort(3000);
        final EndpointCore limited = newCore(limitedPort, true, 1);
        final Connection first = client.connect(limitedPort.localAddress(), null, nowNs());
        final Connection second = client.connect(limitedPort.localAddress(), null, nowNs());
        // Both hellos arrive together and both handshakes are held (unconfirmed ones have their own budget); the
        // confirmation that arrives second finds the limit reached and is refused with a CLOSE (REJECTED), which
        // its client drains for three PTOs before it is CLOSED.
        run(() -> ConnectionState.CLOSED == first.state() || ConnectionState.CLOSED == second.state(),
            TimeUnit.SECONDS.toNanos(5), "rejection");
        final Connection refused = ConnectionState.CLOSED == first.state() ? first : second;
        final Connection kept = refused == first ? second : first;
        assertEquals(CloseReason.REJECTED, refused.closeReason());
        assertEquals(ConnectionState.CONNECTED, kept.state());
        assertEquals(1, limited.counters().connectionsRejected().get());

        // With the limit reached, a new hello is refused at once.
        final Connection third = client.connect(limitedPort.localAddress(), null, nowNs());
        run(() -> ConnectionState.CLOSED == third.state(), TimeUnit.SECONDS.toNanos(1), "the third's rejection");
        assertEquals(CloseReason.REJECTED, third.closeReason());
    }

    @Test
    void gracefulCloseDeliversEverythingThenClosesBothSides()
    {
        final Connection[] pair = connect();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[10_000]);
        for (int i = 0; i < 20; i++)
        {
            assertTrue(pair[0].offer(message, 0, message.capacity()) > 0);
        }
        pair[0].close();
        assertEquals(Connection.CLOSED, pair[0].offer(message, 0, 1));

        final long[] bytes = new long[1];
        run(() ->
        {
            pair[1].poll((buffer, offset, length) -> bytes[0] += length, 100);
            return ConnectionState.CLOSED == pair[0].state() && ConnectionState.CLOSED == pair[1].state();
        }, TimeUnit.SECONDS.toNanos(2), "close");
        pair[1].poll((buffer, offset, length) -> bytes[0] += length, 100);

        assertEquals(200_000, bytes[0]);
        assertTrue(pair[1].isEndOfStream());
        assertEquals(CloseReason.LOCAL_CLOSE, pair[0].closeReason());
        assertEquals(CloseReason.PEER_CLOSE, pair[1].closeReason());
        assertEquals(1, server.counters().connectionsClosed().get());
    }

    @Test
    void idleTimeoutClosesAConnectionWhosePeerWentSilent()
    {
        final Connection[] pair = connect();
        network.dropWhen((datagram) -> true);
        run(() -> ConnectionState.CLOSED == pair[0].state() && ConnectionState.CLOSED == pair[1].state(),
            2 * IDLE_TIMEOUT_NS, "idle timeout");
        assertEquals(CloseReason.IDLE_TIMEOUT, pair[0].closeReason());
        assertEquals(CloseReason.IDLE_TIMEOUT, pair[1].closeReason());
    }

    @Test
    void keepAliveHoldsAnIdleConnectionOpen()
    {
        final Connection[] pair = connect();
        runFor(3 * IDLE_TIMEOUT_NS);
        assertEquals(ConnectionState.CONNECTED, pair[0].state());
        assertEquals(ConnectionState.CONNECTED, pair[1].state());
    }

    @Test
    void lostPacketsAreRetransmittedUntilDelivered()
    {
        final Connection[] pair = connect();
        // Seeded random loss: a periodic pattern can lock onto the protocol's own rhythm and drop every retry.
        final java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        network.dropWhen((datagram) -> random.nextDouble() < 0.2);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[50_000]);
        for (int i = 0; i < 4; i++)
        {
            assertTrue(pair[0].offer(message, 0, message.capacity()) > 0);
        }
        final long[] bytes = new long[1];
        run(() ->
        {
            pair[1].poll((buffer, offset, length) -> bytes[0] += length, 100);
            return 200_000 == bytes[0];
        }, TimeUnit.SECONDS.toNanos(5), "delivery under loss");
        assertTrue(pair[0].stats().packetsRetransmitted() > 0);
        assertTrue(pair[0].stats().packetsLost() > 0);
    }

    @Test
    void countsWhatKeepsTheSenderFromSending()
    {
        final Connection[] pair = connect();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[16_000]);

        // First the 64 KiB fixed window limits the sender; the receiving application never polls, so once the
        // peer's 256 KiB of credit is used, flow control does.
        final long endNs = nowNs() + TimeUnit.MILLISECONDS.toNanos(200);
        while (nowNs() < endNs)
        {
            while (pair[0].offer(message, 0, message.capacity()) > 0)
            {
                // fill the send buffer: the application always has data
            }
            step();
        }

        assertTrue(pair[0].stats().cwndLimited() > 0, "cwnd limited " + pair[0].stats().cwndLimited());
        assertTrue(pair[0].stats().flowControlLimited() > 0, "flow-control limited " +
            pair[0].stats().flowControlLimited());
        assertEquals(0, pair[0].stats().pacingLimited(), "the round-robin scheduler does not pace an unpaced flow");
    }

    @Test
    void chargesTheTimeTheSenderIsHeldToWhatHeldIt()
    {
        final Connection[] pair = connect();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[16_000]);
        assertEquals(0, pair[0].stats().cwndLimitedNs(), "nothing offered yet");
        assertEquals(0, pair[0].stats().flowControlLimitedNs(), "nothing offered yet");

        // As above: the window first, then the peer's credit (its application never polls) hold the sender.
        final long startNs = nowNs();
        final long endNs = startNs + TimeUnit.MILLISECONDS.toNanos(200);
        while (nowNs() < endNs)
        {
            while (pair[0].offer(message, 0, message.capacity()) > 0)
            {
                // fill the send buffer: the application always has data
            }
            step();
        }
        final long elapsedNs = nowNs() - startNs;

        final long cwndNs = pair[0].stats().cwndLimitedNs();
        final long flowControlNs = pair[0].stats().flowControlLimitedNs();
        assertTrue(cwndNs > 0, "cwnd-limited ns " + cwndNs);
        assertTrue(flowControlNs > 0, "flow-control-limited ns " + flowControlNs);
        assertEquals(0, pair[0].stats().pacingLimitedNs(), "the round-robin scheduler does not pace");
        assertTrue(cwndNs + flowControlNs <= elapsedNs, cwndNs + " + " + flowControlNs + " > " + elapsedNs);

        // Held by the peer's credit since a few milliseconds in, and nothing served the connection since: that time
        // is charged when the next duty cycle serves it, here the credit the receiving application's reads return.
        final long[] polledBytes = new long[1];
        pair[1].poll((buffer, offset, length) -> polledBytes[0] += length, 100);
        assertTrue(polledBytes[0] > 0, "the receiver read what it held");
        final long stuckSinceNs = endNs - TimeUnit.MILLISECONDS.toNanos(150);
        run(() -> pair[0].stats().flowControlLimitedNs() > flowControlNs, TimeUnit.SECONDS.toNanos(1), "the credit");
        final long chargedNs = pair[0].stats().flowControlLimitedNs() - flowControlNs;
        assertTrue(chargedNs >= nowNs() - stuckSinceNs - TimeUnit.MILLISECONDS.toNanos(100) && chargedNs > 0,
            "charged " + chargedNs + " ns for the stall");
        assertTrue(pair[0].stats().cwndLimitedNs() + pair[0].stats().flowControlLimitedNs() <= nowNs() - startNs);
    }
}
