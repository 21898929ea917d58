package io.pacelink.transport.testing;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The meter tells a structure that grows once to a new high-water mark from garbage that repeats in every window.
 */
class AllocationMeterTest
{
    private static final int GROWTH_BYTES = 64 << 10;

    /**
     * Grows a kept array once, in its {@code growAtWindow}-th run; allocates nothing in the others.
     */
    private static final class GrowingOnce implements Runnable
    {
        private final int growAtWindow;
        private int windows;
        private byte[] kept = new byte[0];

        GrowingOnce(final int growAtWindow)
        {
            this.growAtWindow = growAtWindow;
        }

        public void run()
        {
            if (windows++ == growAtWindow)
            {
                kept = new byte[GROWTH_BYTES];
            }
        }
    }

    /**
     * Allocates the same in every run, as garbage on a data path does.
     */
    private static final class Garbage implements Runnable
    {
        private Object last;

        public void run()
        {
            last = new byte[GROWTH_BYTES];
        }
    }

    @Test
    void aGrowthInAMeasuredWindowFailsTheStrictCheck()
    {
        final GrowingOnce growingOnce = new GrowingOnce(1);
        final AssertionFailedError failure = assertThrows(AssertionFailedError.class,
            () -> AllocationMeter.assertAllocationFree("strict", growingOnce));
        assertTrue(failure.getMessage().contains("bytes allocated in one window"), failure.getMessage());
    }

    @Test
    void aGrowthInAMeasuredWindowPassesWhereGrowthIsAllowed()
    {
        final GrowingOnce growingOnce = new GrowingOnce(1);
        assertDoesNotThrow(() -> AllocationMeter.assertAllocationFree("growth allowed", growingOnce, 2));
    }

    @Test
    void garbageInEveryWindowFailsEvenWhereGrowthIsAllowed()
    {
        final Garbage garbage = new Garbage();
        final AssertionFailedError failure = assertThrows(AssertionFailedError.class,
            () -> AllocationMeter.assertAllocationFree("garbage", garbage, 2));
        assertTrue(failure.getMessage().contains("3 windows above"), failure.getMessage());
    }
}
