package io.pacelink.cli;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * The servers' heap gives memory back once a burst is over. A server runs for days with the JVM's defaults: G1 with an
 * initial heap of 1/64 of the machine's memory. A burst of work — a flood of handshakes, a crowd of clients — grows
 * the young generation within that heap, and G1 returns committed memory only at a full or a periodic collection,
 * so without one the process keeps its peak resident size for ever (docs/security.md, "Floods, measured": 102 to
 * 354 MiB, and still 354 a minute after the flood).
 * <p>
 * So a server command turns on G1's periodic collection (JEP 346, Java 12 and later): after {@link #PERIODIC_GC_MS}
 * without a collection a concurrent cycle runs — only while the server's endpoint is quiet: a transfer allocates
 * nothing, so a busy server went as long without a collection and was paused by it mid-transfer
 * ({@link PeriodicCollectionGate} turns it off while the endpoint serves) — and
 * its remark resizes the heap to the regions in use plus {@link #MAX_FREE_PERCENT} % and uncommits the rest. The
 * flags are manageable, so they are set here through the HotSpot diagnostic bean rather than asked of every user on
 * the command line; a value the user gave ({@code -XX:G1PeriodicGCInterval=...}, {@code -XX:MinHeapFreeRatio} or
 * {@code -XX:MaxHeapFreeRatio}) is kept,
 * and another collector or a JVM without the flags is left as it is.
 * <p>
 * A remark counts regions, not bytes: after a flood the flood's promoted state stays scattered over many regions, and
 * the heap stayed at three to four times what was live. So at the first periodic collection after work that finds the
 * server's endpoint quiet ({@link #watchTraffic}), the servers compact the heap once with a full collection ({@link
 * IdleCompaction} says when, and why the pause is paid only then).
 * <p>
 * The heap is not all: the C heap keeps what the JVM freed there. A burst's compilations (the JIT's arenas) and other
 * native work grow glibc's malloc arenas, and glibc returns freed memory in them to the system only at their top
 * (or when asked with {@code malloc_trim}): after a flood of handshakes, 22 MiB of the process's resident memory was
 * such free C heap (docs/security.md, "Floods, measured", round 3). So after each periodic collection that follows
 * other work, the servers ask the JVM to trim it ({@code System.trim_native_heap}, the diagnostic command of JDK
 * 17.0.9 and later, which calls glibc's {@code malloc_trim}); a JVM without the command, or not on glibc, is left as
 * it is.
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

    /**
     * The cause G1 gives its periodic collection (JEP 346).
     */
    static final String PERIODIC_COLLECTION_CAUSE = "G1 Periodic Collection";

    private static final String PERIODIC_GC_INTERVAL = "G1PeriodicGCInterval";
    private static final String DIAGNOSTIC_COMMANDS = "com.sun.management:type=DiagnosticCommand";
    private static final String TRIM_NATIVE_HEAP = "systemTrimNativeHeap";
    /**
     * The causes of the full collections asked for: {@code System.gc()} and {@code jcmd PID GC.run} (HotSpot's
     * {@code GCCause::_java_lang_system_gc} and {@code _dcmd_gc_run}).
     */
    private static final Set<String> EXPLICIT_COLLECTION_CAUSES = Set.of("System.gc()", "Diagnostic Command");
    private static final IdleMemoryReturn IDLE_MEMORY_RETURN = new IdleMemoryReturn();
    private static final String MAX_HEAP_FREE_RATIO = "MaxHeapFreeRatio";
    private static final String MIN_HEAP_FREE_RATIO = "MinHeapFreeRatio";
    /**
     * How often the periodic collection's gate looks at the endpoint's traffic.
     */
    private static final long GATE_CHECK_MS = 1_000;
    private static final AtomicLong GATE_CHANGES = new AtomicLong();
    private static volatile boolean isIntervalGated;
    private static volatile long periodicMs = PERIODIC_GC_MS;
    private static volatile long gateCheckMs = GATE_CHECK_MS;
    private static ScheduledExecutorService gateChecks;

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
        return returnMemoryWhenIdle(PERIODIC_GC_MS, GATE_CHECK_MS);
    }

    /**
     * {@link #returnMemoryWhenIdle()} with other times, for a test that cannot wait for the server's.
     *
     * @param intervalMs the periodic collection's interval, in milliseconds.
     * @param checkMs    the gate's time between checks, in milliseconds.
     * @return as {@link #returnMemoryWhenIdle()}.
     */
    static boolean returnMemoryWhenIdle(final long intervalMs, final long checkMs)
    {
        periodicMs = intervalMs;
        gateCheckMs = checkMs;
        try
        {
            if (!isG1())
            {
                return false;
            }
            final HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (isDefault(hotSpot.getVMOption(PERIODIC_GC_INTERVAL)))
            {
                hotSpot.setVMOption(PERIODIC_GC_INTERVAL, Long.toString(intervalMs));
                isIntervalGated = true;
            }
            final VMOption maxFree = hotSpot.getVMOption(MAX_HEAP_FREE_RATIO);
            final VMOption minFree = hotSpot.getVMOption(MIN_HEAP_FREE_RATIO);
            if (isDefault(maxFree) && isDefault(minFree))
            {
                // The minimum first: the JVM refuses a maximum below it (its default is 40).
                hotSpot.setVMOption(MIN_HEAP_FREE_RATIO, Integer.toString(MIN_FREE_PERCENT));
                hotSpot.setVMOption(MAX_HEAP_FREE_RATIO, Integer.toString(MAX_FREE_PERCENT));
            }
            IDLE_MEMORY_RETURN.listen();
            return true;
        }
        catch (final IllegalArgumentException | SecurityException ex)
        {
            // A JVM without the flag, or one that refuses to change it: the defaults stay.
            return false;
        }
    }

    /**
     * The server's endpoint, once it is open: what tells {@link IdleCompaction} whether the server is quiet. Without
     * it (before, or a server command that does not give it) the heap is not compacted.
     *
     * @param datagramsReceived how many datagrams the endpoint has received, read on the JVM's notification thread.
     */
    public static void watchTraffic(final LongSupplier datagramsReceived)
    {
        IDLE_MEMORY_RETURN.datagramsReceived = datagramsReceived;
        if (isIntervalGated)
        {
            gatePeriodicCollection();
        }
    }

    /**
     * From now on a check every {@link #GATE_CHECK_MS} turns the periodic collection off while the watched endpoint
     * is busy and on again when it is quiet, and off again once a periodic collection ran with nothing since
     * ({@link PeriodicCollectionGate}), on a daemon thread of its own: three counters' reads and, when the endpoint
     * starts or stops serving or the collection rests, a flag's write. Only where this class set the interval: a
     * user's own {@code -XX:G1PeriodicGCInterval} is left as given.
     */
    private static synchronized void gatePeriodicCollection()
    {
        if (null != gateChecks)
        {
            return;
        }
        final HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        final PeriodicCollectionGate gate = new PeriodicCollectionGate(periodicMs);
        gateChecks = Executors.newSingleThreadScheduledExecutor((task) ->
        {
            final Thread thread = new Thread(task, "pacelink-periodic-gc-gate");
            thread.setDaemon(true);
            return thread;
        });
        gateChecks.scheduleWithFixedDelay(() ->
        {
            final LongSupplier traffic = IDLE_MEMORY_RETURN.datagramsReceived;
            final long intervalMs = gate.onCheck(TimeUnit.NANOSECONDS.toMillis(System.nanoTime()),
                null == traffic ? 0 : traffic.getAsLong(), IDLE_MEMORY_RETURN.periodicCollections.get(),
                IDLE_MEMORY_RETURN.workCollections.get());
            if (PeriodicCollectionGate.UNCHANGED != intervalMs)
            {
                hotSpot.setVMOption(PERIODIC_GC_INTERVAL, Long.toString(intervalMs));
                GATE_CHANGES.incrementAndGet();
            }
        }, gateCheckMs, gateCheckMs, TimeUnit.MILLISECONDS);
    }

    /**
     * @return how many times the periodic collection was turned off or on again since the start.
     */
    static long periodicCollectionGateChanges()
    {
        return GATE_CHANGES.get();
    }

    /**
     * @return how many times the C heap was trimmed since the start.
     */
    static long nativeHeapTrims()
    {
        return IDLE_MEMORY_RETURN.trims.get();
    }

    /**
     * @return how many times the heap was compacted after a burst since the start.
     */
    static long idleCompactions()
    {
        return IDLE_MEMORY_RETURN.compactions.get();
    }

    /**
     * Returns memory after a burst, on the JVM's notification thread: at a periodic collection that follows work it
     * compacts the heap when {@link IdleCompaction} says so, and trims the C heap if a collection of another cause
     * — work — or a compaction came since the last trim: an idle server's periodic collections (one every
     * {@link #PERIODIC_GC_MS}) do neither.
     */
    private static final class IdleMemoryReturn implements NotificationListener
    {
        private final AtomicLong trims = new AtomicLong();
        private final AtomicLong compactions = new AtomicLong();
        private final AtomicLong periodicCollections = new AtomicLong();
        private final AtomicLong workCollections = new AtomicLong();
        private final AtomicBoolean isListening = new AtomicBoolean();
        private IdleCompaction idleCompaction;
        private final Set<String> heapPools = new HashSet<>();
        private boolean hasWorkedSinceTrim = true;
        private volatile boolean isTrimAvailable = true;
        private volatile MBeanServer platform;
        private volatile LongSupplier datagramsReceived;

        void listen()
        {
            if (!isListening.compareAndSet(false, true))
            {
                return;
            }
            // The platform MBean server the trim goes through, made now rather than at the first trim: making it
            // registers every platform MBean (on JDK 25 also JFR's, which reads its XML settings), ~0.1 CPU-s and its
            // compilations, which otherwise fell 15 s into a server's life, inside a perf test's measured seconds.
            platform = ManagementFactory.getPlatformMBeanServer();
            idleCompaction = new IdleCompaction(Integer.parseInt(ManagementFactory.getPlatformMXBean(
                HotSpotDiagnosticMXBean.class).getVMOption(MAX_HEAP_FREE_RATIO).getValue()));
            for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
            {
                if (MemoryType.HEAP == pool.getType())
                {
                    heapPools.add(pool.getName());
                }
            }
            for (final GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans())
            {
                if (collector instanceof NotificationEmitter)
                {
                    ((NotificationEmitter)collector).addNotificationListener(this, null, null);
                }
            }
        }

        @Override
        public void handleNotification(final Notification notification, final Object handback)
        {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType()))
            {
                return;
            }
            // The JVM tells one listener at a time, on its notification thread, in the order it collected.
            final GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData)notification.getUserData());
            final IdleCompaction.Kind kind = kindOf(info.getGcCause());
            long committedBytes = 0;
            long usedBytes = 0;
            for (final Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet())
            {
                if (heapPools.contains(pool.getKey()))
                {
                    committedBytes += pool.getValue().getCommitted();
                    usedBytes += pool.getValue().getUsed();
                }
            }
            final LongSupplier traffic = datagramsReceived;
            // The counter and the clock read together, now: not the collection's end, which this (late) delivery
            // may follow by seconds (IdleCompaction).
            if (null != traffic && idleCompaction.onCollection(kind,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime()), traffic.getAsLong(), committedBytes, usedBytes))
            {
                // A full collection: G1 compacts the live objects and resizes the heap to them (IdleCompaction).
                System.gc();
                compactions.incrementAndGet();
                hasWorkedSinceTrim = true;
            }
            if (IdleCompaction.Kind.WORK == kind)
            {
                hasWorkedSinceTrim = true;
                workCollections.incrementAndGet();
            }
            else if (IdleCompaction.Kind.PERIODIC == kind)
            {
                if (hasWorkedSinceTrim && isTrimAvailable)
                {
                    hasWorkedSinceTrim = false;
                    trim();
                }
                periodicCollections.incrementAndGet();
            }
        }

        private void trim()
        {
            try
            {
                platform.invoke(new ObjectName(DIAGNOSTIC_COMMANDS), TRIM_NATIVE_HEAP,
                    new Object[]{ null }, new String[]{ String[].class.getName() });
                trims.incrementAndGet();
            }
            catch (final JMException | RuntimeException ex)
            {
                // A JVM before 17.0.9, or another one: the C heap stays as glibc keeps it.
                isTrimAvailable = false;
            }
        }

        private static IdleCompaction.Kind kindOf(final String cause)
        {
            if (PERIODIC_COLLECTION_CAUSE.equals(cause))
            {
                return IdleCompaction.Kind.PERIODIC;
            }
            if (EXPLICIT_COLLECTION_CAUSES.contains(cause))
            {
                return IdleCompaction.Kind.EXPLICIT;
            }
            return IdleCompaction.Kind.WORK;
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
