package io.pacelink.bbr.v1;

import io.pacelink.transport.testing.AllocationMeter;
import org.junit.jupiter.api.Test;

import static io.pacelink.bbr.v1.Bbr1Run.MS;
import static io.pacelink.bbr.v1.Bbr1Run.RATE_100_MBIT;
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
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, 20 * MS, 14);
        run.path.randomLoss(0.005);

        // Warm up every path: STARTUP, DRAIN, PROBE_BW with losses and recovery, app-limited with idle restarts.
        exercise(run);

        final long[] fewestPerWindow = { Long.MAX_VALUE, Long.MAX_VALUE };
        AllocationMeter.assertAllocationFree("BBRv1 callbacks in steady state", () ->
        {
            final long roundsBefore = run.controller.roundCount();
            final long lostBefore = run.path.lostBytes();
            exercise(run);
            fewestPerWindow[0] = Math.min(fewestPerWindow[0], run.controller.roundCount() - roundsBefore);
            fewestPerWindow[1] = Math.min(fewestPerWindow[1], run.path.lostBytes() - lostBefore);
        });

        assertTrue(fewestPerWindow[0] > 100, "rounds in every window: " + fewestPerWindow[0]);
        assertTrue(fewestPerWindow[1] > 0, "losses in every window: " + fewestPerWindow[1]);
    }

    private static void exercise(final Bbr1Run run)
    {
        run.path.backlogged();
        run.path.runFor(3_000 * MS);
        run.path.appChunks(50_000, 50 * MS);
        run.path.runFor(1_000 * MS);
    }
}
