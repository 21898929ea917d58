package io.pacelink.cli;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * The servers' heap gives memory back once a burst is over. A server runs for days with the JVM's defaults: G1 with an
 * initial heap of 1/64 of the machine's memory. A burst of work — a flood of handshakes, a crowd of clients — grows
 * the young generation within that heap, and G1 returns committed memory only at a full or a periodic collection,
 * so without one the process keeps its peak resident size for ever (docs/security.md, "Floods, measured": 102 to
 * 354 MiB, and still 354 a minute after the flood).
 * <p>
 * So a server command turns on G1's periodic collection (JEP 346, Java 12 and later): after {@link #PERIODIC_GC_MS}
 * without a collection — an idle server; a busy one collects anyway and pays nothing — a concurrent cycle runs, and
 * its remark resizes the heap to what is live plus {@link #MAX_FREE_PERCENT} % and uncommits the rest. The flags are
 * manageable, so they are set here through the HotSpot diagnostic bean rather than asked of every user on the command
 * line; a value the user gave ({@code -XX:G1PeriodicGCInterval=...}, {@code -XX:MinHeapFreeRatio} or
 * {@code -XX:MaxHeapFreeRatio}) is kept,
 * and another collector or a JVM without the flags is left as it is.
 */
public final class ServerHeap
{
    /**
     * Milliseconds without a collection before G1's periodic one.
     */
    public static final long PERIODIC_GC_MS = 15_000;

    /**
     * The most of the heap, in percent, left free after a resize (the JVM's default is 70).
     */
    public static final int MAX_FREE_PERCENT = 30;

    /**
     * The least of the heap, in percent, left free after a resize (the JVM's default is 40, above the maximum here).
     */
    public static final int MIN_FREE_PERCENT = 10;

    private static final String PERIODIC_GC_INTERVAL = "G1PeriodicGCInterval";
    private static final String MAX_HEAP_FREE_RATIO = "MaxHeapFreeRatio";
    private static final String MIN_HEAP_FREE_RATIO = "MinHeapFreeRatio";

    private ServerHeap()
    {
    }

    /**
     * Turn on the periodic collection and the tighter resize, where this JVM runs G1 and the user set neither.
     *
     * @return true if they are on (set now or by the user), false if this JVM cannot (another collector, no flag).
     */
    public static boolean returnMemoryWhenIdle()
    {
        try
        {
            if (!isG1())
            {
                return false;
            }
            final HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (isDefault(hotSpot.getVMOption(PERIODIC_GC_INTERVAL)))
            {
                hotSpot.setVMOption(PERIODIC_GC_INTERVAL, Long.toString(PERIODIC_GC_MS));
            }
            final VMOption maxFree = hotSpot.getVMOption(MAX_HEAP_FREE_RATIO);
            final VMOption minFree = hotSpot.getVMOption(MIN_HEAP_FREE_RATIO);
            if (isDefault(maxFree) && isDefault(minFree))
            {
                // The minimum first: the JVM refuses a maximum below it (its default is 40).
                hotSpot.setVMOption(MIN_HEAP_FREE_RATIO, Integer.toString(MIN_FREE_PERCENT));
                hotSpot.setVMOption(MAX_HEAP_FREE_RATIO, Integer.toString(MAX_FREE_PERCENT));
            }
            return true;
        }
        catch (final IllegalArgumentException | SecurityException ex)
        {
            // A JVM without the flag, or one that refuses to change it: the defaults stay.
            return false;
        }
    }

    private static boolean isDefault(final VMOption option)
    {
        return VMOption.Origin.DEFAULT == option.getOrigin() || VMOption.Origin.ERGONOMIC == option.getOrigin();
    }

    private static boolean isG1()
    {
        for (final GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans())
        {
            if (collector.getName().startsWith("G1 "))
            {
                return true;
            }
        }
        return false;
    }
}
