package io.pacelink.reno;

import io.pacelink.transport.testing.AllocationMeter;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.TestControllerContext;
import io.pacelink.transport.testing.ScriptedPath;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-packet and per-ACK callbacks allocate nothing once warmed up: slow start, congestion avoidance, recovery,
 * idle restart and persistent congestion.
 */
class NewRenoAllocationTest
{
    private static final long RTT_NS = 20_000_000L;
    private static final long RUN_NS = 30_000_000_000L;
    private static final int WARM_UP_PASSES = 3;

    @Test
    void callbacksDoNotAllocateAfterWarmUp()
    {
        // Warm-up passes on other controllers: while the JIT settles, deoptimisation can allocate a few hundred bytes
        // once (the same script under -Xint allocates nothing).
        int linkPackets = 0;
        for (int i = 0; i < WARM_UP_PASSES; i++)
        {
            final ScriptedPath warmUp = newPath();
            runScript(warmUp);
            linkPackets = warmUp.linkPacketsHighWater();
        }

        // The first window runs the script on a fresh controller; later ones run it again on the same controller
        // (persistent congestion at the end of the previous run sends it back to slow start). The fresh path's link
        // is given now the storage the warm-up runs grew to, so the first window measures the controller alone.
        final ScriptedPath path = newPath().reserveLinkPackets(linkPackets);
        final long[] firstWindow = new long[2];
        final long[] fewestAckFramesPerWindow = { Long.MAX_VALUE };
        AllocationMeter.assertAllocationFree("onPacketSent/onAck/onPacketLost/onCongestionEvent", () ->
        {
            final long ackFramesBefore = path.ackFrames();
            runScript(path);
            if (0 == ackFramesBefore)
            {
                firstWindow[0] = path.ackFrames();
                firstWindow[1] = path.congestionEvents();
            }
            fewestAckFramesPerWindow[0] = Math.min(fewestAckFramesPerWindow[0], path.ackFrames() - ackFramesBefore);
        });

        assertTrue(firstWindow[1] > 10, "the script includes congestion events");
        assertTrue(firstWindow[0] > 50_000, "the script includes many ACKs");
        assertTrue(fewestAckFramesPerWindow[0] > AllocationMeter.ONE_OFF_ALLOWANCE_BYTES,
            "one byte per ACK would exceed the one-off allowance in every window: " + fewestAckFramesPerWindow[0]);
    }

    private static ScriptedPath newPath()
    {
        final TestControllerContext context = new TestControllerContext(ControllerParameters.EMPTY);
        final NewRenoController reno =
            new NewRenoController(context, NewRenoParameters.from(ControllerParameters.EMPTY));
        return new ScriptedPath(reno, context, RTT_NS);
    }

    private static void runScript(final ScriptedPath path)
    {
        path.ackEvery(1).dropEveryNth(0);
        path.runFor(10 * RTT_NS);
        path.ackEvery(2).dropEveryNth(2_000);
        path.runFor(RUN_NS);
        path.pauseApplication();
        path.runFor(RTT_NS * 10);
        path.resumeApplication();
        path.runFor(RUN_NS);
        path.congestionEvent(path.nowNs(), true);
        path.runFor(RTT_NS * 10);
    }
}
