package io.pacelink.perf;

import io.pacelink.perf.wire.ChecksumFrameVisitor;
import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Cost of the wire path of one packet, on direct buffers as the NIO port uses:
 * <ul>
 *     <li>{@link #buildDataPacket()}: a full 1200-byte ONE_RTT packet, header, an ACK frame (0 to 4 additional
 *     ranges, the shape cycling through 16 seeded variants) and a DATA frame filling the rest, payload copied in;</li>
 *     <li>{@link #decodeDataPacket()}: validate such a packet and visit its frames (every ACK range and the DATA
 *     header read), cycling through 16 pre-built packets;</li>
 *     <li>{@link #receiveAndWriteAck()}: the receiver records one arriving packet number in a
 *     {@link ReceivedPacketTracker} and writes an ACK frame into a new packet. Arrivals follow a seeded pattern with
 *     0.2 % gaps (losses) and 0.2 % swapped neighbours (reordering); since lost numbers never arrive, the tracker
 *     holds its cap of 32 ranges in steady state and every ACK carries 31 additional ranges.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = { BenchmarkJvm.ADD_EXPORTS_MISC, BenchmarkJvm.ADD_OPENS_MISC })
@State(Scope.Thread)
public class WireBenchmark
{
    /**
     * Size of every datagram (RFC 9000's minimum max datagram size, the transport's default).
     */
    public static final int MAX_DATAGRAM_BYTES = 1200;

    /**
     * Pre-built packets {@link #decodeDataPacket()} cycles through, one per ACK shape.
     */
    public static final int DECODED_PACKETS = 16;

    private static final int SHAPE_COUNT = DECODED_PACKETS;
    private static final int SHAPE_MASK = SHAPE_COUNT - 1;
    private static final int MAX_ADDITIONAL_RANGES = 4;
    private static final int ARRIVAL_PATTERN_LENGTH = 4096;
    private static final double ARRIVAL_GAP_PROBABILITY = 0.002;
    private static final double ARRIVAL_SWAP_PROBABILITY = 0.002;
    private static final long CONNECTION_ID = 0x5eed_cafe_f00dL;
    private static final int STREAM_ID = 1;
    private static final long PACKET_INTERVAL_NS = 10_000L;
    private static final long SEED = 42;

    private final PacketWriter writer = new PacketWriter();
    private final AckFrameFlyweight ackFrame = new AckFrameFlyweight();
    private final PacketDecoder decoder = new PacketDecoder();
    private final ChecksumFrameVisitor visitor = new ChecksumFrameVisitor();
    private final ReceivedPacketTracker tracker = new ReceivedPacketTracker();

    private final int[] shapeAdditionalRanges = new int[SHAPE_COUNT];
    private final int[] shapeFirstRange = new int[SHAPE_COUNT];
    private final int[][] shapeGaps = new int[SHAPE_COUNT][MAX_ADDITIONAL_RANGES];
    private final int[][] shapeRangeLengths = new int[SHAPE_COUNT][MAX_ADDITIONAL_RANGES];
    private final int[] decodeLengths = new int[SHAPE_COUNT];
    private final long[] arrivalOffsets = new long[ARRIVAL_PATTERN_LENGTH];

    private UnsafeBuffer sendBuffer;
    private UnsafeBuffer payload;
    private UnsafeBuffer decodeBuffer;
    private UnsafeBuffer ackBuffer;

    private long packetNumber = 1_000_000;
    private long streamOffset;
    private int decodeIndex;
    private int arrivalIndex;
    private long arrivalPatternSpan;
    private long arrivalBase;
    private long ackPacketNumber;
    private long nowNs = 1_000_000_000L;

    /**
     * Buffers, ACK shapes, the packets to decode and the arrival pattern.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        sendBuffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MAX_DATAGRAM_BYTES, 64));
        ackBuffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MAX_DATAGRAM_BYTES, 64));
        payload = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MAX_DATAGRAM_BYTES, 64));
        decodeBuffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(SHAPE_COUNT * MAX_DATAGRAM_BYTES, 64));

        final SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < MAX_DATAGRAM_BYTES; i++)
        {
            payload.putByte(i, (byte)random.nextInt(256));
        }
        for (int shape = 0; shape < SHAPE_COUNT; shape++)
        {
            shapeAdditionalRanges[shape] = random.nextInt(MAX_ADDITIONAL_RANGES + 1);
            shapeFirstRange[shape] = random.nextInt(32);
            for (int r = 0; r < MAX_ADDITIONAL_RANGES; r++)
            {
                shapeGaps[shape][r] = random.nextInt(4);
                shapeRangeLengths[shape][r] = random.nextInt(24);
            }
        }
        for (int i = 0; i < SHAPE_COUNT; i++)
        {
            decodeLengths[i] = buildPacket(decodeBuffer, i * MAX_DATAGRAM_BYTES);
        }

        long next = 0;
        for (int i = 0; i < ARRIVAL_PATTERN_LENGTH; i++)
        {
            if (random.nextDouble() < ARRIVAL_GAP_PROBABILITY)
            {
                next++;
            }
            arrivalOffsets[i] = next++;
            if (i > 0 && random.nextDouble() < ARRIVAL_SWAP_PROBABILITY && arrivalOffsets[i - 1] == next - 2)
            {
                arrivalOffsets[i - 1] = next - 1;
                arrivalOffsets[i] = next - 2;
            }
        }
        arrivalPatternSpan = next;
    }

    /**
     * @return the packet's length.
     */
    @Benchmark
    public int buildDataPacket()
    {
        return buildPacket(sendBuffer, 0);
    }

    /**
     * @return the checksum of the frames read (and the validation result in the low bits).
     */
    @Benchmark
    public long decodeDataPacket()
    {
        final int index = decodeIndex;
        decodeIndex = (index + 1) & SHAPE_MASK;
        final int offset = index * MAX_DATAGRAM_BYTES;
        final int length = decodeLengths[index];
        final int result = decoder.validate(decodeBuffer, offset, length);
        if (PacketDecoder.OK == result)
        {
            decoder.visitFrames(decodeBuffer, offset, length, visitor);
        }
        return visitor.checksum() + result;
    }

    /**
     * @return bytes of the ACK frame written.
     */
    @Benchmark
    public int receiveAndWriteAck()
    {
        final long receivedPacketNumber = arrivalBase + arrivalOffsets[arrivalIndex];
        if (++arrivalIndex == ARRIVAL_PATTERN_LENGTH)
        {
            arrivalIndex = 0;
            arrivalBase += arrivalPatternSpan;
        }
        nowNs += PACKET_INTERVAL_NS;
        tracker.onPacketReceived(receivedPacketNumber, true, nowNs);

        writer.wrap(ackBuffer, 0, MAX_DATAGRAM_BYTES);
        writer.writeHeader(PacketType.ONE_RTT, CONNECTION_ID, ackPacketNumber++);
        return tracker.writeAckFrame(writer, nowNs);
    }

    /**
     * @return the tracker of {@link #receiveAndWriteAck()} (for tests).
     */
    ReceivedPacketTracker tracker()
    {
        return tracker;
    }

    /**
     * @return the buffer holding the packets {@link #decodeDataPacket()} decodes, one per
     * {@link #MAX_DATAGRAM_BYTES} (for tests).
     */
    UnsafeBuffer decodeBuffer()
    {
        return decodeBuffer;
    }

    /**
     * @param index a pre-built packet.
     * @return its length (for tests).
     */
    int decodeLength(final int index)
    {
        return decodeLengths[index];
    }

    private int buildPacket(final UnsafeBuffer buffer, final int offset)
    {
        final long number = packetNumber++;
        final int shape = (int)number & SHAPE_MASK;
        final int additionalRanges = shapeAdditionalRanges[shape];
        final int[] gaps = shapeGaps[shape];
        final int[] rangeLengths = shapeRangeLengths[shape];

        writer.wrap(buffer, offset, MAX_DATAGRAM_BYTES);
        writer.writeHeader(PacketType.ONE_RTT, CONNECTION_ID, number);

        final int ackOffset = writer.appendAck(number - 3, 250, shapeFirstRange[shape], additionalRanges);
        ackFrame.wrap(buffer, ackOffset);
        for (int i = 0; i < additionalRanges; i++)
        {
            ackFrame.range(i, gaps[i], rangeLengths[i]);
        }

        final int payloadLength = writer.maxDataPayloadLength();
        final int payloadOffset = writer.appendDataHeader(STREAM_ID, streamOffset, false, payloadLength);
        buffer.putBytes(payloadOffset, payload, 0, payloadLength);
        streamOffset += payloadLength;
        return writer.length();
    }
}
