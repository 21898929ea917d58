package io.pacelink.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.CloseReason;
import io.pacelink.transport.PacelinkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both sides of the reassembly limit on a legitimate long fat flow: BBR's start-up on 1 Gbit/s x 100 ms with a
 * 1-BDP queue overshoots and loses thousands of packets at once, so its receiver holds thousands of out-of-order
 * ranges. The memory limit (an eighth of the receive window in range bookkeeping) keeps the connection; the count
 * limit it replaced (4096 ranges) closed it as a protocol violation, and the results must say so.
 */
@Timeout(300)
class ReassemblyLimitScenarioTest
{
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final String LONG_FAT_PATH = "rate=1gbit delay=50ms queue=1bdp";
    private static final int OLD_COUNT_LIMIT = 4096;

    @Test
    void aLongFatBbrStartUpKeepsItsConnectionUnderTheMemoryLimit()
    {
        final ScenarioResult result = run((context) -> { });
        final FlowOutcome flow = result.flow(0);
        System.out.printf("REASSEMBLY-FIGURE memory limit: %s, lost %d packets, utilisation %.1f %%%n",
            flow.sender().describe(), flow.lostPackets(), 100 * result.forward().utilisation());
        assertTrue(flow.lostPackets() > OLD_COUNT_LIMIT, "the start-up loses thousands: " + flow.lostPackets());
        assertFalse(flow.isFailed(), flow.failure());
        assertFalse(flow.sender().isClosed(), flow.sender().describe());
        assertFalse(flow.receiver().isClosed(), flow.receiver().describe());
        assertTrue(result.failedFlows().isEmpty());
        assertTrue(result.forward().utilisation() > 0.6, "utilisation " + result.forward().utilisation());
    }

    @Test
    @SuppressWarnings("deprecation")
    void theOldCountLimitClosedItAndTheResultsSaySo()
    {
        final ScenarioResult result = run((context) -> context.limits().maxReceiveRanges(OLD_COUNT_LIMIT));
        final FlowOutcome flow = result.flow(0);
        System.out.printf("REASSEMBLY-FIGURE count limit: %s%n", flow.failure());
        assertTrue(flow.isFailed());
        assertEquals(CloseReason.PROTOCOL_VIOLATION, flow.receiver().outcome().reason());
        assertTrue(flow.receiver().isAbnormal());
        assertTrue(flow.failure().startsWith("the receiver's connection closed at "), flow.failure());
        assertTrue(flow.failure().contains("reassembly limit"), flow.failure());
        assertTrue(flow.sender().isClosed(), "the sender hears of it: " + flow.sender().describe());
        assertEquals(result.flows(), result.failedFlows());
    }

    private static ScenarioResult run(final Consumer<PacelinkContext> limits)
    {
        return Scenario.builder()
            .seed(1)
            .path(PathSpec.Pair.parse(LONG_FAT_PATH, "delay=50ms"))
            .durationNs(4 * SECOND)
            .flow(FlowSpec.bulk("bbr"))
            .contextCustomizer(limits)
            .build()
            .run();
    }
}
