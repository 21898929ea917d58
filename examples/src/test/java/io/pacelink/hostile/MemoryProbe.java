package io.pacelink.hostile;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * Heap and direct memory in use, read the way an operator's JMX console reads them: heap after a full collection (so
 * garbage does not count) plus the JDK's direct buffer pool.
 */
final class MemoryProbe
{
    private MemoryProbe()
    {
    }

    /**
     * @return live heap bytes after collecting garbage, plus direct buffer bytes.
     */
    static long liveHeapPlusDirectBytes()
    {
        for (int i = 0; i < 3; i++)
        {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() + directBytes();
    }

    /**
     * @return bytes of direct buffers allocated now.
     */
    static long directBytes()
    {
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            if ("direct".equals(pool.getName()))
            {
                return pool.getMemoryUsed();
            }
        }
        throw new IllegalStateException("no direct buffer pool");
    }

    static String mebibytes(final long bytes)
    {
        return String.format("%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
