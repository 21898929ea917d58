package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a duty cycle reads per datagram and per connection, cut to what decides something: the send readiness asks
 * the window only of a connection with ack-eliciting work, the table answers a lookup of the connection it found last
 * without its map (and forgets a connection that left), and a receive batch is counted once, as its datagrams and
 * their bytes.
 */
class DutyCycleReadsTest
{
    private static final long IDLE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final int CONNECTIONS = 3;

    private final CoreTestBed bed = new CoreTestBed(IDLE_TIMEOUT_NS, TimeUnit.SECONDS.toNanos(1));
    private final List<FixedWindowController> serverControllers = new ArrayList<>();
    private ConnectedCores connected;

    @BeforeEach
    void setUp()
    {
        // Back to back, then 100 ms: handshakes confirmed, ACKs sent, nothing left to send.
        connected = new ConnectedCores(bed,
            (port) -> bed.newCore(port, true, 16, new PacelinkContext(), serverControllers, null), 16, CONNECTIONS, 0,
            TimeUnit.MILLISECONDS.toNanos(100));
    }

    @Test
    void aConnectionWithNothingToSendIsNotAskedForItsWindow()
    {
        final ConnectionCore connection = connected.server.connectionCore(connected.serverSides[0].connectionId());
        final FixedWindowController controller = controllerOf(connection);
        controller.failAt("congestionWindowBytes", 0, false);

        assertEquals(0, connection.sendable(bed.nowNs()), "nothing to send, no ACK due");
        assertNull(connection.takeDeferredFailure(), "its window was not asked: the failing controller was not called");

        final UnsafeBuffer message = new UnsafeBuffer(new byte[100]);
        assertTrue(connected.serverSides[0].offer(message, 0, message.capacity()) > 0);
        assertEquals(0, connection.sendable(bed.nowNs()), "the window's failure is kept for the endpoint");
        assertNotNull(connection.takeDeferredFailure(), "with data to send the window is asked, as before");
    }

    @Test
    void theTableFindsEachConnectionByIdInAnyOrderAndForgetsOneThatLeft()
    {
        final ConnectionTable table = connected.server.connectionTable();
        final ConnectionCore[] cores = new ConnectionCore[CONNECTIONS];
        for (int i = 0; i < CONNECTIONS; i++)
        {
            cores[i] = connected.server.connectionCore(connected.serverSides[i].connectionId());
            assertNotNull(cores[i]);
        }
        for (final int i : new int[]{ 0, 0, 1, 0, 2, 2, 1 })
        {
            assertSame(cores[i], table.byId(connected.serverSides[i].connectionId()), "lookup of connection " + i);
        }
        assertNull(table.byId(-1234567L), "an unknown id right after a found one");

        final long leavingId = connected.serverSides[2].connectionId();
        assertSame(cores[2], table.byId(leavingId));
        connected.serverSides[2].close();
        bed.run(() -> null == connected.server.connectionCore(leavingId), TimeUnit.SECONDS.toNanos(5), "the close");
        assertNull(table.byId(leavingId), "a connection that left the table is not found by the last lookup");
        assertSame(cores[1], table.byId(connected.serverSides[1].connectionId()));
    }

    @Test
    void aReceiveBatchIsCountedAsItsDatagramsAndTheirBytes()
    {
        final long datagramsBefore = connected.server.counters().datagramsReceived().get();
        final long bytesBefore = connected.server.counters().bytesReceived().get();
        final long sentBefore = connected.client.counters().datagramsSent().get();
        final long sentBytesBefore = connected.client.counters().bytesSent().get();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[3000]);
        for (int i = 0; i < 20; i++)
        {
            assertTrue(connected.clientSides[i % CONNECTIONS].offer(message, 0, message.capacity()) > 0);
        }
        bed.runFor(TimeUnit.MILLISECONDS.toNanos(100));
        // A datagram the client sent in the last step may still be on its way: once it arrives, the two ends agree
        // exactly, which a batch counted short or long (a datagram twice, a length left out) never would.
        bed.run(() -> connected.client.counters().datagramsSent().get() - sentBefore ==
            connected.server.counters().datagramsReceived().get() - datagramsBefore &&
            connected.client.counters().bytesSent().get() - sentBytesBefore ==
            connected.server.counters().bytesReceived().get() - bytesBefore, TimeUnit.SECONDS.toNanos(1),
            "the counts to agree");
        final long datagrams = connected.server.counters().datagramsReceived().get() - datagramsBefore;
        assertTrue(datagrams > 20, "the messages' datagrams and the ACKs: " + datagrams);
        for (final Connection side : connected.clientSides)
        {
            assertEquals(ConnectionState.CONNECTED, side.state());
        }
    }

    private FixedWindowController controllerOf(final ConnectionCore connection)
    {
        for (final FixedWindowController controller : serverControllers)
        {
            if (connection.controller() == controller)
            {
                return controller;
            }
        }
        throw new AssertionError("no controller of the connection's among the server's");
    }
}
