package io.pacelink.it;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionStats;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sender's application-delivery counts ({@code ConnectionStats.applicationBytesDelivered()}) advance during a
 * transfer, so a progress bar can follow them: with the default 32 MiB receive window the receiver sends a receipt
 * each time its application has read another eighth of it (4 MiB), where the flow-control updates alone came every
 * 16 MiB; and they never run ahead of what the receiving application read. Real endpoints over loopback; the waits
 * end on the condition, bounded, never on a time.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeliveryProgressTest
{
    private static final int MESSAGE_BYTES = 128 * 1024;
    private static final int MESSAGES = 96;
    private static final long READ_BYTES = 6L << 20;
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(30);

    @Test
    void deliveryCountsAdvanceWhileThePeersApplicationReads()
    {
        try (LoopbackPair pair = new LoopbackPair((context) -> context.countersFile(false), null, null))
        {
            final Connection[] connection = pair.connect(WAIT_NS);
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(MESSAGE_BYTES));
            for (int i = 0; i < MESSAGES; i++)
            {
                assertTrue(connection[0].offer(message, 0, MESSAGE_BYTES, WAIT_NS) > 0, "offer " + i);
            }
            // Read 6 MiB of the 12 MiB, then stop: past one eighth of the window (4 MiB), short of half (16 MiB).
            final long[] read = new long[1];
            final long deadlineNs = System.nanoTime() + WAIT_NS;
            while (read[0] < READ_BYTES && System.nanoTime() < deadlineNs)
            {
                connection[1].poll((buffer, offset, length) -> read[0] += length, 1, TimeUnit.MILLISECONDS.toNanos(10));
            }
            assertEquals(READ_BYTES, read[0], "the receiver read 48 messages");

            final ConnectionStats sent = connection[0].stats();
            while (sent.applicationBytesDelivered() < (4L << 20) && System.nanoTime() < deadlineNs)
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
            assertTrue(sent.applicationBytesDelivered() >= 4L << 20, "a progress receipt came: " + sent);
            assertTrue(sent.applicationBytesDelivered() <= read[0], "never ahead of what was read: " + sent);
            assertEquals(sent.applicationBytesDelivered(), sent.messagesDelivered() * MESSAGE_BYTES, sent::toString);
            assertTrue(sent.messagesDelivered() < MESSAGES, "the rest was not read: " + sent);
            connection[0].closeNow();
        }
    }
}
