package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.RetryMode;
import io.pacelink.transport.admission.AddressValidator;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.testing.TestNetwork;
import io.pacelink.transport.testing.TestPackets;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NEW_TOKEN (RFC 9000 sections 8.1.3, 8.1.4 and 19.7) in virtual time: a server gives each client it confirmed a
 * token; the client's endpoint puts it in its next hello to that server, which then needs no RETRY even when the
 * server answers every tokenless hello with one; and every token that is not genuine, for this address, within its
 * lifetime and unspent — forged, expired, another host's, a RETRY token, spent, oversized — is a hello without a
 * token. Hand-written clients ({@link RawClient}) play the hostile ones.
 */
class NewTokenTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long LIFETIME_NS = TimeUnit.SECONDS.toNanos(2);

    private final CoreTestBed bed = new CoreTestBed(TimeUnit.SECONDS.toNanos(30), TimeUnit.SECONDS.toNanos(10));
    private final TestNetwork network = bed.network();
    private final TestNetwork.Port serverPort = network.newPort(1000);
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
    private final PacketWriter writer = new PacketWriter();
    private final PacketDecoder decoder = new PacketDecoder();

    /**
     * A server that answers every hello without a valid token with a RETRY: a connect that skips it used a token.
     */
    private EndpointCore newServer(final PacelinkContext context)
    {
        context.limits().retryMode(RetryMode.ALWAYS).newTokenLifetimeNs(LIFETIME_NS);
        return bed.newCore(serverPort, true, 16, context, new ArrayList<>(), null);
    }

    private EndpointCore newServer()
    {
        return newServer(new PacelinkContext());
    }

    @Test
    void aReturningClientConnectsWithoutARetryAndEachConnectionBringsTheNextToken()
    {
        returningClientSkipsTheRetry(new PacelinkContext(), new PacelinkContext());
    }

    @Test
    void aReturningSecureClientConnectsWithoutARetryToo()
    {
        final byte[] preSharedKey = new byte[32];
        Arrays.fill(preSharedKey, (byte)7);
        final PacelinkContext serverContext = new PacelinkContext();
        serverContext.security().preSharedKey(preSharedKey);
        final PacelinkContext clientContext = new PacelinkContext();
        clientContext.security().preSharedKey(preSharedKey);
        returningClientSkipsTheRetry(serverContext, clientContext);
    }

    private void returningClientSkipsTheRetry(final PacelinkContext serverContext, final PacelinkContext clientContext)
    {
        final EndpointCore server = newServer(serverContext);
        final EndpointCore client =
            bed.newCore(network.newPort("127.0.0.2", 2000), false, 16, clientContext, new ArrayList<>(), null);
        final SecurityCounters counters = server.securityCounters();

        final long firstNs = timedConnect(client, server);
        assertEquals(1, counters.retriesSent().get(), "the first connect pays the RETRY");
        for (int i = 1; i <= 3; i++)
        {
            final long returningNs = timedConnect(client, server);
            assertEquals(1, counters.retriesSent().get(), "connect " + i + " needs no RETRY");
            assertEquals(i, counters.newTokensAccepted().get());
            assertTrue(returningNs < firstNs, "connect " + i + " took " + returningNs + " ns, the first " + firstNs);
        }
        assertEquals(4, counters.newTokensSent().get(), "one token a confirmed connection");
        assertEquals(0, counters.newTokensReused().get() + counters.newTokensInvalid().get() +
            counters.newTokensExpired().get() + counters.retryTokensInvalid().get());
    }

    /**
     * @return how long a connect took; the connection is closed and both sides settled after it.
     */
    private long timedConnect(final EndpointCore client, final EndpointCore server)
    {
        final long startNs = bed.nowNs();
        final Connection[] pair = bed.connect(client, server, serverPort);
        final long tookNs = bed.nowNs() - startNs;
        bed.runFor(TimeUnit.MILLISECONDS.toNanos(5)); // the NEW_TOKEN arrives after the confirmation
        pair[0].closeNow();
        bed.runFor(TimeUnit.MILLISECONDS.toNanos(5));
        return tookNs;
    }

    @Test
    void aServerWithNoTokenLifetimeGivesNoneAndAReturningClientPaysTheRetry()
    {
        final PacelinkContext context = new PacelinkContext();
        context.limits().retryMode(RetryMode.ALWAYS).newTokenLifetimeNs(0);
        final EndpointCore server = bed.newCore(serverPort, true, 16, context, new ArrayList<>(), null);
        final EndpointCore client = bed.newCore(network.newPort("127.0.0.2", 2000), false, 16);
        timedConnect(client, server);
        timedConnect(client, server);
        assertEquals(2, server.securityCounters().retriesSent().get());
        assertEquals(0, server.securityCounters().newTokensSent().get());
    }

    /**
     * Every token that does not validate is a hello without one: a RETRY, nothing held. The genuine token is used
     * last, once (accepted) and again (spent): both sides of its one use.
     */
    @Test
    void forgedOtherAddressRetryAndOversizedTokensGetARetryAndAGenuineOneBuysOneHello()
    {
        final EndpointCore server = newServer();
        final SecurityCounters counters = server.securityCounters();
        final byte[] token = tokenFor("127.0.0.5", 6000);
        assertEquals(AddressValidator.TOKEN_LENGTH, token.length);
        assertEquals(AddressValidator.NEW_TOKEN_FORMAT, token[0]);
        final int opened = (int)server.counters().connectionsOpened().get();

        final RawClient sameHost = new RawClient(network.newPort("127.0.0.5", 6001), serverPort.localAddress());
        final RawClient otherHost = new RawClient(network.newPort("127.0.0.6", 6000), serverPort.localAddress());

        assertEquals(PacketType.RETRY, answer(otherHost, 11, token), "another host's token");
        assertEquals(1, counters.newTokensInvalid().get());

        final byte[] forged = token.clone();
        forged[AddressValidator.TOKEN_LENGTH - 1] ^= 1;
        assertEquals(PacketType.RETRY, answer(sameHost, 12, forged), "a forged token");
        assertEquals(2, counters.newTokensInvalid().get());

        sameHost.sendHello(13, null);
        bed.step();
        final byte[] retryToken = RawClient.retryToken(sameHost.drain(bed.nowNs()).get(0));
        assertEquals(PacketType.RETRY, answer(sameHost, 14, retryToken), "a RETRY token on a later connection");
        assertEquals(1, counters.retryTokensInvalid().get());
        final byte[] relabelled = retryToken.clone();
        relabelled[0] = AddressValidator.NEW_TOKEN_FORMAT;
        assertEquals(PacketType.RETRY, answer(sameHost, 15, relabelled), "a RETRY token relabelled as NEW_TOKEN");
        assertEquals(3, counters.newTokensInvalid().get());

        final byte[] longest = Arrays.copyOf(token, RetryPacketFlyweight.MAX_TOKEN_LENGTH);
        assertEquals(PacketType.RETRY, answer(sameHost, 16, longest), "a token padded to the longest a hello holds");
        assertEquals(4, counters.newTokensInvalid().get());
        // A token length of 129 (the hello written with 128, its length field then raised by one).
        final byte[] hello = sameHost.helloDatagram(17, longest);
        final UnsafeBuffer oversized = new UnsafeBuffer(hello);
        oversized.putInt(PacketHeaderFlyweight.HEADER_LENGTH + HandshakeFrameFlyweight.TOKEN_LENGTH_OFFSET,
            RetryPacketFlyweight.MAX_TOKEN_LENGTH + 1, PacketHeaderFlyweight.BYTE_ORDER);
        final byte[] datagram = TestPackets.withCrc(oversized, hello.length - Crc32cPacketCheck.TRAILER_LENGTH);
        sameHost.port().send(new UnsafeBuffer(datagram), 0, datagram.length, serverPort.localAddress());
        bed.step();
        assertTrue(sameHost.drain(bed.nowNs()).isEmpty(), "a hello with a longer token does not parse: no answer");
        assertEquals(4, counters.newTokensInvalid().get());
        assertEquals(opened, server.counters().connectionsOpened().get(), "none of them held anything");

        assertEquals(PacketType.HANDSHAKE, answer(sameHost, 18, token), "the genuine token, from another port");
        assertEquals(1, counters.newTokensAccepted().get());
        assertEquals(opened + 1, server.counters().connectionsOpened().get());
        assertEquals(PacketType.RETRY, answer(sameHost, 19, token), "the genuine token a second time");
        assertEquals(1, counters.newTokensReused().get());
        assertEquals(1, counters.newTokensAccepted().get());
    }

    @Test
    void aTokenIsTakenWithinItsLifetimeAndNotAfter()
    {
        final EndpointCore server = newServer();
        final SecurityCounters counters = server.securityCounters();
        final byte[] early = tokenFor("127.0.0.5", 6000);
        final byte[] late = tokenFor("127.0.0.5", 6002);
        final RawClient client = new RawClient(network.newPort("127.0.0.5", 6001), serverPort.localAddress());

        bed.runFor(LIFETIME_NS - TimeUnit.MILLISECONDS.toNanos(20));
        assertEquals(PacketType.HANDSHAKE, answer(client, 21, early), "just within its lifetime");
        assertEquals(1, counters.newTokensAccepted().get());
        bed.runFor(TimeUnit.MILLISECONDS.toNanos(40));
        assertEquals(PacketType.RETRY, answer(client, 22, late), "just beyond its lifetime");
        assertEquals(1, counters.newTokensExpired().get());
    }

    @Test
    void aNewTokenFrameFromAClientIsAProtocolViolation()
    {
        final EndpointCore server = newServer();
        final RawClient client = new RawClient(network.newPort("127.0.0.5", 6000), serverPort.localAddress());
        final long serverId = handshake(client, 31);
        writer.wrap(buffer, 0, 1200);
        writer.writeHeader(PacketType.ONE_RTT, serverId, 1);
        writer.appendNewToken(new UnsafeBuffer(new byte[25]), 0, 25);
        sendPlaintext(client, writer.length());
        bed.runFor(SECOND_NS);
        assertEquals(1, server.counters().protocolViolations().get());
        final Connection accepted = bed.accept(server);
        assertNotNull(accepted, "the confirming packet handed it over, then it closed");
        assertEquals(ConnectionState.CLOSED, accepted.state());
        assertTrue(accepted.outcome().detail().contains("NEW_TOKEN frame from a client"), accepted.outcome().detail());
    }

    @Test
    void aClientEndpointKeepsTheLatestTokenOfEachServerUpToItsBound()
    {
        final ServerTokens tokens = new ServerTokens();
        final UnsafeBuffer token = new UnsafeBuffer(new byte[]{ 1, 2, 3 });
        for (int i = 0; i < ServerTokens.CAPACITY; i++)
        {
            tokens.store(new java.net.InetSocketAddress("10.0.0." + (i & 0xFF), 1000 + i), token, 0, 3);
        }
        assertEquals(ServerTokens.CAPACITY, tokens.size());
        tokens.store(new java.net.InetSocketAddress("10.0.0.1", 999), token, 1, 2);
        assertEquals(ServerTokens.CAPACITY, tokens.size(), "one more server: the eldest goes");
        assertEquals(null, tokens.take(new java.net.InetSocketAddress("10.0.0.0", 1000)));
        assertArrayEquals(new byte[]{ 1, 2, 3 }, tokens.take(new java.net.InetSocketAddress("10.0.0.1", 1001)));
        assertEquals(null, tokens.take(new java.net.InetSocketAddress("10.0.0.1", 1001)), "taken, not kept");
        tokens.store(new java.net.InetSocketAddress("10.0.0.1", 999), token, 0, 1);
        assertArrayEquals(new byte[]{ 1 }, tokens.take(new java.net.InetSocketAddress("10.0.0.1", 999)),
            "the latest replaces the one before");
    }

    /**
     * A hand-written client at this address completes a handshake (a RETRY, the tokened hello, the confirmation) and
     * reads the NEW_TOKEN frame the server then sends.
     */
    private byte[] tokenFor(final String host, final int port)
    {
        final RawClient client = new RawClient(network.newPort(host, port), serverPort.localAddress());
        final long serverId = handshake(client, 1000 + port);
        writer.wrap(buffer, 0, 1200);
        writer.writeHeader(PacketType.ONE_RTT, serverId, 1);
        writer.appendPing();
        sendPlaintext(client, writer.length());
        bed.step();
        for (final byte[] datagram : client.drain(bed.nowNs()))
        {
            final UnsafeBuffer packet = new UnsafeBuffer(datagram);
            final int length = datagram.length - Crc32cPacketCheck.TRAILER_LENGTH;
            assertEquals(PacketDecoder.OK, decoder.validate(packet, 0, length));
            for (int type = decoder.firstFrame(packet, 0, length); PacketDecoder.NO_MORE_FRAMES != type;
                type = decoder.nextFrame())
            {
                if (FrameType.NEW_TOKEN == type)
                {
                    final byte[] token = new byte[decoder.newToken().tokenLength()];
                    packet.getBytes(decoder.newToken().tokenOffset(), token);
                    return token;
                }
            }
        }
        throw new AssertionError("no NEW_TOKEN after the confirmation");
    }

    /**
     * @return the server's connection id, from its answer to a hello that followed a RETRY.
     */
    private long handshake(final RawClient client, final long clientId)
    {
        client.sendHello(clientId, null);
        bed.step();
        client.sendHello(clientId, RawClient.retryToken(client.drain(bed.nowNs()).get(0)));
        bed.step();
        final byte[] answer = client.drain(bed.nowNs()).get(0);
        assertEquals(PacketType.HANDSHAKE, RawClient.type(answer));
        final UnsafeBuffer packet = new UnsafeBuffer(answer);
        assertEquals(PacketDecoder.OK, decoder.validate(packet, 0, answer.length - Crc32cPacketCheck.TRAILER_LENGTH));
        decoder.firstFrame(packet, 0, answer.length - Crc32cPacketCheck.TRAILER_LENGTH);
        return decoder.handshake().sourceConnectionId();
    }

    private void sendPlaintext(final RawClient client, final int length)
    {
        final byte[] datagram = TestPackets.withCrc(buffer, length);
        client.port().send(new UnsafeBuffer(datagram), 0, datagram.length, serverPort.localAddress());
    }

    /**
     * @return the type of the server's one answer to a hello with this token.
     */
    private int answer(final RawClient client, final long clientId, final byte[] token)
    {
        client.sendHello(clientId, token);
        bed.step();
        final java.util.List<byte[]> answers = client.drain(bed.nowNs());
        assertEquals(1, answers.size(), "one answer");
        return RawClient.type(answers.get(0));
    }
}
