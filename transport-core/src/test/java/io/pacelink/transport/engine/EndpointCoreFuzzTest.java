package io.pacelink.transport.engine;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.schedule.RoundRobinScheduler;
import io.pacelink.transport.testing.TestNetwork;
import io.pacelink.transport.testing.TestPackets;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of a whole endpoint (docs/security.md, "Fuzzing"): a server and a client core connected over
 * an in-memory network in virtual time, then fed whatever datagrams the input describes, from the peer's address or
 * another, raw or behind a valid header for a live connection id, interleaved with application sends and time
 * passing. No input may make either core throw (each catches and counts what a datagram causes, so the count must
 * stay 0), leak counter slots past its connections' close, or leave a connection whose state contradicts its close.
 */
class EndpointCoreFuzzTest
{
    private static final long STEP_NS = TimeUnit.MICROSECONDS.toNanos(200);
    private static final int MAX_DATAGRAM_BYTES = 1500;

    private final List<Throwable> errors = new ArrayList<>();
    private final UnsafeBuffer datagram = new UnsafeBuffer(new byte[MAX_DATAGRAM_BYTES]);
    private final PacketWriter writer = new PacketWriter();
    private long nowNs;

    @FuzzTest(maxDuration = "10m")
    void datagramsInVirtualTime(final FuzzedDataProvider data)
    {
        nowNs = TimeUnit.SECONDS.toNanos(1);
        errors.clear();
        final TestNetwork network = new TestNetwork();
        final TestNetwork.Port serverPort = network.newPort(1000);
        final TestNetwork.Port clientPort = network.newPort(2000);
        final ArrayDeque<Connection> accepted = new ArrayDeque<>();
        final EndpointCore server = newCore(serverPort, accepted);
        final EndpointCore client = newCore(clientPort, null);
        final InetSocketAddress attacker = new InetSocketAddress("127.0.0.1", 3000);

        final Connection clientSide = client.connect(serverPort.localAddress(), null, nowNs);
        for (int i = 0; i < 100 && (accepted.isEmpty() || ConnectionState.CONNECTING == clientSide.state()); i++)
        {
            step(server, client);
        }
        final Connection serverSide = accepted.peek();
        assertTrue(null != serverSide && ConnectionState.CONNECTED == clientSide.state(), "connected");

        final UnsafeBuffer message = new UnsafeBuffer(new byte[256]);
        while (data.remainingBytes() > 0)
        {
            switch (data.consumeInt(0, 5))
            {
                case 0:
                    serverPort.inject(nextDatagram(data, serverSide.connectionId()), sourceOf(data, clientPort,
                        attacker));
                    break;

                case 1:
                    clientPort.inject(nextDatagram(data, clientSide.connectionId()), sourceOf(data, serverPort,
                        attacker));
                    break;

                case 2:
                    clientSide.offer(message, 0, data.consumeInt(0, message.capacity()));
                    break;

                case 3:
                    serverSide.poll((buffer, offset, length) -> { }, 16);
                    break;

                case 4:
                    nowNs += data.consumeLong(0, TimeUnit.MILLISECONDS.toNanos(500));
                    break;

                default:
                    step(server, client);
                    break;
            }
            step(server, client);
        }
        for (int i = 0; i < 20; i++)
        {
            step(server, client);
        }

        assertTrue(errors.isEmpty(), () -> "a datagram made the core throw: " + errors);
        assertEquals(0, server.counters().errors().get());
        assertEquals(0, client.counters().errors().get());
        for (final Connection connection : new Connection[]{ clientSide, serverSide })
        {
            // The outcome is decided when the connection ends, before its closing or draining period (docs/
            // wire-format.md, "Closing"): a closed connection has a reason, and one with a reason is closing.
            final ConnectionState state = connection.state();
            if (ConnectionState.CLOSED == state)
            {
                assertNotEquals(CloseReason.NONE, connection.closeReason(), connection.toString());
            }
            else if (CloseReason.NONE != connection.closeReason())
            {
                assertEquals(ConnectionState.CLOSING, state, connection.toString());
            }
        }
        server.close(nowNs);
        client.close(nowNs);
    }

    private EndpointCore newCore(final TestNetwork.Port port, final ArrayDeque<Connection> accepted)
    {
        final PacelinkContext context = new PacelinkContext()
            .datagramPort(port)
            .randomSeed(42)
            .congestionControl(FixedWindowController.NAME)
            .acceptConnections(null != accepted)
            .sendBufferBytes(64 * 1024)
            // The smallest window: its reassembly limit (an eighth of it in range bookkeeping, 327 ranges) is the
            // nearest a fuzzer can get to.
            .receiveBufferBytes(64 * 1024)
            .maxMessageLengthBytes(1024)
            .initialRttNs(TimeUnit.MILLISECONDS.toNanos(1))
            .errorHandler(errors::add);
        context.conclude();
        // Heap buffers: a fresh core per input must not pile up direct memory between garbage collections.
        final CountersManager counters = new CountersManager(
            new UnsafeBuffer(new byte[64 * 1024 * (CountersReader.METADATA_LENGTH / CountersReader.COUNTER_LENGTH)]),
            new UnsafeBuffer(new byte[64 * 1024]));
        return new EndpointCore(
            context,
            port,
            CongestionControlRegistry.of(FixedWindowController.factory(64 * 1024)),
            new RoundRobinScheduler(),
            counters,
            null == accepted ? (connection) -> false : accepted::add);
    }

    /**
     * Either raw bytes, or a valid header naming a live connection followed by raw frame bytes and a correct CRC32C:
     * the second reaches the frame handlers of a connection, which random headers almost never would.
     */
    private byte[] nextDatagram(final FuzzedDataProvider data, final long connectionId)
    {
        final byte[] body = data.consumeBytes(data.consumeInt(0, MAX_DATAGRAM_BYTES - 20));
        if (data.consumeBoolean())
        {
            return body;
        }
        writer.wrap(datagram, 0, MAX_DATAGRAM_BYTES);
        final int type = data.pickValue(new int[]{ PacketType.ONE_RTT, PacketType.CLOSE, PacketType.HANDSHAKE });
        writer.writeHeader(type, connectionId, data.consumeLong(0, 1L << 20));
        final int length = writer.length();
        datagram.putBytes(length, body);
        // With its CRC32C, so it gets past the integrity check to the decoder and the connection.
        return TestPackets.withCrc(datagram, length + body.length);
    }

    private static InetSocketAddress sourceOf(
        final FuzzedDataProvider data, final TestNetwork.Port peer, final InetSocketAddress attacker)
    {
        return data.consumeBoolean() ? peer.localAddress() : attacker;
    }

    private void step(final EndpointCore server, final EndpointCore client)
    {
        nowNs += STEP_NS;
        server.doWork(nowNs);
        client.doWork(nowNs);
    }
}
