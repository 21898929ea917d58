package io.pacelink.transport.agent;

import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.PortStats;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The default profile's idle strategy (docs/io.md, "Waits"): after a duty cycle that did nothing, the agent sleeps in
 * its port's wait ({@link DatagramPort#awaitReadable(long)}: {@code ppoll} on the batched port, a selector on the NIO
 * port) until the earlier of the endpoint's next deadline ({@code EndpointCore.nextDeadlineNs()}: a pacing release,
 * an ACK, a loss, probe, idle or keep-alive timer) and the arrival of a datagram or of work from the application
 * ({@link AgentWakeup}). It never spins: a connection with nothing due costs no CPU, and one that is due runs at once.
 * <p>
 * How long each sleep lasts and whether an arrival ends it is planned by {@link WakeCoalescing}: a pacing release
 * closer than a pacing quantum is served a quantum from now, with what fell due meanwhile, and after cycles that
 * mostly received, arrivals are held in the socket for a short hold ({@link DatagramPort#awaitWakeup(long)}) and
 * drained by one receive; timers are served on time.
 * <p>
 * No sleep holds arrivals for {@link #NO_HOLD_AFTER_OPEN_NS} after a connection opened, when the strategy is told the
 * endpoint's count of connections opened: a new connection's first round trips are lone datagrams each answered at
 * once (the client's confirmation of the handshake and its first request, the server's answers), and a client that
 * connects one connection after another sends the next hello right behind; holding them would add up to a hold to each
 * of those round trips, while a hold pays off only for a stream, which a connection that has just opened is not yet.
 * <p>
 * With no deadline the agent still wakes every {@link #MAX_SLEEP_NS} to refresh the counters file's heartbeat, which
 * tells {@code pacelink stat} the endpoint is alive. A deadline that a duty cycle left due without doing anything
 * would turn the wait into a spin; the second such cycle in a row sleeps {@link #OVERDUE_SLEEP_NS} instead and counts
 * it ({@link #overdueSleeps()}), so a stale deadline shows rather than burning a core.
 */
public final class PortWaitIdleStrategy implements IdleStrategy
{
    /**
     * The longest sleep: an idle endpoint wakes this often to refresh its heartbeat (readers allow 10 s).
     */
    public static final long MAX_SLEEP_NS = TimeUnit.SECONDS.toNanos(1);

    /**
     * The sleep after a second idle duty cycle in a row that found its deadline already due.
     */
    public static final long OVERDUE_SLEEP_NS = TimeUnit.MICROSECONDS.toNanos(50);

    /**
     * The park of an agent whose runner is stopping, until the runner notices.
     */
    static final long STOPPING_PARK_NS = TimeUnit.MICROSECONDS.toNanos(100);

    /**
     * How long after a connection opened no sleep holds arrivals: twice the longest default hold.
     */
    public static final long NO_HOLD_AFTER_OPEN_NS = 2 * WakeCoalescing.DEFAULT_MAX_HOLD_NS;

    private final DatagramPort port;
    private final LongSupplier nextDeadlineNs;
    private final LongSupplier nextReleaseTimeNs;
    private final WakeCoalescing coalescing;
    private final NanoClock clock;
    private final AgentWakeup wakeup;
    private final long maxSleepNs;
    private final LongSupplier connectionsOpened;
    private long lastConnectionsOpened;
    private long lastOpenSeenNs;
    private boolean hasSeenOpen;
    private int overdueIdles;
    private boolean hasWorkedSinceSleep;
    private long sleeps;
    private long overdueSleeps;
    private long heldSleeps;

    /**
     * @param port           the endpoint's port; it must be able to wait ({@link DatagramPort#canWait()}).
     * @param nextDeadlineNs the endpoint's next deadline on {@code clock}, {@link Long#MAX_VALUE} if none.
     * @param clock          the agent's clock.
     * @param wakeup         how the application wakes this agent.
     */
    public PortWaitIdleStrategy(
        final DatagramPort port, final LongSupplier nextDeadlineNs, final NanoClock clock, final AgentWakeup wakeup)
    {
        this(port, nextDeadlineNs, clock, wakeup, MAX_SLEEP_NS);
    }

    /**
     * An agent's wait that serves pacing releases and arrivals in time quanta ({@link WakeCoalescing}).
     *
     * @param port              the endpoint's port; it must be able to wait ({@link DatagramPort#canWait()}).
     * @param nextTimerNs       the endpoint's (and its application's) earliest timer on {@code clock},
     *                          {@link Long#MAX_VALUE} if none ({@code EndpointCore.nextTimerDeadlineNs()}).
     * @param nextReleaseTimeNs the pacer's next release on {@code clock}, {@link Long#MAX_VALUE} if none
     *                          ({@code EndpointCore.nextReleaseTimeNs()}).
     * @param clock             the agent's clock.
     * @param wakeup            how the application wakes this agent.
     * @param coalescing        the wake plan, owned by this strategy.
     */
    public PortWaitIdleStrategy(
        final DatagramPort port,
        final LongSupplier nextTimerNs,
        final LongSupplier nextReleaseTimeNs,
        final NanoClock clock,
        final AgentWakeup wakeup,
        final WakeCoalescing coalescing)
    {
        this(port, nextTimerNs, nextReleaseTimeNs, clock, wakeup, MAX_SLEEP_NS, coalescing, null);
    }

    /**
     * An agent's wait that serves pacing releases and arrivals in time quanta ({@link WakeCoalescing}) and holds no
     * arrivals for a while after a connection opened. The first six parameters are those of
     * {@link #PortWaitIdleStrategy(DatagramPort, LongSupplier, LongSupplier, NanoClock, AgentWakeup, WakeCoalescing)}.
     *
     * @param connectionsOpened the endpoint's count of connections opened so far, read before each sleep
     *                          ({@code EndpointCounters.connectionsOpened()}).
     */
    public PortWaitIdleStrategy(
        final DatagramPort port,
        final LongSupplier nextTimerNs,
        final LongSupplier nextReleaseTimeNs,
        final NanoClock clock,
        final AgentWakeup wakeup,
        final WakeCoalescing coalescing,
        final LongSupplier connectionsOpened)
    {
        this(port, nextTimerNs, nextReleaseTimeNs, clock, wakeup, MAX_SLEEP_NS, coalescing, connectionsOpened);
    }

    PortWaitIdleStrategy(
        final DatagramPort port,
        final LongSupplier nextDeadlineNs,
        final NanoClock clock,
        final AgentWakeup wakeup,
        final long maxSleepNs)
    {
        this(port, nextDeadlineNs, () -> Long.MAX_VALUE, clock, wakeup, maxSleepNs,
            new WakeCoalescing(WakeCoalescing.OFF, WakeCoalescing.OFF), null);
    }

    PortWaitIdleStrategy(
        final DatagramPort port,
        final LongSupplier nextDeadlineNs,
        final LongSupplier nextReleaseTimeNs,
        final NanoClock clock,
        final AgentWakeup wakeup,
        final long maxSleepNs,
        final WakeCoalescing coalescing,
        final LongSupplier connectionsOpened)
    {
        if (!port.canWait())
        {
            throw new IllegalArgumentException("the port cannot wait: " + port.describe());
        }
        this.port = port;
        this.nextDeadlineNs = nextDeadlineNs;
        this.nextReleaseTimeNs = nextReleaseTimeNs;
        this.coalescing = coalescing;
        this.clock = clock;
        this.wakeup = wakeup;
        this.maxSleepNs = maxSleepNs;
        this.connectionsOpened = connectionsOpened;
    }

    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            overdueIdles = 0;
            if (!hasWorkedSinceSleep)
            {
                // The first cycle after a wake did work, so another follows at once; its receive, right after one
                // that drained the socket, would find nothing (most of them did: perf/FINDINGS.md). Once per wake: a
                // loop that keeps working without sleeping skips one receive, then reads the socket every cycle.
                hasWorkedSinceSleep = true;
                port.skipReceiveIfDrained();
            }
            return;
        }
        idle();
    }

    public void idle()
    {
        if (wakeup.isStopping())
        {
            LockSupport.parkNanos(STOPPING_PARK_NS);
            return;
        }
        final long nowNs = clock.nanoTime();
        final PortStats stats = port.stats();
        final long deadlineNs = coalescing.plan(nowNs, nextDeadlineNs.getAsLong(), nextReleaseTimeNs.getAsLong(),
            stats.datagramsReceived(), stats.datagramsSent(), mayHold(nowNs));
        long timeoutNs = maxSleepNs;
        if (Long.MAX_VALUE != deadlineNs)
        {
            // Compare differences, not absolute times: a nano clock's origin is arbitrary and may be negative.
            timeoutNs = Math.min(deadlineNs - nowNs, maxSleepNs);
            if (timeoutNs <= 0)
            {
                if (++overdueIdles < 2)
                {
                    return;
                }
                timeoutNs = OVERDUE_SLEEP_NS;
                overdueSleeps++;
            }
            else
            {
                overdueIdles = 0;
            }
        }
        if (!wakeup.prepareToSleep())
        {
            return;
        }
        try
        {
            sleeps++;
            hasWorkedSinceSleep = false;
            if (coalescing.isHoldingArrivals())
            {
                heldSleeps++;
                port.awaitWakeup(timeoutNs);
            }
            else
            {
                port.awaitReadable(timeoutNs);
            }
        }
        finally
        {
            wakeup.awake();
        }
    }

    /**
     * @return false within {@link #NO_HOLD_AFTER_OPEN_NS} of the first sleep that saw a connection more opened.
     */
    private boolean mayHold(final long nowNs)
    {
        if (null == connectionsOpened)
        {
            return true;
        }
        final long opened = connectionsOpened.getAsLong();
        if (opened != lastConnectionsOpened)
        {
            lastConnectionsOpened = opened;
            lastOpenSeenNs = nowNs;
            hasSeenOpen = true;
        }
        return !hasSeenOpen || nowNs - lastOpenSeenNs >= NO_HOLD_AFTER_OPEN_NS;
    }

    public void reset()
    {
        overdueIdles = 0;
    }

    public String alias()
    {
        return "port-wait";
    }

    /**
     * @return sleeps in the port's wait.
     */
    public long sleeps()
    {
        return sleeps;
    }

    /**
     * @return sleeps that held arriving datagrams in the socket ({@link WakeCoalescing}).
     */
    public long heldSleeps()
    {
        return heldSleeps;
    }

    /**
     * @return sleeps taken because idle duty cycles left a deadline due (0 unless a deadline is stale).
     */
    public long overdueSleeps()
    {
        return overdueSleeps;
    }
}
