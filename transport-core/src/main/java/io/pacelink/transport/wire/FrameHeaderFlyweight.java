package io.pacelink.transport.wire;

/**
 * Flyweight over the 8-byte header every frame starts with (docs/wire-format.md, "Frames"); the frame flyweights
 * extend it, so the header offsets live only here.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * | Frame Type (8)|Frame Flags (8)|        Reserved (16)          |
 * +---------------+---------------+-------------------------------+
 * |                       Body Length (32)                        |
 * +---------------------------------------------------------------+
 * |                          Body ...                             |
 * </pre>
 * Body Length counts the bytes after the header, so a receiver can skip a frame type it does not know. All offsets
 * in this class and its subclasses are relative to the first byte of the frame header.
 */
public class FrameHeaderFlyweight extends WireFlyweight
{
    /**
     * Offset of the frame type (unsigned 8 bits, {@link FrameType}).
     */
    public static final int FRAME_TYPE_OFFSET = 0;

    /**
     * Offset of the per-type flags (unsigned 8 bits).
     */
    public static final int FRAME_FLAGS_OFFSET = 1;

    /**
     * Offset of the reserved 16 bits (sent as zero, ignored on receipt).
     */
    public static final int FRAME_RESERVED_OFFSET = 2;

    /**
     * Offset of the body length (signed 32 bits; a negative value never passes validation).
     */
    public static final int BODY_LENGTH_OFFSET = 4;

    /**
     * Length of the frame header; the body starts here.
     */
    public static final int FRAME_HEADER_LENGTH = 8;

    /**
     * @return the {@link FrameType}.
     */
    public final int frameType()
    {
        return buffer().getByte(offset() + FRAME_TYPE_OFFSET) & 0xFF;
    }

    /**
     * @return the per-type flags.
     */
    public final int frameFlags()
    {
        return buffer().getByte(offset() + FRAME_FLAGS_OFFSET) & 0xFF;
    }

    /**
     * @return the number of body bytes after the frame header.
     */
    public final int bodyLength()
    {
        return buffer().getInt(offset() + BODY_LENGTH_OFFSET, BYTE_ORDER);
    }

    /**
     * @return the frame's total length, header included.
     */
    public final int frameLength()
    {
        return FRAME_HEADER_LENGTH + bodyLength();
    }

    /**
     * Write the frame header; the reserved bits are zeroed.
     *
     * @param frameType  the {@link FrameType}.
     * @param frameFlags the per-type flags.
     * @param bodyLength the number of body bytes that follow.
     */
    public final void writeFrameHeader(final int frameType, final int frameFlags, final int bodyLength)
    {
        final int offset = offset();
        mutableBuffer().putByte(offset + FRAME_TYPE_OFFSET, (byte)frameType);
        mutableBuffer().putByte(offset + FRAME_FLAGS_OFFSET, (byte)frameFlags);
        mutableBuffer().putShort(offset + FRAME_RESERVED_OFFSET, (short)0, BYTE_ORDER);
        mutableBuffer().putInt(offset + BODY_LENGTH_OFFSET, bodyLength, BYTE_ORDER);
    }
}
