package io.pacelink.transport.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static io.pacelink.transport.wire.FrameHeaderFlyweight.FRAME_HEADER_LENGTH;
import static io.pacelink.transport.wire.PacketHeaderFlyweight.HEADER_LENGTH;
import static io.pacelink.transport.wire.WireFlyweight.BYTE_ORDER;

/**
 * Builds one datagram into a region of a buffer: {@link #wrap}, {@link #writeHeader}, then append frames until the
 * packet is full. Every append checks the remaining space first and returns false (or -1) without writing anything
 * when the frame does not fit, so the writer never writes past the capacity it was given.
 * <p>
 * Reusable and allocation free; one instance per thread. The writer also tracks whether the packet is ack-eliciting
 * and in flight (RFC 9002 section 2), which the sender's loss recovery needs.
 */
public final class PacketWriter
{
    /**
     * Bytes a DATA frame adds to its payload; a packet with {@code remaining()} bytes left carries at most
     * {@code remaining() - DATA_FRAME_OVERHEAD_BYTES} payload bytes.
     */
    public static final int DATA_FRAME_OVERHEAD_BYTES = DataFrameFlyweight.OVERHEAD_BYTES;

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

    private MutableDirectBuffer buffer;
    private int offset;
    private final NoiseFrameFlyweight noise = new NoiseFrameFlyweight();
    private final PathFrameFlyweight path = new PathFrameFlyweight();
    private final AckFrequencyFrameFlyweight ackFrequency = new AckFrequencyFrameFlyweight();
    private final MinAckDelayFrameFlyweight minAckDelay = new MinAckDelayFrameFlyweight();
    private final NewTokenFrameFlyweight newToken = new NewTokenFrameFlyweight();
    private int capacity;
    private int length;
    private boolean headerWritten;
    private boolean ackEliciting;
    private boolean inFlight;

    /**
     * Start a new datagram.
     *
     * @param buffer   to write into.
     * @param offset   of the datagram's first byte in the buffer.
     * @param capacity the most bytes the datagram may take (e.g. the path's max datagram size).
     * @return this.
     * @throws IllegalArgumentException if the region does not lie within the buffer.
     */
    public PacketWriter wrap(final MutableDirectBuffer buffer, final int offset, final int capacity)
    {
        if (offset < 0 || capacity < 0 || capacity > buffer.capacity() - offset)
        {
            throw new IllegalArgumentException(
                "region outside buffer: offset=" + offset + " capacity=" + capacity + " buffer=" + buffer.capacity());
        }
        this.buffer = buffer;
        this.offset = offset;
        this.capacity = capacity;
        this.length = 0;
        this.headerWritten = false;
        this.ackEliciting = false;
        this.inFlight = false;
        return this;
    }

    /**
     * Write the packet header; must come first.
     *
     * @param packetType              the {@link PacketType}.
     * @param destinationConnectionId the connection id the receiver chose.
     * @param packetNumber            this packet's number, never reused (RFC 9000 section 12.3).
     * @return false if the capacity is smaller than the header.
     */
    public boolean writeHeader(final int packetType, final long destinationConnectionId, final long packetNumber)
    {
        if (capacity < HEADER_LENGTH)
        {
            return false;
        }
        header.wrap(buffer, offset);
        header.version(PacketHeaderFlyweight.CURRENT_VERSION)
            .packetType(packetType)
            .flags(0)
            .destinationConnectionId(destinationConnectionId)
            .packetNumber(packetNumber);
        length = HEADER_LENGTH;
        headerWritten = true;
        return true;
    }

    /**
     * Write a whole RETRY packet: the header and the token (RFC 9000 section 8.1.2); no frame may follow.
     *
     * @param destinationConnectionId the client's own connection id, from its hello.
     * @param token                   holding the token.
     * @param tokenOffset             of the first token byte.
     * @param tokenLength             number of token bytes, 1..{@link RetryPacketFlyweight#MAX_TOKEN_LENGTH}.
     * @return false if the capacity is too small.
     * @throws IllegalArgumentException if the token length is out of range.
     */
    public boolean writeRetry(
        final long destinationConnectionId, final DirectBuffer token, final int tokenOffset, final int tokenLength)
    {
        return writeRetry(destinationConnectionId, token, tokenOffset, tokenLength, null);
    }

    /**
     * Write a whole RETRY packet: the header, the token and, answering a Noise NK hello, the server's static public
     * key (docs/wire-format.md, "Secure mode").
     *
     * @param destinationConnectionId the client's own connection id, from its hello.
     * @param token                   holding the token.
     * @param tokenOffset             of the first token byte.
     * @param tokenLength             number of token bytes, 1..{@link RetryPacketFlyweight#MAX_TOKEN_LENGTH}.
     * @param serverKey               the server's {@link RetryPacketFlyweight#SERVER_KEY_LENGTH}-byte static public
     *                                key, or null for none.
     * @return false if the capacity is too small.
     * @throws IllegalArgumentException if the token length or the key's is out of range.
     */
    public boolean writeRetry(
        final long destinationConnectionId,
        final DirectBuffer token,
        final int tokenOffset,
        final int tokenLength,
        final byte[] serverKey)
    {
        if (tokenLength <= 0 || tokenLength > RetryPacketFlyweight.MAX_TOKEN_LENGTH)
        {
            throw new IllegalArgumentException("tokenLength=" + tokenLength);
        }
        final int keyLength = null == serverKey ? 0 : serverKey.length;
        if (0 != keyLength && RetryPacketFlyweight.SERVER_KEY_LENGTH != keyLength)
        {
            throw new IllegalArgumentException("server key of " + keyLength + " bytes");
        }
        if (capacity < RetryPacketFlyweight.TOKEN_OFFSET + tokenLength + keyLength || !writeHeader(PacketType.RETRY,
            destinationConnectionId, 0))
        {
            return false;
        }
        retry.wrap(buffer, offset);
        retry.putToken(token, tokenOffset, tokenLength);
        if (0 != keyLength)
        {
            buffer.putBytes(retry.serverKeyOffset(), serverKey);
        }
        length = RetryPacketFlyweight.TOKEN_OFFSET + tokenLength + keyLength;
        headerWritten = false;
        return true;
    }

    /**
     * @return the buffer being written.
     */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the datagram's first byte in {@link #buffer()}.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return the datagram's length so far.
     */
    public int length()
    {
        return length;
    }

    /**
     * @return bytes still free before the capacity is reached.
     */
    public int remaining()
    {
        return capacity - length;
    }

    /**
     * @return true if a frame other than ACK, PADDING or CLOSE was appended (RFC 9002 section 2).
     */
    public boolean isAckEliciting()
    {
        return ackEliciting;
    }

    /**
     * @return true if the packet counts towards bytes in flight: ack-eliciting or padded (RFC 9002 section 2).
     */
    public boolean isInFlight()
    {
        return inFlight;
    }

    /**
     * @return the most DATA payload bytes that still fit, 0 if not even an empty DATA frame does.
     */
    public int maxDataPayloadLength()
    {
        return Math.max(0, remaining() - DATA_FRAME_OVERHEAD_BYTES);
    }

    /**
     * Append a PATH_CHALLENGE (RFC 9000 section 19.17) or PATH_RESPONSE (section 19.18) frame.
     *
     * @param frameType {@link FrameType#PATH_CHALLENGE} or {@link FrameType#PATH_RESPONSE}.
     * @param pathData  the challenge's 8 bytes.
     * @return true if it fit.
     */
    public boolean appendPathFrame(final int frameType, final long pathData)
    {
        final int frameOffset = claimFrame(frameType, 0, PathFrameFlyweight.BODY_LENGTH);
        if (frameOffset < 0)
        {
            return false;
        }
        path.wrap(buffer, frameOffset);
        path.pathData(pathData);
        return true;
    }

    /**
     * Append an ACK_FREQUENCY frame (draft-ietf-quic-ack-frequency section 4): makes the packet ack-eliciting.
     *
     * @param sequenceNumber         the frame's sequence number, higher than any sent before.
     * @param ackElicitingThreshold  ack-eliciting packets the peer may get before it must acknowledge.
     * @param requestedMaxAckDelayUs the max ACK delay asked for, in microseconds.
     * @param reorderingThreshold    0 to let the peer ignore reordering, 1 or more to have it acknowledged at once.
     * @return false if it does not fit.
     */
    public boolean appendAckFrequency(
        final long sequenceNumber,
        final int ackElicitingThreshold,
        final int requestedMaxAckDelayUs,
        final int reorderingThreshold)
    {
        final int frameOffset = claimFrame(FrameType.ACK_FREQUENCY, 0, AckFrequencyFrameFlyweight.BODY_LENGTH);
        if (frameOffset < 0)
        {
            return false;
        }
        ackFrequency.wrap(buffer, frameOffset);
        ackFrequency.set(sequenceNumber, ackElicitingThreshold, requestedMaxAckDelayUs, reorderingThreshold);
        return true;
    }

    /**
     * Append an IMMEDIATE_ACK frame (draft-ietf-quic-ack-frequency section 5): the peer acknowledges this packet
     * without delay. Makes the packet ack-eliciting.
     *
     * @return false if it does not fit.
     */
    public boolean appendImmediateAck()
    {
        return claimFrame(FrameType.IMMEDIATE_ACK, 0, 0) >= 0;
    }

    /**
     * Append a MIN_ACK_DELAY frame, beside the HANDSHAKE frame: this side accepts ACK_FREQUENCY frames and can delay
     * its ACKs by as little as {@code minAckDelayUs} (draft-ietf-quic-ack-frequency section 3).
     *
     * @param minAckDelayUs the smallest ACK delay this side can keep, in microseconds.
     * @return false if it does not fit.
     */
    public boolean appendMinAckDelay(final int minAckDelayUs)
    {
        final int frameOffset = claimFrame(FrameType.MIN_ACK_DELAY, 0, MinAckDelayFrameFlyweight.BODY_LENGTH);
        if (frameOffset < 0)
        {
            return false;
        }
        minAckDelay.wrap(buffer, frameOffset);
        minAckDelay.minAckDelayUs(minAckDelayUs);
        return true;
    }

    /**
     * Append a NEW_TOKEN frame (RFC 9000 section 19.7): makes the packet ack-eliciting.
     *
     * @param token       holding the token.
     * @param tokenOffset of its first byte.
     * @param tokenLength its length, 1 to {@link NewTokenFrameFlyweight#MAX_TOKEN_LENGTH}.
     * @return false if it does not fit.
     */
    public boolean appendNewToken(final DirectBuffer token, final int tokenOffset, final int tokenLength)
    {
        if (tokenLength <= 0 || tokenLength > NewTokenFrameFlyweight.MAX_TOKEN_LENGTH)
        {
            throw new IllegalArgumentException("a NEW_TOKEN token has 1 to " + NewTokenFrameFlyweight.MAX_TOKEN_LENGTH +
                " bytes, not " + tokenLength);
        }
        final int frameOffset =
            claimFrame(FrameType.NEW_TOKEN, 0, NewTokenFrameFlyweight.FIXED_BODY_LENGTH + tokenLength);
        if (frameOffset < 0)
        {
            return false;
        }
        newToken.wrap(buffer, frameOffset);
        newToken.tokenLength(tokenLength);
        buffer.putBytes(newToken.tokenOffset(), token, tokenOffset, tokenLength);
        return true;
    }

    /**
     * Append a PING frame: makes the packet ack-eliciting.
     *
     * @return false if it does not fit.
     */
    public boolean appendPing()
    {
        return claimFrame(FrameType.PING, 0, 0) >= 0;
    }

    /**
     * Append one zero-filled PADDING frame of exactly {@code frameLengthBytes} bytes, header included: pass
     * {@code remaining()} to fill the datagram (e.g. a handshake that proves the path MTU, RFC 9000 section 14.1) or
     * {@code target - length()} to pad to a size. Padding makes the packet count as in flight (RFC 9002 section 2).
     *
     * @param frameLengthBytes bytes to add; 0 or less adds nothing.
     * @return true if the padding was added (or nothing was asked); false, writing nothing, if it exceeds
     * {@link #remaining()} or is shorter than a frame header (1 to 7 bytes cannot be padded).
     */
    public boolean appendPadding(final int frameLengthBytes)
    {
        if (frameLengthBytes <= 0)
        {
            return true;
        }
        if (frameLengthBytes < FRAME_HEADER_LENGTH)
        {
            return false;
        }
        final int bodyLength = frameLengthBytes - FRAME_HEADER_LENGTH;
        final int frameOffset = claimFrame(FrameType.PADDING, 0, bodyLength);
        if (frameOffset < 0)
        {
            return false;
        }
        // Zeroed so stale bytes of an earlier datagram never leave the host.
        buffer.setMemory(frameOffset + FRAME_HEADER_LENGTH, bodyLength, (byte)0);
        return true;
    }

    /**
     * Append an ACK frame without ECN counts whose gap/length ranges the caller then writes with
     * {@link AckFrameFlyweight#range(int, int, int)} on a flyweight wrapped at the returned offset.
     *
     * @param largestAcked         the largest acknowledged packet number.
     * @param ackDelayUs           time since the largest acknowledged packet was received, in microseconds.
     * @param firstRange           packets acknowledged contiguously below the largest.
     * @param additionalRangeCount gap/length ranges that follow, at most {@link PacketDecoder#MAX_ACK_RANGES}.
     * @return absolute offset of the frame in {@link #buffer()}, or -1 if it does not fit.
     * @throws IllegalArgumentException if the range count is negative or above the cap.
     */
    public int appendAck(
        final long largestAcked, final int ackDelayUs, final int firstRange, final int additionalRangeCount)
    {
        return appendAck(largestAcked, ackDelayUs, firstRange, additionalRangeCount, false);
    }

    /**
     * Append an ACK frame, with room for the ECN counts if asked (flag {@link AckFrameFlyweight#FLAG_ECN}): the
     * caller writes the ranges, then {@link AckFrameFlyweight#ecnCounts(long, long, long)}, on a flyweight wrapped at
     * the returned offset.
     *
     * @param largestAcked         the largest acknowledged packet number.
     * @param ackDelayUs           time since the largest acknowledged packet was received, in microseconds.
     * @param firstRange           packets acknowledged contiguously below the largest.
     * @param additionalRangeCount gap/length ranges that follow, at most {@link PacketDecoder#MAX_ACK_RANGES}.
     * @param hasEcnCounts         true to leave room for the ECN counts after the ranges.
     * @return absolute offset of the frame in {@link #buffer()}, or -1 if it does not fit.
     * @throws IllegalArgumentException if the range count is negative or above the cap.
     */
    public int appendAck(
        final long largestAcked,
        final int ackDelayUs,
        final int firstRange,
        final int additionalRangeCount,
        final boolean hasEcnCounts)
    {
        if (additionalRangeCount < 0 || additionalRangeCount > PacketDecoder.MAX_ACK_RANGES)
        {
            throw new IllegalArgumentException("additionalRangeCount=" + additionalRangeCount);
        }
        final int frameOffset = claimFrame(
            FrameType.ACK,
            hasEcnCounts ? AckFrameFlyweight.FLAG_ECN : 0,
            AckFrameFlyweight.bodyLength(additionalRangeCount, hasEcnCounts));
        if (frameOffset >= 0)
        {
            ack.wrap(buffer, frameOffset);
            ack.largestAcked(largestAcked)
                .ackDelayUs(ackDelayUs)
                .rangeCount(additionalRangeCount)
                .firstRange(firstRange);
        }
        return frameOffset;
    }

    /**
     * Append a whole ACK frame of one contiguous range — the common case: every packet received since the last
     * acknowledged one arrived in order — with its ECN counts if asked: the same bytes
     * {@link #appendAck(long, int, int, int, boolean)} with no additional range followed by
     * {@link AckFrameFlyweight#ecnCounts(long, long, long)} writes, stored directly instead of through the flyweights
     * (the frame header in one store, the delay and the empty range count in another).
     *
     * @param largestAcked the largest acknowledged packet number.
     * @param ackDelayUs   time since the largest acknowledged packet was received, in microseconds.
     * @param firstRange   packets acknowledged contiguously below the largest.
     * @param hasEcnCounts true to write the ECN counts (flag {@link AckFrameFlyweight#FLAG_ECN}).
     * @param ect0         ECT(0) packets received, written only with the counts.
     * @param ect1         ECT(1) packets received, written only with the counts.
     * @param ce           ECN-CE packets received, written only with the counts.
     * @return the frame's length, or 0 if it does not fit (nothing written).
     */
    public int appendSingleRangeAck(
        final long largestAcked,
        final int ackDelayUs,
        final int firstRange,
        final boolean hasEcnCounts,
        final long ect0,
        final long ect1,
        final long ce)
    {
        final int bodyLength = AckFrameFlyweight.bodyLength(0, hasEcnCounts);
        final int frameOffset = claimFrameRoom(bodyLength);
        if (frameOffset < 0)
        {
            return 0;
        }
        final MutableDirectBuffer out = buffer;
        // Type, flags and the reserved bytes, then the body length: FrameHeaderFlyweight's layout as one
        // little-endian long.
        out.putLong(frameOffset, FrameType.ACK | (hasEcnCounts ? AckFrameFlyweight.FLAG_ECN << 8 : 0) |
            (long)bodyLength << 32, BYTE_ORDER);
        out.putLong(frameOffset + AckFrameFlyweight.LARGEST_ACKED_OFFSET, largestAcked, BYTE_ORDER);
        // The ACK delay, then an additional range count of 0.
        out.putLong(frameOffset + AckFrameFlyweight.ACK_DELAY_OFFSET, ackDelayUs & 0xFFFF_FFFFL, BYTE_ORDER);
        out.putInt(frameOffset + AckFrameFlyweight.FIRST_RANGE_OFFSET, firstRange, BYTE_ORDER);
        if (hasEcnCounts)
        {
            final int countsOffset = frameOffset + AckFrameFlyweight.RANGES_OFFSET;
            out.putLong(countsOffset, ect0, BYTE_ORDER);
            out.putLong(countsOffset + 8, ect1, BYTE_ORDER);
            out.putLong(countsOffset + 16, ce, BYTE_ORDER);
        }
        inFlight |= ackEliciting;
        return FRAME_HEADER_LENGTH + bodyLength;
    }

    /**
     * Append a DATA frame header; the caller then copies exactly {@code payloadLength} bytes to the returned offset
     * (possibly in two pieces from a circular buffer).
     *
     * @param streamId      the stream.
     * @param streamOffset  stream offset of the first payload byte.
     * @param fin           true if the stream ends after this payload.
     * @param payloadLength number of payload bytes that will follow.
     * @return absolute offset in {@link #buffer()} where the payload goes, or -1 if the frame does not fit.
     * @throws IllegalArgumentException if the payload length is negative.
     */
    public int appendDataHeader(final int streamId, final long streamOffset, final boolean fin, final int payloadLength)
    {
        if (payloadLength < 0)
        {
            throw new IllegalArgumentException("payloadLength=" + payloadLength);
        }
        if (payloadLength > remaining() - DATA_FRAME_OVERHEAD_BYTES)
        {
            return -1;
        }
        final int frameOffset = claimFrame(
            FrameType.DATA,
            fin ? DataFrameFlyweight.FLAG_FIN : 0,
            DataFrameFlyweight.FIXED_BODY_LENGTH + payloadLength);
        data.wrap(buffer, frameOffset);
        data.streamId(streamId).streamOffset(streamOffset);
        return data.payloadOffset();
    }

    /**
     * Append a MAX_DATA frame.
     *
     * @param maximumDataBytes connection-level credit, an absolute offset.
     * @return false if it does not fit.
     */
    public boolean appendMaxData(final long maximumDataBytes)
    {
        final int frameOffset = claimFrame(FrameType.MAX_DATA, 0, MaxDataFrameFlyweight.BODY_LENGTH);
        if (frameOffset < 0)
        {
            return false;
        }
        maxData.wrap(buffer, frameOffset);
        maxData.maximumData(maximumDataBytes);
        return true;
    }

    /**
     * Append a MAX_STREAM_DATA frame.
     *
     * @param streamId               the stream.
     * @param maximumStreamDataBytes stream-level credit, an absolute stream offset.
     * @return false if it does not fit.
     */
    public boolean appendMaxStreamData(final int streamId, final long maximumStreamDataBytes)
    {
        final int frameOffset = claimFrame(FrameType.MAX_STREAM_DATA, 0, MaxStreamDataFrameFlyweight.BODY_LENGTH);
        if (frameOffset < 0)
        {
            return false;
        }
        maxStreamData.wrap(buffer, frameOffset);
        maxStreamData.streamId(streamId).maximumStreamData(maximumStreamDataBytes);
        return true;
    }

    /**
     * Append a CONSUMED frame: how far this side's application has read the peer's stream.
     *
     * @param streamId the stream.
     * @param position the stream position up to which the application has read.
     * @param messages the number of messages it has read.
     * @return false if it does not fit.
     */
    public boolean appendConsumed(final int streamId, final long position, final long messages)
    {
        final int frameOffset = claimFrame(FrameType.CONSUMED, 0, ConsumedFrameFlyweight.BODY_LENGTH);
        if (frameOffset < 0)
        {
            return false;
        }
        consumed.wrap(buffer, frameOffset);
        consumed.set(streamId, position, messages);
        return true;
    }

    /**
     * Append a CLOSE frame.
     *
     * @param errorCode    why the connection closes.
     * @param reason       holding the UTF-8 reason; may be null when the length is 0.
     * @param reasonOffset of the first reason byte.
     * @param reasonLength number of reason bytes (0 for none).
     * @return false if it does not fit.
     * @throws IllegalArgumentException if the reason length is negative.
     */
    public boolean appendClose(
        final int errorCode, final DirectBuffer reason, final int reasonOffset, final int reasonLength)
    {
        if (reasonLength < 0)
        {
            throw new IllegalArgumentException("reasonLength=" + reasonLength);
        }
        if (reasonLength > remaining() - CloseFrameFlyweight.REASON_OFFSET)
        {
            return false;
        }
        final int frameOffset = claimFrame(
            FrameType.CLOSE, 0, CloseFrameFlyweight.FIXED_BODY_LENGTH + reasonLength);
        close.wrap(buffer, frameOffset);
        close.errorCode(errorCode).putReason(reason, reasonOffset, reasonLength);
        return true;
    }

    /**
     * Append a HANDSHAKE frame announcing this side's parameters; the version field is
     * {@link PacketHeaderFlyweight#CURRENT_VERSION}.
     *
     * @param sourceConnectionId   the sender's own connection id.
     * @param response             true if sent by the server.
     * @param maxDatagramSize      the largest datagram the sender accepts, in bytes.
     * @param maxAckDelayUs        the longest time the sender delays an ACK, in microseconds.
     * @param idleTimeoutMs        the sender's idle timeout, in milliseconds.
     * @param initialMaxData       initial connection-level credit, in bytes.
     * @param initialMaxStreamData initial stream-level credit, in bytes.
     * @param token                holding the address-validation token; may be null when the length is 0.
     * @param tokenOffset          of the first token byte.
     * @param tokenLength          number of token bytes (0 for none).
     * @return false if it does not fit.
     * @throws IllegalArgumentException if the token length is negative.
     */
    public boolean appendHandshake(
        final long sourceConnectionId,
        final boolean response,
        final int maxDatagramSize,
        final int maxAckDelayUs,
        final int idleTimeoutMs,
        final long initialMaxData,
        final long initialMaxStreamData,
        final DirectBuffer token,
        final int tokenOffset,
        final int tokenLength)
    {
        if (tokenLength < 0 || tokenLength > RetryPacketFlyweight.MAX_TOKEN_LENGTH)
        {
            throw new IllegalArgumentException("tokenLength=" + tokenLength);
        }
        if (tokenLength > remaining() - HandshakeFrameFlyweight.TOKEN_OFFSET)
        {
            return false;
        }
        final int frameOffset = claimFrame(
            FrameType.HANDSHAKE,
            response ? HandshakeFrameFlyweight.FLAG_RESPONSE : 0,
            HandshakeFrameFlyweight.FIXED_BODY_LENGTH + tokenLength);
        handshake.wrap(buffer, frameOffset);
        handshake.sourceConnectionId(sourceConnectionId)
            .version(PacketHeaderFlyweight.CURRENT_VERSION)
            .maxDatagramSize(maxDatagramSize)
            .maxAckDelayUs(maxAckDelayUs)
            .idleTimeoutMs(idleTimeoutMs)
            .initialMaxData(initialMaxData)
            .initialMaxStreamData(initialMaxStreamData)
            .putToken(token, tokenOffset, tokenLength);
        return true;
    }

    /**
     * Append a CONGESTION_CONTROL frame naming the controller the client asked for.
     *
     * @param name the controller's name: 1 to {@link CongestionControlFrameFlyweight#MAX_NAME_LENGTH} printable
     *             ASCII characters.
     * @return false if it does not fit.
     * @throws IllegalArgumentException if the name is not one the frame can carry.
     */
    public boolean appendCongestionControl(final String name)
    {
        if (!CongestionControlFrameFlyweight.isValidName(name))
        {
            throw new IllegalArgumentException("controller name '" + name + "' is not 1 to " +
                CongestionControlFrameFlyweight.MAX_NAME_LENGTH + " printable ASCII characters");
        }
        final int frameOffset = claimFrame(
            FrameType.CONGESTION_CONTROL, 0, CongestionControlFrameFlyweight.FIXED_BODY_LENGTH + name.length());
        if (frameOffset < 0)
        {
            return false;
        }
        congestionControl.wrap(buffer, frameOffset);
        congestionControl.name(name);
        return true;
    }

    /**
     * Append a NOISE frame: a Noise handshake message, its MAC left for the caller to write at the frame's end.
     *
     * @param profile the profile number.
     * @param aead    the AEAD number.
     * @param message the Noise message.
     * @return the absolute offset of the MAC, or -1 if the frame does not fit.
     */
    public int appendNoise(final int profile, final int aead, final byte[] message)
    {
        final int frameOffset = claimFrame(FrameType.NOISE, 0, NoiseFrameFlyweight.FIXED_BODY_LENGTH + message.length);
        if (frameOffset < 0)
        {
            return -1;
        }
        noise.wrap(buffer, frameOffset);
        noise.noise(profile, aead, message);
        return noise.macOffset();
    }

    /**
     * Reserve a frame of the given body length and write its header.
     *
     * @return absolute offset of the frame, or -1 if it does not fit (nothing written).
     */
    /**
     * Room for a frame of this body length at the packet's end, claimed: its offset, or -1 if it does not fit.
     */
    private int claimFrameRoom(final int bodyLength)
    {
        if (!headerWritten)
        {
            throw new IllegalStateException("writeHeader must come before frames");
        }
        if (bodyLength > remaining() - FRAME_HEADER_LENGTH)
        {
            return -1;
        }
        final int frameOffset = offset + length;
        length += FRAME_HEADER_LENGTH + bodyLength;
        return frameOffset;
    }

    private int claimFrame(final int frameType, final int frameFlags, final int bodyLength)
    {
        if (!headerWritten)
        {
            throw new IllegalStateException("writeHeader must come before frames");
        }
        if (bodyLength > remaining() - FRAME_HEADER_LENGTH)
        {
            return -1;
        }
        final int frameOffset = offset + length;
        frameHeader.wrap(buffer, frameOffset);
        frameHeader.writeFrameHeader(frameType, frameFlags, bodyLength);
        length += FRAME_HEADER_LENGTH + bodyLength;
        ackEliciting |= FrameType.isAckEliciting(frameType);
        inFlight |= ackEliciting || frameType == FrameType.PADDING;
        return frameOffset;
    }
}
