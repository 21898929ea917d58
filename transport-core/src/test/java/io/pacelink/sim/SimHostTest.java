package io.pacelink.sim;

import io.pacelink.link.PathSpec;
import io.pacelink.transport.port.ReceiveBatch;
import org.agrona.collections.LongArrayList;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SimHostTest
{
    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;

    /**
     * A receiving agent that records when it ran and how many datagrams each run read, with each one's arrival time
     * as the port reports it; it can hold arrivals until a deadline of its own.
     */
    private static final class RecordingReceiver implements SimulatedAgent
    {
        final LongArrayList runsNs = new LongArrayList();
        final LongArrayList readPerRun = new LongArrayList();
        final LongArrayList arrivalsNs = new LongArrayList();
        private final SimDatagramPort port;
        private final ReceiveBatch batch;
        private final long holdUntilNs;

        RecordingReceiver(final SimDatagramPort port, final long holdUntilNs)
        {
            this.port = port;
            this.batch = port.newReceiveBatch(64);
            this.holdUntilNs = holdUntilNs;
        }

        public int doWork(final long nowNs)
        {
            final int read = port.receive(batch, 64);
            for (int i = 0; i < read; i++)
            {
                arrivalsNs.addLong(batch.arrivalTimeNs(i, nowNs));
            }
            runsNs.addLong(nowNs);
            readPerRun.addLong(read);
            return read;
        }

        public long nextDeadlineNs()
        {
            return runsNs.isEmpty() || runsNs.getLong(runsNs.size() - 1) < holdUntilNs ? holdUntilNs : Long.MAX_VALUE;
        }

        public boolean wakesOnArrival()
        {
            return runsNs.getLong(runsNs.size() - 1) >= holdUntilNs;
        }
    }

    /**
     * Four 1000-byte datagrams at 100 Mbit/s arrive 80 µs apart from 6.08 ms on (5 ms of delay after each one's
     * serialization); the sender sends them at 1 ms.
     */
    private static RecordingReceiver runFourArrivals(final long interruptDelayNs, final long holdUntilNs)
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=5ms"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost().interruptDelayNs(interruptDelayNs);
        sender.addAgent(new ConstantRateSender(sender.port(), receiver.address(), 1000, 1, MS, MS + 4));
        final RecordingReceiver agent = new RecordingReceiver(receiver.port(), holdUntilNs);
        receiver.addAgent(agent);
        simulator.runUntil(20 * MS);
        assertEquals(4, receiver.deliveredDatagrams());
        return agent;
    }

    private static final long FIRST_ARRIVAL_NS = 6 * MS + 80 * US;

    @Test
    void withoutAnInterruptDelayTheAgentRunsAtEveryArrivalAndReadsItThere()
    {
        final RecordingReceiver agent = runFourArrivals(0, 0);

        assertEquals(5, agent.runsNs.size(), "its first run at 0, then one per arrival: " + agent.runsNs);
        for (int i = 0; i < 4; i++)
        {
            assertEquals(FIRST_ARRIVAL_NS + i * 80 * US, agent.runsNs.getLong(i + 1));
            assertEquals(1, agent.readPerRun.getLong(i + 1));
            assertEquals(agent.runsNs.getLong(i + 1), agent.arrivalsNs.getLong(i), "read as it arrived: no age");
        }
    }

    @Test
    void anInterruptDelayRunsTheAgentThatLongAfterAnArrivalWithWhatArrivedMeanwhile()
    {
        // 100 µs: the first arrival's interrupt at 6.18 ms reads the first two (6.08, 6.16 ms); the third (6.24)
        // raises the next at 6.34 ms, which reads the third and fourth (6.32 ms).
        final RecordingReceiver agent = runFourArrivals(100 * US, 0);

        assertEquals(3, agent.runsNs.size(), agent.runsNs.toString());
        assertEquals(FIRST_ARRIVAL_NS + 100 * US, agent.runsNs.getLong(1));
        assertEquals(2, agent.readPerRun.getLong(1));
        assertEquals(FIRST_ARRIVAL_NS + 260 * US, agent.runsNs.getLong(2));
        assertEquals(2, agent.readPerRun.getLong(2));
        for (int i = 0; i < 4; i++)
        {
            assertEquals(FIRST_ARRIVAL_NS + i * 80 * US, agent.arrivalsNs.getLong(i),
                "each datagram's own arrival time, however long it waited in the port");
        }
    }

    @Test
    void anAgentThatHoldsArrivalsRunsOnlyAtItsDeadlineAndReadsThemAll()
    {
        final long holdUntilNs = 7 * MS;
        final RecordingReceiver agent = runFourArrivals(0, holdUntilNs);

        assertEquals(2, agent.runsNs.size(), agent.runsNs.toString());
        assertEquals(holdUntilNs, agent.runsNs.getLong(1));
        assertEquals(4, agent.readPerRun.getLong(1));
        assertEquals(FIRST_ARRIVAL_NS + 240 * US, agent.arrivalsNs.getLong(3));
    }

    @Test
    void aNegativeInterruptDelayIsRefused()
    {
        final Simulator simulator = new Simulator(1);
        final SimHost host = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=5ms")).addRightHost();
        assertThrows(IllegalArgumentException.class, () -> host.interruptDelayNs(-1));
        host.interruptDelayNs(0);
    }
}
