package io.pacelink.reno;

import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.testing.AllocationMeter;
import io.pacelink.transport.cc.testing.FakeControllerContext;
import io.pacelink.transport.cc.testing.FluidPath;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        final AllocationMeter meter = new AllocationMeter();
        // Warm-up passes on other controllers: while the JIT settles, deoptimisation can allocate a few hundred bytes
        // once (the same script under -Xint allocates nothing).
        for (int i = 0; i < WARM_UP_PASSES; i++)
        {
            runScript(newPath());
        }

        final FluidPath path = newPath();
        meter.start();
        runScript(path);
        final long allocatedBytes = meter.stop();

        assertTrue(path.congestionEvents() > 10, "the script includes congestion events");
        assertTrue(path.ackFrames() > 50_000, "the script includes many ACKs");
        assertEquals(0, allocatedBytes, "bytes allocated by onPacketSent/onAck/onPacketLost/onCongestionEvent");
    }

    private static FluidPath newPath()
    {
        final FakeControllerContext context = new FakeControllerContext(ControllerParameters.EMPTY);
        final NewRenoController reno =
            new NewRenoController(context, NewRenoParameters.from(ControllerParameters.EMPTY));
        return new FluidPath(reno, context, RTT_NS);
    }

    private static void runScript(final FluidPath path)
    {
        path.runFor(10 * RTT_NS);
        path.ackEvery(2).dropEvery(2_000);
        path.runFor(RUN_NS);
        path.pauseApplication();
        path.runFor(RTT_NS * 10);
        path.resumeApplication();
        path.runFor(RUN_NS);
        path.congestionEvent(path.nowNs(), true);
        path.runFor(RTT_NS * 10);
    }
}
