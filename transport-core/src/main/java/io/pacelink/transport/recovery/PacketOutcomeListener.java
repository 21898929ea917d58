package io.pacelink.transport.recovery;

/**
 * How {@link LossRecovery} tells the endpoint engine what became of each packet, with what the packet carried as the
 * engine described it when it was sent, so the engine can free acknowledged stream ranges and control frames and
 * re-queue lost ones. Called on the agent thread during {@link LossRecovery#onAckReceived} and
 * {@link LossRecovery#onTimeout}; implementations must not allocate.
 */
public interface PacketOutcomeListener
{
    /**
     * A packet was acknowledged for the first time.
     *
     * @param packetNumber the packet's number.
     * @param streamOffset offset of the stream range it carried.
     * @param streamLength length of that range, 0 for none.
     * @param fin          true if it carried the end of the stream.
     * @param frameFlags   the engine's bits for the frames it carried.
     */
    void onPacketAcked(long packetNumber, long streamOffset, int streamLength, boolean fin, int frameFlags);

    /**
     * A packet was declared lost (RFC 9002 section 6.1): its retransmittable contents should be sent again.
     *
     * @param packetNumber the packet's number.
     * @param streamOffset offset of the stream range it carried.
     * @param streamLength length of that range, 0 for none.
     * @param fin          true if it carried the end of the stream.
     * @param frameFlags   the engine's bits for the frames it carried.
     */
    void onPacketLost(long packetNumber, long streamOffset, int streamLength, boolean fin, int frameFlags);

    /**
     * A packet previously reported through {@link #onPacketLost} was acknowledged after all (a spurious loss,
     * usually reordering). Called instead of {@link #onPacketAcked}: its contents reached the peer, so a
     * retransmission still queued may be dropped, and the engine may count the spurious loss.
     *
     * @param packetNumber the packet's number.
     * @param streamOffset offset of the stream range it carried.
     * @param streamLength length of that range, 0 for none.
     * @param fin          true if it carried the end of the stream.
     * @param frameFlags   the engine's bits for the frames it carried.
     */
    void onPacketAckedAfterLoss(long packetNumber, long streamOffset, int streamLength, boolean fin, int frameFlags);
}
