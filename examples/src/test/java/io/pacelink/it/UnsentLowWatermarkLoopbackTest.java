package io.pacelink.it;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ThreadingMode;
import io.pacelink.transport.port.PortType;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A 1-MiB unsent low watermark over real loopback sockets, on INVOKER endpoints — their default
 * ({@link PacelinkContext#DEFAULT_INVOKER_UNSENT_LOW_WATERMARK_BYTES}), and the same set by the application
 * ({@link PacelinkContext#unsentLowWatermarkBytes(int)}): offers are refused once a mebibyte waits unsent, accepted
 * again as the duty cycle sends, and a transfer far longer than the mark, back-pressured by it all along, arrives
 * byte-exact and in order on the batched port (GSO on and off) and the NIO port. One thread drives both endpoints.
 */
class UnsentLowWatermarkLoopbackTest
{
    private static final int MESSAGE_BYTES = 16 * 1024;
    private static final int RECORD_BYTES = MESSAGE_BYTES + 4;
    private static final int MARK_BYTES = 1 << 20;

    @ParameterizedTest(name = "the mark set: {0}")
    @ValueSource(booleans = {false, true})
    void offersStopAtTheMarkUntilTheDutyCycleSends(final boolean isSet)
    {
        try (Endpoint server = Endpoint.launch(context(true, PortType.AUTO, false, isSet));
            Endpoint client = Endpoint.launch(context(false, PortType.AUTO, false, isSet)))
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            final Connection sender = client.connect(server.localAddress());
            final Connection receiver = SteadyStateAllocationTest.acceptConnected(server, client, sender, deadlineNs);
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(MESSAGE_BYTES));

            // No duty cycle runs: nothing is sent, so every byte offered waits unsent. A message is accepted while
            // it starts below the mark: 64 records of 16,388 bytes (the 64th starts at 1,032,444, the 65th would
            // start at 1,048,832).
            int accepted = 0;
            long result;
            while ((result = sender.offer(message, 0, MESSAGE_BYTES)) > 0)
            {
                accepted++;
                assertTrue(accepted <= 64, "accepted past the mark: " + accepted);
            }
            assertEquals(Connection.BACK_PRESSURED, result);
            assertEquals((MARK_BYTES + RECORD_BYTES - 1) / RECORD_BYTES, accepted);
            assertEquals(Connection.BACK_PRESSURED, sender.offer(message, 0, 0), "an empty message too");

            // Far below the 32-MiB send buffer: the mark, not the capacity, refused. One duty cycle sends at most
            // sendBatchLimit datagrams; once they left, offers are accepted again, and again only up to the mark.
            final ByteCounter counter = new ByteCounter();
            int turns = 0;
            while (sender.offer(message, 0, MESSAGE_BYTES) < 0)
            {
                client.invoke();
                turns++;
                assertTrue(System.nanoTime() < deadlineNs, "the client's duty cycles never made room");
            }
            int more = 1;
            while (sender.offer(message, 0, MESSAGE_BYTES) > 0)
            {
                more++;
            }
            assertTrue(more <= turns * (64 * 1472 / RECORD_BYTES + 1),
                "at most what the duty cycles sent, about 5.7 records each: " + more + " after " + turns);
            while (counter.bytes < (long)(accepted + more) * MESSAGE_BYTES)
            {
                client.invoke();
                server.invoke();
                receiver.poll(counter, 64);
                assertTrue(System.nanoTime() < deadlineNs, "stalled at " + counter.bytes + " bytes");
            }
            assertEquals(accepted + more, counter.messages);
        }
    }

    @ParameterizedTest
    @CsvSource({"AUTO, false", "AUTO, true", "NIO, false"})
    void aTransferBackPressuredByTheMarkArrivesByteExact(final PortType port, final boolean gso)
    {
        try (Endpoint server = Endpoint.launch(context(true, port, gso, false));
            Endpoint client = Endpoint.launch(context(false, port, gso, false)))
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            final Connection sender = client.connect(server.localAddress());
            final Connection receiver = SteadyStateAllocationTest.acceptConnected(server, client, sender, deadlineNs);
            final int messageBytes = 50_000;
            final int messages = 400;
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(messageBytes));
            final PatternChecker checker = new PatternChecker();
            int offered = 0;
            long refusals = 0;
            while (checker.messages < messages)
            {
                while (offered < messages)
                {
                    fill(message, messageBytes, offered);
                    if (sender.offer(message, 0, messageBytes) < 0)
                    {
                        refusals++;
                        break;
                    }
                    offered++;
                }
                client.invoke();
                server.invoke();
                receiver.poll(checker, 64);
                assertTrue(System.nanoTime() < deadlineNs && ConnectionState.CLOSED != sender.state(),
                    "stalled at " + checker.messages + " messages: " + sender);
            }
            assertEquals(messages, checker.messages);
            assertEquals((long)messages * messageBytes, checker.bytes);
            assertTrue(refusals > 0, "20 MB through a 1-MiB mark: the mark refused offers");
        }
    }

    private static void fill(final UnsafeBuffer message, final int length, final int index)
    {
        for (int i = 0; i < length; i += Long.BYTES)
        {
            message.putLong(i, pattern(index, i));
        }
    }

    private static long pattern(final int index, final int offset)
    {
        return (index * 0x9E3779B97F4A7C15L) ^ (offset * 0xC2B2AE3D27D4EB4FL);
    }

    /**
     * An INVOKER endpoint's context: its default mark, or ({@code isSet}) the same mark set by the application.
     */
    private static PacelinkContext context(
        final boolean accept, final PortType port, final boolean gso, final boolean isSet)
    {
        final PacelinkContext context = new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .threadingMode(ThreadingMode.INVOKER)
            // One thread drives both endpoints, so a closing one could not wait for the other to read: abort.
            .lingerTimeoutNs(0)
            .port(port)
            .gso(gso)
            .maxDatagramSizeBytes(1472)
            .acceptConnections(accept);
        if (isSet)
        {
            context.unsentLowWatermarkBytes(MARK_BYTES);
        }
        assertEquals(MARK_BYTES, context.unsentLowWatermarkBytes(), "an INVOKER endpoint's default, or as set");
        return context;
    }

    private static final class ByteCounter implements MessageHandler
    {
        private long bytes;
        private int messages;

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            bytes += length;
            messages++;
        }
    }

    private static final class PatternChecker implements MessageHandler
    {
        private long bytes;
        private int messages;

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            assertEquals(50_000, length, "message " + messages);
            for (int i = 0; i < length; i += Long.BYTES)
            {
                if (buffer.getLong(offset + i) != pattern(messages, i))
                {
                    throw new AssertionError("message " + messages + " differs at byte " + i);
                }
            }
            bytes += length;
            messages++;
        }
    }
}
