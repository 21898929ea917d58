package io.pacelink.transport.engine;

import io.pacelink.transport.ConnectionState;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A duty cycle serves only the connections a datagram, a due timer (the deadline heap) or their application asked for:
 * an idle endpoint's cycle touches none, whatever its number of connections; each timer fires at its exact deadline,
 * and the endpoint's next deadline is the earliest of its connections', as a pass over all of them would give.
 */
class ConnectionDeadlinesTest
{
    private static final long IDLE_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(400);
    private static final int CONNECTIONS = 24;

    private final CoreTestBed bed = new CoreTestBed(IDLE_TIMEOUT_NS, TimeUnit.SECONDS.toNanos(1));
    private ConnectedCores connected;

    @BeforeEach
    void setUp()
    {
        // 3 ms apart (their timers spread), then 50 ms: handshakes confirmed, ACKs sent, idle.
        connected = new ConnectedCores(bed, (port) -> bed.newCore(port, true, 64), 64, CONNECTIONS,
            TimeUnit.MILLISECONDS.toNanos(3), TimeUnit.MILLISECONDS.toNanos(50));
    }

    private static long earliestByScan(final EndpointCore core)
    {
        final ConnectionTable table = core.connectionTable();
        long earliestNs = Long.MAX_VALUE;
        for (int i = 0; i < table.size(); i++)
        {
            earliestNs = Math.min(earliestNs, table.get(i).nextDeadlineNs());
        }
        return earliestNs;
    }

    private static int dueAt(final EndpointCore core, final long nowNs)
    {
        final ConnectionTable table = core.connectionTable();
        int due = 0;
        for (int i = 0; i < table.size(); i++)
        {
            due += table.get(i).nextDeadlineNs() <= nowNs ? 1 : 0;
        }
        return due;
    }

    @Test
    void anIdleDutyCycleServesNoConnection()
    {
        for (final EndpointCore core : new EndpointCore[]{ connected.client, connected.server })
        {
            assertEquals(CONNECTIONS, core.connectionCount());
            final long deadlineNs = core.nextDeadlineNs();
            assertEquals(earliestByScan(core), deadlineNs, "the earliest deadline of all connections");
            assertTrue(deadlineNs > bed.nowNs() + 1, "nothing due for a while");
            assertEquals(0, core.doWork(deadlineNs - 1), "no work before the deadline");
            assertEquals(0, core.connectionsServed(), "and no connection looked at");
        }
    }

    @Test
    void aDueTimerServesOnlyTheConnectionsItIsDueFor()
    {
        final long endNs = bed.nowNs() + 2 * IDLE_TIMEOUT_NS;
        int cycles = 0;
        long nowNs;
        while ((nowNs = Math.min(connected.client.nextDeadlineNs(), connected.server.nextDeadlineNs())) < endNs)
        {
            for (final EndpointCore core : new EndpointCore[]{ connected.client, connected.server })
            {
                assertEquals(earliestByScan(core), core.nextDeadlineNs());
                final int due = dueAt(core, nowNs);
                core.doWork(nowNs);
                assertTrue(core.connectionsServed() >= due && core.connectionsServed() < CONNECTIONS,
                    "served " + core.connectionsServed() + " for " + due + " due");
            }
            cycles++;
        }
        assertTrue(cycles >= 2 * CONNECTIONS, "every connection's keep-alive came round: " + cycles);
        for (int i = 0; i < CONNECTIONS; i++)
        {
            assertEquals(ConnectionState.CONNECTED, connected.clientSides[i].state(), "kept alive: " + i);
        }
    }

    @Test
    void idleConnectionsStayAliveOnTheirKeepAlives()
    {
        bed.runFor(3 * IDLE_TIMEOUT_NS);
        for (int i = 0; i < CONNECTIONS; i++)
        {
            assertEquals(ConnectionState.CONNECTED, connected.clientSides[i].state(), "kept alive: " + i);
            assertEquals(ConnectionState.CONNECTED, connected.serverSides[i].state(), "kept alive: " + i);
        }
    }

    @Test
    void anOfferServesOnlyItsConnection()
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[100]);
        final long nowNs = Math.min(connected.client.nextDeadlineNs(), connected.server.nextDeadlineNs()) - 1;
        assertTrue(connected.clientSides[7].offer(message, 0, message.capacity()) > 0);
        connected.client.doWork(nowNs);
        assertEquals(1, connected.client.connectionsServed(), "the one the application offered on");
        connected.server.doWork(nowNs);
        assertEquals(1, connected.server.connectionsServed(), "the one its datagram arrived for");
        final int[] received = new int[1];
        assertEquals(1, connected.serverSides[7].poll((buffer, offset, length) -> received[0] += length, 10));
        assertEquals(100, received[0]);
    }

    @Test
    void closesOfIdleConnectionsAreServed()
    {
        for (int i = 0; i < CONNECTIONS; i += 2)
        {
            connected.clientSides[i].closeNow();
        }
        bed.runFor(TimeUnit.MILLISECONDS.toNanos(100));
        for (int i = 0; i < CONNECTIONS; i++)
        {
            assertEquals(0 == i % 2 ? ConnectionState.CLOSED : ConnectionState.CONNECTED,
                connected.serverSides[i].state());
        }
        assertEquals(CONNECTIONS / 2, connected.server.connectionCount());
        assertEquals(earliestByScan(connected.server), connected.server.nextDeadlineNs(),
            "timers of the closed ones are gone");
    }

    @Test
    void aFullSignalQueueServesEveryConnection()
    {
        final ApplicationSignals signals = new ApplicationSignals(2);
        assertTrue(signals.offer((ConnectionHandle)connected.clientSides[0]));
        assertTrue(signals.offer((ConnectionHandle)connected.clientSides[1]));
        assertFalse(signals.offer((ConnectionHandle)connected.clientSides[2]), "full");
        final ConnectionTable table = connected.client.connectionTable();
        signals.drainTo(table);
        assertEquals(CONNECTIONS, table.takeMarked(), "all of them, since a signal was lost");
        signals.drainTo(table);
        assertEquals(0, table.takeMarked(), "once");
    }
}
