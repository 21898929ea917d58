package io.pacelink.transport.agent;

import io.pacelink.transport.port.DatagramPort;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * How application threads wake an agent that sleeps in its port's wait ({@link PortWaitIdleStrategy}): the agent
 * announces that it sleeps, and a thread that hands it work ({@link #signal()}: an offer, a poll that freed receive
 * window, a connect, a close) wakes the port only then, so a busy agent costs its application no system call per
 * offer — one fence and two reads of shared flags.
 * <p>
 * The protocol is Dekker's: the application publishes its work, fences, raises {@code workPending} and reads
 * {@code sleeping}; the agent clears {@code workPending} (and fences) before a duty cycle reads the application's
 * work, and before it sleeps raises {@code sleeping} and reads {@code workPending}. Of two threads that each write
 * one flag and then read the other, at least one sees the other's write, so either the agent does not go to sleep or
 * the application wakes it: no offer waits for a timeout. Only one thread wakes a given sleep (a compare-and-set).
 */
public final class AgentWakeup
{
    private static final VarHandle SLEEPING;
    private static final VarHandle WORK_PENDING;

    static
    {
        try
        {
            SLEEPING = MethodHandles.lookup().findVarHandle(AgentWakeup.class, "sleeping", boolean.class);
            WORK_PENDING = MethodHandles.lookup().findVarHandle(AgentWakeup.class, "workPending", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final DatagramPort port;
    private volatile boolean sleeping;
    private volatile boolean workPending;
    private volatile boolean stopping;
    private volatile long wakeups;

    /**
     * @param port the port the agent waits on.
     */
    public AgentWakeup(final DatagramPort port)
    {
        this.port = port;
    }

    /**
     * Tell the agent there is work (any thread, after publishing it): wakes the port only if the agent sleeps.
     */
    public void signal()
    {
        // Order the caller's publication (a release store into a log, a queue offer) before the flags are read.
        VarHandle.fullFence();
        if (!workPending)
        {
            workPending = true;
        }
        if (sleeping && SLEEPING.compareAndSet(this, true, false))
        {
            wakeups++;
            port.wakeup();
        }
    }

    /**
     * {@link #signal()} from the agent's own thread (an application that drives the agent with an invoker and offers
     * or polls on the same thread): the agent is not asleep, and it reads {@code workPending} before its next sleep in
     * program order, so the flag is raised without the fence or the read of {@code sleeping} — one locked instruction
     * less per offered message on that thread. The flag is still raised: work handed over after a duty cycle and
     * before the thread idles keeps that idle from sleeping.
     */
    public void signalFromAgentThread()
    {
        if (!(boolean)WORK_PENDING.getOpaque(this))
        {
            WORK_PENDING.setOpaque(this, true);
        }
    }

    /**
     * The agent's runner is stopping: from now on the agent never sleeps in the port (any thread).
     */
    public void stop()
    {
        stopping = true;
        signal();
    }

    /**
     * @return true once {@link #stop()} was called.
     */
    public boolean isStopping()
    {
        return stopping;
    }

    /**
     * @return true while the agent sleeps (or is about to) in its port's wait.
     */
    public boolean isSleeping()
    {
        return sleeping;
    }

    /**
     * @return how many times an application thread woke the sleeping agent (counted by the thread that woke it).
     */
    public long wakeups()
    {
        return wakeups;
    }

    /**
     * Agent thread, at the start of a duty cycle, before it looks at the application's work.
     */
    public void beginDutyCycle()
    {
        if (workPending)
        {
            workPending = false;
            VarHandle.fullFence();
        }
    }

    /**
     * Agent thread: announce a sleep.
     *
     * @return true if the agent may sleep; false if work was signalled since its duty cycle began (or it stops).
     */
    boolean prepareToSleep()
    {
        sleeping = true;
        if (workPending || stopping)
        {
            sleeping = false;
            return false;
        }
        return true;
    }

    /**
     * Agent thread: the sleep ended.
     */
    void awake()
    {
        sleeping = false;
    }
}
