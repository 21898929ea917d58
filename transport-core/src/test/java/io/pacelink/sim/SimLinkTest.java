package io.pacelink.sim;

import io.pacelink.link.PathSpec;
import io.pacelink.transport.port.DatagramHandler;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link SimLink}: one event per delivery, none for the end of a serialization, and a change to the link through
 * {@link Dumbbell#forward()} applied at the time it is made.
 */
class SimLinkTest
{
    private static final long MS = 1_000_000L;

    @Test
    void aPacketCrossingABottleneckCostsOneEventItsDelivery()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=10mbit delay=10ms"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        // 1500 B every 1 ms into 1.2 ms of serialization each: a queue builds, every delivery at an instant of its own.
        final CountingAgent cbr = new CountingAgent(
            new ConstantRateSender(sender.port(), receiver.address(), 1500, MS, 0, 100 * MS));
        final Recorder recorder = new Recorder(receiver.port());
        final CountingAgent sink = new CountingAgent(recorder);
        sender.addAgent(cbr);
        receiver.addAgent(sink);

        simulator.runUntil(1_000 * MS);

        assertEquals(100, recorder.timesNs.size());
        // The first is serialized by 1.2 ms and propagates for 10 ms; the queue then delivers one per 1.2 ms.
        for (int i = 0; i < 100; i++)
        {
            assertEquals(11_200_000L + i * 1_200_000L, recorder.timesNs.getLong(i));
        }
        // Every event not an agent's was a delivery: 100, where one per serialization's end too would have been 200.
        assertEquals(100, simulator.eventsFired() - cbr.runs - sink.runs);
    }

    @Test
    void aDelayShortenedWhileAPacketIsSerializedAppliesToItsDelivery()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=10mbit delay=40ms"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        sender.addAgent(new Burst(sender.port(), receiver.address(), 1250, 1));
        final Recorder recorder = new Recorder(receiver.port());
        receiver.addAgent(recorder);
        // The packet is serialized from 0 to 1 ms; the route changes half way, so it leaves with the new delay.
        simulator.at(MS / 2, (nowNs) -> dumbbell.forward().propagationDelayNs(5 * MS));

        simulator.runUntil(100 * MS);

        // Not at 41 ms, where the delay it was offered with would have put it.
        assertEquals(1, recorder.timesNs.size());
        assertEquals(6 * MS, recorder.timesNs.getLong(0));
    }

    @Test
    void aRateChangedBetweenTwoSerializationsAppliesFromTheNextOneOn()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=10mbit delay=20ms"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        sender.addAgent(new Burst(sender.port(), receiver.address(), 1250, 3));
        final Recorder recorder = new Recorder(receiver.port());
        receiver.addAgent(recorder);
        // 1 ms per packet at 10 Mbit/s: the first is serialized by 1 ms and the second is being serialized at 1.5 ms,
        // when the rate halves; the third starts at 2 ms at the new rate.
        simulator.at(3 * MS / 2,
            (nowNs) -> dumbbell.forward().rate(PathSpec.parse("rate=5mbit").rate()));

        simulator.runUntil(100 * MS);

        assertEquals(3, recorder.timesNs.size());
        assertEquals(21 * MS, recorder.timesNs.getLong(0));
        assertEquals(22 * MS, recorder.timesNs.getLong(1));
        assertEquals(24 * MS, recorder.timesNs.getLong(2));
        // Read at the end, the link's counters are as of now.
        assertEquals(3, dumbbell.forward().counters().servedPackets());
    }

    @Test
    void theQueueReadBetweenEventsIsAsOfNow()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=10mbit delay=20ms"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        sender.addAgent(new Burst(sender.port(), receiver.address(), 1250, 5));
        receiver.addAgent(new Recorder(receiver.port()));
        final LongArrayList queued = new LongArrayList();
        // One packet serialized per ms: at 2.5 ms two are done, one is being serialized and two wait.
        simulator.at(5 * MS / 2, (nowNs) -> queued.addLong(dumbbell.forward().queuedPackets()));
        simulator.at(5 * MS / 2, (nowNs) -> queued.addLong(dumbbell.forward().counters().servedPackets()));

        simulator.runUntil(100 * MS);

        assertEquals(2, queued.getLong(0));
        assertEquals(2, queued.getLong(1));
    }

    /**
     * Counts the runs of the agent it wraps.
     */
    private static final class CountingAgent implements SimulatedAgent
    {
        private final SimulatedAgent agent;
        private long runs;

        CountingAgent(final SimulatedAgent agent)
        {
            this.agent = agent;
        }

        public int doWork(final long nowNs)
        {
            runs++;
            return agent.doWork(nowNs);
        }

        public long nextDeadlineNs()
        {
            return agent.nextDeadlineNs();
        }
    }

    /**
     * Sends a number of datagrams at once, at its first run.
     */
    private static final class Burst implements SimulatedAgent
    {
        private final SimDatagramPort port;
        private final InetSocketAddress peer;
        private final UnsafeBuffer datagram;
        private int left;

        Burst(final SimDatagramPort port, final InetSocketAddress peer, final int lengthBytes, final int datagrams)
        {
            this.port = port;
            this.peer = peer;
            this.datagram = new UnsafeBuffer(new byte[lengthBytes]);
            this.left = datagrams;
        }

        public int doWork(final long nowNs)
        {
            final int sent = left;
            for (; left > 0; left--)
            {
                port.send(datagram, 0, datagram.capacity(), peer);
            }
            return sent;
        }

        public long nextDeadlineNs()
        {
            return Long.MAX_VALUE;
        }
    }

    /**
     * Records when each datagram arrives.
     */
    private static final class Recorder implements SimulatedAgent, DatagramHandler
    {
        private final SimDatagramPort port;
        private final LongArrayList timesNs = new LongArrayList();

        Recorder(final SimDatagramPort port)
        {
            this.port = port;
        }

        public int doWork(final long nowNs)
        {
            return port.receive(this, 64, nowNs);
        }

        public long nextDeadlineNs()
        {
            return Long.MAX_VALUE;
        }

        public void onDatagram(
            final DirectBuffer buffer,
            final int offset,
            final int length,
            final InetSocketAddress source,
            final long nowNs)
        {
            timesNs.addLong(nowNs);
        }
    }
}
