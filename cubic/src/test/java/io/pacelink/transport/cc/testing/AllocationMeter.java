package io.pacelink.transport.cc.testing;

import java.lang.management.ManagementFactory;

/**
 * Measures the bytes the current thread allocates between {@link #start()} and {@link #stop()}
 * ({@code com.sun.management.ThreadMXBean}).
 */
public final class AllocationMeter
{
    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
    private long startBytes;

    /**
     * Enables allocation measurement and takes a first reading so the meter's own start-up cost is not counted.
     */
    public AllocationMeter()
    {
        threads.setThreadAllocatedMemoryEnabled(true);
        startBytes = threads.getCurrentThreadAllocatedBytes();
    }

    /**
     * Begin a measurement.
     */
    public void start()
    {
        startBytes = threads.getCurrentThreadAllocatedBytes();
    }

    /**
     * @return bytes allocated by this thread since {@link #start()}.
     */
    public long stop()
    {
        return threads.getCurrentThreadAllocatedBytes() - startBytes;
    }
}
