package io.pacelink.transport.port;

import io.pacelink.transport.testing.AllocationMeter;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ImpairedDatagramPortTest
{
    private static final InetSocketAddress PEER = new InetSocketAddress(InetAddress.getLoopbackAddress(), 40_000);
    private static final int DATAGRAMS = 100_000;
    private static final int MAX_DATAGRAM = 1500;

    private final UnsafeBuffer datagram = new UnsafeBuffer(new byte[MAX_DATAGRAM]);

    @Test
    void shouldDropWithinStatisticalBoundsAndReproducibly()
    {
        final RecordingPort network = new RecordingPort(DATAGRAMS);
        final ImpairedDatagramPort port = new ImpairedDatagramPort(
            network, ImpairmentConfig.loss(0.1, 42), ImpairmentConfig.NONE, MAX_DATAGRAM);
        sendSequence(port, DATAGRAMS);

        final long dropped = port.sendImpairment().dropped();
        // Binomial(100,000, 0.1): mean 10,000, standard deviation 94.9; five deviations either side.
        assertTrue(Math.abs(dropped - 10_000) < 475, "dropped " + dropped);
        assertEquals(DATAGRAMS - dropped, network.sentCount);
        assertEquals(DATAGRAMS, port.sendImpairment().arrivals());
        assertTrue(isIncreasing(network.sent, network.sentCount), "loss alone keeps the order");

        final RecordingPort again = new RecordingPort(DATAGRAMS);
        final ImpairedDatagramPort samePort = new ImpairedDatagramPort(
            again, ImpairmentConfig.loss(0.1, 42), ImpairmentConfig.NONE, MAX_DATAGRAM);
        sendSequence(samePort, DATAGRAMS);
        assertEquals(dropped, samePort.sendImpairment().dropped(), "same seed, same losses");
        assertTrue(Arrays.equals(network.sent, again.sent));
    }

    @Test
    void shouldDuplicateDatagrams()
    {
        final RecordingPort network = new RecordingPort(2 * DATAGRAMS);
        final ImpairedDatagramPort port = new ImpairedDatagramPort(
            network, new ImpairmentConfig(0, 0.05, 0, 1, 7), ImpairmentConfig.NONE, MAX_DATAGRAM);
        sendSequence(port, DATAGRAMS);

        final long duplicated = port.sendImpairment().duplicated();
        // Binomial(100,000, 0.05): standard deviation 68.9.
        assertTrue(Math.abs(duplicated - 5_000) < 345, "duplicated " + duplicated);
        assertEquals(DATAGRAMS + duplicated, network.sentCount);

        int repeats = 0;
        for (int i = 1; i < network.sentCount; i++)
        {
            repeats += network.sent[i] == network.sent[i - 1] ? 1 : 0;
        }
        assertEquals(duplicated, repeats, "each duplicate follows its original");
    }

    @Test
    void shouldReorderByTheConfiguredDistance()
    {
        final int distance = 3;
        final RecordingPort network = new RecordingPort(DATAGRAMS);
        final ImpairedDatagramPort port = new ImpairedDatagramPort(
            network, new ImpairmentConfig(0, 0, 0.1, distance, 99), ImpairmentConfig.NONE, MAX_DATAGRAM);
        sendSequence(port, DATAGRAMS);

        final DatagramImpairment impairment = port.sendImpairment();
        assertTrue(Math.abs(impairment.reordered() - 10_000) < 475, "reordered " + impairment.reordered());
        assertEquals(DATAGRAMS - impairment.heldCount(), network.sentCount, "nothing lost, some still held");

        // Every datagram arrives once; one held back is overtaken only by the next `distance` datagrams.
        final boolean[] seen = new boolean[DATAGRAMS];
        long overtaken = 0;
        long highest = -1;
        for (int i = 0; i < network.sentCount; i++)
        {
            final int sequence = (int)network.sent[i];
            assertFalse(seen[sequence], "duplicate " + sequence);
            seen[sequence] = true;
            if (sequence < highest)
            {
                overtaken++;
                assertTrue(highest - sequence <= distance, sequence + " overtaken by " + highest);
            }
            highest = Math.max(highest, sequence);
        }
        // A released datagram is not late only if the `distance` datagrams after it were all held too (p = 0.001).
        assertTrue(overtaken >= 0.99 * (impairment.reordered() - impairment.heldCount()),
            "held datagrams arrive late: " + overtaken + " of " + impairment.reordered());
    }

    @Test
    void shouldImpairTheReceiveDirection()
    {
        final RecordingPort network = new RecordingPort(0);
        final ImpairedDatagramPort port = new ImpairedDatagramPort(
            network, ImpairmentConfig.NONE, new ImpairmentConfig(0.2, 0.1, 0, 1, 5), MAX_DATAGRAM);
        network.inbound = 10_000;

        final long[] received = new long[20_000];
        final int[] count = new int[1];
        final DatagramHandler handler = (buffer, offset, length, source, nowNs) ->
        {
            received[count[0]++] = buffer.getLong(offset);
            assertEquals(PEER, source);
        };
        int handed = 0;
        while (network.inbound > 0)
        {
            handed += port.receive(handler, 64, 0);
        }

        final DatagramImpairment impairment = port.receiveImpairment();
        assertEquals(10_000, impairment.arrivals());
        assertEquals(count[0], handed);
        assertEquals(10_000 - impairment.dropped() + impairment.duplicated(), handed);
        assertTrue(Math.abs(impairment.dropped() - 2_000) < 200, "dropped " + impairment.dropped());
        assertTrue(impairment.duplicated() > 500, "duplicated " + impairment.duplicated());
        assertTrue(isNonDecreasing(received, count[0]));
    }

    @Test
    void batchesPassThroughImpairedAsTheirDatagramsWouldBe()
    {
        final ImpairmentConfig impairment = new ImpairmentConfig(0.1, 0.1, 0.1, 2, 17);
        final RecordingPort oneByOne = new RecordingPort(4 * DATAGRAMS);
        final ImpairedDatagramPort single = new ImpairedDatagramPort(
            oneByOne, impairment, ImpairmentConfig.NONE, MAX_DATAGRAM);
        sendSequence(single, 10_000);

        final RecordingPort batched = new RecordingPort(4 * DATAGRAMS);
        final ImpairedDatagramPort port = new ImpairedDatagramPort(
            batched, impairment, ImpairmentConfig.NONE, MAX_DATAGRAM);
        final SendBatch batch = new SendBatch(16, 16 * MAX_DATAGRAM);
        for (int i = 0; i < 10_000; i++)
        {
            batch.buffer().putLong(batch.nextOffset(), i);
            batch.commit(100, PEER, 2);
            if (16 == batch.size())
            {
                assertEquals(16, port.send(batch), "drops and held datagrams are losses in the network");
                batch.clear();
            }
        }
        port.send(batch);

        assertEquals(oneByOne.sentCount, batched.sentCount);
        assertTrue(Arrays.equals(oneByOne.sent, batched.sent), "the same datagrams in the same order");
        assertEquals(batched.sentCount, batched.batchedCount, "through the wrapped port's batch send");
        assertEquals(2, batched.lastEcnCodepoint, "with their ECN codepoint");

        batched.refuse = true;
        final ImpairedDatagramPort clean = new ImpairedDatagramPort(
            batched, ImpairmentConfig.NONE, ImpairmentConfig.NONE, MAX_DATAGRAM);
        batch.clear();
        batch.commit(100, PEER, 0);
        batch.commit(100, PEER, 0);
        assertEquals(0, clean.send(batch), "what the wrapped port refused is not sent");
    }

    @Test
    void aReceiveBatchHoldsTheDuplicatesAndReleasedDatagramsOfAFullReceive()
    {
        final RecordingPort network = new RecordingPort(0);
        final ImpairedDatagramPort port = new ImpairedDatagramPort(
            network, ImpairmentConfig.NONE, new ImpairmentConfig(0.1, 0.3, 0.2, 1, 5), MAX_DATAGRAM);
        network.inbound = 10_000;
        final ReceiveBatch batch = port.newReceiveBatch(64);
        final long[] received = new long[30_000];
        int count = 0;
        while (network.inbound > 0)
        {
            final int handed = port.receive(batch, 64);
            assertEquals(batch.size(), handed);
            for (int i = 0; i < batch.size(); i++)
            {
                assertEquals(PEER, batch.source(i));
                assertEquals(64, batch.length(i));
                received[count++] = batch.buffer().getLong(batch.offset(i));
            }
        }
        final DatagramImpairment impairment = port.receiveImpairment();
        assertEquals(10_000, impairment.arrivals());
        assertEquals(10_000 - impairment.dropped() + impairment.duplicated() - impairment.heldCount(), count,
            "nothing the impairment handed on was lost for room");
        assertTrue(impairment.duplicated() > 2_000 && impairment.reordered() > 1_000, impairment.toString());
    }

    @Test
    void shouldReportARefusedSendAndNoRefusalForImpairedDrops()
    {
        final RecordingPort network = new RecordingPort(10);
        final ImpairedDatagramPort port = new ImpairedDatagramPort(
            network, ImpairmentConfig.loss(1.0, 1), ImpairmentConfig.NONE, MAX_DATAGRAM);
        assertTrue(port.send(datagram, 0, 8, PEER), "a drop is a loss in the network, not a full buffer");

        final ImpairedDatagramPort clean = new ImpairedDatagramPort(
            network, ImpairmentConfig.NONE, ImpairmentConfig.NONE, MAX_DATAGRAM);
        network.refuse = true;
        assertFalse(clean.send(datagram, 0, 8, PEER));
        assertEquals(network.localAddress(), clean.localAddress());
        clean.close();
        assertTrue(network.closed);
    }

    @Test
    void shouldNotAllocatePerDatagram()
    {
        final RecordingPort network = new RecordingPort(4 * DATAGRAMS);
        final ImpairedDatagramPort port = new ImpairedDatagramPort(
            network, new ImpairmentConfig(0.1, 0.1, 0.1, 4, 3), ImpairmentConfig.NONE, MAX_DATAGRAM);
        sendSequence(port, DATAGRAMS);

        AllocationMeter.assertAllocationFree(DATAGRAMS + " datagrams", () -> sendSequence(port, DATAGRAMS));
    }

    @Test
    void shouldValidateTheConfigurationWithClearMessages()
    {
        assertEquals("lossRate must be a probability in [0, 1]: 1.5", assertThrows(IllegalArgumentException.class,
            () -> new ImpairmentConfig(1.5, 0, 0, 1, 0)).getMessage());
        assertEquals("duplicateRate must be a probability in [0, 1]: NaN", assertThrows(IllegalArgumentException.class,
            () -> new ImpairmentConfig(0, Double.NaN, 0, 1, 0)).getMessage());
        assertEquals("reorderRate must be a probability in [0, 1]: -0.1", assertThrows(IllegalArgumentException.class,
            () -> new ImpairmentConfig(0, 0, -0.1, 1, 0)).getMessage());
        assertEquals("reorderDistance must be in [1, 1024]: 0", assertThrows(IllegalArgumentException.class,
            () -> new ImpairmentConfig(0, 0, 0.5, 0, 0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new DatagramImpairment(ImpairmentConfig.NONE, 0));
    }

    private void sendSequence(final ImpairedDatagramPort port, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            datagram.putLong(0, i);
            port.send(datagram, 0, 100, PEER);
        }
    }

    private static boolean isIncreasing(final long[] values, final int count)
    {
        for (int i = 1; i < count; i++)
        {
            if (values[i] <= values[i - 1])
            {
                return false;
            }
        }
        return true;
    }

    private static boolean isNonDecreasing(final long[] values, final int count)
    {
        for (int i = 1; i < count; i++)
        {
            if (values[i] < values[i - 1])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Records the first long of every datagram sent (wrapping around its storage), and on receive produces
     * {@code inbound} datagrams numbered from 0.
     */
    private static final class RecordingPort implements DatagramPort
    {
        final long[] sent;
        int sentCount;
        int batchedCount;
        int lastEcnCodepoint;
        int inbound;
        boolean refuse;
        boolean closed;
        private long nextInbound;
        private final UnsafeBuffer inboundDatagram = new UnsafeBuffer(new byte[64]);

        RecordingPort(final int capacity)
        {
            sent = new long[Math.max(1, capacity)];
        }

        public int receive(final DatagramHandler handler, final int limit, final long nowNs)
        {
            int count = 0;
            while (count < limit && inbound > 0)
            {
                inboundDatagram.putLong(0, nextInbound++);
                inbound--;
                handler.onDatagram(inboundDatagram, 0, 64, PEER, nowNs);
                count++;
            }
            return count;
        }

        public int send(final SendBatch batch)
        {
            int sent = 0;
            for (int i = 0; i < batch.size(); i++)
            {
                if (send(batch.buffer(), batch.offset(i), batch.length(i), batch.destination(i)))
                {
                    sent++;
                    batchedCount++;
                    lastEcnCodepoint = batch.ecnCodepoint(i);
                }
            }
            return sent;
        }

        public boolean send(
            final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
        {
            if (refuse)
            {
                return false;
            }
            sent[sentCount++ % sent.length] = buffer.getLong(offset);
            return true;
        }

        public InetSocketAddress localAddress()
        {
            return PEER;
        }

        public void close()
        {
            closed = true;
        }
    }
}
