package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.schedule.RoundRobinScheduler;
import io.pacelink.transport.stats.CounterKey;
import io.pacelink.transport.stats.CountersBuffers;
import io.pacelink.transport.stats.CountersSizing;
import io.pacelink.transport.testing.TestNetwork;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link EndpointCore#primeConnectionPath}: a client's and a server's connection built and taken apart before the
 * first connect leave nothing behind (counters, memory, connections, the endpoint's own counters), and the endpoint
 * connects as before; an endpoint without room for a connection does not prime.
 */
class ConnectionPathPrimingTest
{
    private static final long NOW_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long STEP_NS = TimeUnit.MICROSECONDS.toNanos(100);

    private final TestNetwork network = new TestNetwork();
    private final List<FixedWindowController> controllers = new ArrayList<>();
    private int lastPort = 4000;

    @Test
    void primingLeavesNothingBehindAndTheEndpointConnectsAsBefore()
    {
        final CountersManager clientCounters = CountersBuffers.newManager(256 * 1024);
        final EndpointCore client = newCore(network.newPort(++lastPort), false, clientCounters, new ArrayDeque<>());
        final List<String> countersBefore = labels(clientCounters);
        final long committedBefore = client.memoryBudget().committedBytes();

        client.primeConnectionPath(NOW_NS);

        assertEquals(countersBefore, labels(clientCounters), "every counter registered was freed");
        assertEquals(committedBefore, client.memoryBudget().committedBytes(), "every byte charged was credited");
        assertEquals(0, client.connectionCount());
        assertEquals(0, client.counters().connectionsOpened().get());
        assertEquals(0, client.counters().connectionsClosed().get());
        assertEquals(2, controllers.size(), "a client's and a server's connection were built");

        // The primed endpoint connects, and its connection's counters are the only ones added.
        final ArrayDeque<Connection> accepted = new ArrayDeque<>();
        final TestNetwork.Port serverPort = network.newPort(++lastPort);
        final EndpointCore server = newCore(serverPort, true, CountersBuffers.newManager(256 * 1024), accepted);
        final Connection connection = client.connect(serverPort.localAddress(), null, NOW_NS);
        long nowNs = NOW_NS;
        while (ConnectionState.CONNECTED != connection.state() || accepted.isEmpty())
        {
            assertTrue(nowNs < NOW_NS + TimeUnit.SECONDS.toNanos(5), "connected within 5 s");
            nowNs += STEP_NS;
            client.doWork(nowNs);
            server.doWork(nowNs);
        }
        assertEquals(1, client.counters().connectionsOpened().get());
        final List<String> added = labels(clientCounters);
        added.removeAll(countersBefore);
        assertTrue(added.size() > 1, added::toString);
        final String owner = added.get(0).substring(added.get(0).indexOf(' ') + 1, added.get(0).lastIndexOf(": "));
        for (final String label : added)
        {
            // The connection's own (the primed ones had id 0 and the loopback address, port 0).
            assertTrue(label.contains(" " + owner + ": ") && !owner.startsWith("conn 0 "), label);
        }
    }

    @Test
    void anEndpointWithoutRoomForAConnectionDoesNotPrime()
    {
        final CountersManager counters = CountersBuffers.newManager(CountersSizing.MIN_VALUES_BUFFER_BYTES);
        final EndpointCore core = newCore(network.newPort(++lastPort), false, counters, new ArrayDeque<>());
        // Fill the counters buffer up to the last connection's worth less one counter.
        while (CountersSizing.hasRoomForConnection(counters))
        {
            CounterKey.newCounter(counters, 0, 0, "filler", "filler");
        }
        final List<String> before = labels(counters);

        core.primeConnectionPath(NOW_NS);

        assertEquals(before, labels(counters));
        assertTrue(controllers.isEmpty(), "no connection was built");
    }

    private EndpointCore newCore(
        final TestNetwork.Port port,
        final boolean accept,
        final CountersManager countersManager,
        final ArrayDeque<Connection> accepted)
    {
        final PacelinkContext context = new PacelinkContext()
            .congestionControl(FixedWindowController.NAME)
            .acceptConnections(accept)
            .sendBufferBytes(256 * 1024)
            .receiveBufferBytes(256 * 1024)
            .maxMessageLengthBytes(64 * 1024)
            .initialRttNs(TimeUnit.MILLISECONDS.toNanos(10));
        return new EndpointCore(
            context,
            port,
            CongestionControlRegistry.of(FixedWindowController.factory(64 * 1024, controllers)),
            new RoundRobinScheduler(),
            countersManager,
            accepted::add);
    }

    private static List<String> labels(final CountersManager manager)
    {
        final List<String> labels = new ArrayList<>();
        manager.forEach((id, label) -> labels.add(id + " " + label));
        return labels;
    }
}
