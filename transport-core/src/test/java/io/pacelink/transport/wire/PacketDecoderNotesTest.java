package io.pacelink.transport.wire;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packet is decoded once: {@link PacketDecoder#validate} notes each frame's type and place, and the walk of the
 * packet it last accepted ({@link PacketDecoder#firstFrame}, {@link PacketDecoder#nextFrame()}) goes through those
 * notes; any other packet, one with more frames than the notes hold, or a place whose last validation failed, is
 * walked through its frame headers as before.
 */
class PacketDecoderNotesTest
{
    private static final long CONNECTION_ID = 0x0102_0304_0506_0708L;
    private static final int SECOND_PACKET = 1_000;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4_096]);
    private final PacketWriter writer = new PacketWriter();
    private final PacketDecoder decoder = new PacketDecoder();

    @Test
    void theLastPacketValidatedIsWalkedFromItsNotesNotFromItsFrameHeadersAgain()
    {
        final int length = requestPacket(0);
        assertEquals(PacketDecoder.OK, decoder.validate(buffer, 0, length));
        final int ackOffset = PacketHeaderFlyweight.HEADER_LENGTH;

        // Were the frame headers read again, the walk would now see a PING where the ACK frame was.
        buffer.putByte(ackOffset + FrameHeaderFlyweight.FRAME_TYPE_OFFSET, (byte)FrameType.PING);

        assertEquals(List.of(FrameType.ACK, FrameType.DATA), walk(0, length));
        assertEquals(ackOffset, decoder.ack().offset(), "the ACK frame's flyweight at its place");
        assertEquals(77, decoder.ack().largestAcked());
        assertEquals(32, decoder.data().payloadLength());
    }

    @Test
    void anotherPacketThanTheLastValidatedIsWalkedThroughItsFrameHeaders()
    {
        final int first = requestPacket(0);
        final int second = pingPacket(SECOND_PACKET);
        assertEquals(PacketDecoder.OK, decoder.validate(buffer, 0, first));
        assertEquals(PacketDecoder.OK, decoder.validate(buffer, SECOND_PACKET, second));

        assertEquals(List.of(FrameType.ACK, FrameType.DATA), walk(0, first));
        assertEquals(List.of(FrameType.PING, FrameType.MAX_DATA), walk(SECOND_PACKET, second));
        assertEquals(List.of(FrameType.PING, FrameType.MAX_DATA), walk(SECOND_PACKET, second), "again");
    }

    @Test
    void paddingIsLeftOutOfTheNotesAsTheWalkSkipsIt()
    {
        writer.wrap(buffer, 0, 1_200);
        assertTrue(writer.writeHeader(PacketType.ONE_RTT, CONNECTION_ID, 9));
        assertTrue(writer.appendPadding(16));
        assertTrue(writer.appendPing());
        assertTrue(writer.appendPadding(24));
        final int length = writer.length();

        assertEquals(PacketDecoder.OK, decoder.validate(buffer, 0, length));

        assertEquals(3, decoder.frameCount(), "PADDING counted");
        assertEquals(List.of(FrameType.PING), walk(0, length));
    }

    @Test
    void aPacketWithMoreFramesThanTheNotesHoldIsWalkedThroughItsFrameHeaders()
    {
        writer.wrap(buffer, 0, 1_200);
        assertTrue(writer.writeHeader(PacketType.ONE_RTT, CONNECTION_ID, 9));
        final List<Integer> expected = new ArrayList<>();
        for (int i = 0; i <= PacketDecoder.MAX_NOTED_FRAMES; i++)
        {
            assertTrue(writer.appendPing());
            expected.add(FrameType.PING);
        }
        assertTrue(writer.appendMaxData(5));
        expected.add(FrameType.MAX_DATA);
        final int length = writer.length();

        assertEquals(PacketDecoder.OK, decoder.validate(buffer, 0, length));

        assertEquals(expected, walk(0, length));
        assertEquals(5, decoder.maxData().maximumData());
    }

    @Test
    void aPlaceWhoseLastValidationFailedKeepsNoNotes()
    {
        final int length = pingPacket(0);
        assertEquals(PacketDecoder.OK, decoder.validate(buffer, 0, length));
        // The MAX_DATA frame becomes a PING frame with a body, of the same length: malformed.
        final int maxDataOffset = PacketHeaderFlyweight.HEADER_LENGTH + FrameHeaderFlyweight.FRAME_HEADER_LENGTH;
        buffer.putByte(maxDataOffset + FrameHeaderFlyweight.FRAME_TYPE_OFFSET, (byte)FrameType.PING);

        assertEquals(PacketDecoder.MALFORMED_PING, decoder.validate(buffer, 0, length));

        assertEquals(List.of(FrameType.PING, FrameType.PING), walk(0, length), "the frame headers, not old notes");
    }

    /**
     * A ping's request: an ACK frame and 32 bytes of DATA.
     */
    private int requestPacket(final int offset)
    {
        writer.wrap(buffer, offset, 1_200);
        assertTrue(writer.writeHeader(PacketType.ONE_RTT, CONNECTION_ID, 5));
        assertTrue(writer.appendAck(77, 25, 3, 0) > 0);
        assertTrue(writer.appendDataHeader(0, 4_096, false, 32) > 0);
        return writer.length();
    }

    private int pingPacket(final int offset)
    {
        writer.wrap(buffer, offset, 1_200);
        assertTrue(writer.writeHeader(PacketType.ONE_RTT, CONNECTION_ID, 6));
        assertTrue(writer.appendPing());
        assertTrue(writer.appendMaxData(1 << 20));
        return writer.length();
    }

    private List<Integer> walk(final int offset, final int length)
    {
        final List<Integer> types = new ArrayList<>();
        for (int type = decoder.firstFrame(buffer, offset, length);
            PacketDecoder.NO_MORE_FRAMES != type;
            type = decoder.nextFrame())
        {
            types.add(type);
        }
        return types;
    }
}
