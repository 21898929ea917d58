package io.pacelink.transport.wire;

/**
 * Flyweight over an ACK_FREQUENCY frame (type {@link FrameType#ACK_FREQUENCY}): the sender of data asks its peer how
 * often to acknowledge (draft-ietf-quic-ack-frequency section 4, the frame of type 0xaf there; fixed-width fields
 * here). Sent only to a peer that announced its smallest ACK delay in a MIN_ACK_DELAY frame of its handshake.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |   Type = 13   |   Flags = 0   |           Reserved            |
 * +---------------+---------------+-------------------------------+
 * |                       Body Length = 24                        |
 * +---------------------------------------------------------------+
 * |                       Sequence Number (64)                    |
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                   Ack-Eliciting Threshold (32)                |
 * +---------------------------------------------------------------+
 * |                Requested Max Ack Delay, us (32)               |
 * +---------------------------------------------------------------+
 * |                    Reordering Threshold (32)                  |
 * +---------------------------------------------------------------+
 * |                         Reserved (32)                         |
 * +---------------------------------------------------------------+
 * </pre>
 * Every field is non-negative; anything else, a flag or another body length is malformed
 * ({@link PacketDecoder#MALFORMED_ACK_FREQUENCY}).
 */
public final class AckFrequencyFrameFlyweight extends FrameHeaderFlyweight
{
    /**
     * Offset of the sequence number (64 bits): a receiver applies only a frame newer than every one it has seen.
     */
    public static final int SEQUENCE_NUMBER_OFFSET = FRAME_HEADER_LENGTH;

    /**
     * Offset of the ack-eliciting threshold (32 bits): the most ack-eliciting packets the receiver may get before it
     * must acknowledge (an ACK is due when more than this many arrived; 0 asks for an ACK of every one).
     */
    public static final int ACK_ELICITING_THRESHOLD_OFFSET = SEQUENCE_NUMBER_OFFSET + 8;

    /**
     * Offset of the requested max ACK delay in microseconds (32 bits).
     */
    public static final int REQUESTED_MAX_ACK_DELAY_OFFSET = ACK_ELICITING_THRESHOLD_OFFSET + 4;

    /**
     * Offset of the reordering threshold (32 bits): 0 asks the receiver not to acknowledge out-of-order packets at
     * once; 1 or more keeps RFC 9000 section 13.2.1's immediate ACK of an out-of-order packet.
     */
    public static final int REORDERING_THRESHOLD_OFFSET = REQUESTED_MAX_ACK_DELAY_OFFSET + 4;

    /**
     * The body length, always.
     */
    public static final int BODY_LENGTH = REORDERING_THRESHOLD_OFFSET + 8 - FRAME_HEADER_LENGTH;

    /**
     * @return the sequence number.
     */
    public long sequenceNumber()
    {
        return buffer().getLong(offset() + SEQUENCE_NUMBER_OFFSET, BYTE_ORDER);
    }

    /**
     * @return the ack-eliciting threshold.
     */
    public int ackElicitingThreshold()
    {
        return buffer().getInt(offset() + ACK_ELICITING_THRESHOLD_OFFSET, BYTE_ORDER);
    }

    /**
     * @return the requested max ACK delay in microseconds.
     */
    public int requestedMaxAckDelayUs()
    {
        return buffer().getInt(offset() + REQUESTED_MAX_ACK_DELAY_OFFSET, BYTE_ORDER);
    }

    /**
     * @return the reordering threshold.
     */
    public int reorderingThreshold()
    {
        return buffer().getInt(offset() + REORDERING_THRESHOLD_OFFSET, BYTE_ORDER);
    }

    /**
     * Write every field of the body; the reserved field is zeroed.
     *
     * @param sequenceNumber         the frame's sequence number.
     * @param ackElicitingThreshold  ack-eliciting packets the receiver may get before it must acknowledge.
     * @param requestedMaxAckDelayUs the max ACK delay asked for.
     * @param reorderingThreshold    0 to ignore reordering, 1 or more to acknowledge it at once.
     * @return this.
     */
    public AckFrequencyFrameFlyweight set(
        final long sequenceNumber,
        final int ackElicitingThreshold,
        final int requestedMaxAckDelayUs,
        final int reorderingThreshold)
    {
        mutableBuffer().putLong(offset() + SEQUENCE_NUMBER_OFFSET, sequenceNumber, BYTE_ORDER);
        mutableBuffer().putInt(offset() + ACK_ELICITING_THRESHOLD_OFFSET, ackElicitingThreshold, BYTE_ORDER);
        mutableBuffer().putInt(offset() + REQUESTED_MAX_ACK_DELAY_OFFSET, requestedMaxAckDelayUs, BYTE_ORDER);
        mutableBuffer().putInt(offset() + REORDERING_THRESHOLD_OFFSET, reorderingThreshold, BYTE_ORDER);
        mutableBuffer().putInt(offset() + REORDERING_THRESHOLD_OFFSET + 4, 0, BYTE_ORDER);
        return this;
    }
}
