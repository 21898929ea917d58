package io.pacelink.transport.engine;

import io.pacelink.transport.port.DatagramHandler;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.SendBatch;
import io.pacelink.transport.stats.CountersBuffers;
import io.pacelink.transport.stats.EndpointCounters;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class OutboxTest
{
    private static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.1", 4000);

    private final BatchRecordingPort port = new BatchRecordingPort();
    private final EndpointCounters counters = new EndpointCounters(CountersBuffers.newManager(64 * 1024), "test");

    @Test
    void datagramsGoBackToBackAndLeaveInOneSendPerBatch()
    {
        final Outbox outbox = new Outbox(port, 8, 1500, counters);
        for (int i = 0; i < 5; i++)
        {
            final int offset = outbox.claim(1500);
            assertEquals(i * 1000, offset, "where the previous one ended");
            outbox.buffer().putInt(offset, i);
            outbox.commit(1000, PEER);
        }
        assertEquals(0, port.batches.size(), "nothing leaves before the flush");

        assertEquals(5, outbox.flush());
        assertEquals(List.of(5), port.batches);
        assertEquals(List.of(0, 1, 2, 3, 4), port.firstInts);
        assertEquals(5, counters.datagramsSent().get());
        assertEquals(5000, counters.bytesSent().get());
        assertEquals(0, counters.sendFailures().get());
        assertEquals(0, outbox.flush(), "an empty batch is not sent");
        assertEquals(1, port.batches.size());
    }

    @Test
    void aFullBatchIsSentBeforeTheNextDatagramIsWritten()
    {
        final Outbox outbox = new Outbox(port, 3, 1500, counters);
        for (int i = 0; i < 7; i++)
        {
            outbox.claim(1500);
            outbox.commit(1200, PEER);
        }
        outbox.flush();
        assertEquals(List.of(3, 3, 1), port.batches, "three datagrams per batch, the rest at the flush");
        assertEquals(7, counters.datagramsSent().get());
    }

    @Test
    void theRefusedTailOfABatchIsCountedAsSendFailures()
    {
        final Outbox outbox = new Outbox(port, 8, 1500, counters);
        for (int i = 0; i < 4; i++)
        {
            outbox.claim(1500);
            outbox.commit(100 + i, PEER);
        }
        port.acceptOnly = 1;
        outbox.flush();
        assertEquals(1, counters.datagramsSent().get());
        assertEquals(100, counters.bytesSent().get(), "the bytes of the datagram sent");
        assertEquals(3, counters.sendFailures().get());
    }

    private static final class BatchRecordingPort implements DatagramPort
    {
        final List<Integer> batches = new ArrayList<>();
        final List<Integer> firstInts = new ArrayList<>();
        int acceptOnly = Integer.MAX_VALUE;

        public int send(final SendBatch batch)
        {
            batches.add(batch.size());
            for (int i = 0; i < batch.size(); i++)
            {
                firstInts.add(batch.buffer().getInt(batch.offset(i)));
            }
            return Math.min(acceptOnly, batch.size());
        }

        public int receive(final DatagramHandler handler, final int limit, final long nowNs)
        {
            return 0;
        }

        public boolean send(
            final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
        {
            throw new AssertionError("the outbox sends batches");
        }

        public InetSocketAddress localAddress()
        {
            return PEER;
        }

        public void close()
        {
        }
    }
}
