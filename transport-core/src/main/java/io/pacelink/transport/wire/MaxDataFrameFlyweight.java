package io.pacelink.transport.wire;

/**
 * Flyweight over a MAX_DATA frame (type {@link FrameType#MAX_DATA}): connection-level flow-control credit as an
 * absolute stream offset (RFC 9000 section 19.9 semantics). Only the newest value is ever resent.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |   Type = 4    |   Flags = 0   |           Reserved            |
 * +---------------+---------------+-------------------------------+
 * |                       Body Length = 8                         |
 * +---------------------------------------------------------------+
 * |                       Maximum Data (64)                       |
 * |                                                               |
 * +---------------------------------------------------------------+
 * </pre>
 */
public final class MaxDataFrameFlyweight extends FrameHeaderFlyweight
{
    /**
     * Offset of the maximum data (64 bits).
     */
    public static final int MAXIMUM_DATA_OFFSET = FRAME_HEADER_LENGTH;

    /**
     * The body length, always.
     */
    public static final int BODY_LENGTH = 8;

    /**
     * @return the connection-level credit, an absolute offset in bytes.
     */
    public long maximumData()
    {
        return buffer().getLong(offset() + MAXIMUM_DATA_OFFSET, BYTE_ORDER);
    }

    /**
     * @param maximumData the connection-level credit, an absolute offset in bytes.
     * @return this.
     */
    public MaxDataFrameFlyweight maximumData(final long maximumData)
    {
        mutableBuffer().putLong(offset() + MAXIMUM_DATA_OFFSET, maximumData, BYTE_ORDER);
        return this;
    }
}
