package io.pacelink.cli;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

    private static String probe(final String... jvmFlags) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(ChildJvm.javaCommand(Probe.class));
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

    @Test
    void anotherCollectorIsLeftAlone() throws Exception
    {
        assertEquals("false 0 40 70", probe("-XX:+UseSerialGC"));
    }
}
