package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.EndpointLimits;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.RetryMode;
import io.pacelink.transport.admission.KeyExchangeBudget;
import io.pacelink.transport.secure.X25519;
import io.pacelink.transport.testing.TestNetwork;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The secure server's Diffie-Hellman budget (docs/security.md, "Admission" step 6), in virtual time: no duty cycle
 * performs more key exchanges than its cap, a second performs no more than the rate allows after its burst — and on
 * the other side of both limits, a burst of legitimate clients connecting at once all get through, and a few at once
 * are not held back at all.
 */
class KeyExchangeBudgetTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    private final CoreTestBed bed = new CoreTestBed(TimeUnit.SECONDS.toNanos(30), TimeUnit.SECONDS.toNanos(10));
    private final TestNetwork network = bed.network();
    private final TestNetwork.Port serverPort = network.newPort(1000);
    private final byte[] serverPrivateKey = new byte[X25519.KEY_LENGTH];
    private final byte[] serverPublicKey;

    KeyExchangeBudgetTest()
    {
        new Random(3).nextBytes(serverPrivateKey);
        serverPublicKey = new X25519().publicKey(serverPrivateKey);
    }

    private EndpointCore newServer(final PacelinkContext context)
    {
        context.security().serverPrivateKey(serverPrivateKey);
        bed.countersBufferBytes(1024 * 1024); // counters for every client's connection at once
        final EndpointCore server = bed.newCore(serverPort, true, 1024, context.randomSeed(5), new ArrayList<>(),
            null);
        bed.countersBufferBytes(256 * 1024);
        return server;
    }

    private List<Connection> connectAtOnce(final int clients)
    {
        final List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < clients; i++)
        {
            final PacelinkContext context = new PacelinkContext().randomSeed(100 + i);
            context.security().serverPublicKey(serverPublicKey);
            final EndpointCore client = bed.newCore(network.newPort("127.0.1." + (1 + i), 2000), false, 4, context,
                new ArrayList<>(), null);
            connections.add(client.connect(serverPort.localAddress(), null, bed.nowNs()));
        }
        return connections;
    }

    /**
     * Clients on one host: each its own endpoint and port, all on one address.
     */
    private List<Connection> connectAtOnceFromOneHost(final String address, final int firstPort, final int clients)
    {
        final List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < clients; i++)
        {
            final PacelinkContext context = new PacelinkContext().randomSeed(500 + firstPort + i);
            context.security().serverPublicKey(serverPublicKey);
            final EndpointCore client = bed.newCore(network.newPort(address, firstPort + i), false, 4, context,
                new ArrayList<>(), null);
            connections.add(client.connect(serverPort.localAddress(), null, bed.nowNs()));
        }
        return connections;
    }

    private static boolean allConnected(final List<Connection> connections)
    {
        return connections.stream().allMatch((connection) -> ConnectionState.CONNECTED == connection.state());
    }

    /**
     * Step until every client connected, checking each duty cycle's key exchanges (each opens a server connection).
     *
     * @return the most key exchanges one of the server's duty cycles performed.
     */
    private long connectAll(final EndpointCore server, final List<Connection> connections, final long maxNs)
    {
        final long endNs = bed.nowNs() + maxNs;
        long mostInOneCycle = 0;
        while (!allConnected(connections))
        {
            assertTrue(bed.nowNs() < endNs, "not every client connected: " + server.counters().connectionsOpened()
                .get() + " opened, " + server.securityCounters().keyExchangesLimited().get() + " limited, " +
                server.securityCounters().retriesSent().get() + " retries, " +
                server.securityCounters().handshakesEvicted().get() + " evicted, " +
                server.securityCounters().handshakesRateLimited().get() + " rate-limited, " +
                server.securityCounters().answersRateLimited().get() + " answers limited, " +
                server.securityCounters().handshakeTimeouts().get() + " timeouts, " +
                server.counters().datagramsReceived().get() + " datagrams, " +
                connections.stream().filter((c) -> ConnectionState.CONNECTED == c.state()).count() + " connected, " +
                server.counters().connectionsRejected().get() + " rejected, " +
                connections.stream().filter((c) -> ConnectionState.CONNECTED != c.state()).findFirst()
                    .map((c) -> c.state() + " " + c.outcome()).orElse(""));
            final long openedBefore = server.counters().connectionsOpened().get();
            bed.step();
            mostInOneCycle = Math.max(mostInOneCycle, server.counters().connectionsOpened().get() - openedBefore);
        }
        return mostInOneCycle;
    }

    @Test
    void aBurstOfFortyConnectsAllGetThroughAtNoMoreThanTheCapADutyCycle()
    {
        final EndpointCore server = newServer(new PacelinkContext());
        final List<Connection> connections = connectAtOnce(40);
        final long startNs = bed.nowNs();
        final long mostInOneCycle = connectAll(server, connections, 5 * SECOND_NS);

        assertTrue(mostInOneCycle <= EndpointLimits.DEFAULT_KEY_EXCHANGES_PER_DUTY_CYCLE,
            "key exchanges in one duty cycle: " + mostInOneCycle);
        assertEquals(0, server.securityCounters().keyExchangesLimited().get(), "the burst takes them all");
        assertEquals(40, server.counters().connectionsOpened().get(), "one key exchange per client");
        assertTrue(bed.nowNs() - startNs <= 20 * CoreTestBed.STEP_NS,
            "the hellos beyond the cap waited a duty cycle each, not a retransmission: " + (bed.nowNs() - startNs));
        assertEquals(0, server.counters().connectionsRejected().get());
    }

    @Test
    void aFewConnectsAtOnceWithinTheCapAreNotHeldBack()
    {
        final EndpointCore server = newServer(new PacelinkContext());
        final List<Connection> connections = connectAtOnce(EndpointLimits.DEFAULT_KEY_EXCHANGES_PER_DUTY_CYCLE);
        connectAll(server, connections, SECOND_NS);
        assertEquals(0, server.securityCounters().keyExchangesLimited().get());
    }

    /**
     * Sixty clients at once against a rate of 20 a second after a burst of 10: the first second performs at most the
     * burst and a second's rate, and every client still connects, retransmitting its hello (in synchronised rounds of
     * its backed-off retry delay, each taking the credit built since the last) until a key exchange is free.
     */
    @Test
    void theRateHoldsOverASecondAndEveryClientOfSixtyStillConnects()
    {
        final PacelinkContext context = new PacelinkContext();
        context.limits().keyExchangesPerSecond(20).keyExchangeBurst(10);
        final EndpointCore server = newServer(context);
        final List<Connection> connections = connectAtOnce(60);
        bed.runFor(SECOND_NS);
        final long firstSecond = server.counters().connectionsOpened().get();
        assertTrue(firstSecond <= 10 + 20 + 1, "key exchanges in the first second: " + firstSecond);
        assertTrue(firstSecond > 10, "past the burst: " + firstSecond);

        connectAll(server, connections, 8 * SECOND_NS);
        assertEquals(60, server.counters().connectionsOpened().get());
    }

    /**
     * One host's burst — a flood's first hellos, accepted before its rate marks it for validation — takes at most
     * half the endpoint's burst; a client of another host whose hello arrives right after it is served at once, not
     * after a retransmission.
     */
    @Test
    void oneSourceTakesNoMoreThanHalfTheBurstAndAnotherIsStillServed()
    {
        final EndpointCore server = newServer(new PacelinkContext());
        final int share = KeyExchangeBudget.sourceShare(EndpointLimits.DEFAULT_KEY_EXCHANGE_BURST);
        final List<Connection> crowd = connectAtOnceFromOneHost("127.0.2.1", 3000, 2 * share);
        bed.runFor(TimeUnit.MILLISECONDS.toNanos(20));
        final long openedForTheHost = server.counters().connectionsOpened().get();
        assertTrue(openedForTheHost >= share && openedForTheHost <= share + 10,
            "the host's key exchanges in 20 ms (its share of the burst, then its share of the rate): " +
            openedForTheHost);
        assertTrue(server.securityCounters().keyExchangesLimited().get() > 0, "the host's hellos beyond its share");

        final long limitedBefore = server.securityCounters().keyExchangesLimited().get();
        final List<Connection> other = connectAtOnceFromOneHost("127.0.3.1", 4000, 1);
        final long startNs = bed.nowNs();
        connectAll(server, other, SECOND_NS);
        assertTrue(bed.nowNs() - startNs <= 20 * CoreTestBed.STEP_NS,
            "the other host's client connected without a retransmission: " + (bed.nowNs() - startNs));
        assertEquals(limitedBefore, server.securityCounters().keyExchangesLimited().get(),
            "nothing of the other host's was limited");
        connectAll(server, crowd, 5 * SECOND_NS);
    }

    /**
     * The other side of the share: as many clients of one host at once as its share of the burst all connect without
     * one hello dropped.
     */
    @Test
    void aSourceWithinItsShareIsNotHeldBack()
    {
        final EndpointCore server = newServer(new PacelinkContext());
        connectAll(server, connectAtOnceFromOneHost("127.0.2.1", 3000,
            KeyExchangeBudget.sourceShare(EndpointLimits.DEFAULT_KEY_EXCHANGE_BURST)), SECOND_NS);
        assertEquals(0, server.securityCounters().keyExchangesLimited().get());
    }

    /**
     * A token buys one key exchange: a client whose tokened hello the budget could not serve retransmits it with the
     * same token and is served once there is credit — no second RETRY, no token counted as reused.
     */
    @Test
    void aHelloTheBudgetCannotServeKeepsItsTokenForItsRetransmission()
    {
        final PacelinkContext context = new PacelinkContext();
        context.limits().retryMode(RetryMode.ALWAYS).keyExchangesPerSecond(1).keyExchangeBurst(1);
        final EndpointCore server = newServer(context);
        connectAll(server, connectAtOnce(2), 3 * SECOND_NS);

        assertTrue(server.securityCounters().keyExchangesLimited().get() > 0, "the second client waited");
        assertEquals(2, server.securityCounters().retriesSent().get(), "one RETRY for each client");
        assertEquals(0, server.securityCounters().retryTokensReused().get());
    }

    /**
     * On a machine where each step of a duty cycle takes a millisecond (a clock that moves on by 1 ms at every read),
     * the cap in time binds before the cap in count: one key exchange a cycle — never none — and every client of eight
     * at once still connects, none dropped.
     */
    @Test
    void onASlowMachineTheCapInTimeBindsAfterOneKeyExchange()
    {
        final EndpointCore server = newServer(new PacelinkContext());
        bed.runOnClock(server, TimeUnit.MILLISECONDS.toNanos(1));
        final long mostInOneCycle = connectAll(server, connectAtOnce(8), 5 * SECOND_NS);

        assertEquals(1, mostInOneCycle, "key exchanges in one duty cycle");
        assertEquals(8, server.counters().connectionsOpened().get());
        assertEquals(0, server.securityCounters().keyExchangesLimited().get());
    }

    /**
     * The other side of the cap in time: on a clock that moves on by a microsecond at every read, four key exchanges
     * fit in a cycle's millisecond, so the cap in count binds, as in virtual time.
     */
    @Test
    void onAFastMachineTheCapInCountBinds()
    {
        final EndpointCore server = newServer(new PacelinkContext());
        bed.runOnClock(server, TimeUnit.MICROSECONDS.toNanos(1));
        assertEquals(EndpointLimits.DEFAULT_KEY_EXCHANGES_PER_DUTY_CYCLE,
            connectAll(server, connectAtOnce(8), 5 * SECOND_NS), "key exchanges in one duty cycle");
    }

    /**
     * The cap in time is a setting: with 10 ms for them, the machine where each step takes a millisecond does its four
     * a cycle.
     */
    @Test
    void theCapInTimeIsASetting()
    {
        final PacelinkContext context = new PacelinkContext();
        context.limits().keyExchangeTimePerDutyCycleNs(TimeUnit.MILLISECONDS.toNanos(10));
        final EndpointCore server = newServer(context);
        bed.runOnClock(server, TimeUnit.MILLISECONDS.toNanos(1));
        assertEquals(EndpointLimits.DEFAULT_KEY_EXCHANGES_PER_DUTY_CYCLE,
            connectAll(server, connectAtOnce(8), 5 * SECOND_NS), "key exchanges in one duty cycle");
    }

    @Test
    void theCapADutyCycleIsASetting()
    {
        final PacelinkContext context = new PacelinkContext();
        context.limits().keyExchangesPerDutyCycle(1);
        final EndpointCore server = newServer(context);
        final long mostInOneCycle = connectAll(server, connectAtOnce(8), 5 * SECOND_NS);
        assertEquals(1, mostInOneCycle);
    }
}
