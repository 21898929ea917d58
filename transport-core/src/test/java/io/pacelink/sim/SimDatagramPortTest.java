package io.pacelink.sim;

import io.pacelink.link.PathSpec;
import io.pacelink.transport.port.ReceiveBatch;
import io.pacelink.transport.port.SendBatch;
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

    @Test
    void aBatchLeavesAsItsDatagramsOneByOneAndArrivesBackToBackInAReceiveBatch()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=5ms"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        final LongArrayList departuresNs = new LongArrayList();
        final LongArrayList sequences = new LongArrayList();
        sender.port().departureListener((buffer, offset, length, destination, nowNs) ->
        {
            departuresNs.addLong(nowNs);
            sequences.addLong(buffer.getLong(offset));
        });
        final SendBatch batch = new SendBatch(8, 8 * 1500);
        simulator.at(MS, (nowNs) ->
        {
            for (int i = 0; i < 5; i++)
            {
                batch.buffer().putLong(batch.nextOffset(), i);
                batch.commit(1000 + i, receiver.address(), 0);
            }
            assertEquals(5, sender.port().send(batch));
        });

        simulator.runUntil(50 * MS);

        assertEquals(List.of(MS, MS, MS, MS, MS), List.of(departuresNs.toArray(new Long[0])));
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), List.of(sequences.toArray(new Long[0])), "in order");
        assertEquals(5, receiver.port().pendingDatagrams());

        final ReceiveBatch received = receiver.port().newReceiveBatch(3);
        assertEquals(3, receiver.port().receive(received, 8), "as many as the batch holds");
        int expectedOffset = 0;
        for (int i = 0; i < 3; i++)
        {
            assertEquals(expectedOffset, received.offset(i), "back to back");
            assertEquals(1000 + i, received.length(i));
            assertEquals(i, received.buffer().getLong(received.offset(i)));
            assertEquals(sender.address(), received.source(i));
            expectedOffset += received.length(i);
        }
        assertEquals(1, receiver.port().receive(received, 1), "the limit");
        assertEquals(3L, received.buffer().getLong(received.offset(0)));
        assertEquals(1, receiver.port().receive(received, 8));
        assertEquals(0, receiver.port().receive(received, 8));
        assertEquals(5, receiver.port().receivedDatagrams());
    }
}
