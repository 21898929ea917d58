package io.pacelink.transport.wire;

/**
 * Flyweight over a PATH_CHALLENGE or PATH_RESPONSE frame (types {@link FrameType#PATH_CHALLENGE} and
 * {@link FrameType#PATH_RESPONSE}): 8 unpredictable bytes a challenger sends toward a peer's new address and the peer
 * echoes, proving it receives at that address (RFC 9000 sections 8.2, 19.17 and 19.18).
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * | Type = 11, 12 |   Flags = 0   |           Reserved            |
 * +---------------+---------------+-------------------------------+
 * |                       Body Length = 8                         |
 * +---------------------------------------------------------------+
 * |                            Data (64)                          |
 * |                                                               |
 * +---------------------------------------------------------------+
 * </pre>
 */
public final class PathFrameFlyweight extends FrameHeaderFlyweight
{
    /**
     * Offset of the data (64 bits).
     */
    public static final int DATA_OFFSET = FRAME_HEADER_LENGTH;

    /**
     * The body length, always.
     */
    public static final int BODY_LENGTH = 8;

    /**
     * @return the challenge's 8 bytes, as a little-endian long.
     */
    public long pathData()
    {
        return buffer().getLong(offset() + DATA_OFFSET, BYTE_ORDER);
    }

    /**
     * @param pathData the challenge's 8 bytes, as a little-endian long.
     * @return this.
     */
    public PathFrameFlyweight pathData(final long pathData)
    {
        mutableBuffer().putLong(offset() + DATA_OFFSET, pathData, BYTE_ORDER);
        return this;
    }
}
