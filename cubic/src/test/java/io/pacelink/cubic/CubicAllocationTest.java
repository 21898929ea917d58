package io.pacelink.cubic;

import io.pacelink.transport.testing.AllocationMeter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.pacelink.cubic.CubicRig.MILLIS_NS;
import static io.pacelink.cubic.CubicRig.seconds;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-packet and per-ACK callbacks allocate nothing once warmed up: slow start with HyStart++ and CSS (or Linux's
 * HyStart), congestion avoidance, recovery, idle restart, undo and persistent congestion.
 */
class CubicAllocationTest
{
    private static final long RTT_NS = 20 * MILLIS_NS;
    private static final int WARM_UP_PASSES = 3;

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = { "", "cubic.hystart=linux" })
    void callbacksDoNotAllocateAfterWarmUp(final String parameters)
    {
        // Warm-up passes on other controllers: while the JIT settles, deoptimisation can allocate a few hundred bytes
        // once (the same script under -Xint allocates nothing).
        int linkPackets = 0;
        for (int i = 0; i < WARM_UP_PASSES; i++)
        {
            final CubicRig warmUp = new CubicRig(parameters, RTT_NS);
            runScript(warmUp);
            linkPackets = warmUp.path.linkPacketsHighWater();
        }

        // The first window runs the script on a fresh controller; later ones run it again on the same controller
        // (persistent congestion at the end of the previous run sends it back to slow start). The fresh path's link
        // is given now the storage the warm-up runs grew to, so the first window measures the controller alone.
        final CubicRig rig = new CubicRig(parameters, RTT_NS);
        rig.path.reserveLinkPackets(linkPackets);
        final long[] firstWindow = new long[2];
        final long[] fewestAckFramesPerWindow = { Long.MAX_VALUE };
        AllocationMeter.assertAllocationFree("the controller callbacks", () ->
        {
            final long ackFramesBefore = rig.path.ackFrames();
            runScript(rig);
            if (0 == ackFramesBefore)
            {
                firstWindow[0] = rig.path.ackFrames();
                firstWindow[1] = rig.path.congestionEvents();
            }
            fewestAckFramesPerWindow[0] = Math.min(fewestAckFramesPerWindow[0], rig.path.ackFrames() - ackFramesBefore);
        });

        assertTrue(firstWindow[1] > 10, "the script includes congestion events");
        assertTrue(firstWindow[0] > 100_000, "the script includes many ACKs");
        assertTrue(fewestAckFramesPerWindow[0] > AllocationMeter.ONE_OFF_ALLOWANCE_BYTES,
            "one byte per ACK would exceed the one-off allowance in every window: " + fewestAckFramesPerWindow[0]);
    }

    private static void runScript(final CubicRig rig)
    {
        // HyStart++: an RTT rise enters CSS, then CSS ends in congestion avoidance.
        rig.path.propagationRttNs(RTT_NS).ackEvery(1).dropEveryNth(0);
        rig.path.runFor(5 * RTT_NS);
        rig.path.propagationRttNs(RTT_NS + 5 * MILLIS_NS);
        rig.path.runFor(20 * RTT_NS);

        rig.path.ackEvery(2).dropEveryNth(3_000);
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
