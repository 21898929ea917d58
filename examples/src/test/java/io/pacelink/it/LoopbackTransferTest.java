package io.pacelink.it;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.port.BatchedPortSupport;
import io.pacelink.transport.port.ImpairmentConfig;
import io.pacelink.transport.port.PortType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two endpoints over real loopback sockets move messages of mixed sizes (1 byte to 1 MiB), byte-exact and in order:
 * 256 MiB clean, and 64 MiB with injected loss, duplication and reordering (tens of thousands of packets, thousands of
 * them lost, duplicated or reordered, eight times the 8 MiB buffers: 256 MiB took half a minute there, as every loss
 * costs a recovery, and proved nothing more). Asserts correctness, never speed.
 */
class LoopbackTransferTest
{
    private static final long SAME_TRAFFIC_BYTES = 64L << 20;
    private static final long CLEAN_BYTES = 256L << 20;
    private static final long IMPAIRED_BYTES = 64L << 20;
    private static final int MAX_MESSAGE_BYTES = 1 << 20;
    private static final long SEED = 42;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(150);

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void movesMixedSizeMessagesByteExactOverCleanLoopback()
    {
        try (LoopbackPair pair = new LoopbackPair(
            (context) -> context.maxMessageLengthBytes(MAX_MESSAGE_BYTES)
                .sendBufferBytes(8 << 20)
                .receiveBufferBytes(8 << 20),
            ImpairmentConfig.NONE,
            ImpairmentConfig.NONE))
        {
            final Outcome outcome = transfer(pair, CLEAN_BYTES);
            assertEquals(0, pair.server.counters().malformedDropped().get());
            assertEquals(0, pair.client.counters().malformedDropped().get());
            assertEquals(0, outcome.receiver.stats().duplicatePackets());
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void movesMixedSizeMessagesByteExactDespiteLossDuplicationAndReordering()
    {
        final ImpairmentConfig impairment = new ImpairmentConfig(0.05, 0.02, 0.02, 3, SEED);
        try (LoopbackPair pair = new LoopbackPair(
            (context) -> context.maxMessageLengthBytes(MAX_MESSAGE_BYTES)
                .sendBufferBytes(8 << 20)
                .receiveBufferBytes(8 << 20),
            impairment,
            new ImpairmentConfig(0.05, 0.02, 0.02, 3, SEED + 1)))
        {
            final Outcome outcome = transfer(pair, IMPAIRED_BYTES);

            assertTrue(outcome.sender.stats().packetsRetransmitted() > 0, "lost data was retransmitted");
            assertTrue(outcome.sender.stats().packetsLost() > 0, "losses were detected");
            assertTrue(outcome.receiver.stats().duplicatePackets() > 0, "duplicates were detected and dropped");
            assertEquals(0, pair.server.counters().malformedDropped().get());
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void theBatchedAndTheNioPortDeliverTheSameMessagesByteExact()
    {
        assumeTrue(BatchedPortSupport.current().isAvailable() || BatchedPortSupport.isLibraryBundled(),
            BatchedPortSupport.current().toString());
        // The batched port twice: GSO on, and off from the start, which sends DATA payloads from the send log in
        // place (the gather send, docs/io.md).
        final long[][] figures = new long[3][];
        final PortType[] ports = { PortType.NIO, PortType.BATCHED, PortType.BATCHED };
        final boolean[] gso = { true, true, false };
        for (int i = 0; i < ports.length; i++)
        {
            final PortType port = ports[i];
            final boolean withGso = gso[i];
            try (LoopbackPair pair = new LoopbackPair(
                (context) -> context.maxMessageLengthBytes(MAX_MESSAGE_BYTES)
                    .sendBufferBytes(8 << 20)
                    .receiveBufferBytes(8 << 20)
                    .port(port)
                    .gso(withGso),
                ImpairmentConfig.NONE,
                ImpairmentConfig.NONE))
            {
                assertEquals(PortType.BATCHED == port, pair.client.portDescription().startsWith("batched"),
                    pair.client.portDescription());
                final Outcome outcome = transfer(pair, SAME_TRAFFIC_BYTES);
                figures[i] = new long[]{ outcome.messages, outcome.bytes,
                    outcome.receiver.stats().streamBytesReceived(), outcome.sender.stats().streamBytesAcked(),
                    pair.server.counters().malformedDropped().get() };
            }
        }
        assertArrayEquals(figures[0], figures[1], "messages, bytes, stream bytes received and acknowledged, malformed");
        assertArrayEquals(figures[0], figures[2], "the same with GSO off (the gather send)");
    }

    record Outcome(Connection sender, Connection receiver, long messages, long bytes)
    {
    }

    /**
     * Offer mixed-size messages until {@code totalBytes} were offered, check every one arrives byte-exact and in
     * order, and wait until the sender saw all of it acknowledged.
     */
    static Outcome transfer(final LoopbackPair pair, final long totalBytes)
    {
        final Connection[] connections = pair.connect(TimeUnit.SECONDS.toNanos(5));
        final Connection sender = connections[0];
        final Connection receiver = connections[1];

        final MessagePattern pattern = new MessagePattern(SEED, MAX_MESSAGE_BYTES);
        final MessagePattern.Verifier verifier = new MessagePattern.Verifier(SEED, MAX_MESSAGE_BYTES);
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_MESSAGE_BYTES));

        long offeredBytes = 0;
        long offeredMessages = 0;
        int pendingLength = -1;
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (offeredBytes < totalBytes || verifier.messages() < offeredMessages)
        {
            if (offeredBytes < totalBytes)
            {
                if (pendingLength < 0)
                {
                    pendingLength = pattern.nextSize();
                    MessagePattern.fill(message, offeredMessages, pendingLength);
                }
                if (sender.offer(message, 0, pendingLength) > 0)
                {
                    offeredBytes += pendingLength;
                    offeredMessages++;
                    pendingLength = -1;
                }
            }
            if (0 == receiver.poll(verifier, 64))
            {
                Thread.onSpinWait();
            }
            assertNull(verifier.failure());
            assertTrue(System.nanoTime() < deadlineNs, () -> "timed out: delivered " + verifier.bytes() + " of " +
                totalBytes + " bytes; sender " + sender + " stats retransmitted=" +
                sender.stats().packetsRetransmitted());
            assertTrue(ConnectionState.CLOSED != sender.state(), () -> "sender closed: " + sender);
        }

        assertEquals(offeredMessages, verifier.messages());
        assertEquals(offeredBytes, verifier.bytes());
        // Counters on both sides agree with what was sent: stream bytes are messages plus 4-byte length prefixes.
        final long streamBytes = offeredBytes + 4 * offeredMessages;
        assertEquals(streamBytes, receiver.stats().streamBytesReceived());
        awaitDelivered(sender, streamBytes);
        return new Outcome(sender, receiver, verifier.messages(), verifier.bytes());
    }

    private static void awaitDelivered(final Connection sender, final long streamBytes)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sender.stats().streamBytesAcked() < streamBytes)
        {
            assertTrue(System.nanoTime() < deadlineNs, () -> "sender saw " + sender.stats().streamBytesAcked() +
                " of " + streamBytes + " bytes acknowledged");
            Thread.onSpinWait();
        }
        assertEquals(streamBytes, sender.stats().streamBytesAcked());
    }
}
