package io.pacelink.transport.agent;

import io.pacelink.transport.port.DatagramPort;
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

    private final DatagramPort port;
    private final LongSupplier nextDeadlineNs;
    private final NanoClock clock;
    private final AgentWakeup wakeup;
    private final long maxSleepNs;
    private int overdueIdles;
    private long sleeps;
    private long overdueSleeps;

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

    PortWaitIdleStrategy(
        final DatagramPort port,
        final LongSupplier nextDeadlineNs,
        final NanoClock clock,
        final AgentWakeup wakeup,
        final long maxSleepNs)
    {
        if (!port.canWait())
        {
            throw new IllegalArgumentException("the port cannot wait: " + port.describe());
        }
        this.port = port;
        this.nextDeadlineNs = nextDeadlineNs;
        this.clock = clock;
        this.wakeup = wakeup;
        this.maxSleepNs = maxSleepNs;
    }

    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            overdueIdles = 0;
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
        final long deadlineNs = nextDeadlineNs.getAsLong();
        long timeoutNs = maxSleepNs;
        if (Long.MAX_VALUE != deadlineNs)
        {
            // Compare differences, not absolute times: a nano clock's origin is arbitrary and may be negative.
            timeoutNs = Math.min(deadlineNs - clock.nanoTime(), maxSleepNs);
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
            port.awaitReadable(timeoutNs);
        }
        finally
        {
            wakeup.awake();
        }
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
     * @return sleeps taken because idle duty cycles left a deadline due (0 unless a deadline is stale).
     */
    public long overdueSleeps()
    {
        return overdueSleeps;
    }
}
