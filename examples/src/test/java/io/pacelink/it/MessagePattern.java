package io.pacelink.it;

import io.pacelink.transport.MessageHandler;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.SplittableRandom;

/**
 * A reproducible stream of messages of mixed sizes (log-uniform between 1 byte and a maximum), whose every byte is a
 * function of the message's sequence number and position, so the receiver can check each message byte-exact and in
 * order without keeping a copy of what was sent.
 */
final class MessagePattern
{
    private final SplittableRandom sizes;
    private final int maxMessageBytes;
    private final double logMax;

    MessagePattern(final long seed, final int maxMessageBytes)
    {
        this.sizes = new SplittableRandom(seed);
        this.maxMessageBytes = maxMessageBytes;
        this.logMax = Math.log(maxMessageBytes);
    }

    /**
     * @return the size of the next message: log-uniform in [1, max], so small and large messages both occur often.
     */
    int nextSize()
    {
        return (int)Math.min(maxMessageBytes, Math.max(1, Math.exp(sizes.nextDouble() * logMax)));
    }

    /**
     * Fill a message's content.
     *
     * @param buffer          to fill from index 0.
     * @param messageSequence the message's sequence number in its stream (0 for the first).
     * @param length          the message's length.
     */
    static void fill(final MutableDirectBuffer buffer, final long messageSequence, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            buffer.putByte(i, expectedByte(messageSequence, i));
        }
    }

    static byte expectedByte(final long messageSequence, final int index)
    {
        return (byte)(messageSequence * 31 + index * 7 + (index >>> 8));
    }

    /**
     * Checks received messages against the pattern: same sizes in the same order, every byte as generated.
     */
    static final class Verifier implements MessageHandler
    {
        private final MessagePattern expected;
        private long messages;
        private long bytes;
        private String failure;

        Verifier(final long seed, final int maxMessageBytes)
        {
            this.expected = new MessagePattern(seed, maxMessageBytes);
        }

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            if (null != failure)
            {
                return;
            }
            final int expectedLength = expected.nextSize();
            final long sequence = messages;
            if (length != expectedLength)
            {
                failure = "message " + sequence + " has " + length + " bytes, expected " + expectedLength;
                return;
            }
            for (int i = 0; i < length; i++)
            {
                if (buffer.getByte(offset + i) != expectedByte(sequence, i))
                {
                    failure = "message " + sequence + " differs at byte " + i;
                    return;
                }
            }
            messages++;
            bytes += length;
        }

        long messages()
        {
            return messages;
        }

        long bytes()
        {
            return bytes;
        }

        String failure()
        {
            return failure;
        }
    }
}
