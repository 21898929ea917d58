package io.pacelink.sim.scenario;

import io.pacelink.link.PathSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Connection buffers (send buffer and flow-control window) sized from each flow's own path.
 */
class ScenarioBufferSizingTest
{
    private static final long MS = 1_000_000L;

    @Test
    void aFlowsBufferCoversFourTimesItsOwnBdpPlusTheQueue()
    {
        final PathSpec.Pair path = PathSpec.Pair.parse("rate=100mbit delay=1ms queue=100p", "delay=1ms");

        // 2 ms: 25 000 bytes of BDP and 150 000 of queue, four times, is below the 1 MiB floor.
        assertEquals(1 << 20, Scenario.connectionBufferBytes(path, 0));
        // 50 ms of access delay at both hosts, both ways: 202 ms, 2 525 000 bytes of BDP; four times with the queue
        // is 10.7 MB, rounded up to a power of two.
        assertEquals(16 << 20, Scenario.connectionBufferBytes(path, 50 * MS));
    }

    @Test
    void aPathWithoutARateGetsTheLargestBuffer()
    {
        assertEquals(64 << 20, Scenario.connectionBufferBytes(PathSpec.Pair.parse("delay=10ms"), 0));
    }
}
