package io.pacelink.transport.agent;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

import java.util.concurrent.locks.LockSupport;

/**
 * The application threads waiting in {@code Endpoint.connect(address, controller, timeout)} while the agent runs on a
 * thread of its own, each woken ({@link LockSupport#unpark}) by the agent in the duty cycle its connection leaves
 * CONNECTING. Such a thread waits in parks that back off to a millisecond (an event wait must cost nothing if it
 * lasts), so without the wake it saw its connection established up to that millisecond late — about half of it on
 * average, the size of a whole loopback connect, on every connect that lasts more than a few hundred microseconds.
 * A registration is a queue offer by the waiting thread; the agent's check is a state read per waiting connect and
 * duty cycle, and nothing while nobody waits. A full queue leaves the thread to its parks, as before.
 */
final class ConnectWaiters
{
    private static final int CAPACITY = 1024;

    private final ManyToOneConcurrentArrayQueue<Waiter> registered = new ManyToOneConcurrentArrayQueue<>(CAPACITY);
    private final Waiter[] waiting = new Waiter[CAPACITY];
    private int waitingCount;
    private volatile long woken;

    /**
     * Any thread.
     *
     * @return false if the queue is full (the thread is then not woken, it finds out at its next park's end).
     */
    boolean register(final Connection connection, final Thread thread)
    {
        return registered.offer(new Waiter(connection, thread));
    }

    /**
     * The agent, after each duty cycle: wake the threads whose connection is no longer CONNECTING.
     */
    void wakeAnswered()
    {
        Waiter added;
        while (waitingCount < CAPACITY && null != (added = registered.poll()))
        {
            waiting[waitingCount++] = added;
        }
        for (int i = waitingCount - 1; i >= 0; i--)
        {
            final Waiter waiter = waiting[i];
            if (ConnectionState.CONNECTING != waiter.connection.state())
            {
                LockSupport.unpark(waiter.thread);
                woken = woken + 1; // the agent alone writes it
                waiting[i] = waiting[--waitingCount];
                waiting[waitingCount] = null;
            }
        }
    }

    /**
     * The agent, as the endpoint closes: every waiting thread is woken to find the endpoint closed.
     */
    void wakeAll()
    {
        Waiter added;
        while (null != (added = registered.poll()))
        {
            LockSupport.unpark(added.thread);
        }
        for (int i = 0; i < waitingCount; i++)
        {
            LockSupport.unpark(waiting[i].thread);
            waiting[i] = null;
        }
        waitingCount = 0;
    }

    /**
     * @return threads woken because their connect was answered (established or failed), since the start.
     */
    long woken()
    {
        return woken;
    }

    /**
     * @return true if a waiting thread may need a wake.
     */
    boolean isAnyWaiting()
    {
        return 0 != waitingCount || !registered.isEmpty();
    }

    private record Waiter(Connection connection, Thread thread)
    {
    }
}
