package io.pacelink.it;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionOutcome;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ThreadingMode;
import io.pacelink.transport.testing.AllocationMeter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12 item 3: the waits (connect, accept, offer until there is room, poll until a message, close until the
 * outcome) on real loopback sockets, in the threading modes where the waiting thread does and does not run the agent;
 * they idle rather than spin, and once warm the offer and poll waits allocate nothing.
 */
class EndpointWaitsTest
{
    private static final int MESSAGE_BYTES = 64 * 1024;
    private static final int MESSAGES = 320; // 20 MiB: many times the 4 MiB send buffer, so offers must wait
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(20);
    private static final long KEEP_GOING_WAIT_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private static PacelinkContext context(final ThreadingMode mode, final boolean accept)
    {
        return new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .threadingMode(mode)
            .acceptConnections(accept)
            .sendBufferBytes(4 << 20)
            .receiveBufferBytes(4 << 20)
            .maxMessageLengthBytes(1 << 20);
    }

    @ParameterizedTest
    @EnumSource(value = ThreadingMode.class, names = {"DEDICATED", "INVOKER"})
    void theWaitsMoveAStreamAndTheCloseSaysItWasDelivered(final ThreadingMode mode) throws Exception
    {
        // In INVOKER mode each endpoint is driven by the thread that waits on it, so each gets its own thread.
        final CompletableFuture<InetSocketAddress> serverAddress = new CompletableFuture<>();
        final CompletableFuture<long[]> received = CompletableFuture.supplyAsync(() ->
        {
            try (Endpoint server = Endpoint.launch(context(mode, true)))
            {
                serverAddress.complete(server.localAddress());
                final Connection connection = server.accept(WAIT_NS);
                assertNotNull(connection, "accepted");
                final long[] counts = new long[2];
                final MessageHandler count = (buffer, offset, length) ->
                {
                    counts[0]++;
                    counts[1] += length;
                };
                while (!connection.isEndOfStream())
                {
                    connection.poll(count, 16, WAIT_NS);
                }
                assertEquals(CloseReason.PEER_CLOSE, connection.awaitOutcome(WAIT_NS).reason());
                return counts;
            }
        });

        final ConnectionOutcome outcome;
        try (Endpoint client = Endpoint.launch(context(mode, false)))
        {
            final Connection connection = client.connect(serverAddress.get(10, TimeUnit.SECONDS), null, WAIT_NS);
            final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_BYTES]);
            for (int i = 0; i < MESSAGES; i++)
            {
                assertTrue(connection.offer(message, 0, MESSAGE_BYTES, WAIT_NS) > 0, "offer " + i);
            }
            outcome = connection.close(WAIT_NS);
        }

        assertEquals(CloseReason.LOCAL_CLOSE, outcome.reason(), outcome::toString);
        assertTrue(outcome.isDelivered(), outcome::toString);
        assertEquals(MESSAGES, outcome.messagesDelivered());
        assertEquals((long)MESSAGES * MESSAGE_BYTES, outcome.bytesDelivered());
        final long[] counts = received.get(30, TimeUnit.SECONDS);
        assertEquals(MESSAGES, counts[0]);
        assertEquals((long)MESSAGES * MESSAGE_BYTES, counts[1]);
    }

    @Test
    void aThreadWaitingForAConnectionIdlesInsteadOfSpinning()
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (Endpoint server = Endpoint.launch(context(ThreadingMode.DEDICATED, true)))
        {
            final long cpuStartNs = threads.getCurrentThreadCpuTime();
            final long wallStartNs = System.nanoTime();
            assertNull(server.accept(TimeUnit.SECONDS.toNanos(1)), "nobody connects");
            final long wallNs = System.nanoTime() - wallStartNs;
            final long cpuNs = threads.getCurrentThreadCpuTime() - cpuStartNs;
            assertTrue(wallNs >= TimeUnit.SECONDS.toNanos(1), "waited the whole second");
            // A spinning thread would use about the whole second (the trap: 267 s of CPU in a 300 s transfer).
            assertTrue(cpuNs < wallNs / 4, "used " + TimeUnit.NANOSECONDS.toMillis(cpuNs) + " ms of CPU in " +
                TimeUnit.NANOSECONDS.toMillis(wallNs) + " ms");
        }
    }

    @Test
    void offerAndPollWaitsAllocateNothingOnceWarm() throws Exception
    {
        try (Endpoint server = Endpoint.launch(context(ThreadingMode.DEDICATED, true));
            Endpoint client = Endpoint.launch(context(ThreadingMode.DEDICATED, false)))
        {
            final Connection sender = client.connect(server.localAddress(), null, WAIT_NS);
            final Connection receiver = server.accept(WAIT_NS);
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024));
            final long[] received = new long[1];
            final MessageHandler count = (buffer, offset, length) -> received[0] += length;

            // Each side measures until it has three allocation-free windows in a row, and a side may need more
            // windows than the other (a window with a JIT one-off starts its count again, more often on a loaded
            // machine): each keeps the other going until its own measurement is over, so neither waits out an
            // offer or poll timeout for a peer that stopped.
            final AtomicBoolean isPollMeasured = new AtomicBoolean();
            final AtomicBoolean isOfferMeasured = new AtomicBoolean();
            final CompletableFuture<Void> polling = CompletableFuture.runAsync(() ->
            {
                pollBytes(receiver, count, received, 64L << 20);
                AllocationMeter.assertAllocationFree("poll with a timeout",
                    () -> pollBytes(receiver, count, received, received[0] + (16L << 20)));
                isPollMeasured.set(true);
                while (!isOfferMeasured.get())
                {
                    receiver.poll(count, 64, KEEP_GOING_WAIT_NS);
                }
            });
            try
            {
                offerBytes(sender, message, 64L << 20);
                AllocationMeter.assertAllocationFree(
                    "offer with a timeout", () -> offerBytes(sender, message, 16L << 20));
                while (!isPollMeasured.get() && !polling.isDone())
                {
                    offerBytes(sender, message, 1L << 20);
                }
            }
            catch (final AssertionError ex)
            {
                // An offer times out when the receiver stopped reading: if the polling thread failed, its failure is
                // the cause to report, not the offer's.
                if (polling.isCompletedExceptionally())
                {
                    ex.addSuppressed(assertThrows(ExecutionException.class, polling::get).getCause());
                }
                throw ex;
            }
            finally
            {
                isOfferMeasured.set(true);
            }
            polling.get();
            // The receiver stopped reading with the last offers in flight: a graceful close would wait out the
            // linger timeout (30 s) for a delivery nobody reads. What this test proves ended with the polling.
            client.closeNow();
        }
    }

    private static void offerBytes(final Connection sender, final UnsafeBuffer message, final long bytes)
    {
        for (long offered = 0; offered < bytes; offered += message.capacity())
        {
            if (sender.offer(message, 0, message.capacity(), WAIT_NS) < 0)
            {
                throw new AssertionError("offer failed: " + sender.outcome());
            }
        }
    }

    private static void pollBytes(
        final Connection receiver, final MessageHandler count, final long[] received, final long untilBytes)
    {
        while (received[0] < untilBytes)
        {
            receiver.poll(count, 64, WAIT_NS);
        }
    }
}
