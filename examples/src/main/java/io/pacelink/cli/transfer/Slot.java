package io.pacelink.cli.transfer;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * One preallocated message buffer passed between a session's network thread and its file thread: the same direct
 * memory seen as an Agrona buffer (to encode, decode and offer) and as a {@link ByteBuffer} (for
 * {@link java.nio.channels.FileChannel} reads and writes and the digest), so nothing is copied or allocated per chunk.
 */
public final class Slot
{
    private final ByteBuffer byteBuffer;
    private final UnsafeBuffer buffer;
    private int length;

    Slot(final ByteBuffer byteBuffer)
    {
        this.byteBuffer = byteBuffer;
        this.buffer = new UnsafeBuffer(byteBuffer);
    }

    /**
     * @return the slot's memory for encoding and decoding, from offset 0.
     */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * @param offset first byte.
     * @param length bytes.
     * @return the slot's {@link ByteBuffer} with its position and limit set to that region.
     */
    public ByteBuffer byteBuffer(final int offset, final int length)
    {
        byteBuffer.limit(offset + length).position(offset);
        return byteBuffer;
    }

    /**
     * @return the length of the message in the slot.
     */
    public int length()
    {
        return length;
    }

    /**
     * @param length the length of the message now in the slot.
     */
    public void length(final int length)
    {
        this.length = length;
    }
}
