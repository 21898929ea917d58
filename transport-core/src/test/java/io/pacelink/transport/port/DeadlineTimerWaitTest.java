package io.pacelink.transport.port;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The batched port's wait keeps its deadline in a timerfd that stays armed across waits ({@link NativeUdp#await}):
 * set only when a deadline is earlier than the armed expiry or that has passed. Its edge cases: a timeout of 0 (a
 * deadline already due) arms nothing; a later deadline keeps the armed expiry, and the sleep that expiry ends early
 * sleeps on to its own deadline; an earlier deadline moves the timer; an expiry that passed while nobody waited never
 * ends the next wait; an expiry racing an arrival loses no datagram; a closed port leaves no descriptor open. The
 * functional waits of both ports, and of the batched port without a timerfd, are {@link PortWaitTest}'s.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeadlineTimerWaitTest
{
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);
    private static final long LONG_NS = TimeUnit.SECONDS.toNanos(30);
    private static final long SHORT_NS = TimeUnit.MICROSECONDS.toNanos(300);

    private final List<DatagramPort> opened = new ArrayList<>();
    private final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(32));

    @BeforeEach
    void requirePort()
    {
        LoopbackPorts.requireBatchedPort();
    }

    @AfterEach
    void closeAll()
    {
        opened.forEach(DatagramPort::close);
    }

    private BatchedDatagramPort open()
    {
        final BatchedDatagramPort port = BatchedDatagramPort.open(LOOPBACK, 1 << 20, true);
        opened.add(port);
        assertTrue(port.hasDeadlineTimer(), "this Linux creates timerfds");
        return port;
    }

    /**
     * A wait that a wake-up sent before it ends at once, having armed (or kept) the timer for {@code timeoutNs}.
     */
    private static void armBy(final BatchedDatagramPort port, final long timeoutNs)
    {
        port.wakeup();
        assertEquals(DatagramPort.WOKEN, port.awaitReadable(timeoutNs));
    }

    @Test
    void aTimeoutOfZeroLooksWithoutSleepingAndArmsNothing()
    {
        final BatchedDatagramPort port = open();
        assertEquals(0, port.awaitReadable(0));
        assertEquals(0, port.awaitReadable(-1_000), "a deadline in the past is a timeout of 0");
        assertEquals(0, port.awaitWakeup(0));
        assertEquals(0, port.deadlineTimerSettings());
        port.wakeup();
        assertEquals(DatagramPort.WOKEN, port.awaitReadable(0), "a wake-up already sent is seen without a sleep");
        assertEquals(3, port.stats().waitTimeouts());
    }

    @Test
    void aLaterDeadlineKeepsTheArmedExpiryAnEarlierOneMovesIt()
    {
        final BatchedDatagramPort port = open();
        armBy(port, LONG_NS);
        assertEquals(1, port.deadlineTimerSettings());
        // Later deadlines (each 30 s from a later now): the armed expiry stays, nothing is set on these waits' paths.
        for (int i = 0; i < 10; i++)
        {
            armBy(port, LONG_NS);
        }
        assertEquals(1, port.deadlineTimerSettings(), "a later deadline keeps the armed expiry");
        // An earlier deadline moves the timer: the wait ends at its 300 µs, not at the 30 s armed before.
        final long beforeNs = System.nanoTime();
        assertEquals(0, port.awaitReadable(SHORT_NS));
        assertTrue(System.nanoTime() - beforeNs >= SHORT_NS, "never before its deadline");
        assertEquals(2, port.deadlineTimerSettings());
        assertEquals(1, port.stats().waitTimeouts());
    }

    @Test
    void aSleepEndedByAnEarlierExpiryKeptFromBeforeSleepsOnToItsOwnDeadline()
    {
        final BatchedDatagramPort port = open();
        // The timer is armed 300 µs ahead; the next wait's deadline is 200 ms ahead, later, so the expiry is kept and
        // ends the sleep early: the wait sets the timer to its own deadline and sleeps on, and returns once. (The
        // deadline is far enough that a thread kept off its CPU by a loaded machine still wakes before it.)
        armBy(port, SHORT_NS);
        final long timeoutNs = TimeUnit.MILLISECONDS.toNanos(200);
        final long beforeNs = System.nanoTime();
        assertEquals(0, port.awaitReadable(timeoutNs));
        assertTrue(System.nanoTime() - beforeNs >= timeoutNs, "never before its deadline");
        assertEquals(2, port.deadlineTimerSettings(), "armed once, moved to the deadline once");
        assertEquals(2, port.stats().waits());
        assertEquals(1, port.stats().waitTimeouts());
    }

    @Test
    void anExpiryThatPassedWhileNobodyWaitedNeverEndsTheNextWait() throws InterruptedException
    {
        final BatchedDatagramPort port = open();
        final DatagramPort sender = open();
        armBy(port, SHORT_NS);
        // The expiry passes while the thread does something else: the timerfd is readable, but the next wait sets it
        // again before it sleeps, so the wait ends for the datagram it waits for, not for the stale expiry.
        TimeUnit.MILLISECONDS.sleep(2);
        final Thread arrival = new Thread(() ->
        {
            datagram.putInt(0, 41);
            sender.send(datagram, 0, 32, port.localAddress());
        });
        arrival.start();
        assertEquals(DatagramPort.READABLE, port.awaitReadable(LONG_NS));
        arrival.join();
        final int[] got = { -1 };
        assertEquals(1, port.receive((buffer, offset, length, source, nowNs) -> got[0] = buffer.getInt(offset), 4, 0));
        assertEquals(41, got[0]);
        assertEquals(2, port.deadlineTimerSettings());
        assertEquals(0, port.stats().waitTimeouts());
    }

    @Test
    void anExpiryRacingAnArrivalLosesNothing() throws InterruptedException
    {
        final BatchedDatagramPort port = open();
        final DatagramPort sender = open();
        final int[] got = { -1 };
        final DatagramHandler handler = (buffer, offset, length, source, nowNs) -> got[0] = buffer.getInt(offset);
        for (int i = 0; i < 50; i++)
        {
            // The datagram is sent about when the 200 µs deadline expires: whichever the wait sees first, the
            // datagram is received exactly once, by this wait's receive or after the next wait.
            final int number = i;
            final long sendAtNs = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(150 + 2 * i);
            final Thread arrival = new Thread(() ->
            {
                while (System.nanoTime() < sendAtNs)
                {
                    Thread.onSpinWait();
                }
                final UnsafeBuffer own = new UnsafeBuffer(ByteBuffer.allocateDirect(32));
                own.putInt(0, number);
                sender.send(own, 0, 32, port.localAddress());
            });
            arrival.start();
            final int result = port.awaitReadable(TimeUnit.MICROSECONDS.toNanos(200));
            assertTrue(0 == result || DatagramPort.READABLE == result, "result " + result);
            arrival.join();
            if (0 == result)
            {
                assertEquals(0, port.receive(handler, 4, 0), "a timeout spares the receive; the datagram waits");
                assertEquals(DatagramPort.READABLE, port.awaitReadable(LONG_NS));
            }
            assertEquals(1, port.receive(handler, 4, 0), "round " + i);
            assertEquals(number, got[0]);
            assertEquals(0, port.receive(handler, 4, 0), "exactly once");
        }
    }

    @Test
    void aClosedPortLeavesNoDescriptorOpenAndItsWaitsReturnAtOnce()
    {
        final long before = openDescriptors();
        final List<BatchedDatagramPort> ports = new ArrayList<>();
        for (int i = 0; i < 8; i++)
        {
            final BatchedDatagramPort port = BatchedDatagramPort.open(LOOPBACK, 1 << 16, true);
            ports.add(port);
            armBy(port, LONG_NS);
        }
        assertEquals(before + 8 * 3, openDescriptors(), "a socket, an eventfd and a timerfd each");
        for (final BatchedDatagramPort port : ports)
        {
            port.close();
            assertFalse(port.hasDeadlineTimer());
            assertEquals(0, port.awaitReadable(LONG_NS), "a closed port does not wait");
            assertEquals(0, port.awaitWakeup(LONG_NS));
            port.close();
        }
        assertEquals(before, openDescriptors());

        // The fallback's port, whose timer is gone before the close, closes the rest.
        final BatchedDatagramPort fallback = BatchedDatagramPort.open(LOOPBACK, 1 << 16, true);
        fallback.closeDeadlineTimer();
        assertEquals(before + 2, openDescriptors());
        fallback.close();
        assertEquals(before, openDescriptors());
    }

    @Test
    void withoutATimerfdEveryWaitsPpollTakesItsTimeout()
    {
        final BatchedDatagramPort port = open();
        port.closeDeadlineTimer();
        assertFalse(port.hasDeadlineTimer());
        for (int i = 0; i < 5; i++)
        {
            final long beforeNs = System.nanoTime();
            assertEquals(0, port.awaitReadable(SHORT_NS));
            assertTrue(System.nanoTime() - beforeNs >= SHORT_NS, "never before its deadline");
            armBy(port, LONG_NS);
        }
        assertEquals(0, port.deadlineTimerSettings());
        assertEquals(5, port.stats().waitTimeouts());
    }

    /**
     * @return the process's open sockets, eventfds and timerfds: what a port opens. Other descriptors (a jar the class
     * loader opens, the JIT's or the test runner's files) may come and go between two counts on other threads.
     */
    private static long openDescriptors()
    {
        long count = 0;
        for (final File descriptor : Objects.requireNonNull(new File("/proc/self/fd").listFiles()))
        {
            try
            {
                final String target = Files.readSymbolicLink(descriptor.toPath()).toString();
                if (target.startsWith("socket:") || target.equals("anon_inode:[eventfd]") ||
                    target.equals("anon_inode:[timerfd]"))
                {
                    count++;
                }
            }
            catch (final IOException ex)
            {
                // Closed between the listing and the read: not open.
            }
        }
        return count;
    }
}
