package io.pacelink.transport;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PacelinkContext#kernelReceiveTimes(boolean)}: on by default for the modes whose agent waits, off for INVOKER
 * and for a busy-spinning idle strategy, and a choice set wins over every mode's default, whichever was set first.
 */
class KernelReceiveTimesSettingTest
{
    @Test
    void byDefaultOnlyAnInvokerEndpointAsksForNoKernelReceiveTimes()
    {
        final PacelinkContext context = new PacelinkContext();
        assertTrue(context.kernelReceiveTimes(), "DEDICATED, the default mode");
        context.threadingMode(ThreadingMode.SHARED);
        assertTrue(context.kernelReceiveTimes(), "SHARED");
        context.threadingMode(ThreadingMode.INVOKER);
        assertFalse(context.kernelReceiveTimes(), "INVOKER");
        context.threadingMode(ThreadingMode.DEDICATED);
        assertTrue(context.kernelReceiveTimes(), "it follows the mode");
    }

    @Test
    void byDefaultABusySpinningEndpointAsksForNoKernelReceiveTimes()
    {
        assertFalse(new PacelinkContext().lowLatencyProfile().kernelReceiveTimes(), "the low-latency profile");
        assertFalse(new PacelinkContext().idleStrategySupplier(NoOpIdleStrategy::new).kernelReceiveTimes(), "no-op");
        assertTrue(new PacelinkContext().idleStrategySupplier(BackoffIdleStrategy::new).kernelReceiveTimes(),
            "a strategy that backs off to parking reads late");
        assertTrue(new PacelinkContext().lowLatencyProfile().kernelReceiveTimes(true).kernelReceiveTimes(),
            "a choice set wins");
    }

    @Test
    void aChoiceSetWinsOverEveryModesDefault()
    {
        for (final ThreadingMode mode : ThreadingMode.values())
        {
            final PacelinkContext on = new PacelinkContext();
            assertSame(on, on.kernelReceiveTimes(true));
            on.threadingMode(mode);
            assertTrue(on.kernelReceiveTimes(), mode.name());
            final PacelinkContext off = new PacelinkContext().threadingMode(mode).kernelReceiveTimes(false);
            assertFalse(off.kernelReceiveTimes(), mode.name());
        }
    }
}
