package io.pacelink.transport.ack;

import io.pacelink.transport.testing.AllocationMeter;
import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.CloseFrameFlyweight;
import io.pacelink.transport.wire.DataFrameFlyweight;
import io.pacelink.transport.wire.FrameVisitor;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-packet path of this layer (build a packet with an ACK and DATA, validate it, visit it, track it and write
 * the next ACK) allocates nothing once warmed up, measured with the JVM's per-thread allocation counter.
 */
class SteadyStateAllocationTest
{
    private static final int WARM_UP_PACKETS = 50_000;
    private static final int MEASURED_PACKETS = 20_000;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1_500]);
    private final PacketWriter writer = new PacketWriter();
    private final PacketDecoder decoder = new PacketDecoder();
    private final ReceivedPacketTracker tracker = new ReceivedPacketTracker();
    private final SummingVisitor visitor = new SummingVisitor();

    private long packetNumber;

    @Test
    void perPacketPathAllocatesNothing()
    {
        for (int i = 0; i < WARM_UP_PACKETS; i++)
        {
            packetNumber = exchange(packetNumber);
        }

        AllocationMeter.assertAllocationFree("build, validate, track and visit " + MEASURED_PACKETS + " packets", () ->
        {
            for (int i = 0; i < MEASURED_PACKETS; i++)
            {
                packetNumber = exchange(packetNumber);
            }
        });
        assertTrue(visitor.payloadBytes > 0, "the loop did real work");
    }

    /**
     * One packet: skip every 7th packet number so the ACK carries ranges, build, validate, track, visit.
     */
    private long exchange(final long packetNumber)
    {
        final long sentNumber = packetNumber % 7 == 6 ? packetNumber + 1 : packetNumber;
        final long nowNs = sentNumber * 10_000L;

        writer.wrap(buffer, 0, buffer.capacity());
        writer.writeHeader(PacketType.ONE_RTT, 99, sentNumber);
        tracker.writeAckFrame(writer, nowNs);
        final int payloadLength = Math.min(writer.maxDataPayloadLength(), 1_000);
        final int payloadOffset = writer.appendDataHeader(0, sentNumber * 1_000, false, payloadLength);
        buffer.setMemory(payloadOffset, payloadLength, (byte)1);
        final int length = writer.length();

        if (PacketDecoder.OK != decoder.validate(buffer, 0, length))
        {
            throw new IllegalStateException(PacketDecoder.describe(decoder.validate(buffer, 0, length)));
        }
        if (tracker.onPacketReceived(decoder.packetNumber(), decoder.isAckEliciting(), nowNs))
        {
            decoder.visitFrames(buffer, 0, length, visitor);
        }
        return sentNumber + 1;
    }

    private static final class SummingVisitor implements FrameVisitor
    {
        private long payloadBytes;
        private long largestAcked;

        public void onAck(final AckFrameFlyweight ack)
        {
            largestAcked = ack.largestAcked();
        }

        public void onData(final DataFrameFlyweight data)
        {
            payloadBytes += data.payloadLength();
        }

        public void onMaxData(final long maximumDataBytes)
        {
        }

        public void onMaxStreamData(final int streamId, final long maximumStreamDataBytes)
        {
        }

        public void onHandshake(final HandshakeFrameFlyweight handshake)
        {
        }

        public void onClose(final CloseFrameFlyweight close)
        {
        }

        public void onPing()
        {
        }

        public void onUnknownFrame(final int frameType)
        {
        }
    }
}
