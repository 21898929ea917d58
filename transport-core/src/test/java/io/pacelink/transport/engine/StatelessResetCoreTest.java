package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.schedule.RoundRobinScheduler;
import io.pacelink.transport.secure.StatelessResetTokens;
import io.pacelink.transport.secure.X25519;
import io.pacelink.transport.stats.CountersBuffers;
import io.pacelink.transport.testing.TestNetwork;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stateless reset (RFC 9000 section 10.3) in the sans-IO core, in virtual time: a server process that "restarts" on
 * the same address with the same token key — its host key in the secure mode, a configured key in plaintext —
 * answers its former client's next packet with a reset and the client ends at once as {@code PEER_RESET}, long before
 * its idle timeout; a restarted server with another key cannot, and the client waits out its idle timeout; a reset
 * with a forged token, or the genuine token from another address, does nothing.
 */
class StatelessResetCoreTest
{
    private static final long STEP_NS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long IDLE_TIMEOUT_NS = 5 * SECOND_NS;

    private final TestNetwork network = new TestNetwork();
    private final List<EndpointCore> cores = new ArrayList<>();
    private final List<ArrayDeque<Connection>> acceptQueues = new ArrayList<>();
    private final TestNetwork.Port clientPort = network.newPort(2000);
    private final byte[] serverPrivateKey = randomKey(1);
    private final byte[] resetKey = randomKey(3);
    private long nowNs = SECOND_NS;

    @Test
    void aSecureServerRestartedWithItsHostKeyResetsItsClientAtOnce()
    {
        final PacelinkContext clientContext = new PacelinkContext();
        clientContext.security().serverPublicKey(new X25519().publicKey(serverPrivateKey));
        final EndpointCore client = newCore(clientPort, clientContext);
        final EndpointCore server = newCore(network.newPort(1000), nkServer());
        final Connection[] pair = connect(client, server);
        deliver(pair, 20);

        final EndpointCore restarted = restart(server, nkServer());
        final long resetAfterNs = sendUntilClosed(pair[0]);
        assertEquals(CloseReason.PEER_RESET, pair[0].closeReason());
        assertTrue(resetAfterNs < SECOND_NS / 10, "closed " + resetAfterNs + " ns after its first packet");
        assertEquals(1, client.securityCounters().statelessResetsReceived().get());
        assertTrue(restarted.securityCounters().statelessResetsSent().get() >= 1);
        assertEquals(0, client.securityCounters().integrityFailures().get());
    }

    @Test
    void aPlaintextServerRestartedWithItsConfiguredResetKeyResetsItsClientAtOnce()
    {
        final EndpointCore client = newCore(clientPort, new PacelinkContext());
        final EndpointCore server = newCore(network.newPort(1000), plaintextServer(resetKey));
        final Connection[] pair = connect(client, server);
        deliver(pair, 20);

        restart(server, plaintextServer(resetKey));
        final long resetAfterNs = sendUntilClosed(pair[0]);
        assertEquals(CloseReason.PEER_RESET, pair[0].closeReason());
        assertTrue(resetAfterNs < SECOND_NS / 10, "closed " + resetAfterNs + " ns after its first packet");
        assertEquals(1, client.securityCounters().statelessResetsReceived().get());
    }

    @Test
    void aServerRestartedWithAnotherKeyCannotResetItsClientWhichWaitsOutItsIdleTimeout()
    {
        final EndpointCore client = newCore(clientPort, new PacelinkContext());
        final EndpointCore server = newCore(network.newPort(1000), plaintextServer(resetKey));
        final Connection[] pair = connect(client, server);
        deliver(pair, 20);

        final EndpointCore restarted = restart(server, plaintextServer(randomKey(4)));
        final long closedAfterNs = sendUntilClosed(pair[0]);
        assertTrue(restarted.securityCounters().statelessResetsSent().get() >= 1, "the restarted server answered");
        assertEquals(0, client.securityCounters().statelessResetsReceived().get());
        assertTrue(client.securityCounters().integrityFailures().get() >= 1, "the resets it could not recognise");
        assertTrue(CloseReason.IDLE_TIMEOUT == pair[0].closeReason() ||
            CloseReason.PEER_UNRESPONSIVE == pair[0].closeReason(), pair[0].closeReason().name());
        assertTrue(closedAfterNs > SECOND_NS, "closed " + closedAfterNs + " ns after its first packet");
    }

    @Test
    void aForgedTokenOrTheGenuineOneFromAnotherAddressDoesNothing()
    {
        final TestNetwork.Port serverPort = network.newPort(1000);
        final EndpointCore client = newCore(clientPort, new PacelinkContext());
        final EndpointCore server = newCore(serverPort, plaintextServer(resetKey));
        final Connection[] pair = connect(client, server);
        deliver(pair, 5);

        final byte[] token = new byte[StatelessResetTokens.TOKEN_LENGTH];
        new StatelessResetTokens(resetKey).write(pair[1].connectionId(), new UnsafeBuffer(token), 0);
        final byte[] forgedToken = token.clone();
        forgedToken[StatelessResetTokens.TOKEN_LENGTH - 1] ^= 1;
        for (final int length : new int[]{ 21, 43, 120, 1200 })
        {
            clientPort.inject(resetOf(length, forgedToken), serverPort.localAddress());
            clientPort.inject(resetOf(length, token), new InetSocketAddress("127.0.0.9", 1000));
            runFor(10 * STEP_NS);
        }
        assertEquals(ConnectionState.CONNECTED, pair[0].state());
        assertEquals(0, client.securityCounters().statelessResetsReceived().get());
        deliver(pair, 5);

        clientPort.inject(resetOf(21, token), serverPort.localAddress());
        run(() -> ConnectionState.CLOSED == pair[0].state(), SECOND_NS, "the genuine reset");
        assertEquals(CloseReason.PEER_RESET, pair[0].closeReason());
        assertEquals(1, client.securityCounters().statelessResetsReceived().get());
    }

    @Test
    void anUnknownConnectionIdGetsAResetShorterThanItsTriggerAndASmallTriggerNone()
    {
        final TestNetwork.Port serverPort = network.newPort(1000);
        final EndpointCore server = newCore(serverPort, plaintextServer(resetKey));
        final List<byte[]> answers = new ArrayList<>();
        final TestNetwork.Port probe = network.newPort(3000);
        final long unknownId = 0x1234_5678_9abc_def0L;
        final byte[] token = new byte[StatelessResetTokens.TOKEN_LENGTH];
        new StatelessResetTokens(resetKey).write(unknownId, new UnsafeBuffer(token), 0);
        for (final int triggerLength : new int[]{ 21, 22, 32, 43, 44, 100, 1200 })
        {
            serverPort.inject(sealedLooking(triggerLength, unknownId), probe.localAddress());
            runFor(STEP_NS);
            probe.receive((buffer, offset, length, source, receivedNs) ->
            {
                final byte[] answer = new byte[length];
                buffer.getBytes(offset, answer);
                answers.add(answer);
            }, 16, nowNs);
            if (triggerLength <= StatelessReplies.MIN_STATELESS_RESET_BYTES)
            {
                assertEquals(0, answers.size(), "a trigger of " + triggerLength + " bytes gets no reset");
                continue;
            }
            assertEquals(1, answers.size(), "a trigger of " + triggerLength + " bytes");
            final byte[] reset = answers.remove(0);
            if (triggerLength <= StatelessReplies.EXACT_LENGTH_TRIGGER_BYTES)
            {
                assertEquals(triggerLength - 1, reset.length);
            }
            else
            {
                assertTrue(reset.length >= StatelessReplies.EXACT_LENGTH_TRIGGER_BYTES && reset.length < triggerLength,
                    "a reset of " + reset.length + " bytes to a trigger of " + triggerLength);
            }
            assertEquals(PacketHeaderFlyweight.CURRENT_VERSION, reset[PacketHeaderFlyweight.VERSION_OFFSET]);
            assertEquals(PacketType.ONE_RTT, reset[PacketHeaderFlyweight.PACKET_TYPE_OFFSET]);
            assertEquals(PacketHeaderFlyweight.FLAG_SEALED,
                reset[PacketHeaderFlyweight.FLAGS_OFFSET] & PacketHeaderFlyweight.FLAG_SEALED, "looks sealed");
            for (int i = 0; i < token.length; i++)
            {
                assertEquals(token[i], reset[reset.length - token.length + i], "token byte " + i);
            }
        }
        assertEquals(6, server.securityCounters().statelessResetsSent().get());
    }

    @Test
    void resetsToOneAddressAreHeldToItsAnswerRate()
    {
        final TestNetwork.Port serverPort = network.newPort(1000);
        final PacelinkContext context = plaintextServer(resetKey);
        context.limits().unvalidatedAnswersPerSecondPerSource(100);
        final EndpointCore server = newCore(serverPort, context);
        final TestNetwork.Port probe = network.newPort(3000);
        final int[] answers = {0};
        for (int second = 0; second < 3; second++)
        {
            for (int i = 0; i < 1000; i++)
            {
                serverPort.inject(sealedLooking(100, 1_000_000 + i), probe.localAddress());
                if (0 == i % 100)
                {
                    runFor(100 * STEP_NS);
                }
            }
            probe.receive((buffer, offset, length, source, receivedNs) -> answers[0]++, 10_000, nowNs);
        }
        runFor(100 * STEP_NS);
        probe.receive((buffer, offset, length, source, receivedNs) -> answers[0]++, 10_000, nowNs);
        // A burst of 200, then 100 a second over the 3 s the 3,000 triggers took.
        assertTrue(answers[0] <= 200 + 300 + 1, "resets: " + answers[0]);
        assertTrue(answers[0] >= 200, "resets: " + answers[0]);
        assertEquals(answers[0], server.securityCounters().statelessResetsSent().get());
        assertEquals(3000 - answers[0], server.securityCounters().answersRateLimited().get());
    }

    // ---------------------------------------------------------------- helpers

    /**
     * @return a datagram shaped like a sealed ONE_RTT packet to a connection id, of any length (a trigger).
     */
    private static byte[] sealedLooking(final int length, final long connectionId)
    {
        final byte[] datagram = new byte[length];
        new Random(length).nextBytes(datagram);
        final UnsafeBuffer buffer = new UnsafeBuffer(datagram);
        buffer.putByte(PacketHeaderFlyweight.VERSION_OFFSET, (byte)PacketHeaderFlyweight.CURRENT_VERSION);
        buffer.putByte(PacketHeaderFlyweight.PACKET_TYPE_OFFSET, (byte)PacketType.ONE_RTT);
        buffer.putShort(PacketHeaderFlyweight.FLAGS_OFFSET, (short)PacketHeaderFlyweight.FLAG_SEALED,
            PacketHeaderFlyweight.BYTE_ORDER);
        if (length >= PacketHeaderFlyweight.PACKET_NUMBER_OFFSET)
        {
            buffer.putLong(PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET, connectionId,
                PacketHeaderFlyweight.BYTE_ORDER);
        }
        return datagram;
    }

    /**
     * @return a datagram shaped like a plaintext ONE_RTT packet ending in a token.
     */
    private static byte[] resetOf(final int length, final byte[] token)
    {
        final byte[] datagram = new byte[length];
        new Random(-length).nextBytes(datagram);
        datagram[PacketHeaderFlyweight.VERSION_OFFSET] = (byte)PacketHeaderFlyweight.CURRENT_VERSION;
        datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET] = (byte)PacketType.ONE_RTT;
        datagram[PacketHeaderFlyweight.FLAGS_OFFSET] = 0;
        System.arraycopy(token, 0, datagram, length - token.length, token.length);
        return datagram;
    }

    /**
     * The server's process dies (its port leaves the network, its core is no longer driven) and a new one binds the
     * same address.
     */
    private EndpointCore restart(final EndpointCore server, final PacelinkContext context)
    {
        final int index = cores.indexOf(server);
        cores.remove(index);
        acceptQueues.remove(index);
        return newCore(network.newPort(server.localAddress().getPort()), context);
    }

    /**
     * The client's application sends a message every 10 ms until its connection closes.
     *
     * @return how long after its first message it closed.
     */
    private long sendUntilClosed(final Connection connection)
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[100]);
        final long startNs = nowNs;
        long nextSendNs = nowNs;
        while (ConnectionState.CLOSED != connection.state())
        {
            assertTrue(nowNs - startNs < 4 * IDLE_TIMEOUT_NS, "the connection never closed");
            if (nowNs >= nextSendNs)
            {
                connection.offer(message, 0, message.capacity());
                nextSendNs += TimeUnit.MILLISECONDS.toNanos(10);
            }
            step();
        }
        return nowNs - startNs;
    }

    private PacelinkContext nkServer()
    {
        final PacelinkContext context = new PacelinkContext();
        context.security().serverPrivateKey(serverPrivateKey);
        return context;
    }

    private static PacelinkContext plaintextServer(final byte[] key)
    {
        final PacelinkContext context = new PacelinkContext();
        context.security().statelessResetKey(key);
        return context;
    }

    private EndpointCore newCore(final TestNetwork.Port port, final PacelinkContext context)
    {
        context
            .datagramPort(port)
            .randomSeed(port.localAddress().getPort() + cores.size())
            .congestionControl(FixedWindowController.NAME)
            .acceptConnections(port != clientPort)
            .sendBufferBytes(256 * 1024)
            .receiveBufferBytes(256 * 1024)
            .maxMessageLengthBytes(64 * 1024)
            .idleTimeoutNs(IDLE_TIMEOUT_NS)
            .initialRttNs(TimeUnit.MILLISECONDS.toNanos(10))
            .countersBufferBytes(256 * 1024);
        context.conclude();
        final ArrayDeque<Connection> accepted = new ArrayDeque<>();
        final EndpointCore core = new EndpointCore(
            context,
            port,
            CongestionControlRegistry.of(FixedWindowController.factory(64 * 1024, new ArrayList<>())),
            new RoundRobinScheduler(),
            CountersBuffers.newManager(256 * 1024),
            accepted::add);
        cores.add(core);
        acceptQueues.add(accepted);
        return core;
    }

    private Connection[] connect(final EndpointCore client, final EndpointCore server)
    {
        final Connection clientSide = client.connect(server.localAddress(), null, nowNs);
        final ArrayDeque<Connection> accepted = acceptQueues.get(cores.indexOf(server));
        run(() -> !accepted.isEmpty() && ConnectionState.CONNECTED == clientSide.state(), SECOND_NS, "connect");
        return new Connection[]{ clientSide, accepted.poll() };
    }

    private void deliver(final Connection[] pair, final int count)
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[1000]);
        final int[] received = {0};
        for (int i = 0; i < count; i++)
        {
            message.putInt(0, i);
            while (pair[0].offer(message, 0, message.capacity()) < 0)
            {
                step();
            }
        }
        run(() ->
        {
            pair[1].poll((buffer, offset, length) -> received[0]++, 100);
            return received[0] == count;
        }, 10 * SECOND_NS, "delivery");
    }

    private void run(final BooleanSupplier until, final long maxNs, final String what)
    {
        final long endNs = nowNs + maxNs;
        while (!until.getAsBoolean())
        {
            assertTrue(nowNs < endNs, () -> "timed out waiting for " + what);
            step();
        }
    }

    private void runFor(final long durationNs)
    {
        final long endNs = nowNs + durationNs;
        while (nowNs < endNs)
        {
            step();
        }
    }

    private void step()
    {
        nowNs += STEP_NS;
        for (final EndpointCore core : cores)
        {
            core.doWork(nowNs);
        }
    }

    private static byte[] randomKey(final long seed)
    {
        final byte[] key = new byte[32];
        new Random(seed).nextBytes(key);
        return key;
    }
}
