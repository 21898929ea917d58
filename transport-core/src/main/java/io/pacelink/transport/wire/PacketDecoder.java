package io.pacelink.transport.wire;

import io.pacelink.transport.stream.SendLog;
import org.agrona.DirectBuffer;

import static io.pacelink.transport.wire.FrameHeaderFlyweight.FRAME_HEADER_LENGTH;
import static io.pacelink.transport.wire.PacketHeaderFlyweight.HEADER_LENGTH;

/**
 * Parses received datagrams in two steps so that a malformed packet is dropped whole, never half-applied
 * (docs/wire-format.md): {@link #validate} checks the header and every frame, touching no state outside this decoder,
 * and returns a result code; only then are the frames walked, with {@link #firstFrame} and {@link #nextFrame()} or
 * handed to a {@link FrameVisitor} by {@link #visitFrames}.
 * <p>
 * Reusable and allocation free; one instance per thread. Every read in {@link #validate} is preceded by a length
 * check against the datagram, so a hostile datagram yields a code, never an exception.
 */
public final class PacketDecoder
{
    /**
     * The packet is well formed.
     */
    public static final int OK = 0;

    /**
     * The offset or length given does not lie within the buffer.
     */
    public static final int INVALID_BUFFER_RANGE = 1;

    /**
     * Shorter than the packet header.
     */
    public static final int TRUNCATED_HEADER = 2;

    /**
     * The version is not {@link PacketHeaderFlyweight#CURRENT_VERSION}.
     */
    public static final int UNSUPPORTED_VERSION = 3;

    /**
     * The packet type is not one of {@link PacketType}.
     */
    public static final int UNKNOWN_PACKET_TYPE = 4;

    /**
     * The packet number is negative.
     */
    public static final int INVALID_PACKET_NUMBER = 5;

    /**
     * Fewer bytes left than a frame header.
     */
    public static final int TRUNCATED_FRAME_HEADER = 6;

    /**
     * A frame's body length is negative (e.g. 0xFFFFFFFF) or runs past the end of the datagram.
     */
    public static final int FRAME_LENGTH_OUT_OF_BOUNDS = 7;

    /**
     * A PING frame with a body.
     */
    public static final int MALFORMED_PING = 8;

    /**
     * An ACK frame with a range count above {@link #MAX_ACK_RANGES} or negative, a flag other than
     * {@link AckFrameFlyweight#FLAG_ECN}, a body length other than 20 + 8 x count (+ 24 with ECN counts), a negative
     * field or ECN count, or ranges reaching below packet number 0.
     */
    public static final int MALFORMED_ACK = 9;

    /**
     * A DATA frame shorter than its fixed body, with a negative stream id or offset, an offset + length that
     * overflows, or an empty payload without FIN.
     */
    public static final int MALFORMED_DATA = 10;

    /**
     * A MAX_DATA frame of the wrong length or with a negative maximum.
     */
    public static final int MALFORMED_MAX_DATA = 11;

    /**
     * A MAX_STREAM_DATA frame of the wrong length, or with a negative stream id or maximum.
     */
    public static final int MALFORMED_MAX_STREAM_DATA = 12;

    /**
     * A HANDSHAKE frame shorter than its fixed body, whose token length does not match the body or exceeds
     * {@link RetryPacketFlyweight#MAX_TOKEN_LENGTH}, or with a non-positive datagram size or a negative delay, timeout
     * or credit.
     */
    public static final int MALFORMED_HANDSHAKE = 13;

    /**
     * A CLOSE frame shorter than its fixed body or whose reason length does not match the body.
     */
    public static final int MALFORMED_CLOSE = 14;

    /**
     * A ONE_RTT packet without any frame.
     */
    public static final int EMPTY_PACKET = 15;

    /**
     * A CONGESTION_CONTROL frame shorter than its fixed body, whose name length does not match the body, or whose
     * name is empty, longer than {@link CongestionControlFrameFlyweight#MAX_NAME_LENGTH} or not printable ASCII.
     */
    public static final int MALFORMED_CONGESTION_CONTROL = 16;

    /**
     * A RETRY packet whose token is empty or longer than {@link RetryPacketFlyweight#MAX_TOKEN_LENGTH}, or is followed
     * by anything but nothing or a server key of {@link RetryPacketFlyweight#SERVER_KEY_LENGTH} bytes.
     */
    public static final int MALFORMED_RETRY = 17;

    /**
     * A CONSUMED frame of the wrong length, or with a negative stream id, position or message count, or more
     * messages than the position leaves room for.
     */
    public static final int MALFORMED_CONSUMED = 18;

    /**
     * A NOISE frame shorter than its fixed body, of an unknown profile or AEAD, or whose message is shorter than
     * {@link NoiseFrameFlyweight#MIN_MESSAGE_LENGTH} (but an NK key request's empty one) or longer than
     * {@link NoiseFrameFlyweight#MAX_MESSAGE_LENGTH}.
     */
    public static final int MALFORMED_NOISE = 19;

    /**
     * A PATH_CHALLENGE or PATH_RESPONSE frame whose body is not 8 bytes.
     */
    public static final int MALFORMED_PATH = 20;

    /**
     * An ACK_FREQUENCY frame whose body is not {@link AckFrequencyFrameFlyweight#BODY_LENGTH} bytes, with a flag or a
     * negative field; an IMMEDIATE_ACK frame with a body or a flag; a MIN_ACK_DELAY frame whose body is not
     * {@link MinAckDelayFrameFlyweight#BODY_LENGTH} bytes, with a flag or a negative delay
     * (draft-ietf-quic-ack-frequency sections 3 to 5: a FRAME_ENCODING_ERROR there).
     */
    public static final int MALFORMED_ACK_FREQUENCY = 21;

    /**
     * A NEW_TOKEN frame with a flag, an empty token (RFC 9000 section 19.7: a FRAME_ENCODING_ERROR), one longer than
     * {@link NewTokenFrameFlyweight#MAX_TOKEN_LENGTH}, or a token length that does not match the body.
     */
    public static final int MALFORMED_NEW_TOKEN = 22;

    /**
     * Most additional ranges one ACK frame may carry (docs/wire-format.md); more are rejected, bounding the work a
     * single frame can cause. Writers never exceed it either.
     */
    public static final int MAX_ACK_RANGES = 64;

    private final PacketHeaderFlyweight header = new PacketHeaderFlyweight();
    private final FrameHeaderFlyweight frameHeader = new FrameHeaderFlyweight();
    private final AckFrameFlyweight ack = new AckFrameFlyweight();
    private final DataFrameFlyweight data = new DataFrameFlyweight();
    private final MaxDataFrameFlyweight maxData = new MaxDataFrameFlyweight();
    private final MaxStreamDataFrameFlyweight maxStreamData = new MaxStreamDataFrameFlyweight();
    private final HandshakeFrameFlyweight handshake = new HandshakeFrameFlyweight();
    private final CloseFrameFlyweight close = new CloseFrameFlyweight();
    private final CongestionControlFrameFlyweight congestionControl = new CongestionControlFrameFlyweight();
    private final RetryPacketFlyweight retry = new RetryPacketFlyweight();
    private final ConsumedFrameFlyweight consumed = new ConsumedFrameFlyweight();
    private final NoiseFrameFlyweight noise = new NoiseFrameFlyweight();
    private final PathFrameFlyweight path = new PathFrameFlyweight();
    private final AckFrequencyFrameFlyweight ackFrequency = new AckFrequencyFrameFlyweight();
    private final MinAckDelayFrameFlyweight minAckDelay = new MinAckDelayFrameFlyweight();
    private final NewTokenFrameFlyweight newToken = new NewTokenFrameFlyweight();

    private DirectBuffer frameBuffer;
    private int nextFrameOffset;
    private int framesEnd;
    private int packetType;
    private long destinationConnectionId;
    private long packetNumber;
    private int frameCount;
    private boolean ackEliciting;
    private boolean carriesData;
    private int retryServerKeyLength;

    /**
     * Check a datagram completely: header, then every frame header and body. Nothing outside this decoder changes.
     * On {@link #OK} the header accessors ({@link #packetType()}, {@link #packetNumber()}, ...) describe the packet.
     *
     * @param buffer holding the datagram.
     * @param offset of the datagram in the buffer.
     * @param length of the datagram.
     * @return {@link #OK} or the first problem found (see {@link #describe(int)}).
     */
    public int validate(final DirectBuffer buffer, final int offset, final int length)
    {
        if (offset < 0 || length < 0 || length > buffer.capacity() - offset)
        {
            return INVALID_BUFFER_RANGE;
        }
        if (length < HEADER_LENGTH)
        {
            return TRUNCATED_HEADER;
        }

        header.wrap(buffer, offset);
        if (header.version() != PacketHeaderFlyweight.CURRENT_VERSION)
        {
            return UNSUPPORTED_VERSION;
        }
        final int type = header.packetType();
        if (!PacketType.isKnown(type))
        {
            return UNKNOWN_PACKET_TYPE;
        }
        final long number = header.packetNumber();
        if (number < 0)
        {
            return INVALID_PACKET_NUMBER;
        }

        if (type == PacketType.RETRY)
        {
            return validateRetry(buffer, offset, length, number);
        }

        final int end = offset + length;
        int frameOffset = offset + HEADER_LENGTH;
        int frames = 0;
        boolean elicitsAck = false;
        boolean hasData = false;
        while (frameOffset < end)
        {
            if (end - frameOffset < FRAME_HEADER_LENGTH)
            {
                return TRUNCATED_FRAME_HEADER;
            }
            frameHeader.wrap(buffer, frameOffset);
            final int bodyLength = frameHeader.bodyLength();
            if (bodyLength < 0 || bodyLength > end - frameOffset - FRAME_HEADER_LENGTH)
            {
                return FRAME_LENGTH_OUT_OF_BOUNDS;
            }
            final int frameType = frameHeader.frameType();
            final int result = validateFrame(buffer, frameOffset, frameType, bodyLength);
            if (result != OK)
            {
                return result;
            }
            elicitsAck |= FrameType.isAckEliciting(frameType);
            hasData |= FrameType.DATA == frameType;
            frames++;
            frameOffset += FRAME_HEADER_LENGTH + bodyLength;
        }

        if (frames == 0 && type == PacketType.ONE_RTT)
        {
            return EMPTY_PACKET;
        }

        packetType = type;
        destinationConnectionId = header.destinationConnectionId();
        packetNumber = number;
        frameCount = frames;
        ackEliciting = elicitsAck;
        carriesData = hasData;
        return OK;
    }

    /**
     * What {@link #firstFrame} and {@link #nextFrame()} return when the packet has no more frames.
     */
    public static final int NO_MORE_FRAMES = -1;

    /**
     * Start walking the frames of a datagram {@link #validate} accepted (the frame lengths are trusted here): the
     * returned frame's flyweight ({@link #ack()}, {@link #data()}, ...) is wrapped at it. PADDING is skipped.
     *
     * @param buffer holding the datagram.
     * @param offset of the datagram in the buffer.
     * @param length of the datagram.
     * @return the first frame's {@link FrameType}, or {@link #NO_MORE_FRAMES}.
     */
    public int firstFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        frameBuffer = buffer;
        nextFrameOffset = offset + HEADER_LENGTH;
        framesEnd = offset + length;
        return nextFrame();
    }

    /**
     * @return the next frame's {@link FrameType}, its flyweight wrapped at it, or {@link #NO_MORE_FRAMES}.
     */
    public int nextFrame()
    {
        while (nextFrameOffset < framesEnd)
        {
            final int frameOffset = nextFrameOffset;
            frameHeader.wrap(frameBuffer, frameOffset);
            nextFrameOffset += frameHeader.frameLength();
            final int frameType = frameHeader.frameType();
            switch (frameType)
            {
                case FrameType.PADDING:
                    continue;

                case FrameType.ACK:
                    ack.wrap(frameBuffer, frameOffset);
                    break;

                case FrameType.DATA:
                    data.wrap(frameBuffer, frameOffset);
                    break;

                case FrameType.MAX_DATA:
                    maxData.wrap(frameBuffer, frameOffset);
                    break;

                case FrameType.MAX_STREAM_DATA:
                    maxStreamData.wrap(frameBuffer, frameOffset);
                    break;

                case FrameType.HANDSHAKE:
                    handshake.wrap(frameBuffer, frameOffset);
                    break;

                case FrameType.CLOSE:
                    close.wrap(frameBuffer, frameOffset);
                    break;

                case FrameType.CONGESTION_CONTROL:
                    congestionControl.wrap(frameBuffer, frameOffset);
                    break;

                case FrameType.CONSUMED:
                    consumed.wrap(frameBuffer, frameOffset);
                    break;

                case FrameType.NOISE:
                    noise.wrap(frameBuffer, frameOffset);
                    break;

                case FrameType.PATH_CHALLENGE:
                case FrameType.PATH_RESPONSE:
                    path.wrap(frameBuffer, frameOffset);
                    break;

                case FrameType.ACK_FREQUENCY:
                    ackFrequency.wrap(frameBuffer, frameOffset);
                    break;

                case FrameType.MIN_ACK_DELAY:
                    minAckDelay.wrap(frameBuffer, frameOffset);
                    break;

                case FrameType.NEW_TOKEN:
                    newToken.wrap(frameBuffer, frameOffset);
                    break;

                default:
                    break;
            }
            return frameType;
        }
        return NO_MORE_FRAMES;
    }

    /**
     * Hand the frames of a datagram to a visitor in wire order. Call only for a datagram {@link #validate} accepted:
     * the frame lengths are trusted here.
     *
     * @param buffer  holding the datagram.
     * @param offset  of the datagram in the buffer.
     * @param length  of the datagram.
     * @param visitor receives each frame except PADDING.
     */
    public void visitFrames(final DirectBuffer buffer, final int offset, final int length, final FrameVisitor visitor)
    {
        for (int frameType = firstFrame(buffer, offset, length); NO_MORE_FRAMES != frameType; frameType = nextFrame())
        {
            switch (frameType)
            {
                case FrameType.PING:
                    visitor.onPing();
                    break;

                case FrameType.ACK:
                    visitor.onAck(ack);
                    break;

                case FrameType.DATA:
                    visitor.onData(data);
                    break;

                case FrameType.MAX_DATA:
                    visitor.onMaxData(maxData.maximumData());
                    break;

                case FrameType.MAX_STREAM_DATA:
                    visitor.onMaxStreamData(maxStreamData.streamId(), maxStreamData.maximumStreamData());
                    break;

                case FrameType.HANDSHAKE:
                    visitor.onHandshake(handshake);
                    break;

                case FrameType.CLOSE:
                    visitor.onClose(close);
                    break;

                case FrameType.CONGESTION_CONTROL:
                    visitor.onCongestionControl(congestionControl);
                    break;

                case FrameType.CONSUMED:
                    visitor.onConsumed(consumed);
                    break;

                case FrameType.NOISE:
                    break; // a handshake packet's, read by the endpoint before any visitor sees the packet

                default:
                    visitor.onUnknownFrame(frameType);
                    break;
            }
        }
    }

    /**
     * @return the ACK frame {@link #nextFrame()} last returned.
     */
    public AckFrameFlyweight ack()
    {
        return ack;
    }

    /**
     * @return the DATA frame {@link #nextFrame()} last returned.
     */
    public DataFrameFlyweight data()
    {
        return data;
    }

    /**
     * @return the MAX_DATA frame {@link #nextFrame()} last returned.
     */
    public MaxDataFrameFlyweight maxData()
    {
        return maxData;
    }

    /**
     * @return the MAX_STREAM_DATA frame {@link #nextFrame()} last returned.
     */
    public MaxStreamDataFrameFlyweight maxStreamData()
    {
        return maxStreamData;
    }

    /**
     * @return the HANDSHAKE frame {@link #nextFrame()} last returned.
     */
    public HandshakeFrameFlyweight handshake()
    {
        return handshake;
    }

    /**
     * @return the CLOSE frame {@link #nextFrame()} last returned.
     */
    public CloseFrameFlyweight close()
    {
        return close;
    }

    /**
     * @return the CONGESTION_CONTROL flyweight, wrapped at the frame {@link #nextFrame()} last returned as one.
     */
    public CongestionControlFrameFlyweight congestionControl()
    {
        return congestionControl;
    }

    /**
     * @return the PATH_CHALLENGE or PATH_RESPONSE frame {@link #nextFrame()} last returned.
     */
    public PathFrameFlyweight path()
    {
        return path;
    }

    /**
     * @return the ACK_FREQUENCY frame {@link #nextFrame()} last returned.
     */
    public AckFrequencyFrameFlyweight ackFrequency()
    {
        return ackFrequency;
    }

    /**
     * @return the MIN_ACK_DELAY frame {@link #nextFrame()} last returned.
     */
    public MinAckDelayFrameFlyweight minAckDelay()
    {
        return minAckDelay;
    }

    /**
     * @return the NEW_TOKEN frame {@link #nextFrame()} last returned.
     */
    public NewTokenFrameFlyweight newToken()
    {
        return newToken;
    }

    /**
     * @return the NOISE flyweight, wrapped at the frame {@link #nextFrame()} last returned as one.
     */
    public NoiseFrameFlyweight noise()
    {
        return noise;
    }

    /**
     * @return the RETRY packet that last validated, wrapped at its start.
     */
    public RetryPacketFlyweight retry()
    {
        return retry;
    }

    /**
     * @return bytes of the server key after the token of the RETRY packet that last validated: 0 (none) or
     * {@link RetryPacketFlyweight#SERVER_KEY_LENGTH}; it starts at {@link RetryPacketFlyweight#serverKeyOffset()}.
     */
    public int retryServerKeyLength()
    {
        return retryServerKeyLength;
    }

    /**
     * @return the CONSUMED frame {@link #nextFrame()} last returned.
     */
    public ConsumedFrameFlyweight consumed()
    {
        return consumed;
    }

    /**
     * @return the {@link PacketType} of the last packet that validated.
     */
    public int packetType()
    {
        return packetType;
    }

    /**
     * @return the destination connection id of the last packet that validated.
     */
    public long destinationConnectionId()
    {
        return destinationConnectionId;
    }

    /**
     * @return the packet number of the last packet that validated.
     */
    public long packetNumber()
    {
        return packetNumber;
    }

    /**
     * @return the number of frames, PADDING included, in the last packet that validated.
     */
    public int frameCount()
    {
        return frameCount;
    }

    /**
     * @return true if the last packet that validated carries a frame other than ACK, PADDING and CLOSE, so the
     * receiver owes an acknowledgement (RFC 9002 section 2).
     */
    public boolean isAckEliciting()
    {
        return ackEliciting;
    }

    /**
     * @return true if the last packet that validated carries a DATA frame: application data, which its receiver's
     * application may answer.
     */
    public boolean carriesData()
    {
        return carriesData;
    }

    /**
     * @param resultCode a code returned by {@link #validate}.
     * @return its name for diagnostics.
     */
    public static String describe(final int resultCode)
    {
        switch (resultCode)
        {
            case OK:
                return "OK";
            case INVALID_BUFFER_RANGE:
                return "INVALID_BUFFER_RANGE";
            case TRUNCATED_HEADER:
                return "TRUNCATED_HEADER";
            case UNSUPPORTED_VERSION:
                return "UNSUPPORTED_VERSION";
            case UNKNOWN_PACKET_TYPE:
                return "UNKNOWN_PACKET_TYPE";
            case INVALID_PACKET_NUMBER:
                return "INVALID_PACKET_NUMBER";
            case TRUNCATED_FRAME_HEADER:
                return "TRUNCATED_FRAME_HEADER";
            case FRAME_LENGTH_OUT_OF_BOUNDS:
                return "FRAME_LENGTH_OUT_OF_BOUNDS";
            case MALFORMED_PING:
                return "MALFORMED_PING";
            case MALFORMED_ACK:
                return "MALFORMED_ACK";
            case MALFORMED_DATA:
                return "MALFORMED_DATA";
            case MALFORMED_MAX_DATA:
                return "MALFORMED_MAX_DATA";
            case MALFORMED_MAX_STREAM_DATA:
                return "MALFORMED_MAX_STREAM_DATA";
            case MALFORMED_HANDSHAKE:
                return "MALFORMED_HANDSHAKE";
            case MALFORMED_CLOSE:
                return "MALFORMED_CLOSE";
            case EMPTY_PACKET:
                return "EMPTY_PACKET";
            case MALFORMED_CONGESTION_CONTROL:
                return "MALFORMED_CONGESTION_CONTROL";
            case MALFORMED_RETRY:
                return "MALFORMED_RETRY";
            case MALFORMED_CONSUMED:
                return "MALFORMED_CONSUMED";
            case MALFORMED_NOISE:
                return "MALFORMED_NOISE";
            case MALFORMED_PATH:
                return "MALFORMED_PATH";
            case MALFORMED_ACK_FREQUENCY:
                return "MALFORMED_ACK_FREQUENCY";
            case MALFORMED_NEW_TOKEN:
                return "MALFORMED_NEW_TOKEN";
            default:
                return "UNKNOWN_RESULT";
        }
    }

    private int validateFrame(
        final DirectBuffer buffer, final int frameOffset, final int frameType, final int bodyLength)
    {
        switch (frameType)
        {
            case FrameType.PING:
                return bodyLength == 0 ? OK : MALFORMED_PING;

            case FrameType.ACK:
                return validateAck(buffer, frameOffset, bodyLength);

            case FrameType.DATA:
                return validateData(buffer, frameOffset, bodyLength);

            case FrameType.MAX_DATA:
                return validateMaxData(buffer, frameOffset, bodyLength);

            case FrameType.MAX_STREAM_DATA:
                return validateMaxStreamData(buffer, frameOffset, bodyLength);

            case FrameType.HANDSHAKE:
                return validateHandshake(buffer, frameOffset, bodyLength);

            case FrameType.CLOSE:
                return validateClose(buffer, frameOffset, bodyLength);

            case FrameType.CONGESTION_CONTROL:
                return validateCongestionControl(buffer, frameOffset, bodyLength);

            case FrameType.CONSUMED:
                return validateConsumed(buffer, frameOffset, bodyLength);

            case FrameType.NOISE:
                return validateNoise(buffer, frameOffset, bodyLength);

            case FrameType.PATH_CHALLENGE:
            case FrameType.PATH_RESPONSE:
                return PathFrameFlyweight.BODY_LENGTH == bodyLength ? OK : MALFORMED_PATH;

            case FrameType.ACK_FREQUENCY:
                return validateAckFrequency(buffer, frameOffset, bodyLength);

            case FrameType.IMMEDIATE_ACK:
                frameHeader.wrap(buffer, frameOffset);
                return 0 == bodyLength && 0 == frameHeader.frameFlags() ? OK : MALFORMED_ACK_FREQUENCY;

            case FrameType.MIN_ACK_DELAY:
                if (MinAckDelayFrameFlyweight.BODY_LENGTH != bodyLength)
                {
                    return MALFORMED_ACK_FREQUENCY;
                }
                minAckDelay.wrap(buffer, frameOffset);
                return 0 == minAckDelay.frameFlags() && minAckDelay.minAckDelayUs() >= 0 ?
                    OK : MALFORMED_ACK_FREQUENCY;

            case FrameType.NEW_TOKEN:
                if (bodyLength < NewTokenFrameFlyweight.FIXED_BODY_LENGTH)
                {
                    return MALFORMED_NEW_TOKEN;
                }
                newToken.wrap(buffer, frameOffset);
                return newToken.isWellFormed() ? OK : MALFORMED_NEW_TOKEN;

            default:
                // PADDING has no structure; unknown types are skipped by their length (docs/wire-format.md).
                return OK;
        }
    }

    private int validateAckFrequency(final DirectBuffer buffer, final int frameOffset, final int bodyLength)
    {
        if (AckFrequencyFrameFlyweight.BODY_LENGTH != bodyLength)
        {
            return MALFORMED_ACK_FREQUENCY;
        }
        ackFrequency.wrap(buffer, frameOffset);
        // Values that are well formed but unacceptable (a delay below the receiver's minimum, a stale sequence
        // number) are the connection's to judge, not the decoder's.
        if (0 != ackFrequency.frameFlags() || ackFrequency.sequenceNumber() < 0 ||
            ackFrequency.ackElicitingThreshold() < 0 || ackFrequency.requestedMaxAckDelayUs() < 0 ||
            ackFrequency.reorderingThreshold() < 0)
        {
            return MALFORMED_ACK_FREQUENCY;
        }
        return OK;
    }

    private int validateAck(final DirectBuffer buffer, final int frameOffset, final int bodyLength)
    {
        if (bodyLength < AckFrameFlyweight.FIXED_BODY_LENGTH)
        {
            return MALFORMED_ACK;
        }
        ack.wrap(buffer, frameOffset);
        final int flags = ack.frameFlags();
        final boolean hasEcnCounts = AckFrameFlyweight.FLAG_ECN == flags;
        final int rangeCount = ack.rangeCount();
        if ((0 != flags && !hasEcnCounts) || rangeCount < 0 || rangeCount > MAX_ACK_RANGES ||
            bodyLength != AckFrameFlyweight.bodyLength(rangeCount, hasEcnCounts))
        {
            return MALFORMED_ACK;
        }
        // RFC 9000 section 19.3.2 counts are variable-length integers, never negative; 64 bits here.
        if (hasEcnCounts && (ack.ect0Count() < 0 || ack.ect1Count() < 0 || ack.ceCount() < 0))
        {
            return MALFORMED_ACK;
        }

        final long largestAcked = ack.largestAcked();
        final int firstRange = ack.firstRange();
        if (largestAcked < 0 || ack.ackDelayUs() < 0 || firstRange < 0)
        {
            return MALFORMED_ACK;
        }

        // RFC 9000 section 19.3.1: a range that would reach below packet number 0 is a FRAME_ENCODING_ERROR.
        long smallest = AckFrameFlyweight.rangeSmallest(largestAcked, firstRange);
        if (smallest < 0)
        {
            return MALFORMED_ACK;
        }
        for (int i = 0; i < rangeCount; i++)
        {
            final int gap = ack.gap(i);
            final int rangeLength = ack.rangeLength(i);
            if (gap < 0 || rangeLength < 0)
            {
                return MALFORMED_ACK;
            }
            final long largest = AckFrameFlyweight.nextRangeLargest(smallest, gap);
            smallest = AckFrameFlyweight.rangeSmallest(largest, rangeLength);
            if (largest < 0 || smallest < 0)
            {
                return MALFORMED_ACK;
            }
        }
        return OK;
    }

    private int validateData(final DirectBuffer buffer, final int frameOffset, final int bodyLength)
    {
        if (bodyLength < DataFrameFlyweight.FIXED_BODY_LENGTH)
        {
            return MALFORMED_DATA;
        }
        data.wrap(buffer, frameOffset);
        final int payloadLength = bodyLength - DataFrameFlyweight.FIXED_BODY_LENGTH;
        final long streamOffset = data.streamOffset();
        if (data.streamId() < 0 || streamOffset < 0 || streamOffset > Long.MAX_VALUE - payloadLength)
        {
            return MALFORMED_DATA;
        }
        // An empty frame carries nothing unless it marks the end of the stream.
        if (payloadLength == 0 && !data.fin())
        {
            return MALFORMED_DATA;
        }
        return OK;
    }

    private int validateMaxData(final DirectBuffer buffer, final int frameOffset, final int bodyLength)
    {
        if (bodyLength != MaxDataFrameFlyweight.BODY_LENGTH)
        {
            return MALFORMED_MAX_DATA;
        }
        maxData.wrap(buffer, frameOffset);
        return maxData.maximumData() < 0 ? MALFORMED_MAX_DATA : OK;
    }

    private int validateMaxStreamData(final DirectBuffer buffer, final int frameOffset, final int bodyLength)
    {
        if (bodyLength != MaxStreamDataFrameFlyweight.BODY_LENGTH)
        {
            return MALFORMED_MAX_STREAM_DATA;
        }
        maxStreamData.wrap(buffer, frameOffset);
        if (maxStreamData.streamId() < 0 || maxStreamData.maximumStreamData() < 0)
        {
            return MALFORMED_MAX_STREAM_DATA;
        }
        return OK;
    }

    private int validateHandshake(final DirectBuffer buffer, final int frameOffset, final int bodyLength)
    {
        if (bodyLength < HandshakeFrameFlyweight.FIXED_BODY_LENGTH)
        {
            return MALFORMED_HANDSHAKE;
        }
        handshake.wrap(buffer, frameOffset);
        final int tokenLength = handshake.tokenLength();
        if (tokenLength < 0 || tokenLength > RetryPacketFlyweight.MAX_TOKEN_LENGTH ||
            tokenLength != bodyLength - HandshakeFrameFlyweight.FIXED_BODY_LENGTH)
        {
            return MALFORMED_HANDSHAKE;
        }
        if (handshake.maxDatagramSize() <= 0 ||
            handshake.maxAckDelayUs() < 0 ||
            handshake.idleTimeoutMs() < 0 ||
            handshake.initialMaxData() < 0 ||
            handshake.initialMaxStreamData() < 0)
        {
            return MALFORMED_HANDSHAKE;
        }
        return OK;
    }

    private int validateRetry(final DirectBuffer buffer, final int offset, final int length, final long number)
    {
        if (length < RetryPacketFlyweight.TOKEN_OFFSET)
        {
            return MALFORMED_RETRY;
        }
        retry.wrap(buffer, offset);
        final int tokenLength = retry.tokenLength();
        final int keyLength = length - RetryPacketFlyweight.TOKEN_OFFSET - tokenLength;
        if (tokenLength <= 0 || tokenLength > RetryPacketFlyweight.MAX_TOKEN_LENGTH ||
            0 != keyLength && RetryPacketFlyweight.SERVER_KEY_LENGTH != keyLength)
        {
            return MALFORMED_RETRY;
        }
        retryServerKeyLength = keyLength;
        packetType = PacketType.RETRY;
        destinationConnectionId = header.destinationConnectionId();
        packetNumber = number;
        frameCount = 0;
        ackEliciting = false;
        return OK;
    }

    private int validateClose(final DirectBuffer buffer, final int frameOffset, final int bodyLength)
    {
        if (bodyLength < CloseFrameFlyweight.FIXED_BODY_LENGTH)
        {
            return MALFORMED_CLOSE;
        }
        close.wrap(buffer, frameOffset);
        final int reasonLength = close.reasonLength();
        if (reasonLength < 0 || reasonLength != bodyLength - CloseFrameFlyweight.FIXED_BODY_LENGTH)
        {
            return MALFORMED_CLOSE;
        }
        return OK;
    }

    private int validateConsumed(final DirectBuffer buffer, final int frameOffset, final int bodyLength)
    {
        if (bodyLength != ConsumedFrameFlyweight.BODY_LENGTH)
        {
            return MALFORMED_CONSUMED;
        }
        consumed.wrap(buffer, frameOffset);
        final long position = consumed.position();
        final long messages = consumed.messages();
        // Every message takes at least its length prefix, so a count beyond position / prefix cannot be true.
        if (consumed.streamId() < 0 || position < 0 || messages < 0 ||
            messages > position / SendLog.LENGTH_PREFIX_BYTES)
        {
            return MALFORMED_CONSUMED;
        }
        return OK;
    }

    private int validateCongestionControl(final DirectBuffer buffer, final int frameOffset, final int bodyLength)
    {
        if (bodyLength < CongestionControlFrameFlyweight.FIXED_BODY_LENGTH)
        {
            return MALFORMED_CONGESTION_CONTROL;
        }
        congestionControl.wrap(buffer, frameOffset);
        if (congestionControl.nameLength() != bodyLength - CongestionControlFrameFlyweight.FIXED_BODY_LENGTH ||
            !congestionControl.hasValidNameBytes())
        {
            return MALFORMED_CONGESTION_CONTROL;
        }
        return OK;
    }

    private int validateNoise(final DirectBuffer buffer, final int frameOffset, final int bodyLength)
    {
        final int messageLength = bodyLength - NoiseFrameFlyweight.FIXED_BODY_LENGTH;
        if (messageLength < NoiseFrameFlyweight.MIN_MESSAGE_LENGTH &&
            NoiseFrameFlyweight.KEY_REQUEST_LENGTH != messageLength ||
            messageLength > NoiseFrameFlyweight.MAX_MESSAGE_LENGTH)
        {
            return MALFORMED_NOISE;
        }
        noise.wrap(buffer, frameOffset);
        final int profile = noise.profile();
        final int aead = noise.aead();
        if (NoiseFrameFlyweight.KEY_REQUEST_LENGTH == messageLength && NoiseFrameFlyweight.PROFILE_NK != profile)
        {
            return MALFORMED_NOISE; // only a client of the profile that needs the server's key asks for it
        }
        return profile < 1 || profile > 2 || aead < 1 || aead > 2 ? MALFORMED_NOISE : OK;
    }
}
