package io.pacelink.transport.wire;

/**
 * Frame types (docs/wire-format.md, "Frames"). Plain {@code int} constants rather than an enum so the receive path
 * switches on a primitive. A receiver skips a frame type it does not know, using the frame's body length.
 */
public final class FrameType
{
    /**
     * Filler; its body is ignored. Not ack-eliciting, but counts towards bytes in flight (RFC 9002 section 2).
     */
    public static final int PADDING = 0;

    /**
     * Empty, ack-eliciting, never retransmitted.
     */
    public static final int PING = 1;

    /**
     * Acknowledged packet-number ranges (RFC 9000 section 19.3).
     */
    public static final int ACK = 2;

    /**
     * Stream bytes at an offset.
     */
    public static final int DATA = 3;

    /**
     * Connection-level flow-control credit.
     */
    public static final int MAX_DATA = 4;

    /**
     * Stream-level flow-control credit.
     */
    public static final int MAX_STREAM_DATA = 5;

    /**
     * Connection parameters and address-validation token.
     */
    public static final int HANDSHAKE = 6;

    /**
     * Error code and reason for closing the connection.
     */
    public static final int CLOSE = 7;

    /**
     * The congestion controller the client asked for, beside its HANDSHAKE frame
     * ({@link CongestionControlFrameFlyweight}).
     */
    public static final int CONGESTION_CONTROL = 8;

    /**
     * How far the receiving application has read the stream ({@link ConsumedFrameFlyweight}): the delivery receipt.
     */
    public static final int CONSUMED = 9;

    /**
     * A message of the secure mode's Noise handshake, beside a HANDSHAKE frame (wire version 3).
     */
    public static final int NOISE = 10;

    /**
     * 8 unpredictable bytes sent toward a peer's new address (RFC 9000 section 19.17). Not ack-eliciting here: its
     * answer is the PATH_RESPONSE, and the challenger repeats it on its own timer.
     */
    public static final int PATH_CHALLENGE = 11;

    /**
     * The echo of a PATH_CHALLENGE's bytes (RFC 9000 section 19.18); never retransmitted (section 13.3), not
     * ack-eliciting.
     */
    public static final int PATH_RESPONSE = 12;

    /**
     * How often the receiver of data is asked to acknowledge ({@link AckFrequencyFrameFlyweight},
     * draft-ietf-quic-ack-frequency section 4); ack-eliciting, re-sent at its newest value when lost.
     */
    public static final int ACK_FREQUENCY = 13;

    /**
     * Empty: acknowledge this packet without delay (draft-ietf-quic-ack-frequency section 5); ack-eliciting, never
     * retransmitted.
     */
    public static final int IMMEDIATE_ACK = 14;

    /**
     * The smallest ACK delay the sender can keep ({@link MinAckDelayFrameFlyweight}), beside its HANDSHAKE frame: it
     * accepts ACK_FREQUENCY frames (draft-ietf-quic-ack-frequency section 3, the min_ack_delay transport parameter).
     */
    public static final int MIN_ACK_DELAY = 15;

    /**
     * A token for the client's later connections, from the server to a confirmed client (RFC 9000 section 19.7);
     * ack-eliciting, sent again when lost.
     */
    public static final int NEW_TOKEN = 16;

    private FrameType()
    {
    }

    /**
     * Whether a frame of this type makes its packet ack-eliciting: every frame except ACK, PADDING and CLOSE
     * (RFC 9002 section 2, "Ack-eliciting frames"). A frame type this version does not know counts as
     * ack-eliciting, so the peer that sent it still gets a timely acknowledgement.
     *
     * @param frameType a frame type value.
     * @return true if a packet carrying it must be acknowledged.
     */
    public static boolean isAckEliciting(final int frameType)
    {
        return frameType != ACK && frameType != PADDING && frameType != CLOSE &&
            frameType != PATH_CHALLENGE && frameType != PATH_RESPONSE;
    }

    /**
     * @param frameType a frame type value.
     * @return its name for diagnostics, or {@code "UNKNOWN"}.
     */
    public static String name(final int frameType)
    {
        switch (frameType)
        {
            case PADDING:
                return "PADDING";
            case PING:
                return "PING";
            case ACK:
                return "ACK";
            case DATA:
                return "DATA";
            case MAX_DATA:
                return "MAX_DATA";
            case MAX_STREAM_DATA:
                return "MAX_STREAM_DATA";
            case HANDSHAKE:
                return "HANDSHAKE";
            case CLOSE:
                return "CLOSE";
            case CONGESTION_CONTROL:
                return "CONGESTION_CONTROL";
            case CONSUMED:
                return "CONSUMED";
            case NOISE:
                return "NOISE";
            case PATH_CHALLENGE:
                return "PATH_CHALLENGE";
            case PATH_RESPONSE:
                return "PATH_RESPONSE";
            case ACK_FREQUENCY:
                return "ACK_FREQUENCY";
            case IMMEDIATE_ACK:
                return "IMMEDIATE_ACK";
            case MIN_ACK_DELAY:
                return "MIN_ACK_DELAY";
            case NEW_TOKEN:
                return "NEW_TOKEN";
            default:
                return "UNKNOWN";
        }
    }
}
