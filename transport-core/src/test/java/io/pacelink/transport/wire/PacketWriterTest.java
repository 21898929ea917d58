package io.pacelink.transport.wire;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.function.ToIntFunction;

import static io.pacelink.transport.wire.FrameHeaderFlyweight.FRAME_HEADER_LENGTH;
import static io.pacelink.transport.wire.PacketHeaderFlyweight.HEADER_LENGTH;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PacketWriter} never writes past its capacity: every append that does not fit reports so and leaves the
 * datagram and the bytes after the capacity untouched.
 */
class PacketWriterTest
{
    private static final byte SENTINEL = (byte)0xA5;
    private static final int OFFSET = 16;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4_096]);
    private final UnsafeBuffer token = new UnsafeBuffer(new byte[64]);
    private final PacketWriter writer = new PacketWriter();

    @Test
    void headerNeedsTwentyBytes()
    {
        assertFalse(wrap(HEADER_LENGTH - 1).writeHeader(PacketType.ONE_RTT, 1, 1));
        assertTrue(wrap(HEADER_LENGTH).writeHeader(PacketType.ONE_RTT, 1, 1));
        assertEquals(0, writer.remaining());
    }

    @Test
    void framesBeforeTheHeaderAreAProgrammingError()
    {
        wrap(100);
        assertThrows(IllegalStateException.class, writer::appendPing);
    }

    @Test
    void regionOutsideTheBufferIsRejected()
    {
        assertThrows(IllegalArgumentException.class, () -> writer.wrap(buffer, 4_000, 100));
        assertThrows(IllegalArgumentException.class, () -> writer.wrap(buffer, -1, 100));
    }

    @Test
    void pingFitsExactlyOrNotAtAll()
    {
        assertFitsExactly(FRAME_HEADER_LENGTH, w -> w.appendPing() ? 1 : -1);
    }

    @Test
    void ackFitsExactlyOrNotAtAll()
    {
        assertFitsExactly(AckFrameFlyweight.frameLength(5), w -> w.appendAck(100, 0, 0, 5));
    }

    @Test
    void dataFitsExactlyOrNotAtAll()
    {
        assertFitsExactly(DataFrameFlyweight.OVERHEAD_BYTES + 333, w -> w.appendDataHeader(0, 0, false, 333));
        assertFitsExactly(DataFrameFlyweight.OVERHEAD_BYTES, w -> w.appendDataHeader(0, 0, true, 0));
    }

    @Test
    void maxDataFramesFitExactlyOrNotAtAll()
    {
        assertFitsExactly(16, w -> w.appendMaxData(1) ? 1 : -1);
        assertFitsExactly(24, w -> w.appendMaxStreamData(1, 1) ? 1 : -1);
    }

    @Test
    void handshakeFitsExactlyOrNotAtAll()
    {
        assertFitsExactly(
            HandshakeFrameFlyweight.TOKEN_OFFSET + 40,
            w -> w.appendHandshake(1, false, 1_200, 1_000, 1_000, 1, 1, token, 0, 40) ? 1 : -1);
    }

    @Test
    void closeFitsExactlyOrNotAtAll()
    {
        assertFitsExactly(CloseFrameFlyweight.REASON_OFFSET + 50, w -> w.appendClose(1, token, 0, 50) ? 1 : -1);
    }

    @Test
    void paddingFillsExactlyAndIsZeroed()
    {
        buffer.setMemory(0, buffer.capacity(), SENTINEL);
        wrap(200).writeHeader(PacketType.HANDSHAKE, 0, 0);

        assertTrue(writer.appendPadding(writer.remaining()));

        assertEquals(200, writer.length());
        for (int i = OFFSET + HEADER_LENGTH + FRAME_HEADER_LENGTH; i < OFFSET + 200; i++)
        {
            assertEquals(0, buffer.getByte(i), "padding byte at " + i);
        }
        assertEquals(SENTINEL, buffer.getByte(OFFSET + 200));
        assertEquals(PacketDecoder.OK, new PacketDecoder().validate(buffer, OFFSET, writer.length()));
    }

    @Test
    void paddingShorterThanAFrameHeaderOrPastCapacityIsRefused()
    {
        wrap(100).writeHeader(PacketType.ONE_RTT, 0, 0);

        assertTrue(writer.appendPadding(0), "nothing asked, nothing to do");
        for (int bytes = 1; bytes < FRAME_HEADER_LENGTH; bytes++)
        {
            assertFalse(writer.appendPadding(bytes));
        }
        assertFalse(writer.appendPadding(81));
        assertEquals(HEADER_LENGTH, writer.length());
        assertTrue(writer.appendPadding(8));
        assertEquals(28, writer.length());
    }

    @Test
    void tooManyAckRangesIsAProgrammingError()
    {
        wrap(2_000).writeHeader(PacketType.ONE_RTT, 0, 0);
        assertThrows(
            IllegalArgumentException.class, () -> writer.appendAck(1_000, 0, 0, PacketDecoder.MAX_ACK_RANGES + 1));
        assertThrows(IllegalArgumentException.class, () -> writer.appendAck(1_000, 0, 0, -1));
    }

    @Test
    void maxDataPayloadLengthLeavesRoomForTheFrameOverhead()
    {
        wrap(1_200).writeHeader(PacketType.ONE_RTT, 0, 0);
        assertEquals(1_200 - HEADER_LENGTH - PacketWriter.DATA_FRAME_OVERHEAD_BYTES, writer.maxDataPayloadLength());

        assertTrue(writer.appendDataHeader(0, 0, false, writer.maxDataPayloadLength()) > 0);
        assertEquals(0, writer.remaining());
        assertEquals(0, writer.maxDataPayloadLength());
    }

    @Test
    void tracksAckElicitingAndInFlightPerRfc9002()
    {
        wrap(1_200).writeHeader(PacketType.ONE_RTT, 0, 0);
        writer.appendAck(5, 0, 5, 0);
        assertFalse(writer.isAckEliciting());
        assertFalse(writer.isInFlight());
        writer.appendPadding(20);
        assertFalse(writer.isAckEliciting());
        assertTrue(writer.isInFlight(), "padded packets count in flight");

        wrap(1_200).writeHeader(PacketType.CLOSE, 0, 1);
        writer.appendClose(0, null, 0, 0);
        assertFalse(writer.isAckEliciting());
        assertFalse(writer.isInFlight());

        wrap(1_200).writeHeader(PacketType.ONE_RTT, 0, 2);
        writer.appendPing();
        assertTrue(writer.isAckEliciting());
        assertTrue(writer.isInFlight());
    }

    /**
     * With one byte too little the append fails and nothing changes; with exactly enough it succeeds and fills the
     * packet. The byte after the capacity is never written.
     */
    @Test
    void aSingleRangeAckFitsExactlyOrNotAtAll()
    {
        assertFitsExactly(AckFrameFlyweight.frameLength(0, false),
            w -> w.appendSingleRangeAck(7, 3, 2, false, 0, 0, 0) > 0 ? 1 : -1);
        assertFitsExactly(AckFrameFlyweight.frameLength(0, true),
            w -> w.appendSingleRangeAck(7, 3, 2, true, 1, 2, 3) > 0 ? 1 : -1);
    }

    @Test
    void aSingleRangeAckIsTheBytesOfTheGeneralAckWriter()
    {
        final UnsafeBuffer general = new UnsafeBuffer(new byte[256]);
        final AckFrameFlyweight counts = new AckFrameFlyweight();
        final long[][] cases = {
            {0, 0, 0, 0, 0, 0}, {1L << 40, Integer.MAX_VALUE, Integer.MAX_VALUE, 5, 0, 0},
            {123_456_789L, 25, 17, 0, 0, 0}, {99, 4_000_000, 0, 1L << 33, 7, 1}, {Long.MAX_VALUE, 1, 1, -1, -2, -3}};
        for (final long[] c : cases)
        {
            for (final boolean hasEcnCounts : new boolean[] {false, true})
            {
                buffer.setMemory(0, buffer.capacity(), SENTINEL);
                general.setMemory(0, general.capacity(), SENTINEL);
                wrap(200).writeHeader(PacketType.ONE_RTT, 9, 4);
                final int length = writer.appendSingleRangeAck(c[0], (int)c[1], (int)c[2], hasEcnCounts, c[3], c[4],
                    c[5]);
                final PacketWriter other = new PacketWriter().wrap(general, OFFSET, 200);
                other.writeHeader(PacketType.ONE_RTT, 9, 4);
                final int frameOffset = other.appendAck(c[0], (int)c[1], (int)c[2], 0, hasEcnCounts);
                if (hasEcnCounts)
                {
                    counts.wrap(general, frameOffset);
                    counts.ecnCounts(c[3], c[4], c[5]);
                }

                assertEquals(AckFrameFlyweight.frameLength(0, hasEcnCounts), length);
                assertEquals(other.length(), writer.length());
                assertEquals(other.isAckEliciting(), writer.isAckEliciting());
                assertEquals(other.isInFlight(), writer.isInFlight());
                for (int i = 0; i < 256; i++)
                {
                    assertEquals(general.getByte(i), buffer.getByte(i), "byte " + i);
                }
            }
        }
    }

    private void assertFitsExactly(final int frameLength, final ToIntFunction<PacketWriter> append)
    {
        final int tooSmall = HEADER_LENGTH + frameLength - 1;
        buffer.setMemory(0, buffer.capacity(), SENTINEL);
        wrap(tooSmall).writeHeader(PacketType.ONE_RTT, 0, 0);
        assertEquals(-1, append.applyAsInt(writer));
        assertEquals(HEADER_LENGTH, writer.length());
        for (int i = OFFSET + HEADER_LENGTH; i < buffer.capacity(); i++)
        {
            assertEquals(SENTINEL, buffer.getByte(i), "byte written at " + i + " by a frame that did not fit");
        }

        wrap(tooSmall + 1).writeHeader(PacketType.ONE_RTT, 0, 0);
        assertTrue(append.applyAsInt(writer) >= 0);
        assertEquals(0, writer.remaining());
        assertEquals(SENTINEL, buffer.getByte(OFFSET + tooSmall + 1), "byte written past the capacity");
    }

    private PacketWriter wrap(final int capacity)
    {
        return writer.wrap(buffer, OFFSET, capacity);
    }
}
