package io.pacelink.transport.schedule;

/**
 * What {@link PacketSender#sendPacket} sent, packed into an int in the Aeron style: the datagram's length and whether
 * it was ack-eliciting. Only ack-eliciting packets are paced and charged; ACK-only ones never are.
 *
 * @deprecated for the deprecated {@link PacketSender}; {@link PacketScheduler#onSent} takes the length and whether the
 * packet is ack-eliciting as they are. To be removed in the next minor version.
 */
@Deprecated
public final class SentPacket
{
    private SentPacket()
    {
    }

    /**
     * @param lengthBytes    the datagram's length, at most {@link Integer#MAX_VALUE} / 2.
     * @param isAckEliciting true if the packet must be acknowledged.
     * @return the packed value.
     */
    public static int pack(final int lengthBytes, final boolean isAckEliciting)
    {
        return lengthBytes << 1 | (isAckEliciting ? 1 : 0);
    }

    /**
     * @param sentPacket a packed value.
     * @return the datagram's length.
     */
    public static int lengthBytes(final int sentPacket)
    {
        return sentPacket >>> 1;
    }

    /**
     * @param sentPacket a packed value.
     * @return true if the packet was ack-eliciting.
     */
    public static boolean isAckEliciting(final int sentPacket)
    {
        return 0 != (sentPacket & 1);
    }
}
