package io.pacelink.sim;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.results.FlowResults;
import io.pacelink.sim.results.LinkReport;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A micro-measure of simulator speed: one ACK-clocked flow for 60 s on a 100 Mbit/s, 150 ms path. The speed is
 * printed, not asserted; the test checks only that the path was used fully.
 */
class SimulatorSpeedTest
{
    private static final long SECOND = 1_000_000_000L;

    @Test
    void sixtySecondsOfOneFlowOnA100MbitPath()
    {
        final Simulator simulator = new Simulator(3);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=75ms queue=1bdp"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        // One BDP in flight: 100 Mbit/s * 150 ms / 1500 B = 1250 datagrams.
        final WindowSender flow = new WindowSender(sender.port(), receiver.address(), 1500, 1250);
        final CountingReceiver sink = new CountingReceiver(receiver.port(), true, new FlowResults("flow", SECOND));
        sender.addAgent(flow);
        receiver.addAgent(sink);

        final long wallStartNs = System.nanoTime();
        simulator.runUntil(60 * SECOND);
        final long wallNs = System.nanoTime() - wallStartNs;

        final long packets = dumbbell.forward().counters().deliveredPackets() +
            dumbbell.reverse().counters().deliveredPackets();
        System.out.printf("simulator speed: 60 s of 100 Mbit/s x 150 ms in %.0f ms wall (%.0fx real time), " +
            "%d packets, %.2f M packets/s, %d events, %d packets allocated%n",
            wallNs / 1e6, 60e9 / wallNs, packets, packets / (wallNs / 1e9) / 1e6, simulator.eventsFired(),
            simulator.pool().allocatedPackets());

        assertEquals(0, dumbbell.forward().counters().queueDropPackets());
        assertTrue(LinkReport.of(dumbbell.forward(), 60 * SECOND).utilisation() > 0.99);
        assertEquals(100e6, sink.results.goodput().bitsPerSecond(SECOND, 60 * SECOND), 0.01 * 100e6);
    }
}
