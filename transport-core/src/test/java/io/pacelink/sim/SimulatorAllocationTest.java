package io.pacelink.sim;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.results.FlowResults;
import io.pacelink.transport.testing.AllocationMeter;
import org.junit.jupiter.api.Test;

/**
 * Once pools and arrays have grown to the traffic's high-water mark, moving packets through hosts, links, queues and
 * the event queue allocates nothing.
 */
class SimulatorAllocationTest
{
    private static final long SECOND = 1_000_000_000L;

    /**
     * 10 000 datagrams and as many ACKs per window, each passing through host, link, queue and event queue.
     */
    private static final long WINDOW_NS = 2 * SECOND;

    @Test
    void steadyStateSimulationDoesNotAllocate()
    {
        final Simulator simulator = new Simulator(5);
        final Dumbbell dumbbell = new Dumbbell(
            simulator, PathSpec.Pair.parse("rate=50mbit delay=10ms jitter=1ms loss=0.1% queue=1bdp | delay=10ms"));
        final SimHost sender = dumbbell.addLeftHost(2_000_000L);
        final SimHost receiver = dumbbell.addRightHost();
        sender.addAgent(new ConstantRateSender(sender.port(), receiver.address(), 1200, 200_000L, 0, 100 * SECOND));
        receiver.addAgent(new CountingReceiver(receiver.port(), true, new FlowResults("cbr", SECOND)));

        simulator.runUntil(3 * SECOND);

        // One allocation per packet would be hundreds of kilobytes per window. The pool may still add a 2 KiB holder
        // when jitter briefly raises the number of packets in flight to a new high, within the one-off allowance.
        final long[] windowEndNs = { 3 * SECOND };
        AllocationMeter.assertAllocationFree("2 s of simulated traffic", () ->
        {
            windowEndNs[0] += WINDOW_NS;
            simulator.runUntil(windowEndNs[0]);
        });
    }
}
