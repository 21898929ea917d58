package io.pacelink.sim;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.results.FlowResults;
import io.pacelink.sim.results.TraceWriter;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class DeterminismTest
{
    private static final long MS = 1_000_000L;

    record Outcome(long traceHash, long eventsFired, long rowsHash, long[] received, long queueDrops, long losses,
        String csv)
    {
    }

    private static Outcome run(final long seed)
    {
        final Simulator simulator = new Simulator(seed);
        final Dumbbell dumbbell = new Dumbbell(
            simulator, PathSpec.Pair.parse("rate=20mbit delay=10ms jitter=1ms loss=1% queue=50p | delay=10ms"));
        final long[] received = new long[3];
        final CountingReceiver[] sinks = new CountingReceiver[3];
        final ConstantRateSender[] senders = new ConstantRateSender[3];
        for (int i = 0; i < 3; i++)
        {
            final SimHost left = dumbbell.addLeftHost(i * MS);
            final SimHost right = dumbbell.addRightHost();
            senders[i] = new ConstantRateSender(left.port(), right.address(), 1200, 600_000L + i * 100_000L,
                i * 50 * MS, 2_000 * MS);
            sinks[i] = new CountingReceiver(right.port(), true, new FlowResults("flow-" + i, 100 * MS));
            left.addAgent(senders[i]);
            right.addAgent(sinks[i]);
        }
        final StringWriter csv = new StringWriter();
        final TraceWriter trace = new TraceWriter(csv, null);
        simulator.every(0, 10 * MS, (nowNs) -> trace.sample(nowNs, (sampleNs, row) -> row.set(
            dumbbell.forward().queuedBytes(),
            senders[0].sent(),
            dumbbell.forward().propagatingPackets(),
            sinks[0].received(),
            dumbbell.forward().counters().servedBytes(),
            dumbbell.reverse().counters().deliveredPackets(),
            dumbbell.forward().queuedPackets() > 25 ? "FULL" : "OK")));

        simulator.runUntil(2_500 * MS);

        for (int i = 0; i < 3; i++)
        {
            received[i] = sinks[i].received();
        }
        return new Outcome(simulator.traceHash(), simulator.eventsFired(), trace.hash(), received,
            dumbbell.forward().counters().queueDropPackets(), dumbbell.forward().counters().randomLossPackets(),
            csv.toString());
    }

    @Test
    void sameSeedGivesIdenticalEventsCountersAndTrace()
    {
        final Outcome first = run(2024);
        final Outcome second = run(2024);

        assertEquals(first.traceHash(), second.traceHash());
        assertEquals(first.eventsFired(), second.eventsFired());
        assertEquals(first.rowsHash(), second.rowsHash());
        assertEquals(first.csv(), second.csv());
        assertEquals(first.queueDrops(), second.queueDrops());
        assertEquals(first.losses(), second.losses());
        for (int i = 0; i < 3; i++)
        {
            assertEquals(first.received()[i], second.received()[i]);
        }
    }

    @Test
    void differentSeedGivesDifferentRandomLoss()
    {
        final Outcome first = run(2024);
        final Outcome other = run(2025);

        assertNotEquals(first.traceHash(), other.traceHash());
        assertNotEquals(first.rowsHash(), other.rowsHash());
    }
}
