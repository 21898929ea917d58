package io.pacelink.transport.wire;

import io.pacelink.transport.wire.RecordingFrameVisitor.Ack;
import io.pacelink.transport.wire.RecordingFrameVisitor.Close;
import io.pacelink.transport.wire.RecordingFrameVisitor.CongestionControl;
import io.pacelink.transport.wire.RecordingFrameVisitor.Consumed;
import io.pacelink.transport.wire.RecordingFrameVisitor.Data;
import io.pacelink.transport.wire.RecordingFrameVisitor.Handshake;
import io.pacelink.transport.wire.RecordingFrameVisitor.MaxData;
import io.pacelink.transport.wire.RecordingFrameVisitor.MaxStreamData;
import io.pacelink.transport.wire.RecordingFrameVisitor.Ping;
import io.pacelink.transport.wire.RecordingFrameVisitor.Unknown;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every frame type written with {@link PacketWriter}, validated and visited with {@link PacketDecoder}, and compared
 * field by field; also byte positions against docs/wire-format.md, so both sides cannot drift together.
 */
class PacketCodecRoundTripTest
{
    private static final int DATAGRAM_OFFSET = 7;
    private static final int CAPACITY = 1_400;
    private static final long CONNECTION_ID = 0x1122_3344_5566_7788L;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2_048]);
    private final PacketWriter writer = new PacketWriter();
    private final PacketDecoder decoder = new PacketDecoder();
    private final RecordingFrameVisitor visitor = new RecordingFrameVisitor();

    @BeforeEach
    void startPacket()
    {
        writer.wrap(buffer, DATAGRAM_OFFSET, CAPACITY);
        assertTrue(writer.writeHeader(PacketType.ONE_RTT, CONNECTION_ID, 42));
    }

    @Test
    void headerRoundTripsAndSitsAtTheDocumentedOffsets()
    {
        assertTrue(writer.appendPing());

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(PacketType.ONE_RTT, decoder.packetType());
        assertEquals(CONNECTION_ID, decoder.destinationConnectionId());
        assertEquals(42, decoder.packetNumber());
        assertEquals(1, decoder.frameCount());

        assertEquals(PacketHeaderFlyweight.CURRENT_VERSION, buffer.getByte(DATAGRAM_OFFSET));
        assertEquals(PacketType.ONE_RTT, buffer.getByte(DATAGRAM_OFFSET + 1));
        assertEquals(0, buffer.getShort(DATAGRAM_OFFSET + 2));
        assertEquals(0x88, buffer.getByte(DATAGRAM_OFFSET + 4) & 0xFF, "little-endian connection id");
        assertEquals(42, buffer.getByte(DATAGRAM_OFFSET + 12), "little-endian packet number");
        assertEquals(FrameType.PING, buffer.getByte(DATAGRAM_OFFSET + 20));
        assertEquals(20 + 8, writer.length());
    }

    @Test
    void pingRoundTrips()
    {
        assertTrue(writer.appendPing());

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(List.of(new Ping()), visitor.frames());
        assertTrue(decoder.isAckEliciting());
    }

    @Test
    void ackWithRangesRoundTrips()
    {
        // Received {0..2, 6..7, 10, 20..22}: RFC 9000 section 19.3.1 gives first range 2 below 22, then
        // (gap 20-10-2 = 8, length 0), (gap 10-7-2 = 1, length 1), (gap 6-2-2 = 2, length 2).
        final int frameOffset = writer.appendAck(22, 1_234, 2, 3);
        final AckFrameFlyweight ack = new AckFrameFlyweight();
        ack.wrap(buffer, frameOffset);
        ack.range(0, 8, 0).range(1, 1, 1).range(2, 2, 2);

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(
            List.of(new Ack(22, 1_234, List.of("20..22", "10..10", "6..7", "0..2"))), visitor.frames());
        assertFalse(decoder.isAckEliciting(), "ACK alone is not ack-eliciting (RFC 9002 section 2)");
        assertEquals(20 + AckFrameFlyweight.frameLength(3), writer.length());
        assertEquals(8 + 20 + 3 * 8, AckFrameFlyweight.frameLength(3));
    }

    @Test
    void ackWithEcnCountsRoundTripsAndSitsAfterTheRanges()
    {
        final int frameOffset = writer.appendAck(22, 1_234, 2, 1, true);
        final AckFrameFlyweight ack = new AckFrameFlyweight();
        ack.wrap(buffer, frameOffset);
        ack.range(0, 8, 0).ecnCounts(19, 0, (1L << 40) + 3);

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(List.of(new Ack(22, 1_234, List.of("20..22", "10..10"), "ect0=19 ect1=0 ce=1099511627779")),
            visitor.frames());
        assertEquals(AckFrameFlyweight.FLAG_ECN, buffer.getByte(frameOffset + FrameHeaderFlyweight.FRAME_FLAGS_OFFSET));
        assertEquals(8 + 20 + 8 + 24, AckFrameFlyweight.frameLength(1, true));
        assertEquals(20 + AckFrameFlyweight.frameLength(1, true), writer.length());
        // RFC 9000 section 19.3.2 order: ECT(0), ECT(1), ECN-CE, right after the last range.
        assertEquals(19, buffer.getLong(frameOffset + AckFrameFlyweight.RANGES_OFFSET + 8, WireFlyweight.BYTE_ORDER));
    }

    @Test
    void ackWithoutAdditionalRangesRoundTrips()
    {
        writer.appendAck(0, 0, 0, 0);

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(List.of(new Ack(0, 0, List.of("0..0"))), visitor.frames());
    }

    @Test
    void dataRoundTripsWithPayloadCopiedInTwoPieces()
    {
        final byte[] payload = "hello, pacelink".getBytes(StandardCharsets.US_ASCII);
        final int payloadOffset = writer.appendDataHeader(3, 1L << 40, false, payload.length);
        // As if from the two ends of a circular buffer.
        buffer.putBytes(payloadOffset, payload, 0, 5);
        buffer.putBytes(payloadOffset + 5, payload, 5, payload.length - 5);

        assertEquals(DATAGRAM_OFFSET + 20 + DataFrameFlyweight.OVERHEAD_BYTES, payloadOffset);
        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(List.of(new Data(3, 1L << 40, false, hex(payload))), visitor.frames());
        assertTrue(decoder.isAckEliciting());
    }

    @Test
    void emptyDataWithFinRoundTrips()
    {
        writer.appendDataHeader(0, 1_000, true, 0);

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(List.of(new Data(0, 1_000, true, "")), visitor.frames());
    }

    @Test
    void maxDataAndMaxStreamDataRoundTrip()
    {
        assertTrue(writer.appendMaxData(Long.MAX_VALUE));
        assertTrue(writer.appendMaxStreamData(9, 123_456_789_012L));

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(
            List.of(new MaxData(Long.MAX_VALUE), new MaxStreamData(9, 123_456_789_012L)), visitor.frames());
        assertTrue(decoder.isAckEliciting());
    }

    @Test
    void handshakeWithTokenRoundTrips()
    {
        final byte[] token = new byte[32];
        for (int i = 0; i < token.length; i++)
        {
            token[i] = (byte)(i * 7);
        }
        writer.wrap(buffer, DATAGRAM_OFFSET, CAPACITY);
        writer.writeHeader(PacketType.HANDSHAKE, 0, 0);
        assertTrue(writer.appendHandshake(
            0xCAFEL, true, 1_472, 1_000, 30_000, 1L << 33, 1L << 32, new UnsafeBuffer(token), 0, token.length));

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(
            List.of(new Handshake(
                0xCAFEL, true, PacketHeaderFlyweight.CURRENT_VERSION, 1_472, 1_000, 30_000, 1L << 33, 1L << 32,
                hex(token))),
            visitor.frames());
        assertEquals(PacketType.HANDSHAKE, decoder.packetType());

        final HandshakeFrameFlyweight handshake = new HandshakeFrameFlyweight();
        handshake.wrap(buffer, DATAGRAM_OFFSET + PacketHeaderFlyweight.HEADER_LENGTH);
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[40]);
        assertEquals(token.length, handshake.getToken(copy, 3));
        assertEquals(hex(token), hex(Arrays.copyOfRange(copy.byteArray(), 3, 3 + token.length)));
    }

    @Test
    void handshakeRequestWithoutTokenRoundTrips()
    {
        assertTrue(writer.appendHandshake(5, false, 1_200, 25_000, 10_000, 0, 0, null, 0, 0));

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(
            List.of(new Handshake(5, false, PacketHeaderFlyweight.CURRENT_VERSION, 1_200, 25_000, 10_000, 0, 0, "")),
            visitor.frames());
    }

    @Test
    void closeWithReasonRoundTrips()
    {
        final byte[] reason = "idle timeout \u2013 bye".getBytes(StandardCharsets.UTF_8);
        assertTrue(writer.appendClose(0x0A, new UnsafeBuffer(reason), 0, reason.length));

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(List.of(new Close(0x0A, "idle timeout \u2013 bye")), visitor.frames());
        final CloseFrameFlyweight close = new CloseFrameFlyweight();
        close.wrap(buffer, DATAGRAM_OFFSET + PacketHeaderFlyweight.HEADER_LENGTH);
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[reason.length]);
        assertEquals(reason.length, close.getReason(copy, 0));
        assertEquals(hex(reason), hex(copy.byteArray()));
        assertFalse(decoder.isAckEliciting(), "CLOSE is not ack-eliciting (RFC 9002 section 2)");
    }

    @Test
    void closeWithoutReasonRoundTrips()
    {
        assertTrue(writer.appendClose(-1, null, 0, 0));

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(List.of(new Close(-1, "")), visitor.frames());
    }

    @Test
    void congestionControlRoundTripsAndSitsAtTheDocumentedOffsets()
    {
        assertTrue(writer.appendCongestionControl("bbr3"));

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(List.of(new CongestionControl("bbr3")), visitor.frames());
        final int frame = DATAGRAM_OFFSET + PacketHeaderFlyweight.HEADER_LENGTH;
        assertEquals(FrameType.CONGESTION_CONTROL, buffer.getByte(frame));
        assertEquals(4 + 4, buffer.getInt(frame + FrameHeaderFlyweight.BODY_LENGTH_OFFSET, WireFlyweight.BYTE_ORDER));
        assertEquals(4, buffer.getInt(frame + 8, WireFlyweight.BYTE_ORDER), "name length");
        assertEquals("bbr3", buffer.getStringWithoutLengthAscii(frame + 12, 4));
        assertTrue(decoder.isAckEliciting(), "as every frame but ACK, PADDING and CLOSE");
    }

    @Test
    void consumedRoundTripsAndSitsAtTheDocumentedOffsets()
    {
        assertTrue(writer.appendConsumed(0, 104_857_600L + 4 * 25_600, 25_600));

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(List.of(new Consumed(0, 104_857_600L + 4 * 25_600, 25_600)), visitor.frames());
        final int frame = DATAGRAM_OFFSET + PacketHeaderFlyweight.HEADER_LENGTH;
        assertEquals(FrameType.CONSUMED, buffer.getByte(frame));
        assertEquals(24, buffer.getInt(frame + FrameHeaderFlyweight.BODY_LENGTH_OFFSET, WireFlyweight.BYTE_ORDER));
        assertEquals(104_857_600L + 4 * 25_600, buffer.getLong(frame + 16, WireFlyweight.BYTE_ORDER), "position");
        assertEquals(25_600, buffer.getLong(frame + 24, WireFlyweight.BYTE_ORDER), "messages");
        assertTrue(decoder.isAckEliciting(), "a receipt is acknowledged, so a lost one is sent again");
    }

    @Test
    void namesTheFrameCannotCarryAreRefusedByTheWriter()
    {
        for (final String name : new String[] {"", "two words", "x".repeat(33), "caf\u00e9"})
        {
            assertThrows(IllegalArgumentException.class, () -> writer.appendCongestionControl(name), name);
        }
        assertTrue(writer.appendCongestionControl("x".repeat(CongestionControlFrameFlyweight.MAX_NAME_LENGTH)));
    }

    @Test
    void paddingIsSkippedButCounted()
    {
        assertTrue(writer.appendMaxData(1));
        assertTrue(writer.appendPadding(writer.remaining()));

        assertEquals(CAPACITY, writer.length());
        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(List.of(new MaxData(1)), visitor.frames());
        assertEquals(2, decoder.frameCount());
    }

    @Test
    void unknownFrameTypeWithValidLengthIsSkipped()
    {
        assertTrue(writer.appendPing());
        final int unknownOffset = DATAGRAM_OFFSET + writer.length();
        assertTrue(writer.appendPadding(8 + 13));
        buffer.putByte(unknownOffset + FrameHeaderFlyweight.FRAME_TYPE_OFFSET, (byte)200);
        assertTrue(writer.appendMaxData(77));

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(List.of(new Ping(), new Unknown(200), new MaxData(77)), visitor.frames());
    }

    @Test
    void everyFrameTypeInOnePacketRoundTripsInOrder()
    {
        final byte[] reason = "done".getBytes(StandardCharsets.UTF_8);
        final int ackOffset = writer.appendAck(100, 7, 0, 1);
        final AckFrameFlyweight ack = new AckFrameFlyweight();
        ack.wrap(buffer, ackOffset);
        ack.range(0, 0, 97);
        final int payloadOffset = writer.appendDataHeader(1, 0, true, 3);
        buffer.putBytes(payloadOffset, new byte[] {1, 2, 3});
        writer.appendMaxData(4_096);
        writer.appendMaxStreamData(1, 2_048);
        writer.appendHandshake(8, false, 1_350, 1_000, 5_000, 10, 20, null, 0, 0);
        writer.appendPing();
        writer.appendClose(3, new UnsafeBuffer(reason), 0, reason.length);
        writer.appendPadding(16);

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(
            List.of(
                new Ack(100, 7, List.of("100..100", "1..98")),
                new Data(1, 0, true, "010203"),
                new MaxData(4_096),
                new MaxStreamData(1, 2_048),
                new Handshake(8, false, PacketHeaderFlyweight.CURRENT_VERSION, 1_350, 1_000, 5_000, 10, 20, ""),
                new Ping(),
                new Close(3, "done")),
            visitor.frames());
        assertEquals(8, decoder.frameCount());
    }

    @Test
    void emptyResetPacketIsAccepted()
    {
        writer.wrap(buffer, DATAGRAM_OFFSET, CAPACITY);
        writer.writeHeader(PacketType.RESET, CONNECTION_ID, 0);

        assertEquals(PacketDecoder.OK, decodeAndVisit());
        assertEquals(List.of(), visitor.frames());
        assertEquals(0, decoder.frameCount());
    }

    @Test
    void namesAreForDiagnostics()
    {
        assertEquals("ONE_RTT", PacketType.name(PacketType.ONE_RTT));
        assertEquals("UNKNOWN", PacketType.name(9));
        assertEquals("MAX_STREAM_DATA", FrameType.name(FrameType.MAX_STREAM_DATA));
        assertEquals("UNKNOWN", FrameType.name(200));
    }

    private int decodeAndVisit()
    {
        final int result = decoder.validate(buffer, DATAGRAM_OFFSET, writer.length());
        if (PacketDecoder.OK == result)
        {
            decoder.visitFrames(buffer, DATAGRAM_OFFSET, writer.length(), visitor);
        }
        return result;
    }

    private static String hex(final byte[] bytes)
    {
        return HexFormat.of().formatHex(bytes);
    }
}
