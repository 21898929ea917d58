package io.pacelink.transport.agent;

import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.LoopbackPorts;
import io.pacelink.transport.port.NioDatagramPort;
import io.pacelink.transport.testing.AllocationMeter;
import io.pacelink.transport.port.PortStats;
import io.pacelink.transport.port.ReceiveBatch;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The default agent's idle, on real ports and functionally: it sleeps in the port until the deadline, the first
 * datagram or the application's signal, whichever comes first, and never when work is already due or pending. No
 * assertion depends on the machine being fast; the only time compared is a lower bound (a wait that blocked until its
 * timeout cannot have taken less than the timeout).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PortWaitIdleStrategyTest
{
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);
    private static final long LONG_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long SHORT_NS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long FUTURE_DEADLINE_NS = TimeUnit.MILLISECONDS.toNanos(200);

    private DatagramPort port;

    private DatagramPort open(final String kind)
    {
        port = LoopbackPorts.open(kind);
        return port;
    }

    private static PortWaitIdleStrategy idleForever(
        final DatagramPort port, final AgentWakeup wakeup, final long maxSleepNs)
    {
        return new PortWaitIdleStrategy(port, () -> Long.MAX_VALUE, SystemNanoClock.INSTANCE, wakeup, maxSleepNs);
    }

    /**
     * One idle of the agent while another thread signals it as soon as it sleeps.
     */
    private static void idleWhileTheApplicationSignals(final AgentWakeup wakeup, final PortWaitIdleStrategy idle)
        throws InterruptedException
    {
        final AtomicBoolean idleReturned = new AtomicBoolean();
        final Thread application = new Thread(() ->
        {
            // Gives up if the sleep ended without it (a timeout): the caller's assertions then fail instead of the
            // test hanging on join.
            while (!wakeup.isSleeping() && !idleReturned.get())
            {
                Thread.onSpinWait();
            }
            wakeup.signal();
        });
        application.start();
        wakeup.beginDutyCycle();
        idle.idle(0);
        idleReturned.set(true);
        application.join();
    }

    @AfterEach
    void close()
    {
        if (null != port)
        {
            port.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched", "batched-ppoll" })
    void withoutADeadlineEachIdleIsOneWaitThatBlocksUntilItsTimeout(final String kind)
    {
        final DatagramPort port = open(kind);
        final AgentWakeup wakeup = new AgentWakeup(port);
        final PortWaitIdleStrategy idle = idleForever(port, wakeup, SHORT_NS);
        final long startNs = System.nanoTime();
        for (int i = 0; i < 20; i++)
        {
            wakeup.beginDutyCycle();
            idle.idle(0);
        }
        final long elapsedNs = System.nanoTime() - startNs;
        final PortStats stats = port.stats();
        assertEquals(20, idle.sleeps());
        assertEquals(20, stats.waits());
        assertEquals(20, stats.waitTimeouts(), "nothing woke it");
        assertTrue(elapsedNs >= 20 * SHORT_NS, "each wait blocked for its whole timeout: " + elapsedNs + " ns");
        assertEquals(0, idle.overdueSleeps());
        assertFalse(wakeup.isSleeping());
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched", "batched-ppoll" })
    void anIdleAfterWorkOrWithWorkPendingDoesNotSleep(final String kind)
    {
        final DatagramPort port = open(kind);
        final AgentWakeup wakeup = new AgentWakeup(port);
        final PortWaitIdleStrategy idle = idleForever(port, wakeup, LONG_NS);
        idle.idle(3);
        wakeup.signal();
        idle.idle(0);
        assertEquals(0, idle.sleeps(), "a duty cycle with work, and a signal since the cycle began: no sleep");
        assertEquals(0, port.stats().waits());
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched", "batched-ppoll" })
    void theAgentThreadsOwnSignalKeepsItsNextIdleAwakeUntilTheNextCycleBegins(final String kind)
    {
        // An invoker's thread that offers after its duty cycle: no fence, no wakeup of the port, but no sleep either.
        final DatagramPort port = open(kind);
        final AgentWakeup wakeup = new AgentWakeup(port);
        final PortWaitIdleStrategy idle = idleForever(port, wakeup, SHORT_NS);
        wakeup.beginDutyCycle();
        wakeup.signalFromAgentThread();
        idle.idle(0);
        assertEquals(0, idle.sleeps(), "work signalled since the cycle began: no sleep");
        assertEquals(0, port.stats().waits());
        assertEquals(0, wakeup.wakeups(), "nothing to wake");

        wakeup.beginDutyCycle();
        idle.idle(0);
        assertEquals(1, idle.sleeps(), "the next cycle took the signal: the idle after it sleeps");
        assertFalse(wakeup.isSleeping());
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched", "batched-ppoll" })
    void aDueDeadlineRunsACycleAtOnceAndAStaleOneSleepsBrieflyInsteadOfSpinning(final String kind)
    {
        final DatagramPort port = open(kind);
        final AgentWakeup wakeup = new AgentWakeup(port);
        final AtomicLong deadlineNs = new AtomicLong(System.nanoTime());
        final PortWaitIdleStrategy idle = new PortWaitIdleStrategy(
            port, deadlineNs::get, SystemNanoClock.INSTANCE, wakeup, LONG_NS);
        idle.idle(0);
        assertEquals(0, idle.sleeps(), "due now: straight back to work");
        idle.idle(0);
        idle.idle(0);
        assertEquals(2, idle.overdueSleeps(), "a deadline still due after an idle cycle is stale");
        assertEquals(2, port.stats().waitTimeouts());
        idle.idle(1);
        // Far enough ahead that no preemption between these two lines makes it due (5 ms once did, on a busy machine).
        deadlineNs.set(System.nanoTime() + FUTURE_DEADLINE_NS);
        idle.idle(0);
        assertEquals(3, idle.sleeps());
        assertEquals(2, idle.overdueSleeps());
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched", "batched-ppoll" })
    void aSignalFromAnotherThreadWakesTheSleepingAgent(final String kind) throws InterruptedException
    {
        final DatagramPort port = open(kind);
        final AgentWakeup wakeup = new AgentWakeup(port);
        final PortWaitIdleStrategy idle = idleForever(port, wakeup, LONG_NS);
        for (int i = 0; i < 10; i++)
        {
            idleWhileTheApplicationSignals(wakeup, idle);
        }
        // A signal can land between the agent's announcement and its check (it then does not sleep at all), so the
        // counts may fall short of 10; what must hold is that no round waited for its 60 s timeout.
        assertEquals(0, port.stats().waitTimeouts(), "no signal was lost");
        assertTrue(wakeup.wakeups() >= 1 && wakeup.wakeups() <= 10, "wake-ups " + wakeup.wakeups());
        assertTrue(port.stats().wokenByCommand() >= 1, "woken " + port.stats().wokenByCommand());
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched", "batched-ppoll" })
    void anArrivingDatagramWakesTheSleepingAgent(final String kind) throws InterruptedException
    {
        final DatagramPort port = open(kind);
        final AgentWakeup wakeup = new AgentWakeup(port);
        final PortWaitIdleStrategy idle = idleForever(port, wakeup, LONG_NS);
        try (NioDatagramPort peer = NioDatagramPort.open(LOOPBACK, 1 << 20))
        {
            final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(16));
            final Thread sender = new Thread(() ->
            {
                while (!wakeup.isSleeping())
                {
                    Thread.onSpinWait();
                }
                peer.send(datagram, 0, 16, port.localAddress());
            });
            sender.start();
            wakeup.beginDutyCycle();
            idle.idle(0);
            sender.join();
        }
        assertEquals(1, port.stats().wokenByDatagram());
        assertEquals(0, wakeup.wakeups());
    }

    @Test
    void aHeldSleepLeavesArrivalsInTheSocketUntilItsEndAndOneReceiveDrainsThem() throws InterruptedException
    {
        final DatagramPort port = open("batched");
        final AgentWakeup wakeup = new AgentWakeup(port);
        // The plan's clock moves 100 ms per sleep, so the mean gap between arrivals is long and the hold is its cap,
        // holdNs: long enough that the application's thread below is scheduled inside it on a loaded machine.
        final long holdNs = TimeUnit.MILLISECONDS.toNanos(200);
        final AtomicLong planClockNs = new AtomicLong();
        final PortWaitIdleStrategy idle = new PortWaitIdleStrategy(port, () -> Long.MAX_VALUE, () -> Long.MAX_VALUE,
            () -> planClockNs.addAndGet(100_000_000L), wakeup, LONG_NS,
            new WakeCoalescing(WakeCoalescing.OFF, holdNs), null);
        try (NioDatagramPort peer = NioDatagramPort.open(LOOPBACK, 1 << 20))
        {
            final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(16));
            final ReceiveBatch batch = port.newReceiveBatch(16);
            peer.send(datagram, 0, 16, port.localAddress());
            peer.send(datagram, 0, 16, port.localAddress());
            wakeup.beginDutyCycle();
            idle.idle(0);
            assertEquals(1, port.stats().wokenByDatagram(), "nothing received yet: an arrival ends the sleep");
            // Loopback delivers within the send call: both are in the socket already.
            assertEquals(2, port.receive(batch, 16));
            batch.clear();

            // The cycle received two datagrams and sent none: the next sleep holds arrivals for up to holdNs. The
            // held sleep waits on the wakeup alone, so datagrams already in the socket when it starts are held as
            // ones arriving during it would be (sent first, so no thread has to be scheduled inside the hold).
            for (int i = 0; i < 3; i++)
            {
                peer.send(datagram, 0, 16, port.localAddress());
            }
            final long startNs = System.nanoTime();
            wakeup.beginDutyCycle();
            idle.idle(0);
            final long elapsedNs = System.nanoTime() - startNs;
            assertEquals(1, idle.heldSleeps());
            assertEquals(1, port.stats().wokenByDatagram(), "the held sleep was not ended by the arrivals");
            assertEquals(1, port.stats().waitTimeouts());
            assertTrue(elapsedNs >= holdNs, "it lasted its whole hold: " + elapsedNs + " ns");
            port.receive(batch, 16);
            assertEquals(3, batch.size(), "one receive drains what arrived before and during the hold");
            batch.clear();

            // A signal from the application still ends a held sleep.
            idleWhileTheApplicationSignals(wakeup, idle);
            assertEquals(2, idle.heldSleeps());
            assertEquals(1, port.stats().waitTimeouts(), "ended by the signal, not the timeout");
        }
    }

    /**
     * A peer sends {@code count} datagrams, the agent idles (the sleep ends at the first, already in the socket) and
     * one receive takes them all.
     */
    private void sleepAndReceive(
        final NioDatagramPort peer,
        final UnsafeBuffer datagram,
        final ReceiveBatch batch,
        final AgentWakeup wakeup,
        final PortWaitIdleStrategy idle,
        final int count)
    {
        for (int i = 0; i < count; i++)
        {
            peer.send(datagram, 0, 16, port.localAddress());
        }
        wakeup.beginDutyCycle();
        idle.idle(0);
        assertEquals(count, port.receive(batch, 16));
        batch.clear();
    }

    @Test
    void noSleepHoldsArrivalsForAWhileAfterAConnectionOpened()
    {
        final DatagramPort port = open("batched");
        final AgentWakeup wakeup = new AgentWakeup(port);
        final long holdNs = TimeUnit.MILLISECONDS.toNanos(200);
        final AtomicLong planClockNs = new AtomicLong();
        final AtomicLong connectionsOpened = new AtomicLong();
        // The plan's clock moves 100 us per sleep: two sleeps fall within NO_HOLD_AFTER_OPEN_NS of an open.
        final PortWaitIdleStrategy idle = new PortWaitIdleStrategy(port, () -> Long.MAX_VALUE, () -> Long.MAX_VALUE,
            () -> planClockNs.addAndGet(100_000L), wakeup, LONG_NS,
            new WakeCoalescing(WakeCoalescing.OFF, holdNs), connectionsOpened::get);
        try (NioDatagramPort peer = NioDatagramPort.open(LOOPBACK, 1 << 20))
        {
            final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(16));
            final ReceiveBatch batch = port.newReceiveBatch(16);
            for (int round = 0; round < 2; round++)
            {
                // Two datagrams received and none sent since the last sleep: a stream by its counts, which would
                // hold the next sleep's arrivals (aHeldSleepLeavesArrivalsInTheSocketUntilItsEndAndOneReceive...).
                connectionsOpened.incrementAndGet();
                sleepAndReceive(peer, datagram, batch, wakeup, idle, 2);
            }
            sleepAndReceive(peer, datagram, batch, wakeup, idle, 1);
            assertEquals(0, idle.heldSleeps(), "a connection opened 100 us ago: arrivals end the sleep");
            assertEquals(3, port.stats().wokenByDatagram());

            // Long after the last open, the same counts hold arrivals again.
            planClockNs.addAndGet(PortWaitIdleStrategy.NO_HOLD_AFTER_OPEN_NS);
            sleepAndReceive(peer, datagram, batch, wakeup, idle, 2);
            idleWhileTheApplicationSignals(wakeup, idle);
            assertEquals(1, idle.heldSleeps(), "no connection opened for a while: the stream's arrivals are held");
        }
        catch (final InterruptedException ex)
        {
            throw new AssertionError(ex);
        }
    }

    @Test
    void theCycleAfterTheFirstWorkingOneOfAWakeSkipsItsReceiveIfTheSocketWasDrained()
    {
        final DatagramPort port = open("batched");
        final AgentWakeup wakeup = new AgentWakeup(port);
        final PortWaitIdleStrategy idle = idleForever(port, wakeup, LONG_NS);
        try (NioDatagramPort peer = NioDatagramPort.open(LOOPBACK, 1 << 20))
        {
            final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(16));
            final ReceiveBatch batch = port.newReceiveBatch(16);
            final PortStats stats = port.stats();
            for (int wake = 1; wake <= 2; wake++)
            {
                peer.send(datagram, 0, 16, port.localAddress());
                wakeup.beginDutyCycle();
                idle.idle(0);
                assertEquals(1, port.receive(batch, 16), "the wake's first cycle reads what woke it");
                batch.clear();
                final long calls = stats.receiveCalls();
                idle.idle(1);
                assertEquals(0, port.receive(batch, 16));
                assertEquals(calls, stats.receiveCalls(), "the next cycle's receive is spared");
                assertEquals(wake, stats.skippedReceives());
                idle.idle(1);
                assertEquals(0, port.receive(batch, 16));
                assertEquals(calls + 1, stats.receiveCalls(), "once per wake: a loop still working reads again");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "nio", "batched", "batched-ppoll" })
    void idlingAndSignallingAllocateNothing(final String kind)
    {
        final DatagramPort port = open(kind);
        final AgentWakeup wakeup = new AgentWakeup(port);
        final AtomicLong deadlineNs = new AtomicLong();
        final PortWaitIdleStrategy idle = new PortWaitIdleStrategy(
            port, deadlineNs::get, SystemNanoClock.INSTANCE, wakeup, LONG_NS);
        final Runnable cycles = () ->
        {
            for (int i = 0; i < 100; i++)
            {
                wakeup.beginDutyCycle();
                deadlineNs.set(System.nanoTime() + 20_000);
                idle.idle(0);
                wakeup.signal();
                idle.idle(0);
                idle.idle(1);
            }
        };
        for (int i = 0; i < 20; i++)
        {
            cycles.run();
        }
        AllocationMeter.assertAllocationFree(kind + " idle", cycles);
    }

    @Test
    void stoppingNeverSleepsInThePortAndAPortThatCannotWaitIsRefused()
    {
        final DatagramPort port = open("nio");
        final AgentWakeup wakeup = new AgentWakeup(port);
        final PortWaitIdleStrategy idle = idleForever(port, wakeup, LONG_NS);
        wakeup.stop();
        idle.idle(0);
        assertEquals(0, port.stats().waits());
        assertTrue(wakeup.isStopping());

        final DatagramPort cannotWait = new DatagramPort()
        {
            public int receive(
                final io.pacelink.transport.port.DatagramHandler handler, final int limit, final long nowNs)
            {
                return 0;
            }

            public boolean send(
                final org.agrona.DirectBuffer buffer, final int offset, final int length,
                final InetSocketAddress destination)
            {
                return true;
            }

            public InetSocketAddress localAddress()
            {
                return LOOPBACK;
            }

            public void close()
            {
            }
        };
        assertThrows(IllegalArgumentException.class, () -> new PortWaitIdleStrategy(
            cannotWait, () -> Long.MAX_VALUE, SystemNanoClock.INSTANCE, new AgentWakeup(cannotWait)));
    }
}
