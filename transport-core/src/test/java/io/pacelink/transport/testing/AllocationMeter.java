package io.pacelink.transport.testing;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks that code allocates nothing in steady state, on the calling thread
 * ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}).
 * <p>
 * The code is run in windows until {@link #REQUIRED_CLEAN_WINDOWS} windows in a row allocate exactly 0 bytes. A
 * window may show a one-off of at most {@link #ONE_OFF_ALLOWANCE_BYTES}: when a thread queues a method for C2
 * compilation, HotSpot resolves that class's string constants into String objects on the requesting thread (seen in
 * JFR as Strings "allocated" at a method's first line; gone with {@code -XX:-BackgroundCompilation}). That is the
 * JVM, not the code under test. Garbage on a data path is per operation and repeats in every window, so it fails
 * both the allowance (one byte per operation over a window of thousands of operations) and the clean-window rule.
 */
public final class AllocationMeter
{
    /**
     * Consecutive allocation-free windows required.
     */
    public static final int REQUIRED_CLEAN_WINDOWS = 3;

    /**
     * Most windows run before giving up.
     */
    public static final int MAX_WINDOWS = 20;

    /**
     * Largest one-off a single window may show (see the class comment; a class such as HdrHistogram's resolves about
     * 4 KB of constants at once). Windows must be large enough that one byte per operation exceeds it.
     */
    public static final long ONE_OFF_ALLOWANCE_BYTES = 8192;

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private AllocationMeter()
    {
    }

    /**
     * @return bytes allocated so far by the calling thread.
     */
    public static long allocatedBytes()
    {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /**
     * Run {@code window} (which should do well over {@link #ONE_OFF_ALLOWANCE_BYTES} operations; warm up before
     * calling) until it allocates
     * nothing {@link #REQUIRED_CLEAN_WINDOWS} times in a row.
     *
     * @param what   what is measured, for the failure message.
     * @param window one window of work; create the lambda once, outside the measured code.
     */
    public static void assertAllocationFree(final String what, final Runnable window)
    {
        assertAllocationFree(what, window, 0);
    }

    /**
     * As {@link #assertAllocationFree(String, Runnable)}, for code whose structures grow on demand to a high-water
     * mark that the timing decides: on real sockets a loaded machine delays the receiver's ACKs, so more packets are
     * in flight than in any window of the warm-up, and the sent-packet ring doubles or the send log commits one more
     * segment (both kept for good) in a measured window. Up to {@code growthWindows} windows may then allocate more
     * than the one-off allowance. Garbage is per operation and repeats in every window, so it still fails: the run
     * must end in {@link #REQUIRED_CLEAN_WINDOWS} allocation-free windows in a row, and a growth that kept coming
     * back would exceed {@code growthWindows}.
     *
     * @param what          what is measured, for the failure message.
     * @param window        one window of work; create the lambda once, outside the measured code.
     * @param growthWindows windows that may allocate more than {@link #ONE_OFF_ALLOWANCE_BYTES}.
     */
    public static void assertAllocationFree(final String what, final Runnable window, final int growthWindows)
    {
        final StringBuilder history = new StringBuilder();
        int cleanWindows = 0;
        int grownWindows = 0;
        for (int i = 0; i < MAX_WINDOWS && cleanWindows < REQUIRED_CLEAN_WINDOWS; i++)
        {
            final long before = allocatedBytes();
            window.run();
            final long allocated = allocatedBytes() - before;
            history.append(allocated).append(' ');
            if (allocated > ONE_OFF_ALLOWANCE_BYTES)
            {
                grownWindows++;
            }
            final int grown = grownWindows;
            assertTrue(grown <= growthWindows, () -> what + ": " + allocated + " bytes allocated in one window" +
                (growthWindows > 0 ? " (" + grown + " windows above " + ONE_OFF_ALLOWANCE_BYTES + " bytes)" : "") +
                "; windows so far: " + history);
            cleanWindows = 0 == allocated ? cleanWindows + 1 : 0;
        }
        assertEquals(REQUIRED_CLEAN_WINDOWS, cleanWindows, () -> what + ": never " + REQUIRED_CLEAN_WINDOWS +
            " allocation-free windows in a row; bytes per window: " + history);
    }
}
