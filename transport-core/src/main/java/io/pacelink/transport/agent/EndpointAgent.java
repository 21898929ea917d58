package io.pacelink.transport.agent;

import io.pacelink.transport.engine.EndpointCore;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.stats.CountersFile;
import io.pacelink.transport.stats.PortCounters;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.locks.LockSupport;

/**
 * Runs an {@link EndpointCore} as an Agrona agent, and is the only thread that touches it: hands the core the clock
 * for each duty cycle (the core reads it through that handle only, so the simulator can hand virtual time instead),
 * carries out the commands application threads enqueue ({@link ConnectCommand}, a close request) before the core's
 * duty cycle, and keeps the counters file's heartbeat fresh so {@code pacelink stat} can tell a running endpoint from
 * a dead or hung one. It begins each duty cycle by taking note of the application's wake-up signal
 * ({@link AgentWakeup}) and copies the port's figures into the counters now and then ({@link PortCounters}).
 */
public final class EndpointAgent implements Agent
{
    private static final int COMMAND_QUEUE_CAPACITY = 1024;
    private static final int COMMAND_DRAIN_LIMIT = 16;

    private final EndpointCore core;
    private final NanoClock clock;
    private final CountersFile countersFile;
    private final String roleName;
    private final AgentWakeup wakeup;
    private final DatagramPort port;
    private final PortCounters portCounters;
    private final ManyToOneConcurrentArrayQueue<ConnectCommand> connectCommands =
        new ManyToOneConcurrentArrayQueue<>(COMMAND_QUEUE_CAPACITY);
    private final ConnectWaiters connectWaiters = new ConnectWaiters();
    private final boolean isPreparingIdly;
    private volatile Thread agentThread;
    private volatile boolean isCloseRequested;
    private volatile boolean isGracefulCloseRequested;
    private volatile long gracefulCloseTimeoutNs;
    private volatile boolean isClosed;
    private long gracefulCloseDeadlineNs;
    private boolean isGracefulCloseStarted;

    /**
     * @param core         the protocol core.
     * @param clock        the clock read once per duty cycle.
     * @param countersFile the endpoint's counters file, or null if its counters are in memory only.
     */
    public EndpointAgent(final EndpointCore core, final NanoClock clock, final CountersFile countersFile)
    {
        this(core, clock, countersFile, null, null, null, false);
    }

    /**
     * @param core         the protocol core.
     * @param clock        the clock read once per duty cycle.
     * @param countersFile the endpoint's counters file, or null if its counters are in memory only.
     * @param wakeup       how application threads wake this agent, or null if nobody does.
     * @param port         the core's port, whose figures ({@link DatagramPort#stats()}) are published, or null.
     * @param portCounters where to publish them, or null.
     * @deprecated use the constructor that also says whether the core makes a connect's keys ahead while idle (this
     * one says no); kept, delegating, for existing callers.
     */
    @Deprecated
    public EndpointAgent(
        final EndpointCore core,
        final NanoClock clock,
        final CountersFile countersFile,
        final AgentWakeup wakeup,
        final DatagramPort port,
        final PortCounters portCounters)
    {
        this(core, clock, countersFile, wakeup, port, portCounters, false);
    }

    /**
     * @param core              the protocol core.
     * @param clock             the clock read once per duty cycle.
     * @param countersFile      the endpoint's counters file, or null if its counters are in memory only.
     * @param wakeup            how application threads wake this agent, or null if nobody does.
     * @param port              the core's port, whose figures ({@link DatagramPort#stats()}) are published, or null.
     * @param portCounters      where to publish them, or null.
     * @param isPreparingIdly   true to have the core make a connect's keys ahead in cycles with nothing to do
     *                          ({@link EndpointCore#prepareWhileIdle}); false for a seeded endpoint, whose random draws
     *                          must stay where its seed put them.
     */
    public EndpointAgent(
        final EndpointCore core,
        final NanoClock clock,
        final CountersFile countersFile,
        final AgentWakeup wakeup,
        final DatagramPort port,
        final PortCounters portCounters,
        final boolean isPreparingIdly)
    {
        this.isPreparingIdly = isPreparingIdly;
        this.core = core;
        this.clock = clock;
        this.countersFile = countersFile;
        this.roleName = "pacelink-" + core.localAddress();
        this.wakeup = wakeup;
        this.port = port;
        this.portCounters = null == port ? null : portCounters;
    }

    /**
     * Enqueue a connect for the agent (any thread).
     *
     * @param command the request.
     * @return false if the queue is full.
     */
    public boolean offer(final ConnectCommand command)
    {
        return connectCommands.offer(command);
    }

    /**
     * @return threads woken because their connect was answered ({@link ConnectCommand#waiter}), since the start.
     */
    public long connectWaitersWoken()
    {
        return connectWaiters.woken();
    }

    /**
     * @return threads forgotten because their connect timed out before it was answered
     * ({@link ConnectCommand#abandonWait()}), since the start.
     */
    public long connectWaitersAbandoned()
    {
        return connectWaiters.abandoned();
    }

    /**
     * Ask the agent to close the core at its next duty cycle, aborting every connection (any thread);
     * {@link #isClosed()} tells when it has.
     */
    public void requestClose()
    {
        isCloseRequested = true;
    }

    /**
     * Ask the agent to close the core gracefully (any thread): refuse new connections, let every connection finish
     * delivering what was offered ({@link EndpointCore#beginGracefulClose()}), then close; connections still open
     * after {@code timeoutNs} are aborted. {@link #isClosed()} tells when it has.
     *
     * @param timeoutNs the longest the graceful part may take.
     */
    public void requestGracefulClose(final long timeoutNs)
    {
        gracefulCloseTimeoutNs = timeoutNs;
        isGracefulCloseRequested = true;
    }

    /**
     * @return true once the core is closed.
     */
    public boolean isClosed()
    {
        return isClosed;
    }

    /**
     * @return true if the agent has started and the calling thread is the one running it.
     */
    public boolean isAgentThread()
    {
        return Thread.currentThread() == agentThread;
    }

    /**
     * @return true once a runner, invoker or composite has started this agent.
     */
    public boolean hasStarted()
    {
        return null != agentThread;
    }

    public void onStart()
    {
        agentThread = Thread.currentThread();
    }

    public int doWork()
    {
        if (isClosed)
        {
            return 0;
        }
        if (isCloseRequested)
        {
            onClose();
            return 1;
        }
        if (null != wakeup)
        {
            wakeup.beginDutyCycle();
        }
        final long nowNs = clock.nanoTime();
        if (null != countersFile)
        {
            countersFile.heartbeat(nowNs);
        }
        if (null != portCounters)
        {
            portCounters.publish(port.stats(), nowNs);
        }
        int work = 0;
        if (isGracefulCloseRequested)
        {
            if (!isGracefulCloseStarted)
            {
                isGracefulCloseStarted = true;
                gracefulCloseDeadlineNs = nowNs + gracefulCloseTimeoutNs;
                // A connect returns before the agent carries it out: those queued before the close are carried out
                // first, so their connections close gracefully with the others.
                work += executeQueuedConnects(Integer.MAX_VALUE, nowNs);
                core.beginGracefulClose();
            }
            else if (0 == core.connectionCount() || nowNs - gracefulCloseDeadlineNs >= 0)
            {
                onClose();
                return 1;
            }
            // A closing endpoint opens nothing more.
            failQueuedConnects();
        }
        work += executeQueuedConnects(COMMAND_DRAIN_LIMIT, nowNs);
        // The cycle starts at the time just read, unless a connect was carried out since.
        work += core.doWork(clock, 0 == work ? nowNs : clock.nanoTime());
        if (connectWaiters.isAnyWaiting())
        {
            connectWaiters.wakeAnswered();
        }
        // A cycle with nothing to do is where a client makes its next connect's first message and a server its next
        // answer's key pair, off a connect's path; if it did, the next cycle reads what arrived meanwhile before the
        // agent sleeps.
        return 0 == work && isPreparingIdly && !isGracefulCloseRequested && core.prepareWhileIdle() ? 1 : work;
    }

    private int executeQueuedConnects(final int limit, final long nowNs)
    {
        int count = 0;
        ConnectCommand command;
        while (count < limit && null != (command = connectCommands.poll()))
        {
            command.execute(core, nowNs);
            final Thread waiter = command.waiter();
            if (null != waiter)
            {
                connectWaiters.add(command, command.connectionIfOpened(), waiter);
            }
            count++;
        }
        return count;
    }

    /**
     * Close the core, delete the counters file and fail the connects still queued. Every way of closing an endpoint
     * ends here on the agent's thread, including an application's runner closing the agent in SHARED mode without
     * calling {@code Endpoint.close()}.
     */
    public void onClose()
    {
        if (isClosed)
        {
            return;
        }
        if (null != portCounters)
        {
            portCounters.publishNow(port.stats());
        }
        core.close(clock.nanoTime());
        CloseHelper.close(countersFile);
        failQueuedConnects();
        isClosed = true;
        // A connect offered between the first pass and the flag would wait for ever: the requester checks the flag
        // after its offer, so one offered after this second pass sees the endpoint closed.
        failQueuedConnects();
        connectWaiters.wakeAll();
        if (null != wakeup)
        {
            // The port is closed: nothing is left to wait for until the runner stops.
            wakeup.stop();
        }
    }

    private void failQueuedConnects()
    {
        ConnectCommand command;
        while (null != (command = connectCommands.poll()))
        {
            command.fail(new IllegalStateException("endpoint is closed"));
            final Thread waiter = command.waiter();
            if (null != waiter)
            {
                LockSupport.unpark(waiter);
            }
        }
    }

    public String roleName()
    {
        return roleName;
    }

    /**
     * @return how application threads wake this agent, or null if nobody does.
     */
    public AgentWakeup wakeup()
    {
        return wakeup;
    }

    /**
     * @return the protocol core, for the agent thread only.
     */
    public EndpointCore core()
    {
        return core;
    }
}
