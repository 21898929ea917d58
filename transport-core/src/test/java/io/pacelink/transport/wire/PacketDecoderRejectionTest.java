package io.pacelink.transport.wire;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.Set;

import static io.pacelink.transport.wire.FrameHeaderFlyweight.BODY_LENGTH_OFFSET;
import static io.pacelink.transport.wire.FrameHeaderFlyweight.FRAME_HEADER_LENGTH;
import static io.pacelink.transport.wire.PacketDecoder.EMPTY_PACKET;
import static io.pacelink.transport.wire.PacketDecoder.FRAME_LENGTH_OUT_OF_BOUNDS;
import static io.pacelink.transport.wire.PacketDecoder.INVALID_BUFFER_RANGE;
import static io.pacelink.transport.wire.PacketDecoder.INVALID_PACKET_NUMBER;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_ACK;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_ACK_FREQUENCY;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_CLOSE;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_CONGESTION_CONTROL;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_CONSUMED;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_DATA;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_HANDSHAKE;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_MAX_DATA;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_MAX_STREAM_DATA;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_NEW_TOKEN;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_NOISE;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_PATH;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_PING;
import static io.pacelink.transport.wire.PacketDecoder.MALFORMED_RETRY;
import static io.pacelink.transport.wire.PacketDecoder.OK;
import static io.pacelink.transport.wire.PacketDecoder.TRUNCATED_FRAME_HEADER;
import static io.pacelink.transport.wire.PacketDecoder.TRUNCATED_HEADER;
import static io.pacelink.transport.wire.PacketDecoder.UNKNOWN_PACKET_TYPE;
import static io.pacelink.transport.wire.PacketDecoder.UNSUPPORTED_VERSION;
import static io.pacelink.transport.wire.PacketHeaderFlyweight.HEADER_LENGTH;
import static io.pacelink.transport.wire.WireFlyweight.BYTE_ORDER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Every way a datagram can be malformed yields its result code from {@link PacketDecoder#validate}, never an
 * exception. Each case starts from a valid packet (asserted OK) and breaks exactly one thing.
 */
class PacketDecoderRejectionTest
{
    /**
     * One packet per frame type, each holding a single frame right after the header.
     */
    enum SingleFrame
    {
        PING(MALFORMED_PING)
        {
            void append(final PacketWriter writer, final UnsafeBuffer scratch)
            {
                writer.appendPing();
            }
        },
        ACK(MALFORMED_ACK)
        {
            void append(final PacketWriter writer, final UnsafeBuffer scratch)
            {
                final AckFrameFlyweight ack = new AckFrameFlyweight();
                ack.wrap(writer.buffer(), writer.appendAck(50, 10, 5, 2));
                ack.range(0, 3, 4).range(1, 0, 10);
            }
        },
        DATA(MALFORMED_DATA)
        {
            void append(final PacketWriter writer, final UnsafeBuffer scratch)
            {
                writer.appendDataHeader(1, 100, false, 10);
            }
        },
        MAX_DATA(MALFORMED_MAX_DATA)
        {
            void append(final PacketWriter writer, final UnsafeBuffer scratch)
            {
                writer.appendMaxData(1_000);
            }
        },
        MAX_STREAM_DATA(MALFORMED_MAX_STREAM_DATA)
        {
            void append(final PacketWriter writer, final UnsafeBuffer scratch)
            {
                writer.appendMaxStreamData(1, 1_000);
            }
        },
        HANDSHAKE(MALFORMED_HANDSHAKE)
        {
            void append(final PacketWriter writer, final UnsafeBuffer scratch)
            {
                writer.appendHandshake(7, false, 1_200, 1_000, 1_000, 100, 100, scratch, 0, 12);
            }
        },
        CLOSE(MALFORMED_CLOSE)
        {
            void append(final PacketWriter writer, final UnsafeBuffer scratch)
            {
                writer.appendClose(2, scratch, 0, 9);
            }
        },
        CONGESTION_CONTROL(MALFORMED_CONGESTION_CONTROL)
        {
            void append(final PacketWriter writer, final UnsafeBuffer scratch)
            {
                writer.appendCongestionControl("cubic");
            }
        },
        ACK_ECN(MALFORMED_ACK)
        {
            void append(final PacketWriter writer, final UnsafeBuffer scratch)
            {
                final AckFrameFlyweight ack = new AckFrameFlyweight();
                ack.wrap(writer.buffer(), writer.appendAck(50, 10, 5, 2, true));
                ack.range(0, 3, 4).range(1, 0, 10).ecnCounts(7, 0, 3);
            }
        },
        CONSUMED(MALFORMED_CONSUMED)
        {
            void append(final PacketWriter writer, final UnsafeBuffer scratch)
            {
                writer.appendConsumed(0, 4_000, 10);
            }
        },
        ACK_FREQUENCY(MALFORMED_ACK_FREQUENCY)
        {
            void append(final PacketWriter writer, final UnsafeBuffer scratch)
            {
                writer.appendAckFrequency(3, 9, 10_000, 1);
            }
        },
        MIN_ACK_DELAY(MALFORMED_ACK_FREQUENCY)
        {
            void append(final PacketWriter writer, final UnsafeBuffer scratch)
            {
                writer.appendMinAckDelay(1_000);
            }
        },
        NEW_TOKEN(MALFORMED_NEW_TOKEN)
        {
            void append(final PacketWriter writer, final UnsafeBuffer scratch)
            {
                writer.appendNewToken(scratch, 0, 25);
            }
        };

        final int malformedCode;

        SingleFrame(final int malformedCode)
        {
            this.malformedCode = malformedCode;
        }

        abstract void append(PacketWriter writer, UnsafeBuffer scratch);
    }

    private static final int FRAME = HEADER_LENGTH;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2_048]);
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[64]);
    private final PacketWriter writer = new PacketWriter();
    private final PacketDecoder decoder = new PacketDecoder();

    @Test
    void regionOutsideTheBuffer()
    {
        assertEquals(INVALID_BUFFER_RANGE, decoder.validate(buffer, -1, 30));
        assertEquals(INVALID_BUFFER_RANGE, decoder.validate(buffer, 0, -1));
        assertEquals(INVALID_BUFFER_RANGE, decoder.validate(buffer, 2_000, 49));
        assertEquals(INVALID_BUFFER_RANGE, decoder.validate(buffer, 1, Integer.MAX_VALUE));
    }

    @Test
    void truncatedHeader()
    {
        final int length = ping();
        for (int cut = 0; cut < HEADER_LENGTH; cut++)
        {
            assertEquals(TRUNCATED_HEADER, decoder.validate(buffer, 0, cut), "length " + cut);
        }
        assertEquals(OK, decoder.validate(buffer, 0, length));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 5, 255})
    void unsupportedVersion(final int version)
    {
        final int length = ping();
        buffer.putByte(PacketHeaderFlyweight.VERSION_OFFSET, (byte)version);
        assertEquals(UNSUPPORTED_VERSION, decoder.validate(buffer, 0, length));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 6, 128, 255})
    void unknownPacketType(final int packetType)
    {
        final int length = ping();
        buffer.putByte(PacketHeaderFlyweight.PACKET_TYPE_OFFSET, (byte)packetType);
        assertEquals(UNKNOWN_PACKET_TYPE, decoder.validate(buffer, 0, length));
    }

    @Test
    void negativePacketNumber()
    {
        final int length = ping();
        buffer.putLong(PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, -1, BYTE_ORDER);
        assertEquals(INVALID_PACKET_NUMBER, decoder.validate(buffer, 0, length));
    }

    @Test
    void oneRttPacketWithoutFrames()
    {
        start(PacketType.ONE_RTT);
        assertEquals(EMPTY_PACKET, decoder.validate(buffer, 0, writer.length()));
    }

    @ParameterizedTest
    @EnumSource(SingleFrame.class)
    void everyFrameTruncatedAnywhere(final SingleFrame frame)
    {
        final int length = packetWith(frame);
        for (int cut = FRAME + 1; cut < length; cut++)
        {
            final int expected =
                cut - FRAME < FRAME_HEADER_LENGTH ? TRUNCATED_FRAME_HEADER : FRAME_LENGTH_OUT_OF_BOUNDS;
            assertEquals(expected, decoder.validate(buffer, 0, cut), frame + " cut to " + cut);
        }
    }

    @ParameterizedTest
    @EnumSource(SingleFrame.class)
    void everyFrameWithLengthPastTheEnd(final SingleFrame frame)
    {
        final int length = packetWith(frame);
        final int bodyLength = buffer.getInt(FRAME + BODY_LENGTH_OFFSET, BYTE_ORDER);
        for (final int badLength : new int[] {bodyLength + 1, 0xFFFFFFFF, Integer.MIN_VALUE, Integer.MAX_VALUE})
        {
            buffer.putInt(FRAME + BODY_LENGTH_OFFSET, badLength, BYTE_ORDER);
            assertEquals(FRAME_LENGTH_OUT_OF_BOUNDS, decoder.validate(buffer, 0, length), frame + " " + badLength);
        }
    }

    @ParameterizedTest
    @EnumSource(value = SingleFrame.class, names = "PING", mode = EnumSource.Mode.EXCLUDE)
    void zeroLengthBodyWhereNotAllowed(final SingleFrame frame)
    {
        packetWith(frame);
        buffer.putInt(FRAME + BODY_LENGTH_OFFSET, 0, BYTE_ORDER);
        assertEquals(frame.malformedCode, decoder.validate(buffer, 0, FRAME + FRAME_HEADER_LENGTH), frame.name());
    }

    @Test
    void pathFramesCarryEightBytesAndAnyOtherLengthIsMalformed()
    {
        for (final int frameType : new int[]{ FrameType.PATH_CHALLENGE, FrameType.PATH_RESPONSE })
        {
            start(PacketType.ONE_RTT);
            writer.appendPathFrame(frameType, 0x0123_4567_89AB_CDEFL);
            assertEquals(OK, decoder.validate(buffer, 0, writer.length()));
            assertEquals(frameType, decoder.firstFrame(buffer, 0, writer.length()));
            assertEquals(0x0123_4567_89AB_CDEFL, decoder.path().pathData());
            assertEquals(false, decoder.isAckEliciting(), "answered by its echo, not an ACK");

            for (final int bodyLength : new int[]{ 0, 7, 9, 16 })
            {
                start(PacketType.ONE_RTT);
                writer.appendPadding(FRAME_HEADER_LENGTH + bodyLength);
                buffer.putByte(FRAME, (byte)frameType);
                assertEquals(MALFORMED_PATH, decoder.validate(buffer, 0, writer.length()),
                    FrameType.name(frameType) + " of " + bodyLength + " bytes");
            }
        }
    }

    @Test
    void ackFrequencyWithANegativeFieldOrAFlagOrAnotherLengthIsMalformedAndAnyNonNegativeValueIsWellFormed()
    {
        final int length = packetWith(SingleFrame.ACK_FREQUENCY);
        final int[] fieldOffsets = {
            AckFrequencyFrameFlyweight.ACK_ELICITING_THRESHOLD_OFFSET,
            AckFrequencyFrameFlyweight.REQUESTED_MAX_ACK_DELAY_OFFSET,
            AckFrequencyFrameFlyweight.REORDERING_THRESHOLD_OFFSET};
        for (final int fieldOffset : fieldOffsets)
        {
            for (final int value : new int[]{ 0, 1, Integer.MAX_VALUE })
            {
                packetWith(SingleFrame.ACK_FREQUENCY);
                buffer.putInt(FRAME + fieldOffset, value, BYTE_ORDER);
                assertEquals(OK, decoder.validate(buffer, 0, length), "field at " + fieldOffset + " = " + value);
            }
            for (final int value : new int[]{ -1, Integer.MIN_VALUE })
            {
                packetWith(SingleFrame.ACK_FREQUENCY);
                buffer.putInt(FRAME + fieldOffset, value, BYTE_ORDER);
                assertEquals(MALFORMED_ACK_FREQUENCY, decoder.validate(buffer, 0, length), "field at " + fieldOffset);
            }
        }
        packetWith(SingleFrame.ACK_FREQUENCY);
        buffer.putLong(FRAME + AckFrequencyFrameFlyweight.SEQUENCE_NUMBER_OFFSET, Long.MAX_VALUE, BYTE_ORDER);
        assertEquals(OK, decoder.validate(buffer, 0, length));
        buffer.putLong(FRAME + AckFrequencyFrameFlyweight.SEQUENCE_NUMBER_OFFSET, -1, BYTE_ORDER);
        assertEquals(MALFORMED_ACK_FREQUENCY, decoder.validate(buffer, 0, length), "negative sequence number");

        packetWith(SingleFrame.ACK_FREQUENCY);
        buffer.putByte(FRAME + 1, (byte)1);
        assertEquals(MALFORMED_ACK_FREQUENCY, decoder.validate(buffer, 0, length), "a flag");

        for (final int bodyLength : new int[]{ 8, 23, 25, 32 })
        {
            start(PacketType.ONE_RTT);
            writer.appendPadding(FRAME_HEADER_LENGTH + bodyLength);
            buffer.putByte(FRAME, (byte)FrameType.ACK_FREQUENCY);
            assertEquals(MALFORMED_ACK_FREQUENCY, decoder.validate(buffer, 0, writer.length()), bodyLength + " bytes");
        }
    }

    @Test
    void aNewTokenCarriesOneTo128BytesItsLengthMatchingTheBody()
    {
        final UnsafeBuffer token = new UnsafeBuffer(new byte[NewTokenFrameFlyweight.MAX_TOKEN_LENGTH + 1]);
        for (final int tokenLength : new int[]{ 1, NewTokenFrameFlyweight.MAX_TOKEN_LENGTH })
        {
            start(PacketType.ONE_RTT);
            writer.appendNewToken(token, 0, tokenLength);
            assertEquals(OK, decoder.validate(buffer, 0, writer.length()), tokenLength + " bytes");
            assertEquals(FrameType.NEW_TOKEN, decoder.firstFrame(buffer, 0, writer.length()));
            assertEquals(tokenLength, decoder.newToken().tokenLength());
            assertEquals(true, decoder.isAckEliciting(), "NEW_TOKEN elicits an ACK");
        }
        // 129 bytes: the body and the length agree, the length is over the bound.
        start(PacketType.ONE_RTT);
        writer.appendPadding(FRAME_HEADER_LENGTH + NewTokenFrameFlyweight.FIXED_BODY_LENGTH + 129);
        buffer.putByte(FRAME, (byte)FrameType.NEW_TOKEN);
        buffer.putInt(FRAME + NewTokenFrameFlyweight.TOKEN_LENGTH_OFFSET, 129, BYTE_ORDER);
        assertEquals(MALFORMED_NEW_TOKEN, decoder.validate(buffer, 0, writer.length()), "129 bytes");

        for (final int badLength : new int[]{ 0, -1, 24, 26, Integer.MAX_VALUE })
        {
            final int length = packetWith(SingleFrame.NEW_TOKEN);
            buffer.putInt(FRAME + NewTokenFrameFlyweight.TOKEN_LENGTH_OFFSET, badLength, BYTE_ORDER);
            assertEquals(MALFORMED_NEW_TOKEN, decoder.validate(buffer, 0, length), "token length " + badLength);
        }
        final int length = packetWith(SingleFrame.NEW_TOKEN);
        buffer.putByte(FRAME + 1, (byte)1);
        assertEquals(MALFORMED_NEW_TOKEN, decoder.validate(buffer, 0, length), "a flag");
        assertThrows(IllegalArgumentException.class, () -> writer.appendNewToken(token, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> writer.appendNewToken(token, 0, 129));
    }

    @Test
    void immediateAckIsEmptyAndMinAckDelayCarriesANonNegativeDelay()
    {
        start(PacketType.ONE_RTT);
        writer.appendImmediateAck();
        assertEquals(OK, decoder.validate(buffer, 0, writer.length()));
        assertEquals(FrameType.IMMEDIATE_ACK, decoder.firstFrame(buffer, 0, writer.length()));
        assertEquals(true, decoder.isAckEliciting(), "IMMEDIATE_ACK elicits an ACK");
        buffer.putByte(FRAME + 1, (byte)1);
        assertEquals(MALFORMED_ACK_FREQUENCY, decoder.validate(buffer, 0, writer.length()), "a flag");
        start(PacketType.ONE_RTT);
        writer.appendPadding(FRAME_HEADER_LENGTH + 4);
        buffer.putByte(FRAME, (byte)FrameType.IMMEDIATE_ACK);
        assertEquals(MALFORMED_ACK_FREQUENCY, decoder.validate(buffer, 0, writer.length()), "a body");

        final int length = packetWith(SingleFrame.MIN_ACK_DELAY);
        assertEquals(FrameType.MIN_ACK_DELAY, decoder.firstFrame(buffer, 0, length));
        assertEquals(1_000, decoder.minAckDelay().minAckDelayUs());
        buffer.putInt(FRAME + MinAckDelayFrameFlyweight.MIN_ACK_DELAY_OFFSET, -1, BYTE_ORDER);
        assertEquals(MALFORMED_ACK_FREQUENCY, decoder.validate(buffer, 0, length), "a negative delay");
    }

    @Test
    void pingWithABody()
    {
        start(PacketType.ONE_RTT);
        writer.appendPadding(9);
        buffer.putByte(FRAME, (byte)FrameType.PING);
        assertEquals(MALFORMED_PING, decoder.validate(buffer, 0, writer.length()));
    }

    @Test
    void unknownFrameTypeWithBadLengthIsStillRejected()
    {
        start(PacketType.ONE_RTT);
        writer.appendPadding(16);
        buffer.putByte(FRAME, (byte)99);
        assertEquals(OK, decoder.validate(buffer, 0, writer.length()));
        buffer.putInt(FRAME + BODY_LENGTH_OFFSET, 0xFFFFFFFF, BYTE_ORDER);
        assertEquals(FRAME_LENGTH_OUT_OF_BOUNDS, decoder.validate(buffer, 0, writer.length()));
    }

    @Test
    void ackWithMoreRangesThanTheCap()
    {
        start(PacketType.ONE_RTT);
        final AckFrameFlyweight ack = new AckFrameFlyweight();
        ack.wrap(buffer, writer.appendAck(1_000, 0, 0, PacketDecoder.MAX_ACK_RANGES));
        assertEquals(OK, decoder.validate(buffer, 0, writer.length()), "64 ranges of gap 0, length 0 fit above 0");

        // One more range, body length consistent with it: only the cap is violated.
        final int tooMany = PacketDecoder.MAX_ACK_RANGES + 1;
        ack.rangeCount(tooMany);
        buffer.putInt(FRAME + BODY_LENGTH_OFFSET, AckFrameFlyweight.bodyLength(tooMany), BYTE_ORDER);
        final int length = FRAME + AckFrameFlyweight.frameLength(tooMany);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length));

        ack.rangeCount(Integer.MAX_VALUE);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length));
        ack.rangeCount(-1);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length));
    }

    @Test
    void ackWhoseBodyDisagreesWithItsRangeCount()
    {
        final int length = packetWith(SingleFrame.ACK);
        final AckFrameFlyweight ack = ack();
        ack.rangeCount(1);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "8 bytes left over");
        ack.rangeCount(3);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "third range missing");
    }

    @Test
    void ackRangesReachingBelowPacketNumberZero()
    {
        // largest 50, first range 5 -> [45..50]; gap 3 -> largest 40, length 4 -> [36..40]; gap 0 -> 34, length 10
        // -> [24..34].
        final int length = packetWith(SingleFrame.ACK);
        final AckFrameFlyweight ack = ack();
        assertEquals(OK, decoder.validate(buffer, 0, length));

        ack.firstRange(51);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "first range below 0");
        ack.firstRange(5);

        ack.range(1, 0, 34);
        assertEquals(OK, decoder.validate(buffer, 0, length), "reaching exactly 0 is fine");
        ack.range(1, 0, 35);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "range length below 0");
        ack.range(1, 35, 0);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "gap below 0");
        ack.range(1, Integer.MAX_VALUE, Integer.MAX_VALUE);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "huge gap");
    }

    @Test
    void ackWithNegativeFields()
    {
        final int length = packetWith(SingleFrame.ACK);
        final AckFrameFlyweight ack = ack();

        ack.largestAcked(-1);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "largest");
        ack.largestAcked(50).ackDelayUs(-1);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "delay");
        ack.ackDelayUs(0).firstRange(-1);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "first range");
        ack.firstRange(0).range(0, -1, 0);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "gap");
        ack.range(0, 0, -1);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "range length");
    }

    @Test
    void ackWithNegativeEcnCounts()
    {
        final int length = packetWith(SingleFrame.ACK_ECN);
        final AckFrameFlyweight ack = ack();
        assertEquals(OK, decoder.validate(buffer, 0, length));

        ack.ecnCounts(-1, 0, 0);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "ECT(0)");
        ack.ecnCounts(0, Long.MIN_VALUE, 0);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "ECT(1)");
        ack.ecnCounts(0, 0, -5);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length), "CE");
        ack.ecnCounts(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(OK, decoder.validate(buffer, 0, length), "huge counts are well formed: validation judges them");
    }

    @Test
    void ackWhoseLengthDisagreesWithItsEcnFlag()
    {
        final int withCounts = packetWith(SingleFrame.ACK_ECN);
        buffer.putByte(FRAME + FrameHeaderFlyweight.FRAME_FLAGS_OFFSET, (byte)0);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, withCounts), "24 bytes of counts without the flag");

        final int withoutCounts = packetWith(SingleFrame.ACK);
        buffer.putByte(FRAME + FrameHeaderFlyweight.FRAME_FLAGS_OFFSET, (byte)AckFrameFlyweight.FLAG_ECN);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, withoutCounts), "the flag without the counts");
    }

    @ParameterizedTest
    @ValueSource(ints = {0x2, 0x3, 0x80, 0xFF})
    void ackWithAnUnknownFlag(final int flags)
    {
        final int length = packetWith(SingleFrame.ACK_ECN);
        buffer.putByte(FRAME + FrameHeaderFlyweight.FRAME_FLAGS_OFFSET, (byte)flags);
        assertEquals(MALFORMED_ACK, decoder.validate(buffer, 0, length));
    }

    @Test
    void dataWithBadOffsets()
    {
        final int length = packetWith(SingleFrame.DATA);
        final DataFrameFlyweight data = new DataFrameFlyweight();
        data.wrap(buffer, FRAME);

        data.streamOffset(-1);
        assertEquals(MALFORMED_DATA, decoder.validate(buffer, 0, length), "negative offset");
        data.streamOffset(Long.MAX_VALUE - 10);
        assertEquals(OK, decoder.validate(buffer, 0, length), "last byte at Long.MAX_VALUE - 1");
        data.streamOffset(Long.MAX_VALUE - 9);
        assertEquals(MALFORMED_DATA, decoder.validate(buffer, 0, length), "offset + length overflows");
        data.streamOffset(0).streamId(-5);
        assertEquals(MALFORMED_DATA, decoder.validate(buffer, 0, length), "negative stream id");
    }

    @Test
    void emptyDataOnlyWithFin()
    {
        start(PacketType.ONE_RTT);
        writer.appendDataHeader(0, 10, true, 0);
        assertEquals(OK, decoder.validate(buffer, 0, writer.length()));

        buffer.putByte(FRAME + FrameHeaderFlyweight.FRAME_FLAGS_OFFSET, (byte)0);
        assertEquals(MALFORMED_DATA, decoder.validate(buffer, 0, writer.length()));
    }

    @Test
    void maxDataWithWrongLengthOrNegativeValue()
    {
        final int length = packetWith(SingleFrame.MAX_DATA);
        buffer.putLong(MaxDataFrameFlyweight.MAXIMUM_DATA_OFFSET + FRAME, -1, BYTE_ORDER);
        assertEquals(MALFORMED_MAX_DATA, decoder.validate(buffer, 0, length));

        // A 16-byte body: the length is consistent with the datagram, but not with the frame type.
        start(PacketType.ONE_RTT);
        writer.appendPadding(FRAME_HEADER_LENGTH + 16);
        buffer.putByte(FRAME, (byte)FrameType.MAX_DATA);
        assertEquals(MALFORMED_MAX_DATA, decoder.validate(buffer, 0, writer.length()));
    }

    @Test
    void maxStreamDataWithWrongLengthOrNegativeValues()
    {
        final int length = packetWith(SingleFrame.MAX_STREAM_DATA);
        final MaxStreamDataFrameFlyweight frame = new MaxStreamDataFrameFlyweight();
        frame.wrap(buffer, FRAME);
        frame.maximumStreamData(-1);
        assertEquals(MALFORMED_MAX_STREAM_DATA, decoder.validate(buffer, 0, length), "negative maximum");
        frame.maximumStreamData(1).streamId(-1);
        assertEquals(MALFORMED_MAX_STREAM_DATA, decoder.validate(buffer, 0, length), "negative stream id");

        start(PacketType.ONE_RTT);
        writer.appendPadding(FRAME_HEADER_LENGTH + 8);
        buffer.putByte(FRAME, (byte)FrameType.MAX_STREAM_DATA);
        assertEquals(MALFORMED_MAX_STREAM_DATA, decoder.validate(buffer, 0, writer.length()), "8-byte body");
    }

    @Test
    void handshakeWhoseTokenLengthDisagreesWithTheBody()
    {
        final int length = packetWith(SingleFrame.HANDSHAKE);
        final int tokenLengthOffset = FRAME + HandshakeFrameFlyweight.TOKEN_LENGTH_OFFSET;
        assertEquals(OK, decoder.validate(buffer, 0, length));

        buffer.putInt(tokenLengthOffset, 13, BYTE_ORDER);
        assertEquals(MALFORMED_HANDSHAKE, decoder.validate(buffer, 0, length), "token past the body");
        buffer.putInt(tokenLengthOffset, 11, BYTE_ORDER);
        assertEquals(MALFORMED_HANDSHAKE, decoder.validate(buffer, 0, length), "bytes left after the token");
        buffer.putInt(tokenLengthOffset, -1, BYTE_ORDER);
        assertEquals(MALFORMED_HANDSHAKE, decoder.validate(buffer, 0, length), "negative token length");
        buffer.putInt(tokenLengthOffset, 0xFFFFFFFF, BYTE_ORDER);
        assertEquals(MALFORMED_HANDSHAKE, decoder.validate(buffer, 0, length), "0xFFFFFFFF token length");
    }

    @Test
    void handshakeWithImpossibleParameters()
    {
        final int length = packetWith(SingleFrame.HANDSHAKE);
        final HandshakeFrameFlyweight handshake = new HandshakeFrameFlyweight();
        handshake.wrap(buffer, FRAME);

        handshake.maxDatagramSize(0);
        assertEquals(MALFORMED_HANDSHAKE, decoder.validate(buffer, 0, length), "datagram size");
        handshake.maxDatagramSize(1_200).maxAckDelayUs(-1);
        assertEquals(MALFORMED_HANDSHAKE, decoder.validate(buffer, 0, length), "ack delay");
        handshake.maxAckDelayUs(0).idleTimeoutMs(-1);
        assertEquals(MALFORMED_HANDSHAKE, decoder.validate(buffer, 0, length), "idle timeout");
        handshake.idleTimeoutMs(0).initialMaxData(-1);
        assertEquals(MALFORMED_HANDSHAKE, decoder.validate(buffer, 0, length), "max data");
        handshake.initialMaxData(0).initialMaxStreamData(Long.MIN_VALUE);
        assertEquals(MALFORMED_HANDSHAKE, decoder.validate(buffer, 0, length), "max stream data");
        handshake.initialMaxStreamData(0);
        assertEquals(OK, decoder.validate(buffer, 0, length));
    }

    @Test
    void closeWhoseReasonLengthDisagreesWithTheBody()
    {
        final int length = packetWith(SingleFrame.CLOSE);
        final int reasonLengthOffset = FRAME + CloseFrameFlyweight.REASON_LENGTH_OFFSET;
        assertEquals(OK, decoder.validate(buffer, 0, length));

        buffer.putInt(reasonLengthOffset, 10, BYTE_ORDER);
        assertEquals(MALFORMED_CLOSE, decoder.validate(buffer, 0, length), "reason past the body");
        buffer.putInt(reasonLengthOffset, 8, BYTE_ORDER);
        assertEquals(MALFORMED_CLOSE, decoder.validate(buffer, 0, length), "bytes left after the reason");
        buffer.putInt(reasonLengthOffset, 0xFFFFFFFF, BYTE_ORDER);
        assertEquals(MALFORMED_CLOSE, decoder.validate(buffer, 0, length), "0xFFFFFFFF reason length");
    }

    @Test
    void congestionControlWithABadName()
    {
        final int length = packetWith(SingleFrame.CONGESTION_CONTROL);
        final int nameLengthOffset = FRAME + CongestionControlFrameFlyweight.NAME_LENGTH_OFFSET;
        final int nameOffset = FRAME + CongestionControlFrameFlyweight.NAME_OFFSET;
        assertEquals(OK, decoder.validate(buffer, 0, length));

        buffer.putInt(nameLengthOffset, 6, BYTE_ORDER);
        assertEquals(MALFORMED_CONGESTION_CONTROL, decoder.validate(buffer, 0, length), "name past the body");
        buffer.putInt(nameLengthOffset, 4, BYTE_ORDER);
        assertEquals(MALFORMED_CONGESTION_CONTROL, decoder.validate(buffer, 0, length), "bytes after the name");
        buffer.putInt(nameLengthOffset, 5, BYTE_ORDER);
        buffer.putByte(nameOffset + 2, (byte)' ');
        assertEquals(MALFORMED_CONGESTION_CONTROL, decoder.validate(buffer, 0, length), "a space");
        buffer.putByte(nameOffset + 2, (byte)0x80);
        assertEquals(MALFORMED_CONGESTION_CONTROL, decoder.validate(buffer, 0, length), "not ASCII");
        buffer.putByte(nameOffset + 2, (byte)'b');
        assertEquals(OK, decoder.validate(buffer, 0, length));

        start(PacketType.HANDSHAKE);
        final int frame = writer.length();
        writer.appendPadding(CongestionControlFrameFlyweight.NAME_OFFSET + 40);
        buffer.putByte(frame, (byte)FrameType.CONGESTION_CONTROL);
        buffer.putInt(frame + CongestionControlFrameFlyweight.NAME_LENGTH_OFFSET, 40, BYTE_ORDER);
        buffer.setMemory(frame + CongestionControlFrameFlyweight.NAME_OFFSET, 40, (byte)'x');
        assertEquals(MALFORMED_CONGESTION_CONTROL, decoder.validate(buffer, 0, writer.length()), "too long");
    }

    @Test
    void consumedWithImpossibleFields()
    {
        final int length = packetWith(SingleFrame.CONSUMED);
        assertEquals(OK, decoder.validate(buffer, 0, length));

        buffer.putLong(FRAME + ConsumedFrameFlyweight.MESSAGES_OFFSET, 1_001, BYTE_ORDER);
        assertEquals(MALFORMED_CONSUMED, decoder.validate(buffer, 0, length),
            "more messages than 4-byte length prefixes fit in the position");
        buffer.putLong(FRAME + ConsumedFrameFlyweight.MESSAGES_OFFSET, 1_000, BYTE_ORDER);
        assertEquals(OK, decoder.validate(buffer, 0, length), "1000 empty messages");
        buffer.putLong(FRAME + ConsumedFrameFlyweight.POSITION_OFFSET, -1, BYTE_ORDER);
        assertEquals(MALFORMED_CONSUMED, decoder.validate(buffer, 0, length), "negative position");
        buffer.putLong(FRAME + ConsumedFrameFlyweight.POSITION_OFFSET, 4_000, BYTE_ORDER);
        buffer.putInt(FRAME + ConsumedFrameFlyweight.STREAM_ID_OFFSET, -1, BYTE_ORDER);
        assertEquals(MALFORMED_CONSUMED, decoder.validate(buffer, 0, length), "negative stream id");
    }

    @Test
    void anEmptyNoiseMessageIsAKeyRequestOfNoiseNkOnly()
    {
        for (final int length : new int[]{ NoiseFrameFlyweight.MIN_MESSAGE_LENGTH, 0 })
        {
            start(PacketType.HANDSHAKE);
            writer.appendNoise(NoiseFrameFlyweight.PROFILE_NK, 1, new byte[length]);
            assertEquals(OK, decoder.validate(buffer, 0, writer.length()), "NK, message of " + length);
        }
        start(PacketType.HANDSHAKE);
        writer.appendNoise(2, 1, new byte[0]);
        assertEquals(MALFORMED_NOISE, decoder.validate(buffer, 0, writer.length()), "NNpsk0 asks for no key");
        start(PacketType.HANDSHAKE);
        writer.appendNoise(NoiseFrameFlyweight.PROFILE_NK, 1, new byte[NoiseFrameFlyweight.MIN_MESSAGE_LENGTH - 1]);
        assertEquals(MALFORMED_NOISE, decoder.validate(buffer, 0, writer.length()), "too short to be a message");
    }

    @Test
    void aRetryCarriesNothingOrAServerKeyAfterItsToken()
    {
        final UnsafeBuffer token = new UnsafeBuffer(new byte[25]);
        final byte[] key = new byte[RetryPacketFlyweight.SERVER_KEY_LENGTH];
        key[31] = 7;
        writer.wrap(buffer, 0, 1_500);
        writer.writeRetry(0x42, token, 0, 25, key);
        assertEquals(OK, decoder.validate(buffer, 0, writer.length()));
        assertEquals(RetryPacketFlyweight.SERVER_KEY_LENGTH, decoder.retryServerKeyLength());
        assertEquals(7, buffer.getByte(decoder.retry().serverKeyOffset() + 31));
        final int withKey = writer.length();
        for (int cut = 1; cut < RetryPacketFlyweight.SERVER_KEY_LENGTH; cut++)
        {
            assertEquals(MALFORMED_RETRY, decoder.validate(buffer, 0, withKey - cut), "a key cut by " + cut);
        }
        assertEquals(MALFORMED_RETRY, decoder.validate(buffer, 0, withKey + 1), "a byte past the key");
        assertEquals(OK, decoder.validate(buffer, 0, withKey - RetryPacketFlyweight.SERVER_KEY_LENGTH));
        assertEquals(0, decoder.retryServerKeyLength());
    }

    @Test
    void aBadFrameAfterGoodOnesRejectsTheWholePacket()
    {
        start(PacketType.ONE_RTT);
        writer.appendPing();
        writer.appendMaxData(5);
        final int badFrame = writer.length();
        writer.appendDataHeader(0, 0, true, 0);
        buffer.putLong(badFrame + DataFrameFlyweight.STREAM_OFFSET_OFFSET, -7, BYTE_ORDER);

        assertEquals(MALFORMED_DATA, decoder.validate(buffer, 0, writer.length()));
    }

    @Test
    void trailingBytesShorterThanAFrameHeader()
    {
        final int length = ping();
        for (int extra = 1; extra < FRAME_HEADER_LENGTH; extra++)
        {
            assertEquals(TRUNCATED_FRAME_HEADER, decoder.validate(buffer, 0, length + extra), "extra " + extra);
        }
    }

    @Test
    void everyResultCodeHasItsOwnDescription()
    {
        final Set<String> descriptions = new HashSet<>();
        for (int code = OK; code <= MALFORMED_ACK_FREQUENCY; code++)
        {
            descriptions.add(PacketDecoder.describe(code));
        }
        assertEquals(MALFORMED_ACK_FREQUENCY + 1, descriptions.size());
        assertEquals("MALFORMED_ACK", PacketDecoder.describe(MALFORMED_ACK));
        assertEquals("UNKNOWN_RESULT", PacketDecoder.describe(-3));
    }

    private int ping()
    {
        start(PacketType.ONE_RTT);
        writer.appendPing();
        return writer.length();
    }

    private int packetWith(final SingleFrame frame)
    {
        start(PacketType.ONE_RTT);
        frame.append(writer, scratch);
        assertEquals(OK, decoder.validate(buffer, 0, writer.length()), frame.name());
        return writer.length();
    }

    private AckFrameFlyweight ack()
    {
        final AckFrameFlyweight ack = new AckFrameFlyweight();
        ack.wrap(buffer, FRAME);
        return ack;
    }

    private void start(final int packetType)
    {
        buffer.setMemory(0, buffer.capacity(), (byte)0);
        writer.wrap(buffer, 0, 1_500);
        writer.writeHeader(packetType, 0x42, 1);
    }
}
