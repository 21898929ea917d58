package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Numbered messages from one side of a connection to the other, read back in order and byte-exact, in the virtual
 * time of a {@link CoreTestBed}: the numbering runs on across calls, so a transfer can be cut by events (a rebinding,
 * a key update) and resumed.
 */
final class NumberedTransfer
{
    static final int MESSAGE_BYTES = 1000;

    private final CoreTestBed bed;
    private final Runnable afterStep;
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_BYTES]);
    private final byte[] expected = new byte[MESSAGE_BYTES];
    private int messagesSent;
    private int messagesReceived;

    /**
     * @param bed       drives the cores.
     * @param afterStep runs after every step of the bed (e.g. a path that releases held datagrams).
     */
    NumberedTransfer(final CoreTestBed bed, final Runnable afterStep)
    {
        this.bed = bed;
        this.afterStep = afterStep;
    }

    /**
     * The next message's number, for a test that offers one itself ({@link #fill}); counted as sent.
     */
    UnsafeBuffer nextMessage()
    {
        fill(message.byteArray(), messagesSent++);
        return message;
    }

    /**
     * {@code from}'s application offers {@code count} more numbered messages; {@code to}'s reads every one sent so
     * far, in order, byte-exact, within 60 s of virtual time.
     */
    void transfer(final Connection from, final Connection to, final int count)
    {
        final int target = messagesSent + count;
        final long endNs = bed.nowNs() + TimeUnit.SECONDS.toNanos(60);
        while (messagesReceived < target)
        {
            assertTrue(bed.nowNs() < endNs, "delivery of " + count + " messages: " + messagesReceived);
            while (messagesSent < target)
            {
                fill(message.byteArray(), messagesSent);
                if (from.offer(message, 0, MESSAGE_BYTES) < 0)
                {
                    break;
                }
                messagesSent++;
            }
            to.poll((buffer, offset, length) ->
            {
                assertEquals(MESSAGE_BYTES, length);
                final byte[] got = new byte[length];
                buffer.getBytes(offset, got);
                fill(expected, messagesReceived++);
                assertArrayEquals(expected, got, "message " + (messagesReceived - 1));
            }, 100);
            bed.step();
            afterStep.run();
        }
    }

    private static void fill(final byte[] bytes, final int messageNumber)
    {
        Arrays.fill(bytes, (byte)messageNumber);
        ByteBuffer.wrap(bytes).putInt(messageNumber);
    }
}
