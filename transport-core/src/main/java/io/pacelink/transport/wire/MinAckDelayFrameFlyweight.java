package io.pacelink.transport.wire;

/**
 * Flyweight over a MIN_ACK_DELAY frame (type {@link FrameType#MIN_ACK_DELAY}), which travels beside the HANDSHAKE
 * frame of a handshake packet: the smallest ACK delay its sender can keep, which says it accepts ACK_FREQUENCY
 * frames (draft-ietf-quic-ack-frequency section 3, the {@code min_ack_delay} transport parameter). An endpoint of an
 * earlier build skips it by its length and so never receives an ACK_FREQUENCY frame.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |   Type = 15   |   Flags = 0   |           Reserved            |
 * +---------------+---------------+-------------------------------+
 * |                       Body Length = 8                         |
 * +---------------------------------------------------------------+
 * |                     Min Ack Delay, us (32)                    |
 * +---------------------------------------------------------------+
 * |                         Reserved (32)                         |
 * +---------------------------------------------------------------+
 * </pre>
 */
public final class MinAckDelayFrameFlyweight extends FrameHeaderFlyweight
{
    /**
     * Offset of the min ACK delay in microseconds (32 bits).
     */
    public static final int MIN_ACK_DELAY_OFFSET = FRAME_HEADER_LENGTH;

    /**
     * The body length, always.
     */
    public static final int BODY_LENGTH = 8;

    /**
     * @return the smallest ACK delay the sender can keep, in microseconds.
     */
    public int minAckDelayUs()
    {
        return buffer().getInt(offset() + MIN_ACK_DELAY_OFFSET, BYTE_ORDER);
    }

    /**
     * @param minAckDelayUs the smallest ACK delay the sender can keep, in microseconds.
     * @return this.
     */
    public MinAckDelayFrameFlyweight minAckDelayUs(final int minAckDelayUs)
    {
        mutableBuffer().putInt(offset() + MIN_ACK_DELAY_OFFSET, minAckDelayUs, BYTE_ORDER);
        mutableBuffer().putInt(offset() + MIN_ACK_DELAY_OFFSET + 4, 0, BYTE_ORDER);
        return this;
    }
}
