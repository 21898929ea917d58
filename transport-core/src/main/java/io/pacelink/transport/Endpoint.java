package io.pacelink.transport;

import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.agent.BackgroundPriming;
import io.pacelink.transport.agent.AgentWakeup;
import io.pacelink.transport.agent.ConnectCommand;
import io.pacelink.transport.agent.DeadlineIdleStrategy;
import io.pacelink.transport.agent.EndpointAgent;
import io.pacelink.transport.agent.PortWaitIdleStrategy;
import io.pacelink.transport.agent.WakeCoalescing;
import io.pacelink.transport.engine.EndpointCore;
import io.pacelink.transport.engine.HandshakePathPrimer;
import io.pacelink.transport.engine.WaitDriver;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.DatagramPorts;
import io.pacelink.transport.port.ImpairedDatagramPort;
import io.pacelink.transport.port.ImpairmentConfig;
import io.pacelink.transport.schedule.PacketSchedulers;
import io.pacelink.transport.stats.CountersBuffers;
import io.pacelink.transport.stats.CountersFile;
import io.pacelink.transport.stats.EndpointCounters;
import io.pacelink.transport.stats.PortCounters;
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

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * A Pacelink endpoint: one UDP socket, many connections, one agent that owns all protocol state. Open one with
 * {@link #launch(PacelinkContext)}; the context's {@link ThreadingMode} says who runs the agent.
 *
 * <pre>{@code
 * try (Endpoint server = Endpoint.launch(new PacelinkContext().bindAddress(new InetSocketAddress(40123))))
 * {
 *     final Connection connection = server.accept(TimeUnit.MINUTES.toNanos(1));
 *     while (connection.poll(handler, 10, TimeUnit.SECONDS.toNanos(30)) > 0 || !connection.isEndOfStream())
 *     {
 *     }
 * } // close() is graceful: every connection first delivers what its application offered
 * }</pre>
 * <p>
 * This class is the thread boundary: application threads call it, while the {@link EndpointCore} and everything
 * under it is touched by the agent thread only. A connect is a command the agent carries out (the caller gets a
 * CONNECTING connection at once; in INVOKER mode it runs that duty cycle itself); accepted connections are handed over
 * through a queue. Every method may be called from any application thread; the waits
 * ({@link #connect(InetSocketAddress, String, long)}, {@link #accept(long)}, {@link #await}, {@link #close()}) run the
 * duty cycle on the waiting thread when that thread drives the agent, so in INVOKER mode only the invoking thread may
 * wait (see {@link Connection} for the connection's calls).
 */
public final class Endpoint implements AutoCloseable
{
    /**
     * How long an application thread waits for the agent to carry out its command before deciding the agent is not
     * running.
     */
    public static final long COMMAND_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * Longest park of a thread waiting for an event (a connection, an answer, a close) while another thread runs the
     * agent: such waits need no microsecond reaction, and a thread that waits for hours should cost nothing.
     */
    public static final long EVENT_WAIT_MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final int ACCEPT_QUEUE_CAPACITY = 1024;
    private static final long EVENT_WAIT_SPINS = 10;
    private static final long EVENT_WAIT_YIELDS = 10;
    private static final long EVENT_WAIT_MIN_PARK_NS = TimeUnit.MICROSECONDS.toNanos(1);

    private final PacelinkContext context;
    private final EndpointCore core;
    private final EndpointAgent agent;
    private final CountersReader countersReader;
    private final CountersFile countersFile;
    private final SpmcArrayQueue<Connection> acceptedConnections = new SpmcArrayQueue<>(ACCEPT_QUEUE_CAPACITY);
    private final Waits waits = new Waits();
    private final AgentRunner runner;
    private final AgentInvoker invoker;
    private final DatagramPort port;
    private final String portDescription;
    private final AgentWakeup wakeup;
    private final boolean pacerReleasesAhead;

    private Endpoint(final PacelinkContext context)
    {
        context.conclude();
        this.context = context;
        if (context.security().isSecure())
        {
            // First, so that the JCA's and Bouncy Castle's first-use work runs beside the rest of the launch instead
            // of inside the first connect.
            SecureWarmUp.startOnce(context.security().aead());
        }
        final DatagramPorts.Opened opened = null != context.datagramPort() ?
            new DatagramPorts.Opened(context.datagramPort(), false, context.datagramPort().describe()) :
            DatagramPorts.open(context.port(), context.bindAddress(), context.socketBufferBytes(), context.gso(),
                context.kernelReceiveTimes());
        final DatagramPort port = impaired(context, opened.port());
        this.port = port;
        this.portDescription = opened.description();
        try
        {
            countersFile = context.countersFile() ? CountersFile.create(
                context.countersDirectory(), "endpoint", describe(context, port, opened),
                context.countersBufferBytes()) : null;
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
        final PortCounters portCounters = new PortCounters(countersManager, opened.batched(), portDescription);
        final boolean releasesAhead;
        final CongestionControlRegistry registry;
        try
        {
            registry = CongestionControlRegistry.load();
            core = new EndpointCore(
                context,
                port,
                registry,
                PacketSchedulers.newScheduler(
                    context.packetScheduler(), context.schedulerParameters(), countersManager),
                countersManager,
                acceptedConnections::offer,
                waits);
            // The port wait sleeps in pacing quanta (newAgentIdleStrategy): let the pacer send a quantum per wake,
            // not what fell due while the last duty cycle ran (PacketScheduler.releaseAheadInQuanta).
            releasesAhead = context.isDefaultIdleStrategy() && port.canWait() &&
                WakeCoalescing.servesReleasesInQuanta() && core.scheduler().releaseAheadInQuanta(true);
            if (null == context.randomSeed())
            {
                // Here, not in the first connects: see EndpointCore.primeConnectionPath and HandshakePathPrimer.
                core.primeConnectionPath(context.nanoClock().nanoTime());
                HandshakePathPrimer.primeOnce(context, registry);
            }
        }
        catch (final RuntimeException ex)
        {
            port.close();
            CloseHelper.close(countersFile);
            throw ex;
        }
        pacerReleasesAhead = releasesAhead;
        wakeup = new AgentWakeup(port);
        // A seeded endpoint makes nothing ahead while idle: its draws stay where its seed puts them.
        agent = new EndpointAgent(
            core, context.nanoClock(), countersFile, wakeup, port, portCounters, null == context.randomSeed());

        switch (context.threadingMode())
        {
            case DEDICATED:
                runner = new AgentRunner(
                    newAgentIdleStrategy(),
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
        // A server whose launch could not run its priming's connects in the time it had goes on with them while it
        // idles (BackgroundPriming): its first flood must not meet its hello path uncompiled.
        final HandshakePathPrimer morePriming = null == context.randomSeed() && context.acceptConnections() ?
            HandshakePathPrimer.continuing(context, registry) : null;
        if (null != morePriming)
        {
            new BackgroundPriming(morePriming, context.nanoClock(), core.counters().datagramsReceived()::get,
                agent::isClosed).start();
        }
    }

    /**
     * An idle strategy for the thread that runs this endpoint's duty cycle: the DEDICATED agent's, the thread that
     * invokes in INVOKER mode, or the SHARED agent's own thread when it runs nothing else. In the default profile it
     * sleeps in the port's wait until the next deadline, a datagram's arrival or the application's next command
     * ({@link PortWaitIdleStrategy}); a busy-spinning strategy (the low-latency profile) is used as it is; any other
     * is wrapped so it spins instead of parking near the endpoint's next deadline ({@link DeadlineIdleStrategy}).
     * Call {@code idle(work)} after each {@link #invoke()}.
     *
     * @return a new strategy, for one thread.
     */
    public IdleStrategy newAgentIdleStrategy()
    {
        return newAgentIdleStrategy(null);
    }

    /**
     * {@link #newAgentIdleStrategy()} for a loop with timers of its own (a report interval, a rate limiter, the next
     * request's time): in the default profile the sleep also ends at the application's deadline.
     *
     * @param applicationDeadlineNs the loop's next deadline on the context's clock ({@link Long#MAX_VALUE} for none),
     *                              read before each sleep; null for none.
     * @return a new strategy, for one thread.
     */
    public IdleStrategy newAgentIdleStrategy(final LongSupplier applicationDeadlineNs)
    {
        if (context.isDefaultIdleStrategy() && port.canWait())
        {
            final LongSupplier timerNs = null == applicationDeadlineNs ? core::nextTimerDeadlineNs :
                () -> WakeCoalescing.earlier(core.nextTimerDeadlineNs(), applicationDeadlineNs.getAsLong());
            return new PortWaitIdleStrategy(
                port, timerNs, core::nextReleaseTimeNs, context.nanoClock(), wakeup,
                new WakeCoalescing(core::nextReleaseQuantumNs, core::takeArrivalAckDelayNs, pacerReleasesAhead),
                core.counters().connectionsOpened()::get);
        }
        final IdleStrategy idleStrategy = context.idleStrategySupplier().get();
        if (idleStrategy instanceof BusySpinIdleStrategy || idleStrategy instanceof NoOpIdleStrategy)
        {
            return idleStrategy;
        }
        return new DeadlineIdleStrategy(
            idleStrategy, core::nextDeadlineNs, context.nanoClock(), DeadlineIdleStrategy.DEFAULT_SPIN_WINDOW_NS);
    }

    private static String describe(
        final PacelinkContext context, final DatagramPort port, final DatagramPorts.Opened opened)
    {
        return "endpoint " + port.localAddress() + " cc=" + context.congestionControl() + " scheduler=" +
            PacketSchedulers.resolveName(context.packetScheduler()) + " port=" +
            (opened.batched() ? "batched" : null == context.datagramPort() ? "nio" : "given");
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
     * Open a connection to a server with the context's congestion controller, without waiting for its answer.
     *
     * @param remoteAddress the server's address.
     * @return the connection, CONNECTING until the server answers.
     * @see #connect(InetSocketAddress, String, long)
     */
    public Connection connect(final InetSocketAddress remoteAddress)
    {
        return connect(remoteAddress, null);
    }

    /**
     * Open a connection to a server with a given congestion controller, without waiting for the agent: the connect is
     * queued for the agent, which creates the connection (its counters and buffers) at its next duty cycle and sends
     * the first handshake packet, while this thread goes on (so a burst of connects from one thread is not one agent
     * duty cycle per connect). The connection is CONNECTING until the server answers; offers before then say
     * {@link Connection#NOT_CONNECTED}, and a close is carried out once the agent has created the connection. Its
     * {@link Connection#connectionId()} and {@link Connection#stats()} wait for the agent when called first thing.
     * In INVOKER mode, on the SHARED agent's own thread, and before the agent has started, this call waits for the
     * agent's answer as {@link #connect(InetSocketAddress, String, long)} does, running the duty cycle itself where
     * this thread drives the agent.
     *
     * @param remoteAddress     the server's address.
     * @param congestionControl the controller's name, e.g. {@code bbr}, or null for the context's; the server runs
     *                          the same one when it has it.
     * @return the connection, CONNECTING until the server answers; it turns CLOSED (REJECTED) if the endpoint has its
     * maximum of connections, CLOSED (ENDPOINT_CLOSED) if the endpoint closes before the agent created it.
     * @throws IllegalArgumentException if the controller is unknown or its parameters are invalid, or this endpoint
     *                                  cannot reach the address (bound to loopback, or another address family).
     * @throws IllegalStateException    if the endpoint is closed, or its agent did not take the connect within
     *                                  {@link #COMMAND_TIMEOUT_NS} (in SHARED mode: start the agent first).
     */
    public Connection connect(final InetSocketAddress remoteAddress, final String congestionControl)
    {
        return open(command(remoteAddress, congestionControl, null));
    }

    /**
     * @return the connect {@link #connect(InetSocketAddress, String)} hands the agent, which wakes {@code waiter}
     * (if not null) when the answer is in.
     */
    private ConnectCommand command(
        final InetSocketAddress remoteAddress, final String congestionControl, final Thread waiter)
    {
        if (agent.isClosed())
        {
            throw new IllegalStateException("endpoint is closed");
        }
        return new ConnectCommand(reachable(remoteAddress), core.controllerName(congestionControl), waiter);
    }

    /**
     * {@link #connect(InetSocketAddress, String)} of a command made by {@link #command}.
     */
    private Connection open(final ConnectCommand command)
    {
        if (!agent.offer(command))
        {
            // A thousand connects already queued: wait for the agent to take some rather than fail the caller.
            awaitAgent(() -> agent.offer(command), "take a connect");
        }
        wakeup.signal();
        // A connect queued as the agent closed is failed by it (EndpointAgent.onClose): waiting for that answer
        // throws as a connect to a closed endpoint does.
        if (null != invoker || agent.isAgentThread() || !agent.hasStarted() || agent.isClosed())
        {
            awaitAgent(command::isDone, "connect");
            return command.connection();
        }
        return new PendingConnection(command, command.remoteAddress(), command.congestionControl(), waits, this);
    }

    /**
     * Open a connection to a server and wait until it is established.
     *
     * @param remoteAddress     the server's address.
     * @param congestionControl the controller's name, or null for the context's.
     * @param timeoutNs         the longest wait (the context's handshake timeout may end it sooner).
     * @return the connection, CONNECTED.
     * @throws ConnectionFailedException saying why it could not connect: the server refused
     *                                   ({@link CloseReason#REJECTED}, with the server's reason), nothing listens
     *                                   there ({@link CloseReason#PEER_UNREACHABLE}), or no answer came
     *                                   ({@link CloseReason#HANDSHAKE_TIMEOUT}).
     * @throws IllegalArgumentException  as {@link #connect(InetSocketAddress, String)}.
     */
    public Connection connect(
        final InetSocketAddress remoteAddress, final String congestionControl, final long timeoutNs)
    {
        // A thread that does not run the duty cycle itself parks up to EVENT_WAIT_MAX_PARK_NS at a time while it
        // waits: the agent wakes it in the cycle the answer is in (agent/ConnectWaiters).
        final ConnectCommand command = command(remoteAddress, congestionControl,
            null == invoker && !agent.isAgentThread() ? Thread.currentThread() : null);
        final Connection connection = open(command);
        final IdleStrategy idleStrategy = waits.newIdleStrategy(false);
        final long deadlineNs = waits.nowNs() + timeoutNs;
        while (ConnectionState.CONNECTING == connection.state())
        {
            if (waits.nowNs() - deadlineNs >= 0 || agent.isClosed())
            {
                // Before the close: the agent forgets this thread instead of waking it once the close is carried out.
                command.abandonWait();
                connection.closeNow();
                throw new ConnectionFailedException("cannot connect to " + describe(remoteAddress) + ": no answer " +
                    "within " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms; is the server running there, and " +
                    "is UDP port " + remoteAddress.getPort() + " reachable?",
                    new ConnectionOutcome(CloseReason.HANDSHAKE_TIMEOUT, "", true, 0, 0, 0, 0));
            }
            waits.turn(idleStrategy, 0);
        }
        if (ConnectionState.CONNECTED != connection.state())
        {
            final ConnectionOutcome outcome = connection.outcome();
            throw new ConnectionFailedException("cannot connect to " + describe(remoteAddress) + ": " +
                outcome.reason().description() + (outcome.detail().isEmpty() ? "" : " (" + outcome.detail() + ")"),
                outcome);
        }
        // Established, so the agent has created it: the caller gets that connection itself, and its offers and polls
        // go nowhere through a wrapper.
        return connection instanceof PendingConnection ? ((PendingConnection)connection).opened() : connection;
    }

    private static String describe(final InetSocketAddress address)
    {
        return address.getHostString() + ":" + address.getPort();
    }

    /**
     * A socket bound to a loopback address can only reach this host, and an IPv4 socket only IPv4 addresses: say so
     * instead of letting the handshake time out. The wildcard address (what {@link #localAddress()} of an endpoint
     * bound to it says) means this host, as it does to the operating system; the connection is to the loopback
     * address, where the peer's answers come from.
     *
     * @return the address to connect to.
     */
    private InetSocketAddress reachable(final InetSocketAddress remoteAddress)
    {
        if (remoteAddress.isUnresolved())
        {
            throw new IllegalArgumentException("cannot resolve " + remoteAddress.getHostString());
        }
        if (remoteAddress.getAddress().isAnyLocalAddress())
        {
            return reachable(new InetSocketAddress(loopbackLike(remoteAddress.getAddress()), remoteAddress.getPort()));
        }
        final InetAddress local = core.localAddress().getAddress();
        final InetAddress remote = remoteAddress.getAddress();
        if (local.isLoopbackAddress() && !remote.isLoopbackAddress())
        {
            throw new IllegalArgumentException("this endpoint is bound to the loopback address " +
                local.getHostAddress() + " and cannot reach " + describe(remoteAddress) + " on another host: bind " +
                "it to the wildcard address (the default, 0.0.0.0:0) or to an address on the way to that host");
        }
        if (local instanceof Inet4Address && !(remote instanceof Inet4Address))
        {
            throw new IllegalArgumentException("this endpoint is bound to the IPv4 address " +
                local.getHostAddress() + " and cannot reach the IPv6 address " + remote.getHostAddress() +
                ": bind it to an IPv6 address, e.g. [::]:0");
        }
        return remoteAddress;
    }

    /**
     * @return the loopback address of the wildcard address's family: 127.0.0.1 or ::1.
     */
    private static InetAddress loopbackLike(final InetAddress wildcard)
    {
        final byte[] loopback = new byte[wildcard.getAddress().length];
        if (wildcard instanceof Inet4Address)
        {
            loopback[0] = 127;
        }
        loopback[loopback.length - 1] = 1;
        try
        {
            return InetAddress.getByAddress(loopback);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("an address of 4 or 16 bytes is always valid", ex);
        }
    }

    /**
     * @return the next connection a client opened to this endpoint, or null if none is waiting. Never blocks.
     */
    public Connection accept()
    {
        return acceptedConnections.relaxedPoll();
    }

    /**
     * Wait for the next connection a client opens to this endpoint.
     *
     * @param timeoutNs the longest wait.
     * @return the connection, CONNECTED; null if the timeout passed first or the endpoint closed.
     */
    public Connection accept(final long timeoutNs)
    {
        Connection connection = acceptedConnections.relaxedPoll();
        if (null != connection || timeoutNs <= 0)
        {
            return connection;
        }
        final IdleStrategy idleStrategy = waits.newIdleStrategy(false);
        final long deadlineNs = waits.nowNs() + timeoutNs;
        while (null == (connection = acceptedConnections.relaxedPoll()))
        {
            if (agent.isClosed() || waits.nowNs() - deadlineNs >= 0)
            {
                return null;
            }
            waits.turn(idleStrategy, 0);
        }
        return connection;
    }

    /**
     * Wait until a condition holds, as the other waits do: running the duty cycle when this thread drives the agent,
     * idling otherwise. For conditions the application polls itself (its own protocol's messages, several
     * connections at once).
     *
     * @param condition checked once per turn, on this thread; it may poll connections.
     * @param timeoutNs the longest wait.
     * @return true if the condition held, false if the timeout passed or the endpoint closed first.
     */
    public boolean await(final BooleanSupplier condition, final long timeoutNs)
    {
        final IdleStrategy idleStrategy = waits.newIdleStrategy(false);
        final long deadlineNs = waits.nowNs() + timeoutNs;
        while (!condition.getAsBoolean())
        {
            if (agent.isClosed() || waits.nowNs() - deadlineNs >= 0)
            {
                return false;
            }
            waits.turn(idleStrategy, 0);
        }
        return true;
    }

    /**
     * @return the address peers send to.
     */
    public InetSocketAddress localAddress()
    {
        return core.localAddress();
    }

    /**
     * @return which datagram port this endpoint runs on and, after an automatic fallback to the NIO port, why, e.g.
     * {@code batched (sendmmsg/recvmmsg, GSO on, GRO on)} or {@code nio (batched port unavailable: ...)}; also the
     * label of the {@code port-batched} counter.
     */
    public String portDescription()
    {
        return portDescription;
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
     * Close gracefully: refuse new connections, close every connection gracefully so it delivers what its application
     * offered to the peer's application, and wait for that up to the context's linger timeout
     * ({@link PacelinkContext#lingerTimeoutNs(long)}); connections that did not finish by then fail with
     * {@link CloseReason#LINGER_TIMEOUT}. Then release the socket and counters and delete the counters file. Each
     * connection's {@link Connection#outcome()} says what happened. In SHARED mode the agent must be running for the
     * graceful part (an agent that never started closes at once). Idempotent.
     */
    public void close()
    {
        if (!agent.isClosed() && (null != runner || null != invoker || agent.hasStarted()))
        {
            agent.requestGracefulClose(context.lingerTimeoutNs() + COMMAND_TIMEOUT_NS);
            wakeup.signal();
            awaitClosed(context.lingerTimeoutNs() + 2 * COMMAND_TIMEOUT_NS);
        }
        closeNow();
    }

    /**
     * Close at once: abort every connection (peers see {@link CloseReason#PEER_ABORTED}; what they had not read is
     * lost), release the socket and counters and delete the counters file. In SHARED mode the agent closes the endpoint
     * when the application's runner closes it; called before the agent starts (or on its thread) this closes it at
     * once, and while another thread runs it this asks the agent to close and waits. Idempotent.
     */
    public void closeNow()
    {
        if (null != runner)
        {
            // A sleeping agent would notice the runner stopping only at its next deadline: wake it, and keep it awake.
            wakeup.stop();
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
        else if (!agent.isClosed())
        {
            agent.requestClose();
            wakeup.signal();
            awaitClosed(COMMAND_TIMEOUT_NS);
        }
    }

    private void awaitClosed(final long timeoutNs)
    {
        final IdleStrategy idleStrategy = waits.newIdleStrategy(false);
        final long deadlineNs = waits.nowNs() + timeoutNs;
        while (!agent.isClosed() && waits.nowNs() - deadlineNs < 0)
        {
            waits.turn(idleStrategy, 0);
        }
    }

    /**
     * Wait, as Aeron's client conductor waits for the media driver, until the agent has carried out a command:
     * running its duty cycle here if this thread drives the agent (INVOKER mode, or SHARED with the application's own
     * agent beside it), else idling.
     */
    void awaitAgent(final BooleanSupplier isDone, final String command)
    {
        final IdleStrategy idleStrategy = waits.newIdleStrategy(false);
        final long deadlineNs = waits.nowNs() + COMMAND_TIMEOUT_NS;
        while (!isDone.getAsBoolean())
        {
            waits.turn(idleStrategy, 0);
            if (agent.isClosed() && !isDone.getAsBoolean())
            {
                throw new IllegalStateException("endpoint is closed");
            }
            if (waits.nowNs() - deadlineNs > 0)
            {
                throw new IllegalStateException("the endpoint's agent did not " + command + " within " +
                    TimeUnit.NANOSECONDS.toSeconds(COMMAND_TIMEOUT_NS) + " s: it is not running (in SHARED mode " +
                    "start the runner of endpoint.agent() first)");
            }
        }
    }

    /**
     * How application threads wait on this endpoint: a thread that drives the agent (INVOKER mode, or the SHARED
     * agent's own thread) runs its duty cycle on every turn and idles no longer than the next deadline; any other
     * idles with the context's idle strategy while waiting for data, and backs off to parks of up to
     * {@link #EVENT_WAIT_MAX_PARK_NS} while waiting for an event.
     */
    private final class Waits implements WaitDriver
    {
        public long nowNs()
        {
            return context.nanoClock().nanoTime();
        }

        public IdleStrategy newIdleStrategy(final boolean latencySensitive)
        {
            if (null != invoker || agent.isAgentThread())
            {
                return newAgentIdleStrategy();
            }
            return latencySensitive ? context.idleStrategySupplier().get() : new BackoffIdleStrategy(
                EVENT_WAIT_SPINS, EVENT_WAIT_YIELDS, EVENT_WAIT_MIN_PARK_NS, EVENT_WAIT_MAX_PARK_NS);
        }

        public int turn(final IdleStrategy idleStrategy, final int workCount)
        {
            int work = workCount;
            if (null != invoker)
            {
                work += invoker.invoke();
            }
            else if (agent.isAgentThread())
            {
                work += agent.doWork();
            }
            idleStrategy.idle(work);
            return work;
        }

        public void signalWork()
        {
            if (agent.isAgentThread())
            {
                wakeup.signalFromAgentThread();
            }
            else
            {
                wakeup.signal();
            }
        }
    }
}
