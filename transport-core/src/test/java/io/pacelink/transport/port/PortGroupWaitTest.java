package io.pacelink.transport.port;

import io.pacelink.transport.testing.AllocationMeter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A wait on a group of ports, functionally and on both port kinds: a datagram on any one of them ends it (the wait
 * would otherwise last 30 s and report nothing readable, so no timing is asserted), an idle group waits out its
 * timeout every time and reports nothing, a group set again follows replaced sockets, ports of mixed kinds fall back to
 * short parks, and waiting allocates nothing.
 */
class PortGroupWaitTest
{
    private static final long LONG_NS = TimeUnit.SECONDS.toNanos(30);
    private static final long FALLBACK_PARK_NS = TimeUnit.MICROSECONDS.toNanos(50);

    private final List<DatagramPort> opened = new ArrayList<>();
    private final PortGroupWait wait = new PortGroupWait(FALLBACK_PARK_NS);
    private final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(32));

    @AfterEach
    void closeAll()
    {
        wait.close();
        opened.forEach(DatagramPort::close);
    }

    private DatagramPort open(final String kind)
    {
        final DatagramPort port = LoopbackPorts.open(kind);
        opened.add(port);
        return port;
    }

    private void sendTo(final DatagramPort from, final DatagramPort to)
    {
        assertTrue(from.send(datagram, 0, datagram.capacity(), to.localAddress()));
    }

    private static int drain(final DatagramPort port)
    {
        final ReceiveBatch batch = port.newReceiveBatch(8);
        int received = 0;
        while (port.receive(batch, 8) > 0)
        {
            received += batch.size();
            batch.clear();
        }
        return received;
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched" })
    void aDatagramOnAnyPortOfTheGroupEndsTheWait(final String kind)
    {
        final DatagramPort sender = open(kind);
        final DatagramPort[] group = { open(kind), open(kind), open(kind) };
        wait.watch(group, group.length);
        assertTrue(wait.waitsTogether());

        for (final DatagramPort target : group)
        {
            sendTo(sender, target);
            assertEquals(DatagramPort.READABLE, wait.await(LONG_NS), "a datagram waits on " + target.localAddress());
            assertEquals(1, drain(target));
        }
        assertEquals(3, wait.readableWaits());
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched" })
    void anIdleGroupWaitsOutItsTimeoutEveryTime(final String kind)
    {
        final DatagramPort[] group = { open(kind), open(kind) };
        wait.watch(group, group.length);
        for (int i = 0; i < 5; i++)
        {
            assertEquals(0, wait.await(TimeUnit.MILLISECONDS.toNanos(2)));
        }
        assertEquals(5, wait.waits());
        assertEquals(0, wait.readableWaits());
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched" })
    void aGroupSetAgainFollowsTheSocketsThatReplacedClosedOnes(final String kind)
    {
        final DatagramPort sender = open(kind);
        final DatagramPort first = open(kind);
        final DatagramPort replaced = open(kind);
        wait.watch(new DatagramPort[] { first, replaced, null }, 3);
        replaced.close();
        final DatagramPort replacement = open(kind);
        wait.watch(new DatagramPort[] { first, null, replacement }, 3);

        sendTo(sender, replacement);
        assertEquals(DatagramPort.READABLE, wait.await(LONG_NS));
        assertEquals(1, drain(replacement));
        assertEquals(0, wait.await(TimeUnit.MILLISECONDS.toNanos(2)), "nothing left to read");
    }

    @Test
    @Timeout(20)
    void portsOfMixedKindsFallBackToShortParks()
    {
        LoopbackPorts.requireBatchedPort();
        final DatagramPort[] group = { open("nio"), open("batched") };
        wait.watch(group, group.length);
        assertFalse(wait.waitsTogether());
        for (int i = 0; i < 3; i++)
        {
            assertEquals(0, wait.await(LONG_NS), "a park of at most 50 µs, not 30 s");
        }
        assertEquals(3, wait.waits());
    }

    @Test
    void aWaitWithoutTimeLeftReturnsAtOnceAndIsNotCounted()
    {
        final DatagramPort[] group = { open("nio") };
        wait.watch(group, group.length);
        assertEquals(0, wait.await(0));
        assertEquals(0, wait.await(-1));
        assertEquals(0, wait.waits());
    }

    @Test
    void aFallbackParkMustBePositive()
    {
        assertThrows(IllegalArgumentException.class, () -> new PortGroupWait(0));
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched" })
    void waitingAllocatesNothing(final String kind)
    {
        final DatagramPort sender = open(kind);
        final DatagramPort[] group = { open(kind), open(kind) };
        final ReceiveBatch batch = group[1].newReceiveBatch(8);
        wait.watch(group, group.length);
        AllocationMeter.assertAllocationFree(kind + " group waits", () ->
        {
            for (int i = 0; i < 20; i++)
            {
                sendTo(sender, group[1]);
                wait.await(LONG_NS);
                group[1].receive(batch, 8);
                batch.clear();
                wait.await(TimeUnit.MICROSECONDS.toNanos(100));
            }
        });
    }
}
