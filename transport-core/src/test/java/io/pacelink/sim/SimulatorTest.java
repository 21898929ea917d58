package io.pacelink.sim;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.results.FlowResults;
import io.pacelink.sim.results.LinkReport;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimulatorTest
{
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;

    @Test
    void pingPongRttIsPropagationPlusSerializationExactly()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=10mbit delay=20ms"));
        final SimHost client = dumbbell.addLeftHost();
        final SimHost server = dumbbell.addRightHost();
        final PingAgent ping = new PingAgent(client.port(), server.address(), 100, 100 * MS, 10);
        client.addAgent(ping);
        server.addAgent(new EchoAgent(server.port()));

        simulator.runUntil(2 * SECOND);

        // 2 x 20 ms propagation + 2 x (100 B * 8 / 10 Mbit/s = 80 us) serialization.
        assertEquals(10, ping.rttNs.size());
        for (int i = 0; i < ping.rttNs.size(); i++)
        {
            assertEquals(40_160_000L, ping.rttNs.getLong(i));
        }
        assertEquals(2 * SECOND, simulator.nowNs());
    }

    @Test
    void accessDelaysAddToTheRttInBothDirections()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=10mbit delay=20ms | delay=30ms"));
        final SimHost client = dumbbell.addLeftHost(5 * MS);
        final SimHost server = dumbbell.addRightHost(1 * MS);
        final PingAgent ping = new PingAgent(client.port(), server.address(), 100, 100 * MS, 3);
        client.addAgent(ping);
        server.addAgent(new EchoAgent(server.port()));

        simulator.runUntil(SECOND);

        // 20 + 30 ms bottleneck, 2 x (5 + 1) ms access, 80 us serialization forward only (reverse has no rate).
        assertEquals(3, ping.rttNs.size());
        assertEquals(62_080_000L, ping.rttNs.getLong(0));
    }

    @Test
    void constantRateSenderFillsTheQueueThenDropsTheExcess()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=10mbit delay=10ms queue=100p"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        // 1500 B every 1 ms = 12 Mbit/s into a 10 Mbit/s bottleneck (1.2 ms per packet).
        final ConstantRateSender cbr =
            new ConstantRateSender(sender.port(), receiver.address(), 1500, MS, 0, 5 * SECOND);
        final CountingReceiver sink = new CountingReceiver(receiver.port(), false, new FlowResults("cbr", SECOND));
        sender.addAgent(cbr);
        receiver.addAgent(sink);
        final LongArrayList dropsAt = new LongArrayList();
        simulator.at(600_500_000L, (nowNs) -> dropsAt.addLong(dumbbell.forward().counters().queueDropPackets()));
        simulator.at(620_500_000L, (nowNs) -> dropsAt.addLong(dumbbell.forward().counters().queueDropPackets()));

        simulator.runUntil(5 * SECOND);

        // Arrival k (at k ms) finds k - floor(k / 1.2) packets in the system: 100 waiting + 1 serializing at k = 600,
        // so the first drop is the arrival at 601 ms. From then on the queue stays full: of the 20 arrivals in
        // 601..620 ms, 16 find room (completions at 601.2, 602.4, ... 619.2 ms) and 4 are dropped.
        assertEquals(0, dropsAt.getLong(0));
        assertEquals(4, dropsAt.getLong(1));
        assertEquals(5000, cbr.sent());
        // By 5 s the bottleneck served floor(5000 / 1.2) = 4166 packets (the last at 4999.2 ms, after the last arrival
        // at 4999 ms), so 99 wait and 1 is serializing; the rest were dropped.
        assertEquals(4166, dumbbell.forward().counters().servedPackets());
        assertEquals(99, dumbbell.forward().queuedPackets());
        assertEquals(5000 - 4166 - 100, dumbbell.forward().counters().queueDropPackets());
        // A full queue of 100 packets waits 120 ms.
        final LinkReport report = LinkReport.of(dumbbell.forward(), 5 * SECOND);
        assertEquals(120 * MS, report.queueDelay().maxNs(), 0.002 * 120 * MS);
        assertEquals(1.0, report.utilisation(), 0.001);
        // Goodput in whole seconds after the first: exactly the bottleneck rate (one packet per 1.2 ms).
        for (int second = 1; second < 5; second++)
        {
            assertEquals(10e6, sink.results.goodput().bitsPerSecond(second), 12_000);
        }
    }

    @Test
    void leftHostsWithALineRateSerializeWhatTheySendOnAPathWithoutARate()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("delay=1ms"), 1_000_000_000L);
        final SimHost client = dumbbell.addLeftHost();
        final SimHost server = dumbbell.addRightHost();
        final PingAgent ping = new PingAgent(client.port(), server.address(), 1250, 100 * MS, 3);
        client.addAgent(ping);
        server.addAgent(new EchoAgent(server.port()));
        // 1500 bytes every 6 us is 2 Gbit/s offered to a 1 Gbit/s line (12 us per packet) and its 1000-packet queue.
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        sender.addAgent(new ConstantRateSender(sender.port(), receiver.address(), 1500, 6_000L, 0, 100 * MS));
        final CountingReceiver sink = new CountingReceiver(receiver.port(), false, new FlowResults("cbr", 10 * MS));
        receiver.addAgent(sink);

        simulator.runUntil(SECOND);

        // 2 ms of propagation and 10 us to serialize 1250 bytes at 1 Gbit/s, one way only: the right host has no line.
        assertEquals(2 * MS + 10_000L, ping.rttNs.getLong(0));
        // The line carried 1 Gbit/s, one packet per 12 us, while the sender ran (the first arrived after 1 ms).
        assertEquals(1e9, sink.results.goodput().bitsPerSecond(10 * MS, 100 * MS), 0.001e9);
        assertEquals(0, dumbbell.forward().counters().queueDropPackets(), "the path itself never queues");
    }

    @Test
    void aWatcherSeesTheRunAndCanStopIt()
    {
        final Simulator simulator = new Simulator(1);
        final long[] looks = new long[2];
        simulator.every(0, 1_000L, (nowNs) -> { });
        simulator.runUntil(SECOND, (nowNs, eventsFired) ->
        {
            looks[0]++;
            looks[1] = eventsFired;
            return looks[0] < 3;
        });

        assertEquals(3, looks[0]);
        assertEquals(3L * Simulator.WATCH_INTERVAL_EVENTS, looks[1], "a look every 2^14 events");
        assertEquals((looks[1] - 1) * 1_000L, simulator.nowNs(), "stopped right after the event of the last look");
    }

    @Test
    void eventsAtTheSameTimeFireInSchedulingOrder()
    {
        final Simulator simulator = new Simulator(1);
        final StringBuilder order = new StringBuilder();
        simulator.at(5 * MS, (nowNs) -> order.append('a'));
        simulator.at(3 * MS, (nowNs) -> order.append('b'));
        simulator.at(5 * MS, (nowNs) -> order.append('c'));
        simulator.every(0, 2 * MS, (nowNs) -> order.append(nowNs / MS));

        simulator.runUntil(5 * MS);

        assertEquals("02b4ac", order.toString());
        assertThrows(IllegalArgumentException.class, () -> simulator.at(4 * MS, (nowNs) -> { }));
    }

    @Test
    void datagramsToUnknownAddressesAreCountedAndDropped()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("delay=1ms"));
        final SimHost host = dumbbell.addLeftHost();
        final InetSocketAddress nowhere = new InetSocketAddress(dumbbell.addLeftHost().address().getAddress(), 9);
        host.addAgent(new ConstantRateSender(host.port(), nowhere, 100, MS, 0, 10 * MS));

        simulator.runUntil(SECOND);

        assertEquals(10, dumbbell.unroutablePackets());
        assertTrue(simulator.pool().allocatedPackets() <= 2);
    }

    @Test
    void agentThatNeverMovesItsDeadlineOnIsReported()
    {
        final Simulator simulator = new Simulator(1);
        final SimHost host = new Dumbbell(simulator, PathSpec.Pair.parse("")).addLeftHost();
        host.addAgent(new SimulatedAgent()
        {
            public int doWork(final long nowNs)
            {
                return 0;
            }

            public long nextDeadlineNs()
            {
                return 0;
            }
        });

        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> simulator.runUntil(SECOND));
        assertTrue(ex.getMessage().contains("left-0"), ex.getMessage());
    }

    @Test
    void hostsHaveLoopbackAddressesAndPortsWork()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse(""));
        final SimHost left = dumbbell.addLeftHost();
        final SimHost right = dumbbell.addRightHost();

        assertTrue(left.address().getAddress().isLoopbackAddress());
        assertEquals("127.1.0.1", left.address().getAddress().getHostAddress());
        assertEquals("127.2.0.1", right.address().getAddress().getHostAddress());

        final UnsafeBuffer payload = new UnsafeBuffer(new byte[]{ 1, 2, 3 });
        assertTrue(left.port().send(payload, 0, 3, right.address()));
        simulator.runUntil(1);
        assertEquals(1, right.port().pendingDatagrams());
        final int[] seen = new int[1];
        right.port().receive((buffer, offset, length, source, nowNs) ->
        {
            assertEquals(left.address(), source);
            seen[0] = buffer.getByte(offset + 2);
        }, 10, 1);
        assertEquals(3, seen[0]);
        right.port().close();
        assertTrue(left.port().send(payload, 0, 3, right.address()));
        simulator.runUntil(2);
        assertEquals(0, right.port().pendingDatagrams());
    }
}
