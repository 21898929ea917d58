package io.pacelink.cli.net;

import io.pacelink.cli.Units;
import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ThreadingMode;
import io.pacelink.transport.agent.PortWaitIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.NoOpIdleStrategy;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The one place {@code pacelink perf} and {@code pacelink ping} wait on the transport: for a connection to be
 * established, for a condition the caller polls for (a control message, the last bytes of a transfer), and for
 * connections to finish closing; and the turn of an application loop that has nothing to do. Each wait has a timeout
 * and ends in a {@link TransportFailure} that says why.
 * <p>
 * The endpoint runs in INVOKER mode: its duty cycle runs here, on the application's thread, between the
 * application's own work, so a process needs one thread and a 2-core machine is not oversubscribed. When nothing was
 * done the thread idles as the endpoint's own agent would ({@link Endpoint#newAgentIdleStrategy()}): in the default
 * profile it sleeps in the port's wait until the next deadline (a pacing release, an ACK timer) or a datagram's
 * arrival, so an echo is handled as it arrives; a busy-spin strategy (the low-latency profile) is used as it is.
 * <p>
 * The transport's {@code offer}/{@code poll}/{@code state()} never block. When it offers waits of its own (connect,
 * accept and delivery with timeouts and an outcome that says who closed and whether everything arrived), the methods
 * here are where to switch. Whether a transfer succeeded is never judged from a close: the tools count bytes at the
 * receiving application and report them through their own protocol.
 */
public final class TransportWaits
{
    /**
     * The longest a turn that did nothing sleeps in the default profile when nothing arrives and the endpoint has
     * nothing due, if its caller does not say when its own next timer is ({@link #turn(int)}: waits for a condition,
     * the close).
     */
    public static final long TURN_TICK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * The longest any turn sleeps, whatever its caller's next timer: how late a stop (Ctrl-C, which sets a flag the
     * loop polls and cannot wake the port's wait) is noticed at worst.
     */
    public static final long MAX_TURN_SLEEP_NS = TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * How many spinning turns of {@link #await} pass between two reads of the clock for its timeout (a power of 2).
     */
    static final int SPIN_TURNS_PER_CLOCK_READ = 64;

    private final Endpoint endpoint;
    private final IdleStrategy idleStrategy;
    private final NanoClock clock;
    private final boolean spins;
    private final boolean sleepsInPort;
    private long applicationDeadlineNs = Long.MAX_VALUE;

    /**
     * @param endpoint an endpoint launched in {@link ThreadingMode#INVOKER} mode with {@code context}; only the
     *                 thread that uses this object may use it.
     * @param context  its configuration: the idle strategy and clock.
     */
    public TransportWaits(final Endpoint endpoint, final PacelinkContext context)
    {
        if (ThreadingMode.INVOKER != context.threadingMode())
        {
            throw new IllegalArgumentException("TransportWaits runs the endpoint's duty cycle itself: the endpoint " +
                "must be in INVOKER mode, not " + context.threadingMode());
        }
        this.endpoint = endpoint;
        this.clock = context.nanoClock();
        this.idleStrategy = endpoint.newAgentIdleStrategy(() -> applicationDeadlineNs);
        this.spins = idleStrategy instanceof BusySpinIdleStrategy || idleStrategy instanceof NoOpIdleStrategy;
        this.sleepsInPort = idleStrategy instanceof PortWaitIdleStrategy;
    }

    /**
     * @param bindAddress where the endpoint binds.
     * @param busySpin    true for the low-latency profile: the application's thread spins, never sleeps (one core
     *                    per process, always busy); false backs off to parking when idle.
     * @return a context for an endpoint whose duty cycle this class runs. In the default profile its port asks for
     * the kernel's receive times ({@link PacelinkContext#kernelReceiveTimes(boolean)}, which INVOKER leaves off):
     * this thread sleeps in the port between turns and serves the application between duty cycles, so it reads
     * arrivals late, as a DEDICATED agent does, and BBR's rate samples need their kernel arrival (docs/io.md,
     * "Receive times"). A busy-spinning thread reads the socket at every turn and keeps INVOKER's default.
     */
    public static PacelinkContext invokerContext(final InetSocketAddress bindAddress, final boolean busySpin)
    {
        final PacelinkContext context = new PacelinkContext()
            .bindAddress(bindAddress)
            .threadingMode(ThreadingMode.INVOKER);
        if (busySpin)
        {
            context.idleStrategySupplier(BusySpinIdleStrategy::new);
        }
        else
        {
            context.kernelReceiveTimes(true);
        }
        return context;
    }

    /**
     * @param bindAddress where the endpoint binds.
     * @param busySpin    as {@link #invokerContext}.
     * @return a context for a client's endpoint: it accepts no connections, so its socket is restricted to its one
     * server and an ICMP port-unreachable report ends a connect at once instead of after the handshake timeout.
     */
    public static PacelinkContext clientContext(final InetSocketAddress bindAddress, final boolean busySpin)
    {
        return invokerContext(bindAddress, busySpin).acceptConnections(false);
    }

    /**
     * @return the clock the endpoint runs on.
     */
    public long nowNs()
    {
        return clock.nanoTime();
    }

    /**
     * One turn of an application loop: run the endpoint's duty cycle, then back off if neither it nor the
     * application did anything.
     *
     * @param applicationWork what the application did in this turn (messages offered or polled, ...).
     * @return all work done in the turn.
     */
    public int turn(final int applicationWork)
    {
        return turn(applicationWork, TURN_TICK_NS, true);
    }

    /**
     * One turn of an application loop that knows when its own next timer is due (a report interval, a rate limiter's
     * next release, the end of a test): run the endpoint's duty cycle, then, if neither it nor the application did
     * anything, sleep until that deadline, the endpoint's own or an arrival, whichever comes first — and no longer
     * than {@link #MAX_TURN_SLEEP_NS}. Everything else the application waits for (data, ACKs that free the send
     * buffer, control messages) is an arrival, which ends the sleep.
     *
     * @param applicationWork       what the application did in this turn (messages offered or polled, ...).
     * @param applicationDeadlineNs when the application's next timer is due, on the endpoint's clock.
     * @return all work done in the turn.
     */
    public int turn(final int applicationWork, final long applicationDeadlineNs)
    {
        return turn(applicationWork, applicationDeadlineNs, false);
    }

    /**
     * {@link #turn(int, long)} for an application loop whose next timer is at most {@code maxSleepNs} away: the clock
     * is read only if the turn would sleep in the port, so a spinning turn reads it only in the duty cycle.
     *
     * @param applicationWork what the application did in this turn.
     * @param maxSleepNs      the longest the turn may sleep.
     * @return all work done in the turn.
     */
    public int turnWithin(final int applicationWork, final long maxSleepNs)
    {
        return turn(applicationWork, maxSleepNs, true);
    }

    /**
     * @param deadlineOrTickNs the application's deadline, or with {@code isTick} how long after now it is.
     */
    private int turn(final int applicationWork, final long deadlineOrTickNs, final boolean isTick)
    {
        final int work = applicationWork + endpoint.invoke();
        if (0 == work && sleepsInPort)
        {
            // The caller's loop has timers the endpoint does not know: sleep no longer than its next one. Only the
            // port's wait reads this deadline, so no other strategy pays for the clock read: a spinning turn reads
            // the clock only in the duty cycle.
            final long nowNs = nowNs();
            this.applicationDeadlineNs =
                earlier(isTick ? nowNs + deadlineOrTickNs : deadlineOrTickNs, nowNs + MAX_TURN_SLEEP_NS);
        }
        idleStrategy.idle(work);
        return work;
    }

    /**
     * @param aNs a time on a nano clock.
     * @param bNs another.
     * @return the earlier of the two (compared by their difference, as {@link System#nanoTime()} values must be).
     */
    public static long earlier(final long aNs, final long bNs)
    {
        return aNs - bNs <= 0 ? aNs : bNs;
    }

    /**
     * A turn of a server's loop while it has no connection open: nothing can be due but a new client's handshake.
     * In the default profile the thread sleeps in the port until a hello arrives (or the endpoint's next deadline);
     * with another idle strategy it parks for up to {@code maxParkNs} at a time instead of the strategy's short parks,
     * so an idle server costs almost no CPU and a new client waits at most that long. The low-latency profile keeps
     * spinning.
     *
     * @param maxParkNs longest park.
     * @return work done.
     */
    public int dormantTurn(final long maxParkNs)
    {
        final int work = endpoint.invoke();
        if (work > 0 || spins || sleepsInPort || endpoint.nextDeadlineNs() - nowNs() <= maxParkNs)
        {
            applicationDeadlineNs = nowNs() + maxParkNs;
            idleStrategy.idle(work);
        }
        else
        {
            LockSupport.parkNanos(maxParkNs);
        }
        return work;
    }

    /**
     * Open a connection and wait until it is established.
     *
     * @param address           the server.
     * @param congestionControl the connection's controller.
     * @param timeoutNs         give up after this long (the endpoint's handshake timeout may end it first).
     * @param serverName        what the server is, for the message, e.g. {@code pacelink perf -s}.
     * @return the connection, CONNECTED.
     * @throws TransportFailure saying why it could not connect.
     */
    public Connection connect(
        final InetSocketAddress address, final String congestionControl, final long timeoutNs, final String serverName)
    {
        return connect(address, congestionControl, 1, timeoutNs, serverName).get(0);
    }

    /**
     * Open connections at once and wait until all are established.
     *
     * @param address           the server.
     * @param congestionControl their controller.
     * @param count             how many.
     * @param timeoutNs         give up after this long (the endpoint's handshake timeout may end it first).
     * @param serverName        what the server is, for the message, e.g. {@code pacelink perf -s}.
     * @return the connections, CONNECTED, in the order they were opened.
     * @throws TransportFailure saying why one could not connect (the others are closed).
     */
    public List<Connection> connect(
        final InetSocketAddress address,
        final String congestionControl,
        final int count,
        final long timeoutNs,
        final String serverName)
    {
        final List<Connection> connections = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            connections.add(endpoint.connect(address, congestionControl));
        }
        final long deadlineNs = nowNs() + timeoutNs;
        while (anyConnecting(connections) && nowNs() - deadlineNs < 0)
        {
            turn(0);
        }
        idleStrategy.reset();
        for (final Connection connection : connections)
        {
            if (ConnectionState.CONNECTED != connection.state())
            {
                connections.forEach(Connection::closeNow);
                throw new TransportFailure(ConnectFailures.describe(connection, address, timeoutNs, serverName));
            }
        }
        return connections;
    }

    /**
     * Run the endpoint until a time, e.g. the next ping's.
     *
     * @param deadlineNs when to return, on the endpoint's clock.
     */
    public void awaitTime(final long deadlineNs)
    {
        while (nowNs() - deadlineNs < 0)
        {
            final int work = endpoint.invoke();
            applicationDeadlineNs = deadlineNs;
            idleStrategy.idle(work);
        }
        idleStrategy.reset();
    }

    /**
     * Run the endpoint until the caller's condition holds. The condition does the caller's work for the turn (polls
     * its connections) and says whether it is done.
     *
     * @param done       polled once per turn; true ends the wait.
     * @param timeoutNs  give up after this long.
     * @param waitingFor what is awaited, for the message, e.g. {@code the server's results}.
     * @param peerName   who is on the other end, e.g. {@code the server}.
     * @param watched    connections whose close ends the wait as a failure (once the condition, which polls what
     *                   arrived before the close, still does not hold).
     * @throws TransportFailure on the timeout or a close, saying which.
     */
    public void await(
        final BooleanSupplier done,
        final long timeoutNs,
        final Supplier<String> waitingFor,
        final String peerName,
        final List<Connection> watched)
    {
        // A spinning wait starts its timeout at its first clock read, SPIN_TURNS_PER_CLOCK_READ turns in (tens of
        // microseconds: it waits that much longer), not before its first turn: that turn sends what the caller just
        // offered (a ping's request), and a read before it would lengthen the request's path by a read.
        long deadlineNs = spins ? 0 : nowNs() + timeoutNs;
        boolean isDeadlineSet = !spins;
        int turns = 0;
        while (!done.getAsBoolean())
        {
            for (int i = 0, size = watched.size(); i < size; i++)
            {
                final Connection connection = watched.get(i);
                if (ConnectionState.CLOSED == connection.state())
                {
                    throw new TransportFailure(describeClose(connection, peerName) + " while waiting for " +
                        waitingFor.get());
                }
            }
            // A spinning turn takes about a microsecond: the timeout is checked every SPIN_TURNS_PER_CLOCK_READ of
            // them, so the clock read (tens of ns on a VM) does not lengthen every turn of a ping's wait.
            if (!spins || 0 == (++turns & (SPIN_TURNS_PER_CLOCK_READ - 1)))
            {
                final long nowNs = nowNs();
                if (!isDeadlineSet)
                {
                    deadlineNs = nowNs + timeoutNs;
                    isDeadlineSet = true;
                }
                else if (nowNs - deadlineNs > 0)
                {
                    throw new TransportFailure("timed out after " + Units.seconds(timeoutNs) + " waiting for " +
                        waitingFor.get());
                }
            }
            turn(0);
        }
        idleStrategy.reset();
    }

    /**
     * Close connections gracefully (what was offered is still delivered) and run the endpoint until each one's outcome
     * is decided, for at most {@link ClosingConnections#timeoutNs}; abort those still undecided then. Nothing depends
     * on it succeeding: the peer already has, or lacks, what it needed, as the tools' own protocols say. The caller
     * then closes the endpoint with {@link Endpoint#closeNow()}: the connections' draining periods need not be waited
     * out (see {@link ClosingConnections}).
     *
     * @param connections to close.
     */
    public void close(final List<Connection> connections)
    {
        connections.forEach(Connection::close);
        final long deadlineNs = nowNs() + ClosingConnections.timeoutNs(connections);
        while (!ClosingConnections.allDecided(connections) && nowNs() - deadlineNs < 0)
        {
            turn(0);
        }
        idleStrategy.reset();
        ClosingConnections.abortUndecided(connections);
    }

    /**
     * @param connection a closed connection.
     * @param peerName   who is on the other end, e.g. {@code the server}.
     * @return why it closed, in a user's words.
     */
    public static String describeClose(final Connection connection, final String peerName)
    {
        final CloseReason reason = connection.closeReason();
        final String detail = connection.outcome().detail();
        final String why = detail.isEmpty() ? "" : " (" + detail + ")";
        return switch (reason)
        {
            case IDLE_TIMEOUT -> peerName + " stopped answering (nothing heard for the idle timeout): it was " +
                "stopped, or the network is down";
            case PEER_CLOSE, NONE -> peerName + " closed the connection early";
            case PROTOCOL_VIOLATION -> "the connection broke the transport protocol and was closed" + why;
            case REJECTED -> peerName + " refused the connection" + why;
            case AUTHENTICATION_FAILED, SECURITY_MISMATCH -> peerName + ": " + reason.description() + why;
            case PEER_UNRESPONSIVE, PEER_UNREACHABLE, PEER_ABORTED, PEER_RESET, NO_PROGRESS ->
                peerName + ": " + reason.description();
            case LINGER_TIMEOUT, ABORTED -> "the connection was closed here: " + reason.description();
            case HANDSHAKE_TIMEOUT -> peerName + " did not answer the handshake";
            case ENDPOINT_CLOSED, LOCAL_CLOSE -> "the connection was closed here early";
            case INTERNAL_ERROR -> "the connection was ended here by an internal error (a bug; please report it)" +
                why;
        };
    }

    private static boolean anyConnecting(final List<Connection> connections)
    {
        for (int i = 0, size = connections.size(); i < size; i++)
        {
            if (ConnectionState.CONNECTING == connections.get(i).state())
            {
                return true;
            }
        }
        return false;
    }
}
