package io.pacelink.transport.agent;

import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ThreadingMode;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeadlineIdleStrategyTest
{
    private static final long US = 1_000L;

    private final CountingIdleStrategy delegate = new CountingIdleStrategy();
    private long nowNs = -5_000_000_000L;
    private long deadlineNs = Long.MAX_VALUE;
    private final DeadlineIdleStrategy strategy = new DeadlineIdleStrategy(
        delegate, () -> deadlineNs, () -> nowNs, DeadlineIdleStrategy.DEFAULT_SPIN_WINDOW_NS);

    @Test
    void parksThroughTheDelegateWhenNothingIsDueEvenWithANegativeClock()
    {
        strategy.idle(0);
        strategy.idle();

        assertEquals(2, delegate.idles, "no deadline: the delegate may park (no overflow from a negative clock)");
    }

    @Test
    void spinsInsteadOfParkingWithinTheWindowOfTheNextDeadline()
    {
        deadlineNs = nowNs + DeadlineIdleStrategy.DEFAULT_SPIN_WINDOW_NS;
        strategy.idle(0);
        assertEquals(0, delegate.idles, "deadline at the window's edge: spin");

        deadlineNs = nowNs - 1;
        strategy.idle(0);
        assertEquals(0, delegate.idles, "deadline passed: spin until the agent runs");

        deadlineNs = nowNs + DeadlineIdleStrategy.DEFAULT_SPIN_WINDOW_NS + 1;
        strategy.idle(0);
        assertEquals(1, delegate.idles, "further away: the delegate parks");
    }

    @Test
    void workResetsTheDelegate()
    {
        strategy.idle(3);
        strategy.reset();

        assertEquals(0, delegate.idles);
        assertEquals(2, delegate.resets);
    }

    @Test
    void defaultProfileCannotOversleepADeadline()
    {
        // A park that starts just outside the window lasts at most the longest park plus the timer slack: it ends
        // before the deadline.
        assertTrue(DeadlineIdleStrategy.DEFAULT_MAX_PARK_NS + DeadlineIdleStrategy.TIMER_SLACK_ALLOWANCE_NS <=
            DeadlineIdleStrategy.DEFAULT_SPIN_WINDOW_NS);
        assertEquals(160 * US, DeadlineIdleStrategy.spinWindowFor(100 * US));
        assertInstanceOf(BackoffIdleStrategy.class, new PacelinkContext().idleStrategySupplier().get());
        assertSame(BackoffIdleStrategy.class, PacelinkContext.defaultIdleStrategy().getClass());
    }

    @Test
    void lowLatencyProfileIsADedicatedBusySpinningAgent()
    {
        final PacelinkContext context = new PacelinkContext()
            .threadingMode(ThreadingMode.INVOKER)
            .lowLatencyProfile();

        assertEquals(ThreadingMode.DEDICATED, context.threadingMode());
        assertInstanceOf(BusySpinIdleStrategy.class, context.idleStrategySupplier().get());
    }

    private static final class CountingIdleStrategy implements IdleStrategy
    {
        int idles;
        int resets;

        public void idle(final int workCount)
        {
            idles++;
        }

        public void idle()
        {
            idles++;
        }

        public void reset()
        {
            resets++;
        }
    }
}
