package io.pacelink.sim;

import io.pacelink.link.LinkPacket;
import io.pacelink.link.PathSpec;
import io.pacelink.transport.port.ReceiveBatch;
import io.pacelink.transport.port.SendBatch;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    void aBatchLeavesAsItsDatagramsOneByOneAndArrivesInAReceiveBatchWhereItLies()
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
        for (int i = 0; i < 3; i++)
        {
            assertNotSame(received.buffer(), received.buffer(i), "lent where it lies, not copied");
            assertEquals(1000 + i, received.length(i));
            assertEquals(i, received.buffer(i).getLong(received.offset(i)));
            assertEquals(sender.address(), received.source(i));
        }
        assertEquals(1, receiver.port().receive(received, 1), "the limit");
        assertEquals(3L, received.buffer(0).getLong(received.offset(0)));
        assertEquals(1, receiver.port().receive(received, 8));
        assertEquals(0, receiver.port().receive(received, 8));
        assertEquals(5, receiver.port().receivedDatagrams());
    }

    @Test
    void aReceiveTakesAsManyAsWouldFitInTheBatchsBufferBackToBack()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=5ms"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        sendNumbered(simulator, sender, receiver, 4);

        // Room for 2,500 bytes: two datagrams of 1,000 fit back to back, a third waits for the next receive, as a
        // socket port copying into the batch would leave it.
        final ReceiveBatch received = new ReceiveBatch(8, 2_500);
        assertEquals(2, receiver.port().receive(received, 8));
        assertEquals(1L, received.buffer(1).getLong(received.offset(1)));
        assertEquals(2, receiver.port().receive(received, 8));
        assertEquals(2L, received.buffer(0).getLong(received.offset(0)));
        assertEquals(3L, received.buffer(1).getLong(received.offset(1)));
    }

    @Test
    void aReceiveReadsOneByteOfEveryCacheLineOfTheDatagramsItLendsAndChangesNone()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=5ms"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        final SendBatch batch = new SendBatch(8, 8 * 1500);
        simulator.at(MS, (nowNs) ->
        {
            for (int i = 0; i < 3; i++)
            {
                // Datagram i: i + 1 at the start of each of its 16 lines of 64 bytes (1,000 bytes), 0 elsewhere.
                final int offset = batch.nextOffset();
                for (int at = 0; at < 1000; at++)
                {
                    batch.buffer().putByte(offset + at, (byte)(at % 64 == 0 ? i + 1 : 0));
                }
                batch.commit(1000, receiver.address(), 0);
            }
            assertEquals(3, sender.port().send(batch));
        });
        simulator.runUntil(50 * MS);

        assertEquals(0, receiver.port().readAheadSum());
        final ReceiveBatch received = receiver.port().newReceiveBatch(2);
        assertEquals(2, receiver.port().receive(received, 8));
        assertEquals((1 + 2) * 16, receiver.port().readAheadSum(), "every line of both datagrams lent, once");
        assertEquals(1, receiver.port().receive(received, 8));
        assertEquals((1 + 2 + 3) * 16, receiver.port().readAheadSum(), "the third, and not the two given back");
        for (int at = 0; at < 1000; at++)
        {
            assertEquals(at % 64 == 0 ? 3 : 0, received.buffer(0).getByte(received.offset(0) + at), "unchanged");
        }
    }

    @Test
    void aBatchThePortMadeIsWrittenIntoThePacketsThatTravelAndRefusedOnceClosed()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=5ms"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        final SendBatch batch = sender.port().newSendBatch(8, 8 * 1500);
        simulator.at(MS, (nowNs) ->
        {
            for (int i = 0; i < 3; i++)
            {
                assertTrue(batch.hasRoomFor(1500));
                final int offset = batch.claim(1500);
                assertNotSame(batch.buffer(), batch.claimedBuffer(), "written in the port's packet");
                batch.claimedBuffer().putLong(offset, 10 + i);
                batch.commit(1000 + i, receiver.address(), 0);
                assertNotSame(batch.buffer(), batch.buffer(i), "the entry lies in the port's packet");
            }
            assertEquals((1000 + 1001 + 1002), batch.totalBytes(), "room counted as in the batch's buffer");
            // A datagram larger than the pool's small packets is written into a large one: the batch has no memory.
            final int offset = batch.claim(4000);
            assertNotSame(batch.buffer(), batch.claimedBuffer());
            assertEquals(0, offset);
            batch.claimedBuffer().putLong(offset, 13);
            batch.commit(3000, receiver.address(), 0);
            // One that might have been large and is not travels in a small packet, as it would have been copied.
            final int smallOffset = batch.claim(4000);
            batch.claimedBuffer().putLong(smallOffset, 14);
            batch.commit(500, receiver.address(), 0);
            assertEquals(5, sender.port().send(batch));
            batch.clear();
        });
        simulator.at(2 * MS, (nowNs) ->
        {
            sender.port().close();
            final int offset = batch.claim(1500);
            batch.claimedBuffer().putLong(offset, 99);
            batch.commit(1000, receiver.address(), 0);
            assertEquals(0, sender.port().send(batch), "a closed port sends nothing");
        });

        simulator.runUntil(50 * MS);

        final ReceiveBatch received = receiver.port().newReceiveBatch(8);
        assertEquals(5, receiver.port().receive(received, 8));
        final long[] sequences = new long[5];
        final int[] lengths = new int[5];
        final int[] packetBytes = new int[5];
        for (int i = 0; i < 5; i++)
        {
            sequences[i] = received.buffer(i).getLong(received.offset(i));
            lengths[i] = received.length(i);
            packetBytes[i] = received.buffer(i).byteArray().length;
        }
        assertArrayEquals(new long[] {10, 11, 12, 13, 14}, sequences);
        assertArrayEquals(new int[] {1000, 1001, 1002, 3000, 500}, lengths);
        final int small = simulator.pool().smallCapacityBytes();
        assertArrayEquals(new int[] {small, small, small, LinkPacket.MAX_DATAGRAM_BYTES, small}, packetBytes);
        assertEquals(5, sender.port().sentDatagrams());
    }

    @Test
    void theBatchesThePortMakesHaveNoMemoryOfTheirOwnYetFillUpAsIfTheyHad()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=5ms"));
        final SimHost host = dumbbell.addLeftHost();

        final ReceiveBatch received = host.port().newReceiveBatch(64);
        assertEquals(0, received.buffer().capacity(), "every datagram is lent where it lies");
        assertEquals(LinkPacket.MAX_DATAGRAM_BYTES + 64 * 2048 + 29, received.capacityBytes(),
            "the room counted, a cache line's multiple");

        final SendBatch batch = host.port().newSendBatch(4, 4 * 1500);
        assertEquals(0, batch.buffer().capacity(), "every datagram is written into a pooled packet");
        for (int i = 0; i < 4; i++)
        {
            assertTrue(batch.hasRoomFor(1500), "room counted as in a buffer of 6,000 bytes");
            batch.claim(1500);
            batch.commit(1500, host.address(), 0);
        }
        assertFalse(batch.hasRoomFor(1));
        batch.clear();
        assertTrue(batch.hasRoomFor(1500));
        assertThrows(IllegalStateException.class, () -> batch.commit(100, host.address(), 0),
            "a datagram not claimed has nowhere to be");
    }

    @Test
    void aBatchThePortMadeGivesItsPacketsBackWhenCleared()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=5ms"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        sendNumbered(simulator, sender, receiver, 2);

        final ReceiveBatch received = receiver.port().newReceiveBatch(8);
        assertEquals(2, receiver.port().receive(received, 8));
        final byte[] lent = received.buffer(1).byteArray();
        received.clear();
        final LinkPacket next = simulator.pool().acquire(1000);
        assertSame(lent, next.data(), "the packet read last is the next one a send writes into");
    }

    @Test
    void aCrc32cLeftToThePortIsVouchedForAtTheReceiverAndWrittenWhereTheBytesAreReadAsOnAWire()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=5ms"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        assertTrue(sender.port().offloadsCrc32c());
        final List<Boolean> intactAtDeparture = new ArrayList<>();
        // 0: trailer left to the port; 1: sealed by the sender; 2: left to the port, heard by a departure listener
        // (which reads the bytes as they leave: the trailer is written first); 3: left to the port, received by a
        // handler (the same).
        sendWithTrailers(simulator, sender, receiver, new boolean[] {true, false, true, true}, 2, intactAtDeparture);
        assertEquals(List.of(true), intactAtDeparture, "the listener read the trailer the port wrote");

        final ReceiveBatch received = receiver.port().newReceiveBatch(2);
        assertEquals(2, receiver.port().receive(received, 2));
        assertTrue(received.isVerified(0), "left to the port, arrived as sent: vouched for");
        assertEquals(0xDEADBEEF, trailer(received.buffer(0), received.offset(0), received.length(0)),
            "and never computed");
        assertFalse(received.isVerified(1), "sealed by its sender: the port does not know it");
        assertTrue(isIntact(received.buffer(1), received.offset(1), received.length(1)));
        assertEquals(1, receiver.port().receive(received, 1));
        assertFalse(received.isVerified(0), "written for the departure listener: checked as any other");
        assertTrue(isIntact(received.buffer(0), received.offset(0), received.length(0)));
        final List<Boolean> intactAtHandler = new ArrayList<>();
        assertEquals(1, receiver.port().receive((buffer, offset, length, source, nowNs) ->
            intactAtHandler.add(isIntact(buffer, offset, length)), 1, simulator.nowNs()));
        assertEquals(List.of(true), intactAtHandler, "a handler reads the bytes as they arrived: trailer written");
    }

    @Test
    void aCrc32cLeftToThePortIsWrittenBeforeTheLinkCorruptsThePacketSoTheDamageIsCaught()
    {
        final Simulator simulator = new Simulator(1);
        final Dumbbell dumbbell = new Dumbbell(simulator, PathSpec.Pair.parse("rate=100mbit delay=5ms corrupt=100%"));
        final SimHost sender = dumbbell.addLeftHost();
        final SimHost receiver = dumbbell.addRightHost();
        sendWithTrailers(simulator, sender, receiver, new boolean[] {true, true, true}, 3, new ArrayList<>());

        final ReceiveBatch received = receiver.port().newReceiveBatch(3);
        assertEquals(3, receiver.port().receive(received, 3));
        for (int i = 0; i < 3; i++)
        {
            assertFalse(received.isVerified(i), "corrupted on the way: not vouched for");
            assertFalse(isIntact(received.buffer(i), received.offset(i), received.length(i)),
                "one bit flipped after the trailer was written: the check fails, as on a wire");
        }
    }

    /**
     * At 1 ms, send one 1,000-byte datagram per flag through a batch the port made, each with a trailer of 0xDEADBEEF
     * and the flag saying whether its CRC32C is left to the port (else it is sealed here); a departure listener hears
     * the one at {@code listenedIndex}, recording whether its bytes end in their CRC32C. Runs until all arrived.
     */
    private static void sendWithTrailers(
        final Simulator simulator,
        final SimHost sender,
        final SimHost receiver,
        final boolean[] leftToPort,
        final int listenedIndex,
        final List<Boolean> intactAtDeparture)
    {
        final SendBatch batch = sender.port().newSendBatch(8, 8 * 1500);
        final Crc32cPacketCheck check = new Crc32cPacketCheck();
        simulator.at(MS, (nowNs) ->
        {
            for (int i = 0; i < leftToPort.length; i++)
            {
                final int offset = batch.claim(1500);
                batch.claimedBuffer().setMemory(offset, 996, (byte)(i + 1));
                batch.claimedBuffer().putInt(offset + 996, 0xDEADBEEF);
                if (!leftToPort[i])
                {
                    check.seal(batch.claimedBuffer(), offset, 996);
                }
                final int index = i;
                sender.port().departureListener(index != listenedIndex ? null : (buffer, at, length, to, departureNs) ->
                    intactAtDeparture.add(isIntact(buffer, at, length)));
                batch.commit(1000, receiver.address(), 0, leftToPort[i]);
                assertEquals(1, sender.port().send(batch));
                batch.clear();
            }
            sender.port().departureListener(null);
        });
        simulator.runUntil(50 * MS);
    }

    private static int trailer(final DirectBuffer buffer, final int offset, final int length)
    {
        return buffer.getInt(offset + length - Crc32cPacketCheck.TRAILER_LENGTH);
    }

    private static boolean isIntact(final DirectBuffer buffer, final int offset, final int length)
    {
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
        copy.putBytes(0, buffer, offset, length);
        return new Crc32cPacketCheck().isIntact(copy, 0, length);
    }

    /**
     * Send {@code count} datagrams of 1,000 bytes in one batch at 1 ms, each starting with its index, and run the
     * simulation until all have arrived.
     */
    private static void sendNumbered(
        final Simulator simulator, final SimHost sender, final SimHost receiver, final int count)
    {
        final SendBatch batch = new SendBatch(8, 8 * 1500);
        simulator.at(MS, (nowNs) ->
        {
            for (int i = 0; i < count; i++)
            {
                batch.buffer().putLong(batch.nextOffset(), i);
                batch.commit(1000, receiver.address(), 0);
            }
            assertEquals(count, sender.port().send(batch));
        });
        simulator.runUntil(50 * MS);
    }
}
