package io.pacelink.transport.wire;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of the packet decoder (docs/security.md, "Fuzzing"): any datagram either fails validation
 * with a code or validates into frames that all lie inside the datagram, and walking them throws nothing. The seed
 * corpus (one packet of every type) is in {@code WireDecoderFuzzTestInputs/anyDatagram}; findings Jazzer writes there
 * become regression cases of the ordinary test run.
 */
class WireDecoderFuzzTest
{
    private final PacketDecoder decoder = new PacketDecoder();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[0]);

    @FuzzTest(maxDuration = "10m")
    void anyDatagram(final byte[] datagram)
    {
        // At an offset, so a read before the datagram's start would show as garbage rather than pass unnoticed.
        final byte[] framed = new byte[datagram.length + 16];
        System.arraycopy(datagram, 0, framed, 8, datagram.length);
        buffer.wrap(framed);
        final int offset = 8;
        final int end = offset + datagram.length;

        final int result = decoder.validate(buffer, offset, datagram.length);
        assertTrue(result >= PacketDecoder.OK && result <= PacketDecoder.MALFORMED_NEW_TOKEN, "result " + result);
        if (PacketDecoder.OK != result || PacketType.RETRY == decoder.packetType())
        {
            return;
        }
        for (int type = decoder.firstFrame(buffer, offset, datagram.length);
            PacketDecoder.NO_MORE_FRAMES != type;
            type = decoder.nextFrame())
        {
            if (FrameType.DATA == type)
            {
                final DataFrameFlyweight data = decoder.data();
                assertTrue(data.payloadOffset() >= offset && data.payloadOffset() + data.payloadLength() <= end);
            }
            else if (FrameType.ACK == type)
            {
                final AckFrameFlyweight ack = decoder.ack();
                assertTrue(ack.rangeCount() <= PacketDecoder.MAX_ACK_RANGES);
                assertTrue(ack.offset() + AckFrameFlyweight.frameLength(ack.rangeCount()) <= end);
            }
            else if (FrameType.HANDSHAKE == type)
            {
                final int tokenEnd = decoder.handshake().tokenOffset() + decoder.handshake().tokenLength();
                assertTrue(tokenEnd <= end);
            }
            else if (FrameType.CLOSE == type)
            {
                assertTrue(decoder.close().reasonOffset() + decoder.close().reasonLength() <= end);
            }
            else if (FrameType.ACK_FREQUENCY == type)
            {
                final AckFrequencyFrameFlyweight frame = decoder.ackFrequency();
                assertTrue(frame.offset() + frame.frameLength() <= end);
                assertTrue(frame.sequenceNumber() >= 0 && frame.ackElicitingThreshold() >= 0 &&
                    frame.requestedMaxAckDelayUs() >= 0 && frame.reorderingThreshold() >= 0);
            }
            else if (FrameType.MIN_ACK_DELAY == type)
            {
                assertTrue(decoder.minAckDelay().minAckDelayUs() >= 0);
                assertTrue(decoder.minAckDelay().offset() + decoder.minAckDelay().frameLength() <= end);
            }
        }
    }
}
