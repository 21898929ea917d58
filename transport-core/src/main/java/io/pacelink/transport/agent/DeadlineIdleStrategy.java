package io.pacelink.transport.agent;

import io.pacelink.transport.engine.EndpointCore;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

/**
 * Wraps an application's idle strategy so the agent never oversleeps the endpoint's next deadline (a pacing
 * release, an ACK deadline, a loss or probe timer): within {@code spinWindowNs} of the deadline it busy-spins, and
 * only further away does it let the wrapped strategy park. Design.md section 3.
 */
public final class DeadlineIdleStrategy implements IdleStrategy
{
    private final IdleStrategy delegate;
    private final EndpointCore core;
    private final NanoClock clock;
    private final long spinWindowNs;

    /**
     * @param delegate     the strategy used when no deadline is near.
     * @param core         whose deadline is respected.
     * @param clock        the agent's clock.
     * @param spinWindowNs how close to a deadline the agent stops parking; should exceed the delegate's longest park
     *                     plus the OS timer slack (about 50 µs on Linux).
     */
    public DeadlineIdleStrategy(
        final IdleStrategy delegate, final EndpointCore core, final NanoClock clock, final long spinWindowNs)
    {
        this.delegate = delegate;
        this.core = core;
        this.clock = clock;
        this.spinWindowNs = spinWindowNs;
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
        final long untilDeadlineNs = core.nextDeadlineNs() - clock.nanoTime();
        if (untilDeadlineNs <= spinWindowNs)
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
