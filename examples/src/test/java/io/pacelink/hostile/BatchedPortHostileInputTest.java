package io.pacelink.hostile;

import io.pacelink.transport.Connection;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.port.BatchedDatagramPort;
import io.pacelink.transport.port.BatchedPortSupport;
import io.pacelink.transport.port.ReceiveBatch;
import io.pacelink.transport.port.SendBatch;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Garbage through the batched port's receive path into a running endpoint, from an attacker's raw sockets: UDP GSO
 * runs that a GRO socket receives coalesced (tiny segments, header-sized segments, full-size random ones, each run
 * more datagrams than one receive batch holds), an oversized datagram and empty ones. Every datagram is counted and
 * dropped, nothing is answered, and a legitimate client connects and delivers afterwards.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BatchedPortHostileInputTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    @Test
    void groCoalescedGarbageIsCountedAndDroppedAndTheEndpointServesOn() throws Exception
    {
        assumeTrue(BatchedPortSupport.current().isAvailable() || BatchedPortSupport.isLibraryBundled(),
            BatchedPortSupport.current().toString());
        try (Endpoint server = Servers.launch((context) -> context.port("batched"));
            BatchedDatagramPort attacker = BatchedDatagramPort.open(new InetSocketAddress("127.0.0.1", 0), 1 << 20,
                true);
            DatagramChannel raw = DatagramChannel.open())
        {
            assertTrue(server.portDescription().startsWith("batched"), server.portDescription());
            final InetSocketAddress target = server.localAddress();
            final SplittableRandom random = new SplittableRandom(7);
            final SendBatch batch = new SendBatch(64, 64 * 1472);
            int sent = 0;
            for (final int segmentBytes : new int[]{ 1, 20, 33, 1472 })
            {
                batch.clear();
                for (int i = 0; i < 64 && batch.hasRoomFor(segmentBytes); i++)
                {
                    for (int b = 0; b < segmentBytes; b++)
                    {
                        batch.buffer().putByte(batch.nextOffset() + b, (byte)random.nextInt());
                    }
                    batch.commit(segmentBytes, target, random.nextInt(4));
                }
                sent += attacker.send(batch);
            }
            raw.send(ByteBuffer.allocate(65_000), target);
            raw.send(ByteBuffer.allocate(0), target);
            raw.send(ByteBuffer.allocate(0), target);
            final int total = sent + 3;
            assertEquals(4 * 64, sent);
            assertTrue(attacker.stats().gsoSends() >= 4, "the garbage went as GSO runs");

            Servers.await(() -> Servers.counter(server, "port-datagrams-received") >= total, 10 * SECOND_NS,
                "every datagram handed to the endpoint");
            Servers.await(() -> Servers.counter(server, "datagrams-received") >= total, 10 * SECOND_NS,
                "every datagram seen by the endpoint");
            assertTrue(Servers.counter(server, "gro-super-datagrams") >= 1, "the kernel coalesced the runs");
            assertEquals(0, Servers.counter(server, "truncated-dropped"));
            assertEquals(0, Servers.counter(server, "connections-opened"));
            final ReceiveBatch answers = attacker.newReceiveBatch(4);
            attacker.awaitReadable(TimeUnit.MILLISECONDS.toNanos(300));
            assertEquals(0, attacker.receive(answers, 4), "nothing answered");

            // The endpoint still serves a legitimate client.
            try (Endpoint client = Endpoint.launch(new PacelinkContext()
                .bindAddress(new InetSocketAddress("127.0.0.1", 0)).acceptConnections(false)))
            {
                final Connection out = client.connect(target, "reno", 10 * SECOND_NS);
                final Connection in = server.accept(10 * SECOND_NS);
                final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
                message.setMemory(0, 4096, (byte)42);
                assertTrue(out.offer(message, 0, 4096) > 0);
                final int[] length = { 0 };
                assertEquals(1, in.poll((buffer, offset, bytes) -> length[0] = bytes, 1, 10 * SECOND_NS));
                assertEquals(4096, length[0]);
            }
        }
    }
}
