package io.pacelink.transport.wire;

/**
 * Receives the frames of one validated packet from {@link PacketDecoder#visitFrames}, in wire order. Flyweights are
 * the decoder's reused views: valid only during the call, never to be kept. PADDING is not reported.
 */
public interface FrameVisitor
{
    /**
     * @param ack the ACK frame; its ranges are already checked not to go below packet number 0.
     */
    void onAck(AckFrameFlyweight ack);

    /**
     * @param data the DATA frame; payload bytes are at {@link DataFrameFlyweight#payloadOffset()} in its buffer.
     */
    void onData(DataFrameFlyweight data);

    /**
     * @param maximumDataBytes connection-level credit, an absolute offset.
     */
    void onMaxData(long maximumDataBytes);

    /**
     * @param streamId               the stream the credit is for.
     * @param maximumStreamDataBytes stream-level credit, an absolute stream offset.
     */
    void onMaxStreamData(int streamId, long maximumStreamDataBytes);

    /**
     * @param handshake the HANDSHAKE frame.
     */
    void onHandshake(HandshakeFrameFlyweight handshake);

    /**
     * @param close the CLOSE frame.
     */
    void onClose(CloseFrameFlyweight close);

    /**
     * The controller the client asked for. Only a server's handshake processing needs it; everyone else ignores it,
     * hence the empty default.
     *
     * @param congestionControl the CONGESTION_CONTROL frame.
     */
    default void onCongestionControl(final CongestionControlFrameFlyweight congestionControl)
    {
    }

    /**
     * How far the peer's application has read this side's stream.
     *
     * @param consumed the CONSUMED frame.
     */
    default void onConsumed(final ConsumedFrameFlyweight consumed)
    {
    }

    /**
     * A PING frame: nothing to do but acknowledge the packet.
     */
    void onPing();

    /**
     * A frame type this version does not know; it has been skipped using its body length.
     *
     * @param frameType the unknown type.
     */
    void onUnknownFrame(int frameType);
}
