package io.pacelink.sim;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.results.FlowResults;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Once pools and arrays have grown to the traffic's high-water mark, moving packets through hosts, links, queues and
 * the event queue allocates nothing.
 */
class SimulatorAllocationTest
{
    private static final long SECOND = 1_000_000_000L;

    @Test
    void steadyStateSimulationDoesNotAllocate()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);

        final Simulator simulator = new Simulator(5);
        final Dumbbell dumbbell = new Dumbbell(
            simulator, PathSpec.Pair.parse("rate=50mbit delay=10ms jitter=1ms loss=0.1% queue=1bdp | delay=10ms"));
        final SimHost sender = dumbbell.addLeftHost(2_000_000L);
        final SimHost receiver = dumbbell.addRightHost();
        sender.addAgent(new ConstantRateSender(sender.port(), receiver.address(), 1200, 200_000L, 0, 100 * SECOND));
        receiver.addAgent(new CountingReceiver(receiver.port(), true, new FlowResults("cbr", SECOND)));

        simulator.runUntil(3 * SECOND);
        final long threadId = Thread.currentThread().getId();
        final long before = threads.getThreadAllocatedBytes(threadId);
        simulator.runUntil(8 * SECOND);
        final long allocatedBytes = threads.getThreadAllocatedBytes(threadId) - before;

        // 25 000 datagrams and as many ACKs in those 5 s: one allocation per packet would be megabytes. The slack allows
        // the pool a few more 2 KiB holders when jitter briefly raises the number of packets in flight.
        assertTrue(allocatedBytes < 16 * 1024, "allocated " + allocatedBytes + " bytes in steady state");
    }
}
