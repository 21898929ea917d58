package io.pacelink.transport.stream;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Test messages with contents derived from their sequence number, and the framed stream they make, so a test can
 * check every byte that comes out of a log.
 */
final class StreamBytes
{
    private StreamBytes()
    {
    }

    /**
     * @return the i-th byte of message number {@code sequence}.
     */
    static byte payloadByte(final long sequence, final int i)
    {
        final long mixed = (sequence * 0x9E3779B97F4A7C15L) ^ (i * 0xBF58476D1CE4E5B9L);
        return (byte)(mixed >>> 56);
    }

    /**
     * Write message {@code sequence} of {@code length} bytes at {@code offset}.
     */
    static void fillPayload(final UnsafeBuffer buffer, final int offset, final long sequence, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            buffer.putByte(offset + i, payloadByte(sequence, i));
        }
    }

    /**
     * @return true if {@code buffer} holds message {@code sequence} of {@code length} bytes at {@code offset}.
     */
    static boolean isPayload(final DirectBuffer buffer, final int offset, final long sequence, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != payloadByte(sequence, i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Build the framed stream of messages {@code 0 .. lengths.length - 1}: each a little-endian length prefix and
     * its payload.
     */
    static UnsafeBuffer framedStream(final int... lengths)
    {
        int total = 0;
        for (final int length : lengths)
        {
            total += SendLog.LENGTH_PREFIX_BYTES + length;
        }
        final UnsafeBuffer stream = new UnsafeBuffer(new byte[total]);
        int position = 0;
        for (int sequence = 0; sequence < lengths.length; sequence++)
        {
            stream.putInt(position, lengths[sequence], ByteOrder.LITTLE_ENDIAN);
            fillPayload(stream, position + SendLog.LENGTH_PREFIX_BYTES, sequence, lengths[sequence]);
            position += SendLog.LENGTH_PREFIX_BYTES + lengths[sequence];
        }
        return stream;
    }
}
