package io.pacelink.bbr.v1;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static io.pacelink.bbr.v1.Bbr1Run.MS;
import static io.pacelink.bbr.v1.Bbr1Run.RATE_100_MBIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The controller's callbacks allocate nothing after warm-up: {@code onAck}, {@code onPacketSent},
 * {@code onPacketLost}, {@code onCongestionEvent} and {@code onTransmitStartAfterIdle} run inside the driver, which
 * itself allocates nothing per packet, so the thread's allocation counter must not move.
 */
class Bbr1AllocationTest
{
    @Test
    void callbacksDoNotAllocateAfterWarmUp()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);

        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, 20 * MS, 14);
        run.path.randomLoss(0.005);

        // Warm up every path: STARTUP, DRAIN, PROBE_BW with losses and recovery, app-limited with idle restarts.
        exercise(run);
        final long rounds = run.controller.roundCount();
        final long lost = run.path.lostBytes();

        final long overhead = -threads.getCurrentThreadAllocatedBytes() + threads.getCurrentThreadAllocatedBytes();
        final long before = threads.getCurrentThreadAllocatedBytes();
        exercise(run);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before - overhead;

        assertTrue(run.controller.roundCount() - rounds > 100);
        assertTrue(run.path.lostBytes() > lost);
        assertEquals(0, allocated, "bytes allocated in steady state");
    }

    private static void exercise(final Bbr1Run run)
    {
        run.path.backlogged();
        run.path.runFor(3_000 * MS);
        run.path.appChunks(50_000, 50 * MS);
        run.path.runFor(1_000 * MS);
    }
}
