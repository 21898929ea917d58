package io.pacelink.transport.recovery;

import io.pacelink.transport.wire.EcnCodepoint;

/**
 * One packet as it leaves, described once for {@link LossRecovery#onPacketSent(SentPacketDescriptor)}: its number,
 * send time and size, whether it must be acknowledged and counts in flight, the stream range it carries, the engine's
 * frame bits, the Largest Acknowledged of the ACK frame it carries, whether it is a probe and the ECN codepoint it
 * leaves with. The sender keeps one and
 * refills it for every packet ({@link #reset}, then the setters), so describing a packet allocates nothing; loss
 * recovery copies what it keeps into its ring.
 */
public final class SentPacketDescriptor
{
    /**
     * {@link #ackFrameLargestAcked()} of a packet that carries no ACK frame.
     */
    public static final long NO_ACK_FRAME = -1;

    private long packetNumber;
    private long sentTimeNs;
    private int sizeBytes;
    private boolean isAckEliciting;
    private boolean countsInFlight;
    private long streamOffset;
    private int streamLength;
    private boolean fin;
    private int frameFlags;
    private boolean isRetransmission;
    private long ackFrameLargestAcked = NO_ACK_FRAME;
    private boolean isProbe;
    private int ecnCodepoint;

    /**
     * Start describing a packet: everything else is cleared (no stream range, no frames, not ack-eliciting).
     *
     * @param packetNumber the packet's number, larger than any sent before.
     * @param sentTimeNs   its send time.
     * @return this.
     */
    public SentPacketDescriptor reset(final long packetNumber, final long sentTimeNs)
    {
        this.packetNumber = packetNumber;
        this.sentTimeNs = sentTimeNs;
        sizeBytes = 0;
        isAckEliciting = false;
        countsInFlight = false;
        streamOffset = 0;
        streamLength = 0;
        fin = false;
        frameFlags = 0;
        isRetransmission = false;
        ackFrameLargestAcked = NO_ACK_FRAME;
        isProbe = false;
        ecnCodepoint = EcnCodepoint.NOT_ECT;
        return this;
    }

    /**
     * @param sizeBytes the datagram's size, integrity trailer included.
     * @return this.
     */
    public SentPacketDescriptor sizeBytes(final int sizeBytes)
    {
        this.sizeBytes = sizeBytes;
        return this;
    }

    /**
     * @param isAckEliciting true if the peer must acknowledge it; such a packet also counts in flight (RFC 9002
     *                       section 2).
     * @return this.
     */
    public SentPacketDescriptor ackEliciting(final boolean isAckEliciting)
    {
        this.isAckEliciting = isAckEliciting;
        this.countsInFlight = isAckEliciting;
        return this;
    }

    /**
     * @param countsInFlight true if it counts towards bytes in flight (RFC 9002: ack-eliciting or padding).
     * @return this.
     */
    public SentPacketDescriptor countsInFlight(final boolean countsInFlight)
    {
        this.countsInFlight = countsInFlight;
        return this;
    }

    /**
     * @param streamOffset     offset of the stream range it carries.
     * @param streamLength     length of that range, 0 for none.
     * @param fin              true if it carries the end of the stream.
     * @param isRetransmission true if the range is sent again.
     * @return this.
     */
    public SentPacketDescriptor streamRange(
        final long streamOffset, final int streamLength, final boolean fin, final boolean isRetransmission)
    {
        this.streamOffset = streamOffset;
        this.streamLength = streamLength;
        this.fin = fin;
        this.isRetransmission = isRetransmission;
        return this;
    }

    /**
     * @param frameFlags the engine's bits for the frames it carries, returned with its outcome.
     * @return this.
     */
    public SentPacketDescriptor frameFlags(final int frameFlags)
    {
        this.frameFlags = frameFlags;
        return this;
    }

    /**
     * @param largestAcknowledged the Largest Acknowledged of the ACK frame it carries, or {@link #NO_ACK_FRAME}.
     * @return this.
     */
    public SentPacketDescriptor ackFrameLargestAcked(final long largestAcknowledged)
    {
        this.ackFrameLargestAcked = largestAcknowledged;
        return this;
    }

    /**
     * @param isProbe true if it answers a probe timeout (RFC 9002 section 6.2.4): one fewer probe is owed.
     * @return this.
     */
    public SentPacketDescriptor probe(final boolean isProbe)
    {
        this.isProbe = isProbe;
        return this;
    }

    /**
     * @param ecnCodepoint the ECN codepoint it leaves with, as {@link LossRecovery#ecnCodepointToSend(long)} answered
     *                     just before (RFC 9000 section 13.4.2: validation counts the packets sent marked).
     * @return this.
     */
    public SentPacketDescriptor ecnCodepoint(final int ecnCodepoint)
    {
        this.ecnCodepoint = ecnCodepoint;
        return this;
    }

    /**
     * @return the packet's number.
     */
    public long packetNumber()
    {
        return packetNumber;
    }

    /**
     * @return its send time.
     */
    public long sentTimeNs()
    {
        return sentTimeNs;
    }

    /**
     * @return the datagram's size, trailer included.
     */
    public int sizeBytes()
    {
        return sizeBytes;
    }

    /**
     * @return true if the peer must acknowledge it.
     */
    public boolean isAckEliciting()
    {
        return isAckEliciting;
    }

    /**
     * @return true if it counts towards bytes in flight.
     */
    public boolean countsInFlight()
    {
        return countsInFlight;
    }

    /**
     * @return offset of the stream range it carries.
     */
    public long streamOffset()
    {
        return streamOffset;
    }

    /**
     * @return length of that range, 0 for none.
     */
    public int streamLength()
    {
        return streamLength;
    }

    /**
     * @return true if it carries the end of the stream.
     */
    public boolean fin()
    {
        return fin;
    }

    /**
     * @return the engine's frame bits.
     */
    public int frameFlags()
    {
        return frameFlags;
    }

    /**
     * @return true if it carries retransmitted data.
     */
    public boolean isRetransmission()
    {
        return isRetransmission;
    }

    /**
     * @return the Largest Acknowledged of its ACK frame, or {@link #NO_ACK_FRAME}.
     */
    public long ackFrameLargestAcked()
    {
        return ackFrameLargestAcked;
    }

    /**
     * @return true if it is a probe.
     */
    public boolean isProbe()
    {
        return isProbe;
    }

    /**
     * @return the ECN codepoint it leaves with (0 not-ECT, 1 ECT(1), 2 ECT(0), 3 CE).
     */
    public int ecnCodepoint()
    {
        return ecnCodepoint;
    }

    public String toString()
    {
        return "SentPacketDescriptor{packetNumber=" + packetNumber +
            ", sentTimeNs=" + sentTimeNs +
            ", sizeBytes=" + sizeBytes +
            ", isAckEliciting=" + isAckEliciting +
            ", countsInFlight=" + countsInFlight +
            ", streamOffset=" + streamOffset +
            ", streamLength=" + streamLength +
            ", fin=" + fin +
            ", frameFlags=" + frameFlags +
            ", isRetransmission=" + isRetransmission +
            ", ackFrameLargestAcked=" + ackFrameLargestAcked +
            ", isProbe=" + isProbe +
            ", ecnCodepoint=" + ecnCodepoint +
            '}';
    }
}
