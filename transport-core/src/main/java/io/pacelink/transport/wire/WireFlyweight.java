package io.pacelink.transport.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Base of the wire flyweights: a reusable view at an offset in a buffer. Every field on the wire is little-endian
 * (docs/wire-format.md). Wrapping a read-only {@link DirectBuffer} gives a view whose setters must not be called;
 * wrapping a {@link MutableDirectBuffer} allows both.
 * <p>
 * Flyweights do no bounds checking of their own: readers wrap only what {@link PacketDecoder#validate} accepted and
 * writers wrap only what {@link PacketWriter} claimed.
 */
public abstract class WireFlyweight
{
    /**
     * Byte order of every multi-byte field on the wire.
     */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    /**
     * Wrap a buffer for reading.
     *
     * @param buffer holding the structure.
     * @param offset of the structure's first byte in the buffer.
     */
    public final void wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = null;
        this.offset = offset;
    }

    /**
     * Wrap a buffer for reading and writing.
     *
     * @param buffer holding the structure.
     * @param offset of the structure's first byte in the buffer.
     */
    public final void wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer;
        this.offset = offset;
    }

    /**
     * @return the wrapped buffer.
     */
    public final DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the structure's first byte in the wrapped buffer.
     */
    public final int offset()
    {
        return offset;
    }

    /**
     * @return the wrapped buffer for writing; null if the view was wrapped read-only.
     */
    protected final MutableDirectBuffer mutableBuffer()
    {
        return mutableBuffer;
    }
}
