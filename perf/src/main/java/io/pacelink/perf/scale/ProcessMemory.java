package io.pacelink.perf.scale;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this process holds: resident set (from {@code /proc/self/status}), heap in use and committed, and direct
 * buffer memory (the JVM's {@code direct} buffer pool, where a connection's send and receive logs live).
 *
 * @param residentBytes      VmRSS.
 * @param heapUsedBytes      heap in use (live objects and garbage not yet collected).
 * @param heapCommittedBytes heap the JVM has reserved from the OS.
 * @param directBytes        direct buffers allocated.
 */
record ProcessMemory(long residentBytes, long heapUsedBytes, long heapCommittedBytes, long directBytes)
{
    /**
     * @return the memory now.
     */
    static ProcessMemory now()
    {
        long direct = 0;
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            if ("direct".equals(pool.getName()))
            {
                direct = pool.getMemoryUsed();
            }
        }
        final var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return new ProcessMemory(readResidentBytes(), heap.getUsed(), heap.getCommitted(), direct);
    }

    private static long readResidentBytes()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("VmRSS:"))
                {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            return -1;
        }
        return -1;
    }
}
