package io.pacelink.cli;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.HotSpotDiagnosticMXBean;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server commands' heap settings ({@link ServerHeap}), each case in a JVM of its own started with the flags a
 * user might give: G1's periodic collection and the tighter resize are turned on by default, a value the user gave is
 * kept, and another collector is left alone.
 */
class ServerHeapTest
{
    /**
     * The child: turn the settings on, print the verdict and the three flags.
     */
    public static final class Probe
    {
        public static void main(final String[] args)
        {
            final boolean isOn = ServerHeap.returnMemoryWhenIdle();
            final HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            System.out.println(isOn + " " + hotSpot.getVMOption("G1PeriodicGCInterval").getValue() + " " +
                hotSpot.getVMOption("MinHeapFreeRatio").getValue() + " " +
                hotSpot.getVMOption("MaxHeapFreeRatio").getValue());
        }
    }

    /**
     * The child of the C heap's trim: turn the settings on, collect once (work), then wait for periodic collections.
     * Prints the trims after the first periodic one, after the fifth and after the ninth, and the other collections'
     * causes seen after the first.
     */
    public static final class TrimProbe
    {
        public static void main(final String[] args) throws InterruptedException
        {
            // ServerHeap's listener first: a listener is told after those registered before it.
            ServerHeap.returnMemoryWhenIdle();
            final AtomicLong periodic = new AtomicLong();
            final List<String> otherCauses = new CopyOnWriteArrayList<>();
            onEveryCollection((info) ->
            {
                final String cause = info.getGcCause();
                if (ServerHeap.PERIODIC_COLLECTION_CAUSE.equals(cause))
                {
                    periodic.incrementAndGet();
                }
                else if (periodic.get() > 0)
                {
                    otherCauses.add(cause.replace(' ', '_'));
                }
            });
            System.gc();
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            final long[] trims = new long[3];
            final int[] others = new int[3];
            final int[] after = { 1, 5, 9 };
            for (int i = 0; i < after.length; i++)
            {
                while (periodic.get() < after[i] && System.nanoTime() < deadlineNs)
                {
                    Thread.sleep(10);
                }
                trims[i] = ServerHeap.nativeHeapTrims();
                others[i] = otherCauses.size();
            }
            System.out.println(trims[0] + " " + trims[1] + " " + trims[2] + " " + periodic.get() + " " + others[1] +
                " " + others[2] + " " + otherCauses);
        }
    }

    /**
     * The child of the idle compaction: turn the settings on, leave the old generation scattered with a burst's
     * promoted state (work), then wait with its "endpoint" either quiet or receiving 100,000 datagrams a second from
     * before the burst on ({@link Traffic}), for {@code args[1]} periodic collections after the burst. Prints the
     * compactions, the heap's committed MiB before and after the first (0 0 without one), the periodic collections
     * seen, the burst's objects, and the collections of work (other causes) after the first compaction.
     */
    public static final class CompactionProbe
    {
        private static volatile long sink;

        public static void main(final String[] args) throws InterruptedException
        {
            ServerHeap.returnMemoryWhenIdle();
            final Traffic traffic = new Traffic();
            ServerHeap.watchTraffic(traffic);
            final boolean isBusy = "busy".equals(args[0]);
            traffic.serve(isBusy);
            final AtomicLong periodic = new AtomicLong();
            final AtomicLong workAfterCompaction = new AtomicLong();
            final AtomicLong compactedFromMiB = new AtomicLong();
            final AtomicLong compactedToMiB = new AtomicLong();
            // Told after ServerHeap's listener, which was registered first.
            onEveryCollection((info) ->
            {
                final String cause = info.getGcCause();
                if (ServerHeap.PERIODIC_COLLECTION_CAUSE.equals(cause))
                {
                    periodic.incrementAndGet();
                }
                else if ("System.gc()".equals(cause))
                {
                    compactedFromMiB.compareAndSet(0, heapCommitted(info.getGcInfo().getMemoryUsageBeforeGc()) >> 20);
                    compactedToMiB.compareAndSet(0, heapCommitted(info.getGcInfo().getMemoryUsageAfterGc()) >> 20);
                }
                else if (ServerHeap.idleCompactions() > 0)
                {
                    workAfterCompaction.incrementAndGet();
                }
            });
            // The burst: 48 MiB kept across many young collections (promoted), with garbage between; then all but
            // every eighth of it let go, so what stays live is scattered over the old generation's regions.
            final List<byte[]> kept = new ArrayList<>();
            for (int i = 0; i < 48 * 1024; i++)
            {
                kept.add(new byte[1024]);
                for (int j = 0; j < 8; j++)
                {
                    sink += new byte[1024].length;
                }
            }
            for (int i = 0; i < kept.size(); i++)
            {
                if (i % 8 != 0)
                {
                    kept.set(i, null);
                }
            }
            final long wanted = periodic.get() + Long.parseLong(args[1]);
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            while (periodic.get() < wanted && System.nanoTime() < deadlineNs)
            {
                // A server still serving, without allocating (a zero-garbage transfer), or a quiet one.
                Thread.sleep(10);
            }
            System.out.println(ServerHeap.idleCompactions() + " " + compactedFromMiB.get() + " " +
                compactedToMiB.get() + " " + (periodic.get() - wanted +
                Long.parseLong(args[1])) + " " + kept.size() + " " + workAfterCompaction.get());
        }
    }

    /**
     * The child of the gate: turn the settings on, watch an endpoint that serves (100,000 datagrams a second, no
     * allocation: {@link Traffic}), then one that went quiet. Prints the periodic interval while busy, then while
     * quiet, and the gate's changes; "timeout:" and the interval if it did not become what was wanted within the
     * seconds given.
     */
    public static final class GateProbe
    {
        public static void main(final String[] args) throws InterruptedException
        {
            ServerHeap.returnMemoryWhenIdle();
            final HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            final Traffic traffic = new Traffic();
            ServerHeap.watchTraffic(traffic);
            final long waitNs = TimeUnit.SECONDS.toNanos(Long.parseLong(args[2]));
            final String busy = awaitInterval(hotSpot, traffic, true, args[0], waitNs);
            final String quiet = awaitInterval(hotSpot, traffic, false, args[1], waitNs);
            System.out.println(busy + " " + quiet + " " + ServerHeap.periodicCollectionGateChanges());
        }

        private static String awaitInterval(
            final HotSpotDiagnosticMXBean hotSpot, final Traffic traffic, final boolean isServing,
            final String wanted, final long waitNs) throws InterruptedException
        {
            traffic.serve(isServing);
            final long deadlineNs = System.nanoTime() + waitNs;
            String interval = hotSpot.getVMOption("G1PeriodicGCInterval").getValue();
            while (!interval.equals(wanted) && System.nanoTime() < deadlineNs)
            {
                Thread.sleep(10);
                interval = hotSpot.getVMOption("G1PeriodicGCInterval").getValue();
            }
            return interval.equals(wanted) ? interval : "timeout:" + interval;
        }
    }

    /**
     * The child of the gate's rest: the settings on with a periodic collection every 500 ms and a check every 100 ms,
     * an endpoint that stays quiet; counts G1's periodic collections while idle for 4 s, then after a burst of garbage
     * (collections of work) for 4 s more. Prints the two counts, the collections of work in the burst, and the
     * interval at the end.
     */
    public static final class RestProbe
    {
        private static volatile long sink;

        public static void main(final String[] args) throws InterruptedException
        {
            ServerHeap.returnMemoryWhenIdle(500, 100);
            ServerHeap.watchTraffic(() -> 0);
            final AtomicLong periodic = new AtomicLong();
            final AtomicLong work = new AtomicLong();
            onEveryCollection((info) ->
            {
                if (ServerHeap.PERIODIC_COLLECTION_CAUSE.equals(info.getGcCause()))
                {
                    periodic.incrementAndGet();
                }
                else if (!"System.gc()".equals(info.getGcCause()))
                {
                    work.incrementAndGet();
                }
            });
            Thread.sleep(4_000);
            final long idle = periodic.get();
            final long workBefore = work.get();
            for (int i = 0; i < 512 * 1024; i++)
            {
                sink += new byte[1024].length;
            }
            final long burstWork = work.get() - workBefore;
            final long periodicBefore = periodic.get();
            Thread.sleep(4_000);
            System.out.println(idle + " " + (periodic.get() - periodicBefore) + " " + burstWork + " " +
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .getVMOption("G1PeriodicGCInterval").getValue());
        }
    }

    /**
     * An endpoint's received-datagram counter as {@link ServerHeap} reads it: while serving it has received 100,000
     * datagrams a second by the clock, whichever threads run; stopped, it stands still. The probes counted on their
     * main thread before (1,000 every 10 ms): a thread that a loaded machine leaves waiting, or one still in the
     * burst's allocations, did not count, and a counter standing still across a periodic collection is what a quiet
     * server looks like — beside ten CPU-bound loops the busy probe was compacted in 7 of 14 runs, each time at a
     * periodic collection that read the counter at 0, before its loop had counted anything.
     */
    static final class Traffic implements LongSupplier
    {
        private static final long NS_PER_DATAGRAM = TimeUnit.SECONDS.toNanos(1) / 100_000;

        private boolean isServing;
        private long servingSinceNs;
        private long countedBefore;

        /**
         * @param isServing true to count from now on, false to stand still at what was counted.
         */
        synchronized void serve(final boolean isServing)
        {
            if (isServing != this.isServing)
            {
                countedBefore = getAsLong();
                servingSinceNs = System.nanoTime();
                this.isServing = isServing;
            }
        }

        @Override
        public synchronized long getAsLong()
        {
            return isServing ? countedBefore + (System.nanoTime() - servingSinceNs) / NS_PER_DATAGRAM : countedBefore;
        }
    }

    /**
     * Tell the listener of every collection from now on, after the listeners registered before it.
     */
    private static void onEveryCollection(final Consumer<GarbageCollectionNotificationInfo> listener)
    {
        for (final GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans())
        {
            ((NotificationEmitter)collector).addNotificationListener((notification, handback) ->
                listener.accept(GarbageCollectionNotificationInfo.from((CompositeData)notification.getUserData())),
                null, null);
        }
    }

    private static long heapCommitted(final Map<String, MemoryUsage> pools)
    {
        long bytes = 0;
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            if (MemoryType.HEAP == pool.getType() && pools.containsKey(pool.getName()))
            {
                bytes += pools.get(pool.getName()).getCommitted();
            }
        }
        return bytes;
    }

    private static String probe(final String... jvmFlags) throws IOException, InterruptedException
    {
        return probe(Probe.class, jvmFlags);
    }

    private static String probe(final Class<?> main, final String... jvmFlags) throws IOException, InterruptedException
    {
        return probe(main, List.of(), jvmFlags);
    }

    private static String probe(final Class<?> main, final List<String> args, final String... jvmFlags)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(ChildJvm.javaCommand(main));
        command.addAll(1, List.of(jvmFlags));
        command.addAll(args);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the probe JVM ended");
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    }

    @Test
    void g1GetsThePeriodicCollectionAndTheTighterResizeByDefault() throws Exception
    {
        assertEquals("true " + ServerHeap.PERIODIC_GC_MS + " " + ServerHeap.MIN_FREE_PERCENT + " " +
            ServerHeap.MAX_FREE_PERCENT, probe("-XX:+UseG1GC"));
    }

    @Test
    void whatTheUserGaveIsKept() throws Exception
    {
        assertEquals("true 7000 40 60", probe("-XX:+UseG1GC", "-XX:G1PeriodicGCInterval=7000",
            "-XX:MaxHeapFreeRatio=60"));
    }

    /**
     * After work (a collection of another cause), the first periodic collection trims the C heap; the idle periodic
     * collections after it do not trim it again — but for a trim after each collection of another cause, which is
     * work again (the first trim's own start-up causes one, the JMX server's; a loaded machine may add G1's
     * preventive collections) — so from the fifth to the ninth, no more trims than such collections between them
     * (the probe's user sets the interval to 100 ms, so it waits about a second).
     */
    @Test
    void aPeriodicCollectionAfterWorkTrimsTheCHeapAndIdleOnesDoNot() throws Exception
    {
        final String[] out = probe(TrimProbe.class, "-XX:+UseG1GC", "-XX:G1PeriodicGCInterval=100").split(" ", 7);
        final String what = String.join(" ", out);
        assertEquals("1", out[0], what);
        assertTrue(Long.parseLong(out[3]) >= 9, "a tenth may come before the probe prints: " + what);
        final long trimsAfterFifth = Long.parseLong(out[1]);
        final int othersByFifth = Integer.parseInt(out[4]);
        assertTrue(trimsAfterFifth <= 2 + othersByFifth, "at most one trim a collection of another cause: " + what);
        assertTrue(Long.parseLong(out[2]) - trimsAfterFifth <= Integer.parseInt(out[5]) - othersByFifth,
            "idle periodic collections trim nothing: " + what);
    }

    /**
     * After a burst that leaves the old generation scattered, the first periodic collection of a quiet server
     * compacts the heap (a full collection that makes the committed heap smaller), and the quiet ones after it
     * do not — but for one after each collection of work since (the probe's own allocations on a heap just made small
     * can cause one); a server still receiving after the burst, without allocating, is never paused by it. The
     * periodic interval is 1 s here (the user's flag), so each case waits a few seconds.
     */
    @Test
    void aQuietProcessIsCompactedOnceAfterABurstAndABusyOneNever() throws Exception
    {
        final String[] quiet = probe(CompactionProbe.class, List.of("quiet", "5"), "-XX:+UseG1GC",
            "-XX:G1PeriodicGCInterval=1000", "-Xmx256m").split(" ");
        final String quietWhat = String.join(" ", quiet);
        final long compactions = Long.parseLong(quiet[0]);
        assertTrue(compactions >= 1 && compactions <= 1 + Long.parseLong(quiet[5]),
            "one compaction, and one more at most after each collection of work after it: " + quietWhat);
        assertTrue(Long.parseLong(quiet[3]) >= 5, quietWhat);
        assertTrue(Long.parseLong(quiet[2]) < Long.parseLong(quiet[1]),
            "the compaction made the committed heap smaller: " + quietWhat);

        final String[] busy = probe(CompactionProbe.class, List.of("busy", "3"), "-XX:+UseG1GC",
            "-XX:G1PeriodicGCInterval=1000", "-Xmx256m").split(" ");
        final String busyWhat = String.join(" ", busy);
        assertEquals("0", busy[0], "no compaction while busy: " + busyWhat);
        assertTrue(Long.parseLong(busy[3]) >= 3, busyWhat);
    }

    /**
     * A server that receives without allocating — a transfer — never gets the periodic collection, which would pause it
     * mid-transfer: the gate turns it off while the endpoint serves and back on when it is quiet (a check a second).
     */
    @Test
    void thePeriodicCollectionIsOffWhileTheEndpointServesAndOnWhenItIsQuiet() throws Exception
    {
        assertEquals("0 " + ServerHeap.PERIODIC_GC_MS + " 2", probe(GateProbe.class,
            List.of("0", Long.toString(ServerHeap.PERIODIC_GC_MS), "20"), "-XX:+UseG1GC"));
    }

    /**
     * An idle server gets two periodic collections after work and then none, not one every interval for ever (a
     * concurrent cycle and its notification each, 0.3 % of a core idle); a burst of garbage makes two more due. Here
     * every 500 ms: without the rest each 4-s wait would see about eight. The heap's size is fixed: on a heap the
     * compaction made small, the notifications' own garbage fills the young generation, and those collections are
     * work to the gate (a periodic collection every interval, as without the rest).
     */
    @Test
    void anIdleServerGetsTwoPeriodicCollectionsAfterWorkAndThenNone() throws Exception
    {
        final String[] out = probe(RestProbe.class, "-XX:+UseG1GC", "-Xms64m", "-Xmx64m").split(" ");
        final String what = String.join(" ", out);
        assertTrue(Long.parseLong(out[2]) >= 1, "the burst was work: " + what);
        for (int i = 0; i < 2; i++)
        {
            final long count = Long.parseLong(out[i]);
            assertTrue(count >= PeriodicCollectionGate.PERIODIC_COLLECTIONS_AFTER_WORK &&
                count <= PeriodicCollectionGate.PERIODIC_COLLECTIONS_AFTER_WORK + 1,
                "two after work (a third may start before the check that rests it), then none: " + what);
        }
        assertEquals("0", out[3], "resting: " + what);
    }

    /**
     * A user's own interval is theirs: a busy endpoint leaves it as given.
     */
    @Test
    void aUsersOwnPeriodicIntervalIsNotGated() throws Exception
    {
        // Three seconds busy: three of the gate's checks, had it run.
        assertEquals("timeout:7000 7000 0", probe(GateProbe.class, List.of("0", "7000", "3"), "-XX:+UseG1GC",
            "-XX:G1PeriodicGCInterval=7000"));
    }

    @Test
    void anotherCollectorIsLeftAlone() throws Exception
    {
        assertEquals("false 0 40 70", probe("-XX:+UseSerialGC"));
    }
}
