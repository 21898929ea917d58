package io.pacelink.transport.port;

import io.pacelink.transport.testing.AllocationMeter;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The port-level wait of both ports, functionally: a wait ends for a datagram, for a wake-up from another thread
 * (before or during it, so no timing is involved), and at its timeout, and says which; a wait on an idle port blocks
 * (a fixed number of waits counts that many timeouts, never an early return); a receive right after a wait that
 * found the socket empty makes no system call on the batched port, and loses nothing; waiting allocates nothing.
 */
class PortWaitTest
{
    private static final long LONG_NS = TimeUnit.SECONDS.toNanos(30);

    private final List<DatagramPort> opened = new ArrayList<>();

    @AfterEach
    void closeAll()
    {
        opened.forEach(DatagramPort::close);
    }

    /**
     * Sends numbered datagrams from a port of its own and remembers the number of the last one handed to it.
     */
    private static final class NumberedDatagrams implements DatagramHandler
    {
        private final DatagramPort sender;
        private final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(32));
        private int last = -1;

        NumberedDatagrams(final DatagramPort sender)
        {
            this.sender = sender;
        }

        void send(final int number, final DatagramPort to)
        {
            datagram.putInt(0, number);
            sender.send(datagram, 0, datagram.capacity(), to.localAddress());
        }

        int last()
        {
            return last;
        }

        public void onDatagram(
            final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress source,
            final long nowNs)
        {
            last = buffer.getInt(offset);
        }
    }

    private DatagramPort open(final String kind)
    {
        final DatagramPort port = LoopbackPorts.open(kind);
        opened.add(port);
        return port;
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched", "batched-ppoll" })
    void aWaitEndsForAWakeUpFromAnotherThread(final String kind) throws InterruptedException
    {
        final DatagramPort port = open(kind);
        assertTrue(port.canWait());
        for (int i = 0; i < 20; i++)
        {
            final Thread waker = new Thread(port::wakeup);
            waker.start();
            assertEquals(DatagramPort.WOKEN, port.awaitReadable(LONG_NS) & DatagramPort.WOKEN, "wake-up " + i);
            waker.join();
        }
        assertEquals(20, port.stats().wokenByCommand());
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched", "batched-ppoll" })
    void aWaitEndsForAnArrivingDatagramAndTheDatagramIsThere(final String kind) throws InterruptedException
    {
        final DatagramPort port = open(kind);
        final DatagramPort sender = open("nio");
        final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(32));
        for (int i = 0; i < 20; i++)
        {
            datagram.putInt(0, i);
            final Thread arrival = new Thread(() -> sender.send(datagram, 0, 32, port.localAddress()));
            arrival.start();
            assertEquals(DatagramPort.READABLE, port.awaitReadable(LONG_NS), "arrival " + i);
            arrival.join();
            final int[] got = { -1 };
            assertEquals(1, port.receive((buffer, offset, length, source, nowNs) -> got[0] = buffer.getInt(offset),
                4, 0));
            assertEquals(i, got[0]);
        }
        assertEquals(20, port.stats().wokenByDatagram());
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched", "batched-ppoll" })
    void anIdlePortsWaitBlocksUntilItsTimeout(final String kind)
    {
        final DatagramPort port = open(kind);
        // Sub-millisecond and whole-millisecond timeouts alike: every wait ends at its timeout, none earlier.
        for (int i = 0; i < 10; i++)
        {
            assertEquals(0, port.awaitReadable(TimeUnit.MICROSECONDS.toNanos(200 + 150 * i)));
        }
        final PortStats stats = port.stats();
        assertEquals(10, stats.waits());
        assertEquals(10, stats.waitTimeouts());
        assertEquals(0, stats.wokenByDatagram() + stats.wokenByCommand());
    }

    @Test
    void aReceiveRightAfterAWaitThatFoundNothingMakesNoSystemCallAndLosesNothing()
    {
        final DatagramPort port = open("batched");
        final NumberedDatagrams handler = new NumberedDatagrams(open("nio"));
        final PortStats stats = port.stats();

        // The wait ends at its timeout with nothing on the socket; a datagram arrives after it, before the receive.
        assertEquals(0, port.awaitReadable(TimeUnit.MICROSECONDS.toNanos(200)));
        handler.send(7, port);
        final long callsBefore = stats.receiveCalls();
        assertEquals(0, port.receive(handler, 4, 0), "the receive after an empty wait makes no recvmmsg");
        assertEquals(callsBefore, stats.receiveCalls());
        assertEquals(1, stats.skippedReceives());
        // Nothing is lost: the datagram stays in the socket, the next wait ends for it at once, the receive gets it.
        assertEquals(DatagramPort.READABLE, port.awaitReadable(LONG_NS));
        assertEquals(1, port.receive(handler, 4, 0));
        assertEquals(7, handler.last());
        assertEquals(callsBefore + 1, stats.receiveCalls());

        // A wake-up alone also found the socket empty; only the first receive after the wait is spared.
        port.wakeup();
        assertEquals(DatagramPort.WOKEN, port.awaitReadable(LONG_NS));
        assertEquals(0, port.receive(handler, 4, 0));
        assertEquals(2, stats.skippedReceives());
        assertEquals(0, port.receive(handler, 4, 0));
        assertEquals(callsBefore + 2, stats.receiveCalls());

        // A held wait (awaitWakeup) never looks at the socket, so the receive after it always does.
        handler.send(8, port);
        assertEquals(DatagramPort.READABLE, port.awaitReadable(LONG_NS));
        assertEquals(0, port.awaitWakeup(TimeUnit.MICROSECONDS.toNanos(200)));
        assertEquals(1, port.receive(handler, 4, 0));
        assertEquals(8, handler.last());
        assertEquals(2, stats.skippedReceives());
    }

    @Test
    void aCycleRightAfterOneThatDrainedTheSocketMaySkipItsReceiveOnceAndLosesNothing()
    {
        final DatagramPort port = open("batched");
        final NumberedDatagrams handler = new NumberedDatagrams(open("nio"));
        final PortStats stats = port.stats();

        // A receive that took fewer datagrams than it could drained the socket: the hint spares the next receive, and a
        // datagram that arrived in between waits in the socket for the next wait, which ends on it at once.
        handler.send(1, port);
        assertEquals(DatagramPort.READABLE, port.awaitReadable(LONG_NS));
        assertEquals(1, port.receive(handler, 4, 0));
        final long callsBefore = stats.receiveCalls();
        handler.send(2, port);
        port.skipReceiveIfDrained();
        assertEquals(0, port.receive(handler, 4, 0), "skipped after a draining receive");
        assertEquals(callsBefore, stats.receiveCalls());
        assertEquals(1, stats.skippedReceives());
        assertEquals(DatagramPort.READABLE, port.awaitReadable(LONG_NS));
        assertEquals(1, port.receive(handler, 4, 0));
        assertEquals(2, handler.last());

        // Only one receive per read is spared: a second hint without a read between changes nothing.
        port.skipReceiveIfDrained();
        assertEquals(0, port.receive(handler, 4, 0), "the socket is empty; this one was skipped");
        port.skipReceiveIfDrained();
        assertEquals(0, port.receive(handler, 4, 0), "this one reads");
        assertEquals(2, stats.skippedReceives());
        assertEquals(callsBefore + 2, stats.receiveCalls());

        // A receive that filled its limit did not drain the socket: the hint then spares nothing.
        for (int i = 0; i < 3; i++)
        {
            handler.send(10 + i, port);
        }
        assertEquals(DatagramPort.READABLE, port.awaitReadable(LONG_NS));
        assertEquals(2, port.receive(handler, 2, 0));
        port.skipReceiveIfDrained();
        assertEquals(1, port.receive(handler, 4, 0), "the third datagram is read at once");
        assertEquals(12, handler.last());
        assertEquals(2, stats.skippedReceives());
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched", "batched-ppoll" })
    void waitingAllocatesNothingOnceWarm(final String kind)
    {
        final DatagramPort port = open(kind);
        for (int i = 0; i < 200; i++)
        {
            port.wakeup();
            port.awaitReadable(LONG_NS);
            port.awaitReadable(1_000);
        }
        AllocationMeter.assertAllocationFree(kind + " waits", () ->
        {
            for (int i = 0; i < 50; i++)
            {
                port.wakeup();
                port.awaitReadable(LONG_NS);
                port.awaitReadable(1_000);
            }
        });
    }
}
