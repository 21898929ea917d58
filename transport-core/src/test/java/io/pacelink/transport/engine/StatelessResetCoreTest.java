package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.RetryMode;
import io.pacelink.transport.secure.StatelessResetTokens;
import io.pacelink.transport.secure.X25519;
import io.pacelink.transport.testing.TestNetwork;
import io.pacelink.transport.testing.TestPackets;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

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
    private static final long STEP_NS = CoreTestBed.STEP_NS;
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long IDLE_TIMEOUT_NS = 5 * SECOND_NS;

    private final CoreTestBed bed = new CoreTestBed(IDLE_TIMEOUT_NS, SECOND_NS);
    private final TestNetwork network = bed.network();
    private final TestNetwork.Port serverPort = network.newPort(1000);
    private final TestNetwork.Port clientPort = network.newPort(2000);
    private final byte[] serverPrivateKey = randomKey(1);
    private final byte[] resetKey = randomKey(3);
    private int seed;

    @Test
    void aSecureServerRestartedWithItsHostKeyResetsItsClientAtOnce()
    {
        final PacelinkContext clientContext = new PacelinkContext();
        clientContext.security().serverPublicKey(new X25519().publicKey(serverPrivateKey));
        final EndpointCore client = newClient(clientContext);
        final EndpointCore server = newServer(serverPort, nkServer());
        final Connection[] pair = bed.connect(client, server, serverPort);
        deliver(pair, 20);

        final EndpointCore restarted = restart(server, nkServer());
        final long resetAfterNs = sendUntilClosed(pair[0]);
        assertEquals(CloseReason.PEER_RESET, pair[0].closeReason());
        assertEquals("", pair[0].outcome().detail(), "the server had answered after the handshake: a plain reset");
        assertTrue(resetAfterNs < SECOND_NS / 10, "closed " + resetAfterNs + " ns after its first packet");
        assertEquals(1, client.securityCounters().statelessResetsReceived().get());
        assertTrue(restarted.securityCounters().statelessResetsSent().get() >= 1);
        assertEquals(0, client.securityCounters().integrityFailures().get());
    }

    @Test
    void aResetBeforeTheServerSentAnythingAfterItsAnswerSaysTheServerGaveUpOnTheHandshake()
    {
        final PacelinkContext clientContext = new PacelinkContext();
        clientContext.security().serverPublicKey(new X25519().publicKey(serverPrivateKey));
        final EndpointCore client = newClient(clientContext);
        final EndpointCore server = newServer(serverPort, nkServer());
        // The client's confirmation and everything after it are lost until the server gave up on the handshake, as
        // when the client is too slow to send them (a loaded machine): the client is connected, the server is not.
        final boolean[] dropping = { true };
        network.dropWhen(datagram ->
            dropping[0] && PacketType.ONE_RTT == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET]);
        final Connection connection = client.connect(serverPort.localAddress(), null, bed.nowNs());
        bed.run(() -> ConnectionState.CONNECTED == connection.state(), SECOND_NS, "the client connected");
        bed.run(() -> 1 == server.securityCounters().handshakeTimeouts().get(), 2 * SECOND_NS,
            "the server's handshake timeout");
        dropping[0] = false;

        sendUntilClosed(connection);
        assertEquals(CloseReason.PEER_RESET, connection.closeReason());
        assertEquals(ConnectionCore.UNCONFIRMED_RESET_DETAIL, connection.outcome().detail());
        assertEquals(1, client.securityCounters().statelessResetsReceived().get());
    }

    @Test
    void aPlaintextServerRestartedWithItsConfiguredResetKeyResetsItsClientAtOnce()
    {
        final EndpointCore client = newClient(new PacelinkContext());
        final EndpointCore server = newServer(serverPort, plaintextServer(resetKey));
        final Connection[] pair = bed.connect(client, server, serverPort);
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
        final EndpointCore client = newClient(new PacelinkContext());
        final EndpointCore server = newServer(serverPort, plaintextServer(resetKey));
        final Connection[] pair = bed.connect(client, server, serverPort);
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
        final EndpointCore client = newClient(new PacelinkContext());
        final EndpointCore server = newServer(serverPort, plaintextServer(resetKey));
        final Connection[] pair = bed.connect(client, server, serverPort);
        deliver(pair, 5);

        final byte[] token = new byte[StatelessResetTokens.TOKEN_LENGTH];
        new StatelessResetTokens(resetKey).write(pair[1].connectionId(), new UnsafeBuffer(token), 0);
        final byte[] forgedToken = token.clone();
        forgedToken[StatelessResetTokens.TOKEN_LENGTH - 1] ^= 1;
        for (final int length : new int[]{ 21, 43, 120, 1200 })
        {
            clientPort.inject(TestPackets.endingIn(length, forgedToken), serverPort.localAddress());
            clientPort.inject(TestPackets.endingIn(length, token), new InetSocketAddress("127.0.0.9", 1000));
            bed.runFor(10 * STEP_NS);
        }
        assertEquals(ConnectionState.CONNECTED, pair[0].state());
        assertEquals(0, client.securityCounters().statelessResetsReceived().get());
        deliver(pair, 5);

        clientPort.inject(TestPackets.endingIn(21, token), serverPort.localAddress());
        bed.run(() -> ConnectionState.CLOSED == pair[0].state(), SECOND_NS, "the genuine reset");
        assertEquals(CloseReason.PEER_RESET, pair[0].closeReason());
        assertEquals(1, client.securityCounters().statelessResetsReceived().get());
    }

    @Test
    void anUnknownConnectionIdGetsAResetShorterThanItsTriggerAndASmallTriggerNone()
    {
        final EndpointCore server = newServer(serverPort, plaintextServer(resetKey));
        final List<byte[]> answers = new ArrayList<>();
        final TestNetwork.Port probe = network.newPort(3000);
        final long unknownId = 0x1234_5678_9abc_def0L;
        final byte[] token = new byte[StatelessResetTokens.TOKEN_LENGTH];
        new StatelessResetTokens(resetKey).write(unknownId, new UnsafeBuffer(token), 0);
        for (final int triggerLength : new int[]{ 21, 22, 32, 43, 44, 100, 1200 })
        {
            serverPort.inject(TestPackets.sealedLooking(triggerLength, unknownId), probe.localAddress());
            bed.runFor(STEP_NS);
            probe.receive((buffer, offset, length, source, receivedNs) ->
            {
                final byte[] answer = new byte[length];
                buffer.getBytes(offset, answer);
                answers.add(answer);
            }, 16, bed.nowNs());
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
        final PacelinkContext context = plaintextServer(resetKey);
        context.limits().unvalidatedAnswersPerSecondPerSource(100);
        final EndpointCore server = newServer(serverPort, context);
        final TestNetwork.Port probe = network.newPort(3000);
        final int[] answers = {0};
        for (int second = 0; second < 3; second++)
        {
            for (int i = 0; i < 1000; i++)
            {
                serverPort.inject(TestPackets.sealedLooking(100, 1_000_000 + i), probe.localAddress());
                if (0 == i % 100)
                {
                    bed.runFor(100 * STEP_NS);
                }
            }
            probe.receive((buffer, offset, length, source, receivedNs) -> answers[0]++, 10_000, bed.nowNs());
        }
        bed.runFor(100 * STEP_NS);
        probe.receive((buffer, offset, length, source, receivedNs) -> answers[0]++, 10_000, bed.nowNs());
        // A burst of 200, then 100 a second over the 3 s the 3,000 triggers took.
        assertTrue(answers[0] <= 200 + 300 + 1, "resets: " + answers[0]);
        assertTrue(answers[0] >= 200, "resets: " + answers[0]);
        assertEquals(answers[0], server.securityCounters().statelessResetsSent().get());
        assertEquals(3000 - answers[0], server.securityCounters().answersRateLimited().get());
    }

    @Test
    void aFloodOfPacketsForUnknownConnectionsDoesNotStarveTheRetryAClientAtTheSameAddressNeeds()
    {
        final PacelinkContext context = plaintextServer(resetKey);
        context.limits().retryMode(RetryMode.ALWAYS).unvalidatedAnswersPerSecondPerSource(100);
        final EndpointCore server = newServer(serverPort, context);
        final EndpointCore client = newClient(new PacelinkContext());
        // The attacker shares the client's address (127.0.0.1, as behind one NAT) and sends forged packets for
        // unknown connections far faster than the answer rate, before and while the client connects.
        final TestNetwork.Port attacker = network.newPort(3000);
        final long[] forged = { 0 };
        final Runnable flood = () ->
        {
            for (int i = 0; i < 4; i++)
            {
                serverPort.inject(TestPackets.sealedLooking(100, 5_000_000 + forged[0]++), attacker.localAddress());
            }
        };
        for (int i = 0; i < 1000; i++)
        {
            flood.run();
            bed.step();
        }
        final long limitedBefore = server.securityCounters().answersRateLimited().get();
        assertTrue(limitedBefore > 0, "the resets to the attacker's address are limited");

        final long startNs = bed.nowNs();
        final Connection connection = client.connect(serverPort.localAddress(), null, startNs);
        while (ConnectionState.CONNECTED != connection.state())
        {
            assertTrue(bed.nowNs() - startNs < SECOND_NS / 10, "connected within 100 ms despite the flood, " +
                "retries sent " + server.securityCounters().retriesSent().get());
            flood.run();
            bed.step();
        }
        assertEquals(1, server.securityCounters().retriesSent().get(), "the client's hello got its RETRY");
        assertTrue(server.securityCounters().answersRateLimited().get() > limitedBefore, "the flood went on");
    }

    // ---------------------------------------------------------------- helpers

    /**
     * The server's process dies (its core is no longer driven) and a new one binds the same address.
     */
    private EndpointCore restart(final EndpointCore server, final PacelinkContext context)
    {
        bed.stop(server);
        return newServer(bed.network().newPort(server.localAddress().getPort()), context);
    }

    /**
     * The client's application sends a message every 10 ms until its connection closes.
     *
     * @return how long after its first message it closed.
     */
    private long sendUntilClosed(final Connection connection)
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[100]);
        final long startNs = bed.nowNs();
        long nextSendNs = startNs;
        while (ConnectionState.CLOSED != connection.state())
        {
            assertTrue(bed.nowNs() - startNs < 4 * IDLE_TIMEOUT_NS, "the connection never closed");
            if (bed.nowNs() >= nextSendNs)
            {
                connection.offer(message, 0, message.capacity());
                nextSendNs += TimeUnit.MILLISECONDS.toNanos(10);
            }
            bed.step();
        }
        return bed.nowNs() - startNs;
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

    private EndpointCore newServer(final TestNetwork.Port port, final PacelinkContext context)
    {
        return bed.newCore(port, true, 16, context.randomSeed(++seed), new ArrayList<>(), null);
    }

    private EndpointCore newClient(final PacelinkContext context)
    {
        return bed.newCore(clientPort, false, 16, context.randomSeed(++seed), new ArrayList<>(), null);
    }

    private void deliver(final Connection[] pair, final int count)
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[1000]);
        final int[] received = {0};
        for (int i = 0; i < count; i++)
        {
            while (pair[0].offer(message, 0, message.capacity()) < 0)
            {
                bed.step();
            }
        }
        bed.run(() ->
        {
            pair[1].poll((buffer, offset, length) -> received[0]++, 100);
            return received[0] == count;
        }, 10 * SECOND_NS, "delivery");
    }

    private static byte[] randomKey(final long seed)
    {
        final byte[] key = new byte[32];
        new Random(seed).nextBytes(key);
        return key;
    }
}
