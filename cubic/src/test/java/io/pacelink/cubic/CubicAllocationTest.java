package io.pacelink.cubic;

import io.pacelink.transport.cc.testing.AllocationMeter;
import org.junit.jupiter.api.Test;

import static io.pacelink.cubic.CubicRig.MILLIS_NS;
import static io.pacelink.cubic.CubicRig.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-packet and per-ACK callbacks allocate nothing once warmed up: slow start with HyStart++ and CSS,
 * congestion avoidance, recovery, idle restart, undo and persistent congestion.
 */
class CubicAllocationTest
{
    private static final long RTT_NS = 20 * MILLIS_NS;
    private static final int WARM_UP_PASSES = 3;

    @Test
    void callbacksDoNotAllocateAfterWarmUp()
    {
        final AllocationMeter meter = new AllocationMeter();
        // Warm-up passes on other controllers: while the JIT settles, deoptimisation can allocate a few hundred bytes
        // once (the same script under -Xint allocates nothing).
        for (int i = 0; i < WARM_UP_PASSES; i++)
        {
            runScript(new CubicRig("", RTT_NS));
        }

        final CubicRig rig = new CubicRig("", RTT_NS);
        meter.start();
        runScript(rig);
        final long allocatedBytes = meter.stop();

        assertTrue(rig.path.congestionEvents() > 10, "the script includes congestion events");
        assertTrue(rig.path.ackFrames() > 100_000, "the script includes many ACKs");
        assertEquals(0, allocatedBytes, "bytes allocated by the controller callbacks");
    }

    private static void runScript(final CubicRig rig)
    {
        // HyStart++: an RTT rise enters CSS, then CSS ends in congestion avoidance.
        rig.path.runFor(5 * RTT_NS);
        rig.path.pathRttNs(RTT_NS + 5 * MILLIS_NS);
        rig.path.runFor(20 * RTT_NS);

        rig.path.ackEvery(2).dropEvery(3_000);
        rig.path.runFor(seconds(30));

        rig.path.pauseApplication();
        rig.path.runFor(seconds(1));
        rig.path.resumeApplication();
        rig.path.runFor(seconds(30));

        rig.path.loseNewestPacketNow();
        rig.cubic.onSpuriousLoss(rig.path.nowNs());
        rig.path.congestionEvent(rig.path.newestSentTimeNs(), true);
        rig.path.runFor(seconds(10));
    }
}
