package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.RetryMode;
import io.pacelink.transport.testing.TestNetwork;
import io.pacelink.transport.wire.PacketType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's handshake budget, address validation by pressure and the rates of its answers to unproven addresses
 * (docs/security.md, "Admission"), in virtual time: half-open handshakes from one host or from many spoofed ones
 * never keep a new client out, a flood turns the RETRY on in the default mode, a quiet server connects in one round
 * trip, a token buys one hello, and refusals and RETRYs to one address stay within its rate — while a legitimate
 * client on another host connects throughout.
 */
class HandshakeBudgetTest
{
    private static final long IDLE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(2);
    private static final long HANDSHAKE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final int MAX_UNCONFIRMED = 12;
    private static final int MAX_UNCONFIRMED_PER_SOURCE = 4;

    private final CoreTestBed bed = new CoreTestBed(IDLE_TIMEOUT_NS, HANDSHAKE_TIMEOUT_NS);
    private final TestNetwork network = bed.network();
    private final TestNetwork.Port serverPort = network.newPort(1000);

    private EndpointCore newServer(final RetryMode retryMode, final int maxConnections)
    {
        final PacelinkContext context = new PacelinkContext();
        context.limits()
            .retryMode(retryMode)
            .maxUnconfirmedHandshakes(MAX_UNCONFIRMED)
            .maxUnconfirmedHandshakesPerSource(MAX_UNCONFIRMED_PER_SOURCE)
            .retryThresholdHandshakesPerSecond(100)
            .handshakesPerSecondPerSource(1_000_000)
            .handshakeBurstPerSource(1_000_000);
        return bed.newCore(serverPort, true, maxConnections, context, new ArrayList<>(), null);
    }

    private EndpointCore newClient(final String host)
    {
        return bed.newCore(network.newPort(host, 2000), false, 16);
    }

    /**
     * An attacker on one host that follows every RETRY (it is not spoofing) and never confirms: each step a new
     * half-open handshake, 10,000 a second, while a client on another host connects again and again.
     */
    @ParameterizedTest
    @EnumSource(value = RetryMode.class)
    void halfOpenHandshakesFromOneHostNeverKeepANewClientOut(final RetryMode retryMode)
    {
        final EndpointCore server = newServer(retryMode, 8);
        final RawClient attacker = new RawClient(network.newPort("127.0.0.9", 7000), serverPort.localAddress());
        final EndpointCore client = newClient("127.0.0.2");
        final long[] nextClientId = {1};

        for (int attempt = 0; attempt < 5; attempt++)
        {
            final Connection connection = client.connect(serverPort.localAddress(), null, bed.nowNs());
            final long startNs = bed.nowNs();
            bed.run(() ->
            {
                halfOpen(attacker, nextClientId);
                return ConnectionState.CONNECTED == connection.state() && null != bed.accept(server);
            }, TimeUnit.MILLISECONDS.toNanos(50), "a connect beside the half-open handshakes " + attempt + " " +
                connection.state() + " " + server.securityCounters().handshakesUnvalidated().get() + " " +
                server.securityCounters().retriesSent().get() + " " + server.counters().connectionsOpened().get() +
                " " + server.securityCounters().handshakesRateLimited().get() + " " +
                server.securityCounters().answersRateLimited().get() + " " + server.counters().errors().get());
            // The test network delivers at once: a connect takes a step per flight (two more with a RETRY).
            assertTrue(bed.nowNs() - startNs <= 6 * CoreTestBed.STEP_NS, "connect took " + (bed.nowNs() - startNs));
            connection.closeNow();
            for (int i = 0; i < 50; i++)
            {
                halfOpen(attacker, nextClientId);
                bed.step();
            }
        }

        assertTrue(server.securityCounters().handshakesEvicted().get() > 100,
            "evicted " + server.securityCounters().handshakesEvicted().get());
        assertTrue(server.connectionCount() <= MAX_UNCONFIRMED_PER_SOURCE + 5 + 1, "held " + server.connectionCount());
        assertEquals(0, server.counters().connectionsRejected().get(), "nobody refused");
    }

    /**
     * The half-open flood of docs/security.md ("Floods, measured"): one host, 10,000 hellos a second, following every
     * RETRY and never confirming. In the default mode the RETRY is that host's only — it holds its share of the
     * budget and sends tokenless hellos far over its threshold — so a client on another host keeps connecting in one
     * round trip, its hello taken without a token each time (before, the flood turned the RETRY on for everyone).
     */
    @Test
    void aFloodFromOneHostLeavesAnotherHostsConnectsAtOneRoundTrip()
    {
        final EndpointCore server = newServer(RetryMode.AUTO, 8);
        final RawClient attacker = new RawClient(network.newPort("127.0.0.9", 7000), serverPort.localAddress());
        final long[] nextClientId = {1};
        for (int i = 0; i < 100; i++)
        {
            halfOpen(attacker, nextClientId);
            bed.step();
        }
        assertTrue(server.securityCounters().retriesSent().get() > 50,
            "the attacker's hellos get RETRYs: " + server.securityCounters().retriesSent().get());

        for (int attempt = 0; attempt < 5; attempt++)
        {
            // A new client each time (a returning one would bring the NEW_TOKEN token of its last connection).
            final EndpointCore client = bed.newCore(network.newPort("127.0.0.2", 2000 + attempt), false, 16);
            final long unvalidatedBefore = server.securityCounters().handshakesUnvalidated().get();
            final Connection connection = client.connect(serverPort.localAddress(), null, bed.nowNs());
            final long startNs = bed.nowNs();
            bed.run(() ->
            {
                halfOpen(attacker, nextClientId);
                return ConnectionState.CONNECTED == connection.state() && null != bed.accept(server);
            }, TimeUnit.MILLISECONDS.toNanos(50), "a connect beside the one-host flood " + attempt);
            assertEquals(unvalidatedBefore + 1, server.securityCounters().handshakesUnvalidated().get(),
                "the client's hello taken without a RETRY, and none of the attacker's");
            assertTrue(bed.nowNs() - startNs <= 4 * CoreTestBed.STEP_NS, "connect took " + (bed.nowNs() - startNs));
            connection.closeNow();
            for (int i = 0; i < 50; i++)
            {
                halfOpen(attacker, nextClientId);
                bed.step();
            }
        }
    }

    /**
     * Both sides of the per-source threshold: one host's tokenless hellos are taken up to its burst (a quarter
     * second's worth) and then get RETRYs; they do not count towards the global threshold, so another host's are
     * taken up to the global burst; one more from that host, past it, gets a RETRY.
     */
    @Test
    void oneHostOverItsThresholdGetsRetriesAndLeavesTheGlobalThresholdToTheOthers()
    {
        final PacelinkContext context = new PacelinkContext();
        context.limits()
            .maxUnconfirmedHandshakes(1_000)
            .maxUnconfirmedHandshakesPerSource(1_000)
            .retryThresholdHandshakesPerSecond(100)
            .retryThresholdHandshakesPerSecondPerSource(40)
            .handshakesPerSecondPerSource(1_000_000)
            .handshakeBurstPerSource(1_000_000)
            .unvalidatedAnswersPerSecondPerSource(1_000_000);
        final EndpointCore server = bed.newCore(serverPort, true, 8, context, new ArrayList<>(), null);
        final RawClient forger = new RawClient(network.newPort("127.0.0.9", 7000), serverPort.localAddress());
        final InetSocketAddress busy = new InetSocketAddress("10.0.0.1", 9000);
        long clientId = 100;
        for (int i = 0; i < 10; i++)
        {
            serverPort.inject(forger.helloDatagram(clientId++, null), busy);
        }
        bed.step();
        assertEquals(10, server.securityCounters().handshakesUnvalidated().get(), "the burst: 40 / 4");
        assertEquals(0, server.securityCounters().retriesSent().get());
        for (int i = 0; i < 1_000; i++)
        {
            serverPort.inject(forger.helloDatagram(clientId++, null), busy);
        }
        for (int i = 0; i < 20; i++)
        {
            bed.step(); // a receive batch a step; 2 ms in all, a tenth of the busy host's next credit
        }
        assertEquals(10, server.securityCounters().handshakesUnvalidated().get());
        assertEquals(1_000, server.securityCounters().retriesSent().get(), "over its threshold: RETRYs");

        // The global burst is 25 (100 / 4), 10 of them spent by the busy host within its threshold.
        for (int i = 0; i < 15; i++)
        {
            serverPort.inject(forger.helloDatagram(clientId++, null), new InetSocketAddress("10.0.1." + i, 9000));
        }
        bed.step();
        assertEquals(25, server.securityCounters().handshakesUnvalidated().get(), "the others' hellos taken");
        assertEquals(1_000, server.securityCounters().retriesSent().get());
        serverPort.inject(forger.helloDatagram(clientId, null), new InetSocketAddress("10.0.2.1", 9000));
        bed.step();
        assertEquals(25, server.securityCounters().handshakesUnvalidated().get());
        assertEquals(1_001, server.securityCounters().retriesSent().get(), "past the global burst: a RETRY");
    }

    /**
     * Half-open handshakes from 64 spoofed sources, tokens included as if the attacker could read them: the whole
     * budget fills and its oldest go first; a new client still connects.
     */
    @Test
    void aFullBudgetDropsItsOldestHandshakeForANewClient()
    {
        final EndpointCore server = newServer(RetryMode.NEVER, 2);
        final RawClient forger = new RawClient(network.newPort("127.0.0.9", 7000), serverPort.localAddress());
        for (int i = 0; i < 64; i++)
        {
            serverPort.inject(forger.helloDatagram(100 + i, null), new InetSocketAddress("10.0.0." + (1 + i), 9000));
            bed.step();
        }
        assertEquals(MAX_UNCONFIRMED, server.connectionCount(), "the budget full, no more");
        assertEquals(64 - MAX_UNCONFIRMED, server.securityCounters().handshakesEvicted().get());

        final EndpointCore client = newClient("127.0.0.2");
        final Connection[] pair = bed.connect(client, server, serverPort);
        assertEquals(ConnectionState.CONNECTED, pair[0].state());
        assertEquals(65 - MAX_UNCONFIRMED, server.securityCounters().handshakesEvicted().get(),
            "the oldest made room for it");
    }

    @Test
    void autoConnectsInOneRoundTripWithoutARetryAndAlwaysPaysOne()
    {
        final EndpointCore auto = newServer(RetryMode.AUTO, 4);
        bed.connect(newClient("127.0.0.2"), auto, serverPort);
        assertEquals(0, auto.securityCounters().retriesSent().get());
        assertEquals(1, auto.securityCounters().handshakesUnvalidated().get());

        final TestNetwork.Port alwaysPort = network.newPort(1001);
        final PacelinkContext context = new PacelinkContext();
        context.limits().retryMode(RetryMode.ALWAYS);
        final EndpointCore always = bed.newCore(alwaysPort, true, 4, context, new ArrayList<>(), null);
        bed.connect(newClient("127.0.0.3"), always, alwaysPort);
        assertEquals(1, always.securityCounters().retriesSent().get());
        assertEquals(0, always.securityCounters().handshakesUnvalidated().get());
    }

    /**
     * Hellos without tokens from spoofed sources at 10,000 a second, 100 times the threshold: the default mode answers
     * with RETRYs (which go nowhere) and holds no more handshakes; a quiet second later it connects without one again.
     */
    @Test
    void aFloodTurnsTheRetryOnInAutoModeAndItGoesOffAfterwards()
    {
        final EndpointCore server = newServer(RetryMode.AUTO, 4);
        final RawClient forger = new RawClient(network.newPort("127.0.0.9", 7000), serverPort.localAddress());
        for (int i = 0; i < 10_000; i++)
        {
            serverPort.inject(forger.helloDatagram(100 + i, null),
                new InetSocketAddress("10." + (i >> 16 & 0xFF) + "." + (i >> 8 & 0xFF) + "." + (i & 0xFF), 9000));
            bed.step();
        }
        final long unvalidated = server.securityCounters().handshakesUnvalidated().get();
        assertTrue(unvalidated <= 25 + 100 + 10, "unvalidated handshakes within the threshold: " + unvalidated);
        assertTrue(server.securityCounters().retriesSent().get() > 9_000,
            "retries " + server.securityCounters().retriesSent().get());
        assertTrue(server.connectionCount() <= MAX_UNCONFIRMED);

        bed.runFor(TimeUnit.SECONDS.toNanos(1));
        final long retriesBefore = server.securityCounters().retriesSent().get();
        bed.connect(newClient("127.0.0.2"), server, serverPort);
        assertEquals(retriesBefore, server.securityCounters().retriesSent().get(), "no RETRY once quiet");
    }

    @Test
    void aTokenBuysOneHello()
    {
        final EndpointCore server = newServer(RetryMode.ALWAYS, 4);
        final RawClient raw = new RawClient(network.newPort("127.0.0.9", 7000), serverPort.localAddress());
        raw.sendHello(42, null);
        bed.step();
        final byte[] token = RawClient.retryToken(raw.drain(bed.nowNs()).get(0));
        raw.sendHello(42, token);
        bed.step();
        assertEquals(PacketType.HANDSHAKE, RawClient.type(raw.drain(bed.nowNs()).get(0)));
        assertEquals(1, server.counters().connectionsOpened().get());

        // The handshake is dropped unconfirmed (a newer one from the same host takes its slot); the same hello
        // again, token and all, is a hello without a token.
        for (int i = 0; i < MAX_UNCONFIRMED_PER_SOURCE; i++)
        {
            raw.sendHello(1000 + i, null);
            bed.step();
            raw.sendHello(1000 + i, RawClient.retryToken(retry(raw.drain(bed.nowNs()))));
            bed.step();
        }
        assertEquals(1, server.securityCounters().handshakesEvicted().get());
        raw.drain(bed.nowNs());
        raw.sendHello(42, token);
        bed.step();
        assertEquals(1, server.securityCounters().retryTokensReused().get());
        assertEquals(PacketType.RETRY, RawClient.type(raw.drain(bed.nowNs()).get(0)));
        assertEquals(1 + MAX_UNCONFIRMED_PER_SOURCE, server.counters().connectionsOpened().get());
    }

    /**
     * One spoofed victim's address: 2,000 hellos in one second draw at most its burst plus a second's rate of
     * RETRYs (and of version refusals); the rest are counted, and a client elsewhere still gets its RETRY.
     */
    @Test
    void answersToAnUnprovenAddressStayWithinItsRate()
    {
        final PacelinkContext context = new PacelinkContext();
        context.limits().retryMode(RetryMode.ALWAYS).unvalidatedAnswersPerSecondPerSource(50);
        final EndpointCore server = bed.newCore(serverPort, true, 4, context, new ArrayList<>(), null);
        final RawClient victim = new RawClient(network.newPort("127.0.0.9", 7000), serverPort.localAddress());
        final byte[] oldVersion = victim.helloDatagram(7, null).clone();
        oldVersion[0] = 2;
        // Another version has no CRC32C trailer: one that checked as this version's would count as corrupted.
        oldVersion[oldVersion.length - 1] ^= 0x55;
        int answered = 0;
        for (int i = 0; i < 2_000; i++)
        {
            if (0 == (i & 1))
            {
                victim.sendHello(100 + i, null);
            }
            else
            {
                serverPort.inject(oldVersion, victim.port().localAddress());
            }
            bed.runFor(TimeUnit.MILLISECONDS.toNanos(1) / 2);
            answered += victim.drain(bed.nowNs()).size();
        }
        assertTrue(answered <= 2 * 50 + 50 + 1, "answered " + answered);
        assertTrue(answered >= 50 + 50 - 1, "answered " + answered);
        assertEquals(2_000 - answered, server.securityCounters().answersRateLimited().get());

        bed.connect(newClient("127.0.0.2"), server, serverPort);
    }

    private static byte[] retry(final java.util.List<byte[]> datagrams)
    {
        return datagrams.stream().filter((datagram) -> PacketType.RETRY == RawClient.type(datagram)).findFirst()
            .orElseThrow();
    }

    private void halfOpen(final RawClient attacker, final long[] nextClientId)
    {
        for (final byte[] answer : attacker.drain(bed.nowNs()))
        {
            if (PacketType.RETRY == RawClient.type(answer))
            {
                attacker.sendHello(RawClient.destinationId(answer), RawClient.retryToken(answer));
            }
        }
        attacker.sendHello(nextClientId[0]++, null);
    }
}
