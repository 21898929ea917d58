package io.pacelink.cli;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.HotSpotDiagnosticMXBean;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
            for (final GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans())
            {
                ((NotificationEmitter)collector).addNotificationListener((notification, handback) ->
                {
                    final String cause = GarbageCollectionNotificationInfo.from(
                        (CompositeData)notification.getUserData()).getGcCause();
                    if (ServerHeap.PERIODIC_COLLECTION_CAUSE.equals(cause))
                    {
                        periodic.incrementAndGet();
                    }
                    else if (periodic.get() > 0)
                    {
                        otherCauses.add(cause.replace(' ', '_'));
                    }
                }, null, null);
            }
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

    private static String probe(final String... jvmFlags) throws IOException, InterruptedException
    {
        return probe(Probe.class, jvmFlags);
    }

    private static String probe(final Class<?> main, final String... jvmFlags) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(ChildJvm.javaCommand(main));
        command.addAll(1, List.of(jvmFlags));
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
        assertEquals("9", out[3], what);
        final long trimsAfterFifth = Long.parseLong(out[1]);
        final int othersByFifth = Integer.parseInt(out[4]);
        assertTrue(trimsAfterFifth <= 2 + othersByFifth, "at most one trim a collection of another cause: " + what);
        assertTrue(Long.parseLong(out[2]) - trimsAfterFifth <= Integer.parseInt(out[5]) - othersByFifth,
            "idle periodic collections trim nothing: " + what);
    }

    @Test
    void anotherCollectorIsLeftAlone() throws Exception
    {
        assertEquals("false 0 40 70", probe("-XX:+UseSerialGC"));
    }
}
