package io.pacelink.transport.agent;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;

import java.util.concurrent.locks.LockSupport;

/**
 * The application threads waiting in {@code Endpoint.connect(address, controller, timeout)} while the agent runs on a
 * thread of its own, each woken ({@link LockSupport#unpark}) by the agent in the duty cycle its connection leaves
 * CONNECTING. Such a thread waits in parks that back off to a millisecond (an event wait must cost nothing if it
 * lasts), so without the wake it saw its connection established up to that millisecond late — about half of it on
 * average, the size of a whole loopback connect, on every connect that lasts more than a few hundred microseconds.
 * The agent registers the thread as it carries out the connect ({@link ConnectCommand#waiter}), so no answer can
 * come before the registration; its check is a state read per waiting connect and duty cycle, nothing while nobody
 * waits. A thread whose connect timed out says so ({@link ConnectCommand#abandonWait()}) and is forgotten unwoken: it
 * has left, and a wake would only cut short whatever it parks in next. Beyond {@link #CAPACITY} waiting threads a
 * new one is woken at once and finds its answer at the end of one of its parks, as without the wake. Agent thread
 * only.
 */
final class ConnectWaiters
{
    static final int CAPACITY = 1024;

    private final ConnectCommand[] commands = new ConnectCommand[CAPACITY];
    private final Connection[] connections = new Connection[CAPACITY];
    private final Thread[] threads = new Thread[CAPACITY];
    private int count;
    private volatile long woken;
    private volatile long abandoned;

    /**
     * @param command    the connect the agent just carried out.
     * @param connection the connection it opened, or null if it could not open one.
     * @param thread     the thread waiting for its answer.
     */
    void add(final ConnectCommand command, final Connection connection, final Thread thread)
    {
        if (null == connection || CAPACITY == count)
        {
            // Nothing to wait for, or too many waiting: the thread finds out now, or at its next park's end.
            LockSupport.unpark(thread);
            return;
        }
        commands[count] = command;
        connections[count] = connection;
        threads[count] = thread;
        count++;
    }

    /**
     * After each duty cycle: wake the threads whose connection is no longer CONNECTING, forget those that stopped
     * waiting.
     */
    void wakeAnswered()
    {
        for (int i = count - 1; i >= 0; i--)
        {
            if (commands[i].isWaitAbandoned())
            {
                abandoned = abandoned + 1; // the agent alone writes it
                remove(i);
            }
            else if (ConnectionState.CONNECTING != connections[i].state())
            {
                LockSupport.unpark(threads[i]);
                woken = woken + 1; // the agent alone writes it
                remove(i);
            }
        }
    }

    /**
     * As the endpoint closes: every waiting thread is woken to find the endpoint closed.
     */
    void wakeAll()
    {
        while (count > 0)
        {
            LockSupport.unpark(threads[count - 1]);
            remove(count - 1);
        }
    }

    /**
     * @return threads woken because their connect was answered (established or failed), since the start.
     */
    long woken()
    {
        return woken;
    }

    /**
     * @return threads forgotten unwoken because their connect timed out first, since the start.
     */
    long abandoned()
    {
        return abandoned;
    }

    /**
     * @return how many threads are registered.
     */
    int waiting()
    {
        return count;
    }

    /**
     * @return true if a waiting thread may need a wake.
     */
    boolean isAnyWaiting()
    {
        return 0 != count;
    }

    private void remove(final int index)
    {
        count--;
        commands[index] = commands[count];
        connections[index] = connections[count];
        threads[index] = threads[count];
        commands[count] = null;
        connections[count] = null;
        threads[count] = null;
    }
}
