package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.stats.CountersSizing;
import io.pacelink.transport.testing.TestNetwork;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both sides of the limits on how many connections an endpoint holds, driven by hand in virtual time: up to a limit
 * every connection is established; past it the next is refused at once, with a reason naming the limit and a counter
 * of its own, never with an exception or a half-open connection; and a connection that leaves makes room again.
 */
class ConnectionLimitsTest
{
    private static final long IDLE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final long HANDSHAKE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int SMALL_COUNTERS_BYTES = CountersSizing.MIN_VALUES_BUFFER_BYTES;
    private static final int MANY = 100;

    private final CoreTestBed bed = new CoreTestBed(IDLE_TIMEOUT_NS, HANDSHAKE_TIMEOUT_NS);
    private final TestNetwork network = bed.network();

    @Test
    void aClientOpensConnectionsWhileItsCountersFitThenIsRefusedClearly()
    {
        final TestNetwork.Port serverPort = network.newPort(1000);
        final EndpointCore server = bed.newCore(serverPort, true, MANY);
        bed.countersBufferBytes(SMALL_COUNTERS_BYTES);
        final EndpointCore client = bed.newCore(network.newPort(2000), false, MANY);

        final List<Connection[]> open = new ArrayList<>();
        Connection refused = null;
        while (null == refused)
        {
            final Connection connection = client.connect(serverPort.localAddress(), null, bed.nowNs());
            if (ConnectionState.CLOSED == connection.state())
            {
                refused = connection;
            }
            else
            {
                bed.run(() -> ConnectionState.CONNECTED == connection.state(), TimeUnit.SECONDS.toNanos(1), "connect");
                open.add(new Connection[]{ connection, bed.accept(server) });
            }
            assertTrue(open.size() < MANY, "the counters buffer, not maxConnections, is the limit");
        }
        assertTrue(open.size() >= CountersSizing.connectionsHeld(SMALL_COUNTERS_BYTES),
            open.size() + " connections: at least the " + CountersSizing.connectionsHeld(SMALL_COUNTERS_BYTES) +
            " the buffer is documented to hold");
        for (final Connection[] pair : open)
        {
            assertEquals(ConnectionState.CONNECTED, pair[0].state(), "every connection below the limit stays up");
        }
        assertEquals(CloseReason.REJECTED, refused.closeReason());
        assertEquals("this endpoint's counters buffer is full (countersBufferBytes=65536 holds about " +
            CountersSizing.connectionsHeld(SMALL_COUNTERS_BYTES) + " connections)", refused.outcome().detail());
        assertEquals(1, client.counters().connectionsRefusedCounters().get());
        assertEquals(1, client.counters().connectionsRejected().get());
        assertEquals(0, client.counters().connectionsRefusedLimit().get());
        assertEquals(0, client.counters().errors().get());

        // A connection that leaves returns its counters: the next connect succeeds.
        open.get(0)[0].closeNow();
        bed.run(() -> ConnectionState.CLOSED == open.get(0)[0].state(), TimeUnit.SECONDS.toNanos(1), "abort");
        final Connection again = client.connect(serverPort.localAddress(), null, bed.nowNs());
        bed.run(() -> ConnectionState.CONNECTED == again.state(), TimeUnit.SECONDS.toNanos(1), "connect again");
    }

    @Test
    void aServerAcceptsConnectionsWhileItsCountersFitThenRefusesThemClearly()
    {
        bed.countersBufferBytes(SMALL_COUNTERS_BYTES);
        final TestNetwork.Port serverPort = network.newPort(1000);
        final EndpointCore server = bed.newCore(serverPort, true, MANY);
        bed.countersBufferBytes(1024 * 1024);
        final EndpointCore client = bed.newCore(network.newPort(2000), false, MANY);

        int accepted = 0;
        Connection refused = null;
        while (null == refused)
        {
            final Connection connection = client.connect(serverPort.localAddress(), null, bed.nowNs());
            bed.run(() -> ConnectionState.CONNECTING != connection.state(), TimeUnit.SECONDS.toNanos(1), "answer");
            if (ConnectionState.CONNECTED == connection.state())
            {
                accepted++;
            }
            else
            {
                bed.run(() -> ConnectionState.CLOSED == connection.state(), TimeUnit.SECONDS.toNanos(1), "refusal");
                refused = connection;
            }
            assertTrue(accepted < MANY, "the counters buffer, not maxConnections, is the limit");
        }
        assertTrue(accepted >= CountersSizing.connectionsHeld(SMALL_COUNTERS_BYTES), accepted + " accepted");
        assertEquals(CloseReason.REJECTED, refused.closeReason());
        assertEquals("the server's counters buffer is full", refused.outcome().detail());
        assertEquals(1, server.counters().connectionsRefusedCounters().get());
        assertEquals(1, server.counters().connectionsRejected().get());
        assertEquals(0, server.counters().errors().get());
    }

    @Test
    void anEndpointHoldsExactlyMaxConnectionsAndCountsWhatItRefuses()
    {
        final int limit = 3;
        final TestNetwork.Port serverPort = network.newPort(1000);
        final EndpointCore server = bed.newCore(serverPort, true, limit);
        final EndpointCore client = bed.newCore(network.newPort(2000), false, limit);
        for (int i = 0; i < limit; i++)
        {
            bed.connect(client, server, serverPort);
        }
        assertEquals(0, client.counters().connectionsRefusedLimit().get(), "the limit itself is accepted");
        assertEquals(0, server.counters().connectionsRefusedLimit().get(), "the limit itself is accepted");

        final Connection local = client.connect(serverPort.localAddress(), null, bed.nowNs());
        assertEquals(CloseReason.REJECTED, local.closeReason(), "refused at once, locally");
        assertEquals("this endpoint has its maximum of connections (maxConnections=3)", local.outcome().detail());
        assertEquals(1, client.counters().connectionsRefusedLimit().get());

        final EndpointCore other = bed.newCore(network.newPort(3000), false, limit);
        final Connection remote = other.connect(serverPort.localAddress(), null, bed.nowNs());
        bed.run(() -> ConnectionState.CLOSED == remote.state(), TimeUnit.SECONDS.toNanos(1), "refusal");
        assertEquals(CloseReason.REJECTED, remote.closeReason());
        assertEquals("the server has its maximum of connections", remote.outcome().detail());
        assertEquals(1, server.counters().connectionsRefusedLimit().get());
        assertEquals(0, server.counters().connectionsRefusedCounters().get());
    }
}
