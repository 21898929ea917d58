package io.pacelink.transport.wire;

/**
 * Flyweight over a DATA frame (type {@link FrameType#DATA}): stream bytes at an absolute stream offset. Message
 * boundaries live in the byte stream (a 4-byte little-endian length before each message), not in the frame, so a
 * lost range can be resent by offset in any later packet (docs/wire-format.md).
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+-------------+-+-------------------------------+
 * |   Type = 3    |   Flags     |F|           Reserved            |
 * +---------------+-------------+-+-------------------------------+
 * |                 Body Length = 16 + Payload Length             |
 * +---------------------------------------------------------------+
 * |                         Stream Id (32)                        |
 * +---------------------------------------------------------------+
 * |                         Reserved (32)                         |
 * +---------------------------------------------------------------+
 * |                       Stream Offset (64)                      |
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                          Payload ...                          |
 * </pre>
 * Flag {@code F} ({@link #FLAG_FIN}): the stream ends after this frame's last byte.
 */
public final class DataFrameFlyweight extends FrameHeaderFlyweight
{
    /**
     * Frame flag: the stream ends after this frame's payload.
     */
    public static final int FLAG_FIN = 0x1;

    /**
     * Offset of the stream id (32 bits).
     */
    public static final int STREAM_ID_OFFSET = FRAME_HEADER_LENGTH;

    /**
     * Offset of the reserved 32 bits (sent as zero, ignored on receipt).
     */
    public static final int BODY_RESERVED_OFFSET = STREAM_ID_OFFSET + 4;

    /**
     * Offset of the stream offset of the first payload byte (64 bits).
     */
    public static final int STREAM_OFFSET_OFFSET = BODY_RESERVED_OFFSET + 4;

    /**
     * Offset of the payload.
     */
    public static final int PAYLOAD_OFFSET = STREAM_OFFSET_OFFSET + 8;

    /**
     * Body length of a DATA frame with an empty payload.
     */
    public static final int FIXED_BODY_LENGTH = PAYLOAD_OFFSET - FRAME_HEADER_LENGTH;

    /**
     * Bytes a DATA frame adds to its payload (header and fixed body), for sizing payloads to a packet.
     */
    public static final int OVERHEAD_BYTES = PAYLOAD_OFFSET;

    /**
     * @return the stream id.
     */
    public int streamId()
    {
        return buffer().getInt(offset() + STREAM_ID_OFFSET, BYTE_ORDER);
    }

    /**
     * Set the stream id and zero the reserved field after it.
     *
     * @param streamId the stream id.
     * @return this.
     */
    public DataFrameFlyweight streamId(final int streamId)
    {
        mutableBuffer().putInt(offset() + STREAM_ID_OFFSET, streamId, BYTE_ORDER);
        mutableBuffer().putInt(offset() + BODY_RESERVED_OFFSET, 0, BYTE_ORDER);
        return this;
    }

    /**
     * @return the stream offset of the first payload byte.
     */
    public long streamOffset()
    {
        return buffer().getLong(offset() + STREAM_OFFSET_OFFSET, BYTE_ORDER);
    }

    /**
     * @param streamOffset the stream offset of the first payload byte.
     * @return this.
     */
    public DataFrameFlyweight streamOffset(final long streamOffset)
    {
        mutableBuffer().putLong(offset() + STREAM_OFFSET_OFFSET, streamOffset, BYTE_ORDER);
        return this;
    }

    /**
     * @return true if the stream ends after this frame's payload.
     */
    public boolean fin()
    {
        return (frameFlags() & FLAG_FIN) != 0;
    }

    /**
     * @return absolute offset of the payload in {@link #buffer()}.
     */
    public int payloadOffset()
    {
        return offset() + PAYLOAD_OFFSET;
    }

    /**
     * @return number of payload bytes.
     */
    public int payloadLength()
    {
        return bodyLength() - FIXED_BODY_LENGTH;
    }
}
