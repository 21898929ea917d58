package io.pacelink.transport.wire;

/**
 * Flyweight over a MAX_STREAM_DATA frame (type {@link FrameType#MAX_STREAM_DATA}): stream-level flow-control credit as
 * an absolute stream offset (RFC 9000 section 19.10 semantics).
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |   Type = 5    |   Flags = 0   |           Reserved            |
 * +---------------+---------------+-------------------------------+
 * |                       Body Length = 16                        |
 * +---------------------------------------------------------------+
 * |                         Stream Id (32)                        |
 * +---------------------------------------------------------------+
 * |                         Reserved (32)                         |
 * +---------------------------------------------------------------+
 * |                   Maximum Stream Data (64)                    |
 * |                                                               |
 * +---------------------------------------------------------------+
 * </pre>
 */
public final class MaxStreamDataFrameFlyweight extends FrameHeaderFlyweight
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
     * Offset of the maximum stream data (64 bits).
     */
    public static final int MAXIMUM_STREAM_DATA_OFFSET = BODY_RESERVED_OFFSET + 4;

    /**
     * The body length, always.
     */
    public static final int BODY_LENGTH = MAXIMUM_STREAM_DATA_OFFSET + 8 - FRAME_HEADER_LENGTH;

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
    public MaxStreamDataFrameFlyweight streamId(final int streamId)
    {
        mutableBuffer().putInt(offset() + STREAM_ID_OFFSET, streamId, BYTE_ORDER);
        mutableBuffer().putInt(offset() + BODY_RESERVED_OFFSET, 0, BYTE_ORDER);
        return this;
    }

    /**
     * @return the stream-level credit, an absolute stream offset in bytes.
     */
    public long maximumStreamData()
    {
        return buffer().getLong(offset() + MAXIMUM_STREAM_DATA_OFFSET, BYTE_ORDER);
    }

    /**
     * @param maximumStreamData the stream-level credit, an absolute stream offset in bytes.
     * @return this.
     */
    public MaxStreamDataFrameFlyweight maximumStreamData(final long maximumStreamData)
    {
        mutableBuffer().putLong(offset() + MAXIMUM_STREAM_DATA_OFFSET, maximumStreamData, BYTE_ORDER);
        return this;
    }
}
