package io.pacelink.transport.stats;

import io.pacelink.transport.EndpointLimits;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.testing.TestNetwork;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The counters buffer's default holds every connection the endpoint may hold, and the room check before a connection
 * opens is exact at both sides of the buffer's end.
 */
class CountersSizingTest
{
    @Test
    void theDefaultCountersFileHoldsMaxConnectionsAndEveryUnconfirmedHandshake()
    {
        final PacelinkContext context = new PacelinkContext();
        assertTrue(context.countersFile(), "an endpoint on its own socket maps a counters file");
        assertEquals(PacelinkContext.DEFAULT_MAX_CONNECTIONS, context.maxConnections());
        assertTrue(CountersSizing.connectionsHeld(context.countersBufferBytes()) >=
            PacelinkContext.DEFAULT_MAX_CONNECTIONS + EndpointLimits.DEFAULT_MAX_UNCONFIRMED_HANDSHAKES,
            context.countersBufferBytes() + " bytes");
        assertEquals(128 << 20, context.countersBufferBytes(), "a power of two, as the setter takes");

        context.maxConnections(30_000);
        assertTrue(CountersSizing.connectionsHeld(context.countersBufferBytes()) >= 30_000 +
            EndpointLimits.DEFAULT_MAX_UNCONFIRMED_HANDSHAKES, "follows maxConnections");
        context.maxConnections(1_000_000);
        assertEquals(CountersSizing.MAX_VALUES_BUFFER_BYTES, context.countersBufferBytes(),
            "capped at the largest buffer the setter takes (about 38,000 connections; past it, refusals)");
        context.maxConnections(1).limits().maxUnconfirmedHandshakes(1);
        assertEquals(CountersSizing.MIN_VALUES_BUFFER_BYTES, context.countersBufferBytes(), "at least the minimum");
    }

    @Test
    void countersKeptInMemoryAreAtMostFourMebibytesUnlessSet()
    {
        final PacelinkContext context = new PacelinkContext().datagramPort(new TestNetwork().newPort(1));
        assertFalse(context.countersFile(), "a given port keeps its counters in memory");
        assertEquals(CountersSizing.MAX_IN_MEMORY_VALUES_BUFFER_BYTES, context.countersBufferBytes());
        context.maxConnections(10);
        assertEquals(CountersSizing.valuesBufferBytesFor(10 + EndpointLimits.DEFAULT_MAX_UNCONFIRMED_HANDSHAKES),
            context.countersBufferBytes(), "smaller when it can be");
        assertTrue(context.countersBufferBytes() < CountersSizing.MAX_IN_MEMORY_VALUES_BUFFER_BYTES);
        context.countersBufferBytes(64 << 20);
        assertEquals(64 << 20, context.countersBufferBytes(), "a size set by hand wins");
    }

    @Test
    void aSizeSetByHandIsAPowerOfTwoInRange()
    {
        final PacelinkContext context = new PacelinkContext();
        context.countersBufferBytes(CountersSizing.MIN_VALUES_BUFFER_BYTES);
        context.countersBufferBytes(CountersSizing.MAX_VALUES_BUFFER_BYTES);
        assertThrows(IllegalArgumentException.class,
            () -> context.countersBufferBytes(CountersSizing.MIN_VALUES_BUFFER_BYTES / 2));
        assertThrows(IllegalArgumentException.class,
            () -> context.countersBufferBytes(CountersSizing.MAX_VALUES_BUFFER_BYTES * 2));
        assertThrows(IllegalArgumentException.class, () -> context.countersBufferBytes(100_000));
    }

    @Test
    void roomForAConnectionUntilTheLastReserveIsTakenAndAgainOnceFreed()
    {
        final CountersManager manager = CountersBuffers.newManager(CountersSizing.MIN_VALUES_BUFFER_BYTES);
        final int capacity = CountersSizing.MIN_VALUES_BUFFER_BYTES / CountersReader.COUNTER_LENGTH;
        final List<AtomicCounter> taken = new ArrayList<>();
        while (taken.size() < capacity - CountersSizing.COUNTERS_PER_CONNECTION)
        {
            taken.add(manager.newCounter("c" + taken.size()));
        }
        assertTrue(CountersSizing.hasRoomForConnection(manager), "exactly one connection's reserve is left");
        taken.add(manager.newCounter("one more"));
        assertFalse(CountersSizing.hasRoomForConnection(manager), "one counter short of a reserve");

        taken.get(0).close();
        assertTrue(CountersSizing.hasRoomForConnection(manager), "a freed counter is reused");
        taken.get(1).close();
        assertTrue(CountersSizing.hasRoomForConnection(manager));
    }

    @Test
    void aBufferHoldsAtLeastTheConnectionsItIsSaidToHold()
    {
        for (int connections = 1; connections <= 1 << 20; connections *= 4)
        {
            final int bytes = CountersSizing.valuesBufferBytesFor(connections);
            if (bytes < CountersSizing.MAX_VALUES_BUFFER_BYTES)
            {
                assertTrue(CountersSizing.connectionsHeld(bytes) >= connections, connections + " in " + bytes);
                assertTrue(CountersSizing.connectionsHeld(bytes / 2) < connections || bytes / 2 <
                    CountersSizing.MIN_VALUES_BUFFER_BYTES, "the smallest power of two that does");
            }
        }
    }
}
