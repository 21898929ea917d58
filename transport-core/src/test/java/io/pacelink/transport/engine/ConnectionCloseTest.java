package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionOutcome;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.testing.TestNetwork;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How connections end, driven by hand in virtual time: a graceful close waits for the peer's application, not its
 * transport; the outcome separates who closed from whether everything was delivered; refusals reach the client as
 * REJECTED with the server's reason; an ICMP port-unreachable report ends a handshake at once and an established
 * connection only once confirmed (issue 12 items 1, 2 and 4; issue 9 item 10; issue 10 items 5 and 7).
 */
class ConnectionCloseTest
{
    private static final long IDLE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(2);
    private static final long HANDSHAKE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int MESSAGE_BYTES = 10_000;
    private static final int MESSAGES = 20;
    private static final long PAYLOAD_BYTES = (long)MESSAGES * MESSAGE_BYTES;
    private static final long STREAM_BYTES = PAYLOAD_BYTES + 4L * MESSAGES;

    private final CoreTestBed bed = new CoreTestBed(IDLE_TIMEOUT_NS, HANDSHAKE_TIMEOUT_NS);
    private final TestNetwork network = bed.network();
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_BYTES]);
    private TestNetwork.Port serverPort;
    private TestNetwork.Port clientPort;
    private EndpointCore server;
    private EndpointCore client;

    @BeforeEach
    void setUp()
    {
        serverPort = network.newPort(1000);
        clientPort = network.newPort(2000);
        server = bed.newCore(serverPort, true, 16);
        client = bed.newCore(clientPort, false, 16);
    }

    private void offerAll(final Connection connection)
    {
        for (int i = 0; i < MESSAGES; i++)
        {
            assertTrue(connection.offer(message, 0, MESSAGE_BYTES) > 0, "the send buffer holds them all");
        }
    }

    private static int pollAll(final Connection connection)
    {
        return connection.poll((buffer, offset, length) -> assertEquals(MESSAGE_BYTES, length), Integer.MAX_VALUE);
    }

    @Test
    void closeWaitsUntilThePeersApplicationHasReadEverything()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        offerAll(pair[0]);
        pair[0].close();
        assertEquals(Connection.CLOSED, pair[0].offer(message, 0, 1), "no offers after close");

        bed.runFor(TimeUnit.MILLISECONDS.toNanos(300));
        assertEquals(STREAM_BYTES, pair[0].stats().streamBytesAcked(), "the peer's transport has it all");
        assertSame(ConnectionOutcome.OPEN, pair[0].outcome(), "acknowledged is not delivered: nothing was read");
        assertEquals(ConnectionState.CLOSING, pair[0].state());

        assertEquals(MESSAGES, pollAll(pair[1]));
        bed.run(() -> ConnectionState.CLOSED == pair[0].state() && ConnectionState.CLOSED == pair[1].state(),
            TimeUnit.SECONDS.toNanos(1), "close");

        final ConnectionOutcome sent = pair[0].outcome();
        assertEquals(CloseReason.LOCAL_CLOSE, sent.reason());
        assertTrue(sent.isDelivered(), sent::toString);
        assertEquals(MESSAGES, sent.messagesOffered());
        assertEquals(PAYLOAD_BYTES, sent.bytesOffered(), "application bytes: no framing");
        assertEquals(MESSAGES, sent.messagesDelivered());
        assertEquals(PAYLOAD_BYTES, sent.bytesDelivered());

        final ConnectionOutcome received = pair[1].outcome();
        assertEquals(CloseReason.PEER_CLOSE, received.reason());
        assertTrue(received.isDelivered(), "it offered nothing, so nothing is missing");
        assertTrue(pair[1].isEndOfStream());

        assertEquals(MESSAGES, pair[0].stats().messagesOffered());
        assertEquals(PAYLOAD_BYTES, pair[0].stats().applicationBytesOffered());
        assertEquals(PAYLOAD_BYTES, pair[0].stats().applicationBytesDelivered());
        assertEquals(STREAM_BYTES, pair[0].stats().streamBytesAcked(), "the wire figure counts the length prefixes");
        assertEquals(MESSAGES, pair[1].stats().messagesReceived());
        assertEquals(PAYLOAD_BYTES, pair[1].stats().applicationBytesReceived());
        assertEquals(STREAM_BYTES, pair[1].stats().streamBytesReceived());
    }

    @Test
    void closeFailsAfterTheLingerTimeoutWhenThePeerStopsReading()
    {
        final EndpointCore lingering = bed.newCore(network.newPort(3000), false, 16,
            new PacelinkContext().lingerTimeoutNs(TimeUnit.MILLISECONDS.toNanos(500)), new ArrayList<>(), null);
        final Connection[] pair = bed.connect(lingering, server, serverPort);
        offerAll(pair[0]);
        bed.run(() -> pair[1].stats().streamBytesReceived() == STREAM_BYTES, TimeUnit.SECONDS.toNanos(1), "arrival");
        assertEquals(5, pair[1].poll((buffer, offset, length) -> { }, 5), "the peer reads a little, then stops");
        pair[0].close();
        final long closedAtNs = bed.nowNs();

        bed.run(() -> pair[0].outcome().isClosed(), TimeUnit.SECONDS.toNanos(1), "linger timeout");
        final ConnectionOutcome outcome = pair[0].outcome();
        assertEquals(CloseReason.LINGER_TIMEOUT, outcome.reason());
        assertFalse(outcome.isDelivered(), outcome::toString);
        assertTrue(outcome.messagesDelivered() <= 5, outcome::toString);
        assertTrue(bed.nowNs() - closedAtNs >= TimeUnit.MILLISECONDS.toNanos(500));
        bed.run(() -> ConnectionState.CLOSED == pair[1].state(), TimeUnit.SECONDS.toNanos(1), "peer told");
        assertEquals(CloseReason.PEER_ABORTED, pair[1].closeReason());
    }

    @Test
    void aPeersCloseDuringTheLingerDoesNotChangeWhoClosed()
    {
        // Issue 12 item 2: four fully delivered transfers reported PEER_CLOSE three times. Here both sides close at
        // once, so each side's CLOSE reaches the other during its own closing period.
        for (int transfer = 0; transfer < 4; transfer++)
        {
            final Connection[] pair = bed.connect(client, server, serverPort);
            offerAll(pair[0]);
            final int[] polled = new int[1];
            bed.run(() -> (polled[0] += pollAll(pair[1])) == MESSAGES, TimeUnit.SECONDS.toNanos(1), "delivery");
            pair[0].close();
            pair[1].close();
            bed.run(() -> ConnectionState.CLOSED == pair[0].state() && ConnectionState.CLOSED == pair[1].state(),
                TimeUnit.SECONDS.toNanos(1), "close");
            assertEquals(CloseReason.LOCAL_CLOSE, pair[0].closeReason(), "transfer " + transfer);
            assertTrue(pair[0].outcome().isDelivered(), pair[0].outcome()::toString);
            assertEquals(CloseReason.LOCAL_CLOSE, pair[1].closeReason(), "transfer " + transfer);
        }
    }

    @Test
    void anOutcomeNeverReportsSuccessForDataThePeerDidNotRead()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        offerAll(pair[0]);
        bed.runFor(TimeUnit.MILLISECONDS.toNanos(100));
        pair[1].close(); // the server closes without reading a message

        bed.run(() -> ConnectionState.CLOSED == pair[0].state() && ConnectionState.CLOSED == pair[1].state(),
            TimeUnit.SECONDS.toNanos(1), "close");
        final ConnectionOutcome outcome = pair[0].outcome();
        assertEquals(CloseReason.PEER_CLOSE, outcome.reason());
        assertFalse(outcome.isDelivered(), "every byte was acknowledged, none was read");
        assertEquals(0, outcome.messagesDelivered());
        assertEquals("closed by the peer; 0 of 20 messages (0 of 200000 bytes) delivered", outcome.toString());
        assertEquals(CloseReason.LOCAL_CLOSE, pair[1].closeReason());
        assertTrue(pair[1].outcome().isDelivered());
    }

    @Test
    void closeNowAbortsAndThePeerIsTold()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        offerAll(pair[0]);
        pair[0].closeNow();
        bed.run(() -> ConnectionState.CLOSED == pair[0].state() && ConnectionState.CLOSED == pair[1].state(),
            TimeUnit.SECONDS.toNanos(1), "abort");
        assertEquals(CloseReason.ABORTED, pair[0].closeReason());
        assertFalse(pair[0].outcome().isDelivered());
        assertEquals(CloseReason.PEER_ABORTED, pair[1].closeReason());
    }

    @Test
    void everyRefusalReachesTheClientAsRejectedWithTheServersReason()
    {
        final TestNetwork.Port limitedPort = network.newPort(3000);
        final EndpointCore limited = bed.newCore(limitedPort, true, 1);
        bed.connect(client, limited, limitedPort);
        assertRejected(client.connect(limitedPort.localAddress(), null, bed.nowNs()),
            "the server has its maximum of connections");

        // The server offers a connection to its application only once the client confirmed the handshake from its
        // address (docs/security.md, "Admission"), so this refusal comes after the client saw the handshake complete.
        bed.acceptCapacity(server, 0);
        assertRejectedAfterConnecting(client.connect(serverPort.localAddress(), null, bed.nowNs()),
            "the server application's accept queue is full");
        assertNull(bed.accept(server));
        bed.acceptCapacity(server, Integer.MAX_VALUE);

        final TestNetwork.Port otherClientPort = network.newPort(4000);
        bed.newCore(otherClientPort, false, 16);
        assertRejected(client.connect(otherClientPort.localAddress(), null, bed.nowNs()),
            "the server does not accept connections");

        server.beginGracefulClose();
        assertRejected(client.connect(serverPort.localAddress(), null, bed.nowNs()), "the server is closing");

        final EndpointCore single = bed.newCore(network.newPort(5000), false, 1);
        single.connect(serverPort.localAddress(), null, bed.nowNs());
        final Connection beyondLocalLimit = single.connect(serverPort.localAddress(), null, bed.nowNs());
        assertEquals(ConnectionState.CLOSED, beyondLocalLimit.state(), "refused at once, locally");
        assertEquals(CloseReason.REJECTED, beyondLocalLimit.closeReason());
        assertEquals("this endpoint has its maximum of connections (maxConnections=1)",
            beyondLocalLimit.outcome().detail());
    }

    private void assertRejected(final Connection connection, final String detail)
    {
        final boolean[] sawConnected = new boolean[1];
        bed.run(() ->
        {
            sawConnected[0] |= ConnectionState.CONNECTED == connection.state();
            return ConnectionState.CLOSED == connection.state();
        }, TimeUnit.MILLISECONDS.toNanos(100), "refusal");
        assertFalse(sawConnected[0], "a refused connection is never established");
        assertRejectedOutcome(connection, detail);
    }

    private void assertRejectedAfterConnecting(final Connection connection, final String detail)
    {
        bed.run(() -> ConnectionState.CLOSED == connection.state(), TimeUnit.SECONDS.toNanos(1), "refusal");
        assertRejectedOutcome(connection, detail);
    }

    private static void assertRejectedOutcome(final Connection connection, final String detail)
    {
        assertEquals(CloseReason.REJECTED, connection.closeReason());
        assertEquals(detail, connection.outcome().detail());
        assertEquals("the server refused the connection: " + detail + "; all 0 messages (0 bytes) delivered",
            connection.outcome().toString());
    }

    @Test
    void portUnreachableEndsAHandshakeAtOnce()
    {
        final long startNs = bed.nowNs();
        final Connection connection = client.connect(new InetSocketAddress("127.0.0.1", 9), null, startNs);
        bed.run(() -> ConnectionState.CLOSED == connection.state(), HANDSHAKE_TIMEOUT_NS, "unreachable");
        assertEquals(CloseReason.PEER_UNREACHABLE, connection.closeReason());
        assertTrue(bed.nowNs() - startNs <= 3 * CoreTestBed.STEP_NS, "at the first report, not the handshake timeout");
        assertEquals(1, client.counters().portUnreachable().get());
    }

    @Test
    void portUnreachableEndsAnEstablishedConnectionOnlyOnceConfirmed()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        assertEquals(serverPort.localAddress(), clientPort.restrictedTo(), "a client restricts its port to its peer");

        clientPort.injectPortUnreachable(); // forged: the server is alive and answers the probe
        bed.runFor(TimeUnit.MILLISECONDS.toNanos(500));
        assertEquals(ConnectionState.CONNECTED, pair[0].state(), "one report from a peer that still answers");

        network.unplug(serverPort); // the server process dies
        offerAll(pair[0]);
        final long diedAtNs = bed.nowNs();
        bed.run(() -> ConnectionState.CLOSED == pair[0].state(), IDLE_TIMEOUT_NS, "unreachable");
        assertEquals(CloseReason.PEER_UNREACHABLE, pair[0].closeReason());
        assertTrue(bed.nowNs() - diedAtNs < IDLE_TIMEOUT_NS / 4, "well before the idle timeout: " +
            TimeUnit.NANOSECONDS.toMillis(bed.nowNs() - diedAtNs) + " ms");
    }

    @Test
    void aSecondReportLongAfterTheFirstConfirmsWhatThePeerNeverAnswered()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        network.unplug(serverPort); // the server process dies: nothing reaches it, nothing leaves it
        bed.stop(server);
        clientPort.loseUnreachableReports(); // and the kernel's reports are sparse, as on Linux
        offerAll(pair[0]);
        clientPort.injectPortUnreachable();
        final long firstReportNs = bed.nowNs();
        bed.runFor(TimeUnit.MILLISECONDS.toNanos(400)); // many PTOs: a lone report proves nothing yet
        assertEquals(ConnectionState.CONNECTED, pair[0].state(), "one report alone ends nothing");

        clientPort.injectPortUnreachable();
        bed.run(() -> ConnectionState.CLOSED == pair[0].state(), 3 * CoreTestBed.STEP_NS, "the second report");
        assertEquals(CloseReason.PEER_UNREACHABLE, pair[0].closeReason());
        assertTrue(bed.nowNs() - firstReportNs < IDLE_TIMEOUT_NS / 4, "well before the idle timeout");
    }

    @Test
    void reportsAPeerAnswersBetweenNeverAddUp()
    {
        final Connection[] pair = bed.connect(client, server, serverPort);
        for (int i = 0; i < 5; i++)
        {
            clientPort.injectPortUnreachable(); // forged: the server answers each probe
            bed.runFor(TimeUnit.MILLISECONDS.toNanos(300));
            assertEquals(ConnectionState.CONNECTED, pair[0].state(), "report " + (i + 1));
        }
    }

    @Test
    void aClientRestrictsItsPortToItsOnePeerOnly()
    {
        final Connection first = client.connect(serverPort.localAddress(), null, bed.nowNs());
        assertEquals(serverPort.localAddress(), clientPort.restrictedTo());
        final TestNetwork.Port otherServerPort = network.newPort(3000);
        bed.newCore(otherServerPort, true, 16);
        final Connection second = client.connect(otherServerPort.localAddress(), null, bed.nowNs());
        assertNull(clientPort.restrictedTo(), "two peers: open to both");
        bed.run(() -> ConnectionState.CONNECTED == first.state() && ConnectionState.CONNECTED == second.state(),
            TimeUnit.SECONDS.toNanos(1), "both connect");
        second.closeNow();
        bed.run(() -> ConnectionState.CLOSED == second.state(), TimeUnit.SECONDS.toNanos(1), "close");
        assertEquals(serverPort.localAddress(), clientPort.restrictedTo(), "one peer again");
        assertNull(serverPort.restrictedTo(), "a server never restricts its port");
    }

    @Test
    void aClientCountsItsConnectionsToEachPeer()
    {
        final Connection first = client.connect(serverPort.localAddress(), null, bed.nowNs());
        final Connection second = client.connect(serverPort.localAddress(), null, bed.nowNs());
        assertEquals(serverPort.localAddress(), clientPort.restrictedTo(), "two connections, one peer");
        final TestNetwork.Port otherServerPort = network.newPort(3000);
        bed.newCore(otherServerPort, true, 16);
        final Connection other = client.connect(otherServerPort.localAddress(), null, bed.nowNs());
        assertNull(clientPort.restrictedTo(), "two peers: open to both");
        bed.run(() -> ConnectionState.CONNECTED == first.state() && ConnectionState.CONNECTED == second.state() &&
            ConnectionState.CONNECTED == other.state(), TimeUnit.SECONDS.toNanos(1), "all connect");

        first.closeNow();
        bed.run(() -> ConnectionState.CLOSED == first.state(), TimeUnit.SECONDS.toNanos(1), "close");
        assertNull(clientPort.restrictedTo(), "the first peer still has a connection");
        other.closeNow();
        bed.run(() -> ConnectionState.CLOSED == other.state(), TimeUnit.SECONDS.toNanos(1), "close");
        assertEquals(serverPort.localAddress(), clientPort.restrictedTo(), "one peer again");
        second.closeNow();
        bed.run(() -> ConnectionState.CLOSED == second.state(), TimeUnit.SECONDS.toNanos(1), "close");
        assertNull(clientPort.restrictedTo(), "no peer: open to anyone");
    }
}
