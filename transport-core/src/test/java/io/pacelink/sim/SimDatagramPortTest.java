package io.pacelink.sim;

import io.pacelink.link.PathSpec;
import org.agrona.collections.LongArrayList;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SimDatagramPortTest
{
    private static final long MS = 1_000_000L;

    @Test
    void departureListenerHearsEveryDatagramWhenItLeavesTheHost()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=10mbit delay=5ms"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        final LongArrayList departuresNs = new LongArrayList();
        final LongArrayList sequences = new LongArrayList();
        final List<InetSocketAddress> destinations = new ArrayList<>();
        sender.port().departureListener((buffer, offset, length, destination, nowNs) ->
        {
            assertEquals(1000, length);
            departuresNs.addLong(nowNs);
            sequences.addLong(buffer.getLong(offset));
            destinations.add(destination);
        });
        // 1000 B every 3 ms from 1 ms to 10 ms: departures at 1, 4 and 7 ms (the link's queueing comes after).
        sender.addAgent(new ConstantRateSender(sender.port(), receiver.address(), 1000, 3 * MS, MS, 10 * MS));
        simulator.at(5 * MS, (nowNs) -> sender.port().departureListener(null));

        simulator.runUntil(20 * MS);

        assertEquals(2, departuresNs.size(), "the listener was removed at 5 ms");
        assertEquals(MS, departuresNs.getLong(0));
        assertEquals(4 * MS, departuresNs.getLong(1));
        assertEquals(0L, sequences.getLong(0));
        assertEquals(1L, sequences.getLong(1));
        assertEquals(List.of(receiver.address(), receiver.address()), destinations);
        assertEquals(3, sender.port().sentDatagrams());
    }
}
