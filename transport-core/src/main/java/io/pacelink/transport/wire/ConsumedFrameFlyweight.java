package io.pacelink.transport.wire;

/**
 * Flyweight over a CONSUMED frame (type {@link FrameType#CONSUMED}): how far the receiving <em>application</em> has
 * read a stream, as a stream position and the number of messages before it. An ACK says a packet reached the peer's
 * transport; this says its bytes reached the peer's application, so a sender can tell "everything I offered was
 * read" from "everything I offered was buffered over there" (docs/wire-format.md, "Closing").
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |   Type = 9    |   Flags = 0   |           Reserved            |
 * +---------------+---------------+-------------------------------+
 * |                       Body Length = 24                        |
 * +---------------------------------------------------------------+
 * |                         Stream Id (32)                        |
 * +---------------------------------------------------------------+
 * |                         Reserved (32)                         |
 * +---------------------------------------------------------------+
 * |                    Consumed Position (64)                     |
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                    Consumed Messages (64)                     |
 * |                                                               |
 * +---------------------------------------------------------------+
 * </pre>
 */
public final class ConsumedFrameFlyweight extends FrameHeaderFlyweight
{
    /**
     * Offset of the stream id (32 bits).
     */
    public static final int STREAM_ID_OFFSET = FRAME_HEADER_LENGTH;

    /**
     * Offset of the reserved 32 bits (sent as zero, ignored on receipt).
     */
    public static final int BODY_RESERVED_OFFSET = STREAM_ID_OFFSET + 4;

    /**
     * Offset of the consumed stream position (64 bits).
     */
    public static final int POSITION_OFFSET = BODY_RESERVED_OFFSET + 4;

    /**
     * Offset of the number of messages consumed (64 bits).
     */
    public static final int MESSAGES_OFFSET = POSITION_OFFSET + 8;

    /**
     * The body length, always.
     */
    public static final int BODY_LENGTH = MESSAGES_OFFSET + 8 - FRAME_HEADER_LENGTH;

    /**
     * @return the stream id.
     */
    public int streamId()
    {
        return buffer().getInt(offset() + STREAM_ID_OFFSET, BYTE_ORDER);
    }

    /**
     * @return the stream position up to which the application has read, in bytes (length prefixes included).
     */
    public long position()
    {
        return buffer().getLong(offset() + POSITION_OFFSET, BYTE_ORDER);
    }

    /**
     * @return the number of messages the application has read.
     */
    public long messages()
    {
        return buffer().getLong(offset() + MESSAGES_OFFSET, BYTE_ORDER);
    }

    /**
     * Set the body and zero its reserved field.
     *
     * @param streamId the stream.
     * @param position the stream position up to which the application has read.
     * @param messages the number of messages the application has read.
     * @return this.
     */
    public ConsumedFrameFlyweight set(final int streamId, final long position, final long messages)
    {
        mutableBuffer().putInt(offset() + STREAM_ID_OFFSET, streamId, BYTE_ORDER);
        mutableBuffer().putInt(offset() + BODY_RESERVED_OFFSET, 0, BYTE_ORDER);
        mutableBuffer().putLong(offset() + POSITION_OFFSET, position, BYTE_ORDER);
        mutableBuffer().putLong(offset() + MESSAGES_OFFSET, messages, BYTE_ORDER);
        return this;
    }
}
