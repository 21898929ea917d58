package io.pacelink.transport.agent;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

import java.util.function.LongSupplier;

/**
 * Wraps an application's idle strategy so the agent never oversleeps the endpoint's next deadline (a pacing release, an
 * ACK deadline, a loss or probe timer): within {@code spinWindowNs} of the deadline it busy-spins, and only further
 * away does it let the wrapped strategy park (docs/architecture.md, the duty cycle).
 * <p>
 * The guarantee holds when one park of the wrapped strategy plus the operating system's timer slack is shorter than
 * the spin window: a park that starts just outside the window then ends inside it, before the deadline. The default
 * profile (a back-off that parks at most {@link #DEFAULT_MAX_PARK_NS}, in a window of
 * {@link #DEFAULT_SPIN_WINDOW_NS}) meets it; a strategy that parks longer needs a wider window
 * ({@link #spinWindowFor(long)}).
 */
public final class DeadlineIdleStrategy implements IdleStrategy
{
    /**
     * Longest park of the default back-off idle strategy: it bounds how late the agent notices new work from the
     * application (an offer, a connect) while nothing is due.
     */
    public static final long DEFAULT_MAX_PARK_NS = 100_000L;

    /**
     * How much later than asked a parked thread may wake: Linux's default timer slack is 50 µs; 10 µs more covers
     * scheduling.
     */
    public static final long TIMER_SLACK_ALLOWANCE_NS = 60_000L;

    /**
     * Spin window of the default profile: {@code spinWindowFor(DEFAULT_MAX_PARK_NS)}.
     */
    public static final long DEFAULT_SPIN_WINDOW_NS = DEFAULT_MAX_PARK_NS + TIMER_SLACK_ALLOWANCE_NS;

    private final IdleStrategy delegate;
    private final LongSupplier nextDeadlineNs;
    private final NanoClock clock;
    private final long spinWindowNs;

    /**
     * @param delegate       the strategy used when no deadline is near.
     * @param nextDeadlineNs the endpoint's next deadline on {@code clock}, {@link Long#MAX_VALUE} if none
     *                       ({@code EndpointCore::nextDeadlineNs}).
     * @param clock          the agent's clock.
     * @param spinWindowNs   how close to a deadline the agent stops parking; must exceed the delegate's longest park
     *                       plus the timer slack ({@link #spinWindowFor(long)}).
     */
    public DeadlineIdleStrategy(
        final IdleStrategy delegate, final LongSupplier nextDeadlineNs, final NanoClock clock, final long spinWindowNs)
    {
        if (spinWindowNs < 0)
        {
            throw new IllegalArgumentException("spinWindowNs must be >= 0: " + spinWindowNs);
        }
        this.delegate = delegate;
        this.nextDeadlineNs = nextDeadlineNs;
        this.clock = clock;
        this.spinWindowNs = spinWindowNs;
    }

    /**
     * @param maxParkNs the longest single park of a wrapped idle strategy.
     * @return the spin window that keeps that strategy from oversleeping a deadline.
     */
    public static long spinWindowFor(final long maxParkNs)
    {
        return maxParkNs + TIMER_SLACK_ALLOWANCE_NS;
    }

    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            delegate.reset();
            return;
        }
        idle();
    }

    public void idle()
    {
        final long deadlineNs = nextDeadlineNs.getAsLong();
        // Compare differences, not absolute times: a nano clock's origin is arbitrary and may be negative.
        if (Long.MAX_VALUE != deadlineNs && deadlineNs - clock.nanoTime() <= spinWindowNs)
        {
            Thread.onSpinWait();
        }
        else
        {
            delegate.idle();
        }
    }

    public void reset()
    {
        delegate.reset();
    }

    public String alias()
    {
        return "deadline(" + delegate.alias() + ")";
    }
}
