package io.pacelink.transport.port;

import io.pacelink.transport.testing.AllocationMeter;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class NioDatagramPortTest
{
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final UnsafeBuffer datagram = new UnsafeBuffer(new byte[NioDatagramPort.MAX_DATAGRAM_BYTES]);
    private final CapturingHandler handler = new CapturingHandler();
    private NioDatagramPort client;
    private NioDatagramPort server;

    @BeforeEach
    void open()
    {
        client = NioDatagramPort.open(LOOPBACK, NioDatagramPort.DEFAULT_SOCKET_BUFFER_BYTES);
        server = new NioDatagramPort(LOOPBACK, 256 * 1024, 128 * 1024);
    }

    @AfterEach
    void close()
    {
        client.close();
        server.close();
    }

    @Test
    void shouldRoundTripDatagramsOverLoopback()
    {
        assertTrue(server.localAddress().getPort() > 0);
        assertEquals(InetAddress.getLoopbackAddress(), server.localAddress().getAddress());

        datagram.putLong(0, 0x0123_4567_89AB_CDEFL);
        datagram.putStringWithoutLengthAscii(8, "pacelink");
        assertTrue(client.send(datagram, 0, 16, server.localAddress()));
        receiveOne(server);
        assertEquals(16, handler.length);
        assertEquals(0x0123_4567_89AB_CDEFL, handler.copy.getLong(0));
        assertEquals("pacelink", handler.copy.getStringWithoutLengthAscii(8, 8));
        assertEquals(client.localAddress(), handler.source);

        // Reply to the address the datagram came from, from a non-zero offset.
        datagram.putInt(100, 42);
        assertTrue(server.send(datagram, 100, 4, handler.source));
        receiveOne(client);
        assertEquals(4, handler.length);
        assertEquals(42, handler.copy.getInt(0));
        assertEquals(server.localAddress(), handler.source);
    }

    @Test
    void shouldReceiveUpToTheLimitAndAnEmptyDatagram()
    {
        for (int i = 0; i < 5; i++)
        {
            datagram.putInt(0, i);
            assertTrue(client.send(datagram, 0, 0 == i ? 0 : 4, server.localAddress()));
        }

        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        int received = 0;
        while (received < 5)
        {
            final int count = server.receive(handler, 2, 0);
            assertTrue(count <= 2);
            received += count;
            if (System.nanoTime() > deadlineNs)
            {
                fail("received only " + received);
            }
        }
        assertEquals(5, handler.count);
        assertEquals(1, handler.emptyCount, "the empty datagram is delivered");
        assertEquals(0, server.receive(handler, 10, 0));
    }

    @Test
    void aBatchReadsOneMoreThanTheLastFoundSoASingleArrivalCostsNoEmptyReceive()
    {
        assertEquals(0, server.receive(handler, 64, 0));
        assertEquals(1, server.emptyReceives());

        // Loopback delivers a datagram before send returns: exactly one waits, and a batch of one reads it.
        assertTrue(client.send(datagram, 0, 8, server.localAddress()));
        assertEquals(1, server.receive(handler, 64, 0));
        assertEquals(1, server.emptyReceives(), "no empty read after the one datagram");

        // A burst: the bound doubles while batches come back full (2, 4, ...), and never passes the caller's limit.
        for (int i = 0; i < 20; i++)
        {
            assertTrue(client.send(datagram, 0, 8, server.localAddress()));
        }
        assertEquals(2, server.receive(handler, 64, 0));
        assertEquals(4, server.receive(handler, 64, 0));
        assertEquals(5, server.receive(handler, 5, 0));
        assertEquals(5, server.receive(handler, 64, 0), "grows from the bound the last limit left");
        assertEquals(4, server.receive(handler, 64, 0), "the rest, then the empty read that ends the batch");
        assertEquals(2, server.emptyReceives());
        assertEquals(21, handler.count);
    }

    @Test
    void aDirectBufferIsSentFromWhereItIsAndAHeapBufferThroughACopy()
    {
        final UnsafeBuffer direct = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(4096), 100, 2000);
        final UnsafeBuffer other = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(4096));
        for (int round = 0; round < 3; round++)
        {
            direct.putLong(10, round);
            assertTrue(client.send(direct, 10, 8, server.localAddress()));
            receiveOne(server);
            assertEquals(8, handler.length);
            assertEquals(round, handler.copy.getLong(0), "from the wrapped region's offset");

            other.putInt(0, 1000 + round);
            assertTrue(client.send(other, 0, 4, server.localAddress()));
            receiveOne(server);
            assertEquals(1000 + round, handler.copy.getInt(0), "another direct buffer, then back");

            datagram.putInt(0, 2000 + round);
            assertTrue(client.send(datagram, 0, 4, server.localAddress()));
            receiveOne(server);
            assertEquals(2000 + round, handler.copy.getInt(0), "a heap buffer");
        }
    }

    @Test
    void shouldExposeTheGrantedSocketBufferSizes()
    {
        // Small requests are granted as asked (Linux doubles the value for its bookkeeping); the default would be
        // about 208 KiB, so this shows the request was applied.
        final int requestBytes = 16 * 1024;
        final NioDatagramPort port = new NioDatagramPort(LOOPBACK, requestBytes, requestBytes);
        try
        {
            assertTrue(port.receiveSocketBufferBytes() >= requestBytes, "" + port.receiveSocketBufferBytes());
            assertTrue(port.receiveSocketBufferBytes() <= 2 * requestBytes, "" + port.receiveSocketBufferBytes());
            assertTrue(port.sendSocketBufferBytes() >= requestBytes, "" + port.sendSocketBufferBytes());
            assertTrue(port.sendSocketBufferBytes() <= 2 * requestBytes, "" + port.sendSocketBufferBytes());
        }
        finally
        {
            port.close();
        }
        assertTrue(client.receiveSocketBufferBytes() > 0, "4 MiB requested, capped by the kernel");
    }

    @Test
    void shouldCountSendErrorsWithoutThrowing()
    {
        // 65,535 bytes exceed the largest IPv4 UDP payload (65,507): the kernel refuses with EMSGSIZE.
        assertFalse(client.send(datagram, 0, 65_535, server.localAddress()));
        assertEquals(1, client.sendErrors());

        // A port nobody listens on: an ICMP port unreachable must not break the port either.
        final NioDatagramPort closed = NioDatagramPort.open(LOOPBACK, 64 * 1024);
        final InetSocketAddress closedAddress = closed.localAddress();
        closed.close();
        for (int i = 0; i < 3; i++)
        {
            client.send(datagram, 0, 8, closedAddress);
            client.receive(handler, 10, 0);
        }

        datagram.putInt(0, 7);
        assertTrue(client.send(datagram, 0, 4, server.localAddress()));
        receiveOne(server);
        assertEquals(7, handler.copy.getInt(0));

        assertThrows(IllegalArgumentException.class,
            () -> client.send(datagram, 0, NioDatagramPort.MAX_DATAGRAM_BYTES + 1, server.localAddress()));
    }

    @Test
    void shouldCountErrorsOnAClosedPort()
    {
        server.close();
        assertFalse(server.send(datagram, 0, 8, client.localAddress()));
        assertEquals(1, server.sendErrors());
        assertEquals(0, server.receive(handler, 10, 0));
        assertEquals(1, server.receiveErrors(), "a closed channel ends the batch at once");
    }

    @Test
    void shouldNotAllocatePerDatagramAfterWarmUp()
    {
        final int warmUp = 20_000;
        final int measured = 10_000;
        final InetSocketAddress destination = server.localAddress();
        final InetSocketAddress replyTo = client.localAddress();
        for (int i = 0; i < warmUp; i++)
        {
            pingPong(i, destination, replyTo);
        }

        final int[] measuredRoundTrips = { 0 };
        AllocationMeter.assertAllocationFree(measured + " round trips", () ->
        {
            for (int i = 0; i < measured; i++)
            {
                pingPong(i, destination, replyTo);
            }
            measuredRoundTrips[0] += measured;
        });

        assertEquals(warmUp + measuredRoundTrips[0], handler.count / 2);
    }

    @Test
    void aReceiveBatchHoldsEachDatagramBackToBackWithItsSourceAndABatchIsSentFromWhereItWasBuilt()
    {
        final ReceiveBatch received = server.newReceiveBatch(8);
        final SendBatch batch = new SendBatch(8, 8 * 1500);
        final NioDatagramPort third = NioDatagramPort.open(LOOPBACK, 64 * 1024);
        try
        {
            for (int i = 0; i < 5; i++)
            {
                final int length = 100 * (i + 1);
                batch.buffer().setMemory(batch.nextOffset(), length, (byte)i);
                batch.buffer().putInt(batch.nextOffset(), i);
                batch.commit(length, 4 == i ? third.localAddress() : server.localAddress(), 0);
            }
            assertEquals(5, client.send(batch));
            assertEquals(5, batch.size(), "the caller clears the batch");

            // The first receive reads one, the next two back to back (the bound grows), the last the fourth.
            final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
            int total = 0;
            while (total < 4)
            {
                server.receive(received, 8);
                int expectedOffset = 0;
                for (int i = 0; i < received.size(); i++)
                {
                    final int sequence = received.buffer().getInt(received.offset(i));
                    assertEquals(total, sequence);
                    assertEquals(expectedOffset, received.offset(i), "straight after the previous datagram");
                    assertEquals(100 * (sequence + 1), received.length(i));
                    assertEquals((byte)sequence,
                        received.buffer().getByte(received.offset(i) + received.length(i) - 1));
                    assertEquals(client.localAddress(), received.source(i));
                    assertEquals(ReceiveBatch.NOT_ECT, received.ecnCodepoint(i));
                    expectedOffset += received.length(i);
                    total++;
                }
                assertTrue(System.nanoTime() < deadlineNs, "received only " + total);
            }
            assertEquals(0, server.receive(received, 8));
            assertEquals(1, receiveAtLeast(third, third.newReceiveBatch(4), 1), "the fifth went elsewhere");
        }
        finally
        {
            third.close();
        }
    }

    @Test
    void aReceiveBatchEndsWhenLessThanTheLargestDatagramIsFreeAndTheNextReceiveReadsOn()
    {
        // Room for one read of 64 KiB and 100 bytes more: after the first datagram a read could truncate.
        final ReceiveBatch small = new ReceiveBatch(8, NioDatagramPort.MAX_DATAGRAM_BYTES + 100);
        for (int i = 0; i < 3; i++)
        {
            datagram.putInt(0, i);
            assertTrue(client.send(datagram, 0, 200, server.localAddress()));
        }
        assertEquals(1, receiveAtLeast(server, small, 1));
        assertEquals(0, small.buffer().getInt(small.offset(0)));
        assertEquals(1, server.receive(small, 8));
        assertEquals(1, small.buffer().getInt(small.offset(0)), "the next receive starts at the front again");
        assertEquals(0, small.offset(0));
        assertEquals(1, server.receive(small, 8));
        assertEquals(2, small.buffer().getInt(small.offset(0)));
        assertEquals(0, server.emptyReceives(), "a receive out of room grows its bound like a full one");
    }

    @Test
    void aBatchReceiveReadsOneMoreThanTheLastFoundAndNeverPassesTheLimitOrTheBatch()
    {
        final ReceiveBatch batch = server.newReceiveBatch(3);
        assertEquals(0, server.receive(batch, 64));
        assertEquals(1, server.emptyReceives());
        for (int i = 0; i < 10; i++)
        {
            assertTrue(client.send(datagram, 0, 8, server.localAddress()));
        }
        assertEquals(1, server.receive(batch, 64));
        assertEquals(2, server.receive(batch, 64));
        assertEquals(3, server.receive(batch, 64), "the batch holds three");
        assertEquals(2, server.receive(batch, 2), "the limit");
        assertEquals(2, server.receive(batch, 64), "the rest");
        assertEquals(1, server.emptyReceives(), "only full receives so far");
        assertEquals(0, server.receive(batch, 64));
        assertEquals(2, server.emptyReceives());
    }

    @Test
    void aRestrictedPortReportsItsUnreachablePeerInTheBatch()
    {
        final NioDatagramPort gone = NioDatagramPort.open(LOOPBACK, 64 * 1024);
        final InetSocketAddress goneAddress = gone.localAddress();
        gone.close();
        assertTrue(client.restrictTo(goneAddress));
        final ReceiveBatch batch = client.newReceiveBatch(4);
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        InetSocketAddress reported = null;
        while (null == reported)
        {
            client.send(datagram, 0, 8, goneAddress);
            final int count = client.receive(batch, 4);
            reported = batch.unreachablePeer();
            assertEquals(null == reported ? 0 : 1, count, "the report counts as work, no datagram came");
            assertEquals(0, batch.size());
            assertTrue(System.nanoTime() < deadlineNs, "no ICMP port unreachable reported");
        }
        assertEquals(goneAddress, reported);
        assertTrue(client.portUnreachable() > 0);
    }

    @Test
    void shouldNotAllocatePerBatchAfterWarmUp()
    {
        final ReceiveBatch serverBatch = server.newReceiveBatch(16);
        final ReceiveBatch clientBatch = client.newReceiveBatch(16);
        final SendBatch request = new SendBatch(16, 16 * 1500);
        final SendBatch reply = new SendBatch(16, 16 * 1500);
        final InetSocketAddress destination = server.localAddress();
        final InetSocketAddress replyTo = client.localAddress();
        final Runnable exchange = () ->
        {
            request.clear();
            for (int i = 0; i < 4; i++)
            {
                request.commit(1200, destination, 0);
            }
            if (4 != client.send(request))
            {
                fail("send refused");
            }
            int received = 0;
            while (received < 4)
            {
                received += receiveAtLeast(server, serverBatch, 1);
            }
            reply.clear();
            reply.commit(64, replyTo, 0);
            if (1 != server.send(reply))
            {
                fail("reply refused");
            }
            receiveAtLeast(client, clientBatch, 1);
        };
        for (int i = 0; i < 5_000; i++)
        {
            exchange.run();
        }
        AllocationMeter.assertAllocationFree("2,000 batch exchanges", () ->
        {
            for (int i = 0; i < 2_000; i++)
            {
                exchange.run();
            }
        });
    }

    private static int receiveAtLeast(final NioDatagramPort port, final ReceiveBatch batch, final int atLeast)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        int count;
        while ((count = port.receive(batch, batch.maxDatagrams())) < atLeast)
        {
            if (count > 0 || System.nanoTime() > deadlineNs)
            {
                fail("received " + count + " of " + atLeast);
            }
            Thread.onSpinWait();
        }
        return count;
    }

    private void pingPong(final int sequence, final InetSocketAddress destination, final InetSocketAddress replyTo)
    {
        datagram.putInt(0, sequence);
        if (!client.send(datagram, 0, 1200, destination))
        {
            fail("send refused");
        }
        receiveOne(server);
        if (!server.send(datagram, 0, 64, replyTo))
        {
            fail("reply refused");
        }
        receiveOne(client);
    }

    private void receiveOne(final NioDatagramPort port)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (0 == port.receive(handler, 1, 0))
        {
            if (System.nanoTime() > deadlineNs)
            {
                fail("no datagram within the timeout");
            }
            Thread.onSpinWait();
        }
    }

    private static final class CapturingHandler implements DatagramHandler
    {
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[NioDatagramPort.MAX_DATAGRAM_BYTES]);
        int length;
        int count;
        int emptyCount;
        InetSocketAddress source;

        public void onDatagram(
            final DirectBuffer buffer,
            final int offset,
            final int length,
            final InetSocketAddress source,
            final long nowNs)
        {
            copy.putBytes(0, buffer, offset, Math.min(length, 64));
            this.length = length;
            this.source = source;
            count++;
            emptyCount += 0 == length ? 1 : 0;
        }
    }
}
