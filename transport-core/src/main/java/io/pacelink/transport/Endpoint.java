package io.pacelink.transport;

import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.agent.ConnectCommand;
import io.pacelink.transport.agent.DeadlineIdleStrategy;
import io.pacelink.transport.agent.EndpointAgent;
import io.pacelink.transport.engine.EndpointCore;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.ImpairedDatagramPort;
import io.pacelink.transport.port.ImpairmentConfig;
import io.pacelink.transport.port.NioDatagramPort;
import io.pacelink.transport.schedule.PacketSchedulers;
import io.pacelink.transport.stats.CountersBuffers;
import io.pacelink.transport.stats.CountersFile;
import io.pacelink.transport.stats.EndpointCounters;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.jctools.queues.SpmcArrayQueue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A Pacelink endpoint: one UDP socket, many connections, one agent that owns all protocol state. Open one with
 * {@link #launch(PacelinkContext)}; the context's {@link ThreadingMode} says who runs the agent.
 *
 * <pre>{@code
 * try (Endpoint server = Endpoint.launch(new PacelinkContext().bindAddress(new InetSocketAddress("127.0.0.1", 40123))))
 * {
 *     Connection connection;
 *     while (null == (connection = server.accept())) { Thread.onSpinWait(); }
 *     connection.poll((buffer, offset, length) -> process(buffer, offset, length), 10);
 * }
 * }</pre>
 * <p>
 * This class is the thread boundary: application threads call it, while the {@link EndpointCore} and everything
 * under it is touched by the agent thread only. A connect is a command the agent carries out and answers (the caller
 * waits for that one duty cycle, running it itself in INVOKER mode); accepted connections are handed over through a
 * queue.
 */
public final class Endpoint implements AutoCloseable
{
    /**
     * How long an application thread waits for the agent to carry out its command before deciding the agent is not
     * running.
     */
    public static final long COMMAND_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private static final int ACCEPT_QUEUE_CAPACITY = 1024;

    private final PacelinkContext context;
    private final EndpointCore core;
    private final EndpointAgent agent;
    private final CountersReader countersReader;
    private final CountersFile countersFile;
    private final SpmcArrayQueue<Connection> acceptedConnections = new SpmcArrayQueue<>(ACCEPT_QUEUE_CAPACITY);
    private final AgentRunner runner;
    private final AgentInvoker invoker;

    private Endpoint(final PacelinkContext context)
    {
        context.conclude();
        this.context = context;
        final DatagramPort port = impaired(context, null != context.datagramPort() ?
            context.datagramPort() : NioDatagramPort.open(context.bindAddress(), context.socketBufferBytes()));
        try
        {
            countersFile = context.countersFile() ? CountersFile.create(
                context.countersDirectory(), "endpoint", describe(context, port), context.countersBufferBytes()) : null;
        }
        catch (final RuntimeException ex)
        {
            port.close();
            throw ex;
        }
        // The endpoint's and the scheduler's counters are registered here, before the agent runs (starting the thread
        // that runs it orders these writes before its own); from then on only the agent allocates and frees
        // counters: one writer, as a plain CountersManager requires.
        final CountersManager countersManager = null != countersFile ?
            countersFile.countersManager() : CountersBuffers.newManager(context.countersBufferBytes());
        countersReader = countersManager;
        try
        {
            core = new EndpointCore(
                context,
                port,
                CongestionControlRegistry.load(),
                PacketSchedulers.newScheduler(
                    context.packetScheduler(), context.schedulerParameters(), countersManager),
                countersManager,
                acceptedConnections::offer);
        }
        catch (final RuntimeException ex)
        {
            port.close();
            CloseHelper.close(countersFile);
            throw ex;
        }
        agent = new EndpointAgent(core, context.nanoClock(), countersFile);

        switch (context.threadingMode())
        {
            case DEDICATED:
                runner = new AgentRunner(
                    agentIdleStrategy(context.idleStrategySupplier().get(), core, context),
                    context.errorHandler(),
                    null,
                    agent);
                invoker = null;
                AgentRunner.startOnThread(runner);
                break;

            case INVOKER:
                runner = null;
                invoker = new AgentInvoker(context.errorHandler(), null, agent);
                invoker.start();
                break;

            default:
                runner = null;
                invoker = null;
        }
    }

    /**
     * A busy-spinning strategy never sleeps, so it is used as it is (the low-latency profile); any other is wrapped
     * so it spins instead of parking near the endpoint's next deadline.
     */
    private static IdleStrategy agentIdleStrategy(
        final IdleStrategy idleStrategy, final EndpointCore core, final PacelinkContext context)
    {
        if (idleStrategy instanceof BusySpinIdleStrategy || idleStrategy instanceof NoOpIdleStrategy)
        {
            return idleStrategy;
        }
        return new DeadlineIdleStrategy(
            idleStrategy, core::nextDeadlineNs, context.nanoClock(), DeadlineIdleStrategy.DEFAULT_SPIN_WINDOW_NS);
    }

    private static String describe(final PacelinkContext context, final DatagramPort port)
    {
        return "endpoint " + port.localAddress() + " cc=" + context.congestionControl() + " scheduler=" +
            PacketSchedulers.resolveName(context.packetScheduler());
    }

    private static DatagramPort impaired(final PacelinkContext context, final DatagramPort port)
    {
        if (ImpairmentConfig.NONE.equals(context.sendImpairment()) &&
            ImpairmentConfig.NONE.equals(context.receiveImpairment()))
        {
            return port;
        }
        return new ImpairedDatagramPort(
            port, context.sendImpairment(), context.receiveImpairment(), PacelinkContext.MAX_DATAGRAM_SIZE_BYTES);
    }

    /**
     * Open an endpoint.
     *
     * @param context its configuration.
     * @return the endpoint, bound and (in DEDICATED mode) running.
     * @throws IllegalArgumentException or {@link IllegalStateException} with a message saying what to fix if the
     *                                  configuration is invalid; {@link java.io.UncheckedIOException} if the socket
     *                                  cannot be bound.
     */
    public static Endpoint launch(final PacelinkContext context)
    {
        return new Endpoint(context);
    }

    /**
     * Open a connection to a server with the context's congestion controller.
     *
     * @param remoteAddress the server's address.
     * @return the connection, CONNECTING until the server answers.
     * @see #connect(InetSocketAddress, String)
     */
    public Connection connect(final InetSocketAddress remoteAddress)
    {
        return connect(remoteAddress, null);
    }

    /**
     * Open a connection to a server with a given congestion controller. Waits until the agent has created the
     * connection (one duty cycle, run by this thread in INVOKER mode), not for the server's answer.
     *
     * @param remoteAddress     the server's address.
     * @param congestionControl the controller's name, e.g. {@code bbr}, or null for the context's.
     * @return the connection, CONNECTING until the server answers; CLOSED (REJECTED) if the endpoint has its
     * maximum of connections.
     * @throws IllegalArgumentException if the controller is unknown or its parameters are invalid.
     * @throws IllegalStateException    if the endpoint is closed, or its agent did not run within
     *                                  {@link #COMMAND_TIMEOUT_NS} (in SHARED mode: start the agent first).
     */
    public Connection connect(final InetSocketAddress remoteAddress, final String congestionControl)
    {
        if (agent.isClosed())
        {
            throw new IllegalStateException("endpoint is closed");
        }
        final ConnectCommand command = new ConnectCommand(remoteAddress, congestionControl);
        if (!agent.offer(command))
        {
            throw new IllegalStateException("too many commands queued: the endpoint's agent is falling behind");
        }
        awaitAgent(command::isDone, "connect");
        return command.connection();
    }

    /**
     * @return the next connection a client opened to this endpoint, or null if none is waiting.
     */
    public Connection accept()
    {
        return acceptedConnections.relaxedPoll();
    }

    /**
     * @return the address peers send to.
     */
    public InetSocketAddress localAddress()
    {
        return core.localAddress();
    }

    /**
     * @return the endpoint-wide counters.
     */
    public EndpointCounters counters()
    {
        return core.counters();
    }

    /**
     * @return every counter of this endpoint (system, per connection, per controller) for tools like
     * {@code pacelink stat}.
     */
    public CountersReader countersReader()
    {
        return countersReader;
    }

    /**
     * @return the memory-mapped file the counters live in, or null if they are in memory only
     * ({@link PacelinkContext#countersFile(boolean)}).
     */
    public Path countersFile()
    {
        return null == countersFile ? null : countersFile.path();
    }

    /**
     * @return the agent, to run it in SHARED mode (e.g. inside a {@link org.agrona.concurrent.CompositeAgent}).
     */
    public Agent agent()
    {
        return agent;
    }

    /**
     * Run one duty cycle (INVOKER mode).
     *
     * @return work done.
     * @throws IllegalStateException if the endpoint is not in INVOKER mode.
     */
    public int invoke()
    {
        if (null == invoker)
        {
            throw new IllegalStateException("invoke() needs ThreadingMode.INVOKER; this endpoint runs " +
                context.threadingMode());
        }
        return invoker.invoke();
    }

    /**
     * @return the earliest time (on the context's clock) the agent has something to do; call it on the agent's
     * thread (INVOKER mode: the thread that invokes).
     */
    public long nextDeadlineNs()
    {
        return core.nextDeadlineNs();
    }

    /**
     * Close every connection and the socket, and delete the counters file. In SHARED mode the agent closes the
     * endpoint when the application's runner closes it; called before the agent starts (or on its thread) this closes
     * it at once, and while another thread runs it this asks the agent to close and waits.
     */
    public void close()
    {
        if (null != runner)
        {
            CloseHelper.close(runner);
        }
        else if (null != invoker)
        {
            CloseHelper.close(invoker);
        }
        else if (!agent.hasStarted() || agent.isAgentThread())
        {
            agent.onClose();
        }
        else
        {
            agent.requestClose();
            awaitAgent(agent::isClosed, "close");
        }
    }

    /**
     * Wait, as Aeron's client conductor waits for the media driver, until the agent has carried out a command:
     * running its duty cycle here if this thread is the agent's (INVOKER mode, or SHARED with the application's own
     * agent beside it), else idling with back-off.
     */
    private void awaitAgent(final BooleanSupplier isDone, final String command)
    {
        final long deadlineNs = context.nanoClock().nanoTime() + COMMAND_TIMEOUT_NS;
        final IdleStrategy idleStrategy = null == invoker && !agent.isAgentThread() ? new BackoffIdleStrategy(
            10, 10, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(1)) : null;
        while (!isDone.getAsBoolean())
        {
            if (null != invoker)
            {
                invoker.invoke();
            }
            else if (null == idleStrategy)
            {
                agent.doWork();
            }
            else
            {
                idleStrategy.idle();
            }
            if (agent.isClosed() && !isDone.getAsBoolean())
            {
                throw new IllegalStateException("endpoint is closed");
            }
            if (context.nanoClock().nanoTime() > deadlineNs)
            {
                throw new IllegalStateException("the endpoint's agent did not " + command + " within " +
                    TimeUnit.NANOSECONDS.toSeconds(COMMAND_TIMEOUT_NS) + " s: it is not running (in SHARED mode " +
                    "start the runner of endpoint.agent() first)");
            }
        }
    }
}
