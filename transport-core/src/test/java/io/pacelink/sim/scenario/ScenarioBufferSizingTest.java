package io.pacelink.sim.scenario;

import io.pacelink.link.PathSpec;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Connection buffers (send buffer and flow-control window) sized from each flow's own path and share of it.
 */
class ScenarioBufferSizingTest
{
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000 * MS;
    private static final int MESSAGE = 16 * 1024;

    @Test
    void aFlowsBufferCoversFourTimesItsOwnBdpPlusTheQueue()
    {
        final PathSpec.Pair path = PathSpec.Pair.parse("rate=100mbit delay=1ms queue=100p", "delay=1ms");

        // 2 ms: 25 000 bytes of BDP and 150 000 of queue, four times, is below the 1 MiB floor.
        assertEquals(1 << 20, FlowBuffers.aloneBufferBytes(path, 0));
        // 50 ms of access delay at both hosts, both ways: 202 ms, 2 525 000 bytes of BDP; four times with the queue
        // is 10.7 MB, rounded up to a power of two.
        assertEquals(16 << 20, FlowBuffers.aloneBufferBytes(path, 50 * MS));
    }

    @Test
    void aPathWithoutARateGetsTheLargestBuffer()
    {
        assertEquals(64 << 20, FlowBuffers.aloneBufferBytes(PathSpec.Pair.parse("delay=10ms"), 0));
    }

    @Test
    void upToFourFlowsKeepWhatTheyWouldHaveAloneAndMoreGetFourFairSharesEach()
    {
        // 1 Gbit/s x 20 ms with a 1-BDP queue: 4 x (2.5 + 2.5) MB = 20 MB alone, 32 MiB as a power of two.
        final PathSpec.Pair path = PathSpec.Pair.parse("rate=1gbit delay=10ms queue=1bdp", null);
        assertEquals(32 << 20, FlowBuffers.sharedBufferBytes(path, 0, 1, MESSAGE));
        assertEquals(32 << 20, FlowBuffers.sharedBufferBytes(path, 0, 4, MESSAGE));
        assertEquals(16 << 20, FlowBuffers.sharedBufferBytes(path, 0, 8, MESSAGE), "20 MB / 2 = 10 MB");
        assertEquals(128 << 10, FlowBuffers.sharedBufferBytes(path, 0, 1000, MESSAGE), "20 MB x 4/1000 = 80 kB");
        assertEquals(64 << 10, FlowBuffers.sharedBufferBytes(path, 0, 100_000, MESSAGE), "never below 64 KiB");
        assertEquals(4 << 20, FlowBuffers.sharedBufferBytes(path, 0, 100_000, 1 << 20), "two messages fit");
    }

    @Test
    void aFlowsShareIsItsLargestWhileItRuns()
    {
        final List<FlowSpec> flows =
            new ArrayList<>(Collections.nCopies(9, FlowSpec.bulk("reno").during(0, 5 * SECOND)));
        flows.add(FlowSpec.bulk("reno"));
        flows.add(FlowSpec.bulk("reno").during(8 * SECOND, Long.MAX_VALUE));
        final long durationNs = 10 * SECOND;

        assertEquals(10, FlowBuffers.fewestConcurrentFlows(flows, 0, durationNs), "the nine leave together");
        assertEquals(1, FlowBuffers.fewestConcurrentFlows(flows, 9, durationNs), "alone from 5 s to 8 s");
        assertEquals(2, FlowBuffers.fewestConcurrentFlows(flows, 10, durationNs), "the latecomer never runs alone");

        final PathSpec.Pair path = PathSpec.Pair.parse("rate=1gbit delay=10ms queue=1bdp", null);
        assertEquals(32 << 20, FlowBuffers.bufferBytes(path, flows, 9, durationNs));
        assertEquals(8 << 20, FlowBuffers.bufferBytes(path, flows, 0, durationNs), "20 MB x 4/10 = 8 MB");
    }

    @Test
    void countersHaveRoomForTheEndpointAndEachConnection()
    {
        assertEquals(CountersReader.COUNTER_LENGTH * 192, FlowBuffers.countersValuesBytes(1));
        assertEquals(CountersReader.COUNTER_LENGTH * (128 + 64 * 10), FlowBuffers.countersValuesBytes(10));
    }
}
