package io.pacelink.it;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionFailedException;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.port.NioDatagramPort;
import io.pacelink.transport.stats.CountersSizing;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12 items 4, 5 and 6 and issue 9 item 10 on real sockets, where the traps were: the operating system's ICMP
 * port-unreachable report, the address a client binds, a refusal, and a client restarted on the same port.
 */
class ConnectionFailureTest
{
    private static final long HANDSHAKE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(20);

    /**
     * A server whose peer died has nobody to deliver to when it closes: without a short linger its close waits the
     * default 30 s for an acknowledgement that cannot come.
     */
    private static final long DEAD_PEER_LINGER_NS = TimeUnit.MILLISECONDS.toNanos(500);

    private static PacelinkContext clientContext()
    {
        return new PacelinkContext().acceptConnections(false).handshakeTimeoutNs(HANDSHAKE_TIMEOUT_NS);
    }

    private static int freeUdpPort() throws Exception
    {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0)))
        {
            return socket.getLocalPort();
        }
    }

    @Test
    void aClientBindsTheWildcardAddressByDefault()
    {
        assertTrue(new PacelinkContext().bindAddress().getAddress().isAnyLocalAddress());
        try (Endpoint server = Endpoint.launch(new PacelinkContext());
            Endpoint client = Endpoint.launch(clientContext()))
        {
            assertTrue(client.localAddress().getAddress().isAnyLocalAddress(), client.localAddress().toString());
            // Connecting to what a wildcard-bound endpoint calls its address means this host, as for the OS.
            final Connection connection = client.connect(server.localAddress(), null, WAIT_NS);
            assertEquals(new InetSocketAddress("127.0.0.1", server.localAddress().getPort()),
                connection.remoteAddress());
            assertNotNull(server.accept(WAIT_NS));
        }
    }

    @Test
    void aLoopbackEndpointSaysItCannotReachAnotherHost()
    {
        try (Endpoint loopback = Endpoint.launch(
            new PacelinkContext().bindAddress(new InetSocketAddress("127.0.0.1", 0))))
        {
            final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> loopback.connect(new InetSocketAddress("192.0.2.1", 40123)));
            assertTrue(failure.getMessage().startsWith("this endpoint is bound to the loopback address 127.0.0.1 " +
                "and cannot reach 192.0.2.1:40123 on another host"), failure.getMessage());
        }
    }

    @Test
    void connectingToAPortWhereNothingListensFailsAtOnce() throws Exception
    {
        final InetSocketAddress nobody = new InetSocketAddress("127.0.0.1", freeUdpPort());
        try (Endpoint client = Endpoint.launch(clientContext()))
        {
            final long startNs = System.nanoTime();
            final ConnectionFailedException failure =
                assertThrows(ConnectionFailedException.class, () -> client.connect(nobody, null, WAIT_NS));
            final long elapsedNs = System.nanoTime() - startNs;
            assertEquals(CloseReason.PEER_UNREACHABLE, failure.reason());
            assertEquals("cannot connect to 127.0.0.1:" + nobody.getPort() + ": the peer is unreachable: nothing " +
                "listens on its port (ICMP port unreachable)", failure.getMessage());
            assertTrue(elapsedNs < HANDSHAKE_TIMEOUT_NS / 2, "took " + TimeUnit.NANOSECONDS.toMillis(elapsedNs) +
                " ms: the handshake timeout, not the ICMP report, ended it");
        }
    }

    @Test
    void aServerThatDiesIsSeenUnreachableLongBeforeTheIdleTimeout() throws Exception
    {
        final NioDatagramPort serverPort = NioDatagramPort.open(new InetSocketAddress("127.0.0.1", 0), 1 << 20);
        try (Endpoint server = Endpoint.launch(
            new PacelinkContext().datagramPort(serverPort).lingerTimeoutNs(DEAD_PEER_LINGER_NS));
            Endpoint client = Endpoint.launch(clientContext().idleTimeoutNs(TimeUnit.SECONDS.toNanos(30))))
        {
            final Connection connection = client.connect(server.localAddress(), null, WAIT_NS);
            assertNotNull(server.accept(WAIT_NS));

            serverPort.close(); // the server process dies: its socket is gone, no CLOSE is ever sent
            final long diedAtNs = System.nanoTime();
            final UnsafeBuffer message = new UnsafeBuffer(new byte[1000]);
            while (ConnectionState.CONNECTED == connection.state() && System.nanoTime() - diedAtNs < WAIT_NS)
            {
                connection.offer(message, 0, message.capacity(), TimeUnit.MILLISECONDS.toNanos(10));
            }
            assertEquals(CloseReason.PEER_UNREACHABLE, connection.awaitOutcome(WAIT_NS).reason());
            final long elapsedNs = System.nanoTime() - diedAtNs;
            assertTrue(elapsedNs < TimeUnit.SECONDS.toNanos(10), "took " + TimeUnit.NANOSECONDS.toMillis(elapsedNs) +
                " ms (idle timeout 30 s)");
        }
    }

    @Test
    void aServerAtItsLimitRefusesAndTheClientSaysWhy()
    {
        try (Endpoint server = Endpoint.launch(
            new PacelinkContext().bindAddress(new InetSocketAddress("127.0.0.1", 0)).maxConnections(1));
            Endpoint client = Endpoint.launch(clientContext()))
        {
            client.connect(server.localAddress(), null, WAIT_NS);
            // The server is at its limit once it counts the first connection: when the client's confirmation has
            // arrived, which the client's connect does not wait for. A hello that overtakes the confirmation is taken
            // as a handshake and refused only at its own confirmation, after the client's connect returned (a CI
            // run on a loaded machine did that), so the test waits for the server to hand the first one over.
            assertNotNull(server.accept(WAIT_NS));
            final ConnectionFailedException failure = assertThrows(ConnectionFailedException.class,
                () -> client.connect(server.localAddress(), null, WAIT_NS));
            assertEquals(CloseReason.REJECTED, failure.reason());
            assertEquals("cannot connect to 127.0.0.1:" + server.localAddress().getPort() + ": the server refused " +
                "the connection (the server has its maximum of connections)", failure.getMessage());
        }
    }

    @Test
    void aServerWhoseCountersAreFullRefusesAndTheClientSaysWhy()
    {
        // The smallest counters file: every connection that fits is accepted, the next is refused, saying why.
        try (Endpoint server = Endpoint.launch(new PacelinkContext().bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .countersBufferBytes(CountersSizing.MIN_VALUES_BUFFER_BYTES));
            Endpoint client = Endpoint.launch(clientContext()))
        {
            int connected = 0;
            ConnectionFailedException failure = null;
            while (null == failure && connected < 100)
            {
                try
                {
                    client.connect(server.localAddress(), null, WAIT_NS);
                    connected++;
                }
                catch (final ConnectionFailedException ex)
                {
                    failure = ex;
                }
            }
            assertNotNull(failure, connected + " connected");
            assertTrue(connected >= CountersSizing.connectionsHeld(CountersSizing.MIN_VALUES_BUFFER_BYTES),
                connected + " connected");
            assertEquals(CloseReason.REJECTED, failure.reason());
            assertEquals("cannot connect to 127.0.0.1:" + server.localAddress().getPort() + ": the server refused " +
                "the connection (the server's counters buffer is full)", failure.getMessage());
            assertEquals(1, server.counters().connectionsRefusedCounters().get());
            assertEquals(0, server.counters().errors().get());
        }
    }

    @Test
    void aClientRestartedOnTheSamePortIsAcceptedAsNew() throws Exception
    {
        final InetSocketAddress clientAddress = new InetSocketAddress("127.0.0.1", freeUdpPort());
        try (Endpoint server = Endpoint.launch(new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0)).lingerTimeoutNs(DEAD_PEER_LINGER_NS)))
        {
            final NioDatagramPort firstPort = NioDatagramPort.open(clientAddress, 1 << 20);
            final Endpoint first = Endpoint.launch(clientContext().datagramPort(firstPort));
            first.connect(server.localAddress(), null, WAIT_NS);
            assertNotNull(server.accept(WAIT_NS));
            firstPort.close(); // the client process dies without a word
            first.closeNow();

            // The same program started again, on the same port, with a context of its own.
            try (Endpoint restarted = Endpoint.launch(clientContext().bindAddress(clientAddress)))
            {
                final Connection connection = restarted.connect(server.localAddress(), null, WAIT_NS);
                assertNotNull(server.accept(WAIT_NS), "the server takes it for a new client, not a retransmission " +
                    "of the old one's handshake (connection ids are no longer the same in every process)");
                assertEquals(ConnectionState.CONNECTED, connection.state());
            }
        }
    }
}
