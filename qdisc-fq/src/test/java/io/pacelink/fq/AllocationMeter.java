package io.pacelink.fq;

import java.lang.management.ManagementFactory;

/**
 * Measures heap bytes the current thread allocates while running a workload, over consecutive windows. The JVM may
 * allocate a few hundred bytes once while it re-compiles a hot loop; a per-packet allocation shows in every window.
 */
public final class AllocationMeter
{
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private AllocationMeter()
    {
    }

    /**
     * @param windows how many times to run the workload, each measured on its own.
     * @param workload the workload; it must not allocate by itself.
     * @return bytes allocated in each window.
     */
    public static long[] allocatedBytesPerWindow(final int windows, final Runnable workload)
    {
        THREADS.getCurrentThreadAllocatedBytes(); // the first call initializes the bean and allocates
        final long[] allocated = new long[windows];
        for (int i = 0; i < windows; i++)
        {
            final long before = THREADS.getCurrentThreadAllocatedBytes();
            workload.run();
            allocated[i] = THREADS.getCurrentThreadAllocatedBytes() - before;
        }
        return allocated;
    }
}
