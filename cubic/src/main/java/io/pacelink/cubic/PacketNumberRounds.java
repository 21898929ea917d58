package io.pacelink.cubic;

/**
 * Slow-start rounds delimited by packet number, as RFC 9406 section 4.2 and Linux's HyStart ({@code end_seq}) delimit
 * them by sequence number: when a round begins, its end is SND.NXT, the number the next packet will get, and the round
 * ends when a packet numbered that or higher is acknowledged, that is when the first packet sent in it is. A round's
 * ACKs are therefore those of the packets sent during the round before.
 */
final class PacketNumberRounds
{
    private long nextPacketNumber;
    private long windowEndPacketNumber;

    /**
     * @param packetNumber number of a packet just sent.
     */
    void onPacketSent(final long packetNumber)
    {
        nextPacketNumber = Math.max(nextPacketNumber, packetNumber + 1);
    }

    /**
     * The end of the first round is 0, SND.NXT before anything was sent, so the first acknowledgement starts round one.
     *
     * @param largestAckedPacketNumber number of the largest newly acknowledged packet, negative if none.
     * @return true if this acknowledgement ended the round; the next one has begun, ending at SND.NXT.
     */
    boolean onAck(final long largestAckedPacketNumber)
    {
        if (largestAckedPacketNumber >= windowEndPacketNumber)
        {
            windowEndPacketNumber = nextPacketNumber;
            return true;
        }
        return false;
    }
}
