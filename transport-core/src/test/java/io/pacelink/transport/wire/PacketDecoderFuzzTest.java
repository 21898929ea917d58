package io.pacelink.transport.wire;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;

import static io.pacelink.transport.wire.FrameHeaderFlyweight.FRAME_HEADER_LENGTH;
import static io.pacelink.transport.wire.PacketHeaderFlyweight.HEADER_LENGTH;
import static io.pacelink.transport.wire.WireFlyweight.BYTE_ORDER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Seeded property test: random valid packets always validate and round trip; random and bit-flipped mutations of them
 * never make {@link PacketDecoder#validate} throw, and whenever it answers OK, visiting the frames (reading every
 * field and every payload, token and reason byte) stays inside the datagram. Each datagram is copied into a buffer of
 * exactly its length, so any read past its end throws from Agrona's bounds checks and fails the test.
 */
class PacketDecoderFuzzTest
{
    private static final long SEED = 0x5EED_9000L;
    private static final int ITERATIONS = 20_000;
    private static final int MAX_DATAGRAM_BYTES = 1_500;
    private static final int[] SPECIAL_INTS =
        {0, 1, -1, 8, 20, 64, 65, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x7FFF_FFF0, 1_000};
    private static final long[] SPECIAL_LONGS = {0, -1, 1, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 3};

    private final Random random = new Random(SEED);
    private final UnsafeBuffer original = new UnsafeBuffer(new byte[MAX_DATAGRAM_BYTES]);
    private final byte[] mutated = new byte[MAX_DATAGRAM_BYTES + 200];
    private final int[] frameOffsets = new int[16];
    private final PacketWriter writer = new PacketWriter();
    private final PacketDecoder decoder = new PacketDecoder();
    private final RecordingFrameVisitor visitor = new RecordingFrameVisitor();
    private final UnsafeBuffer token = new UnsafeBuffer(new byte[256]);

    @Test
    void mutatedPacketsNeverThrowAndAcceptedOnesStayInBounds()
    {
        random.nextBytes(token.byteArray());
        final int[] resultCounts = new int[PacketDecoder.MALFORMED_ACK_FREQUENCY + 1];

        for (int iteration = 0; iteration < ITERATIONS; iteration++)
        {
            final int frameCount = buildRandomValidPacket();
            final int originalLength = writer.length();
            assertValidAndVisitable(original.byteArray(), originalLength, iteration, "original");

            original.getBytes(0, mutated, 0, originalLength);
            final int length = mutate(originalLength, frameCount);
            final int result = validateAndVisit(mutated, length, iteration);
            resultCounts[result]++;
        }

        // The fuzzer must reach both sides and every rejection a datagram's content can cause, or it proves little.
        assertTrue(resultCounts[PacketDecoder.OK] > ITERATIONS / 20, "accepted " + resultCounts[PacketDecoder.OK]);
        for (int code = PacketDecoder.TRUNCATED_HEADER; code <= PacketDecoder.MALFORMED_CONSUMED; code++)
        {
            assertTrue(resultCounts[code] > 0, PacketDecoder.describe(code) + " never reached");
        }
        assertTrue(resultCounts[PacketDecoder.MALFORMED_ACK_FREQUENCY] > 0, "MALFORMED_ACK_FREQUENCY never reached");
    }

    @Test
    void randomBytesNeverThrow()
    {
        final byte[] datagram = new byte[MAX_DATAGRAM_BYTES];
        for (int iteration = 0; iteration < ITERATIONS; iteration++)
        {
            final int length = random.nextInt(200);
            random.nextBytes(datagram);
            if (random.nextBoolean())
            {
                // A plausible header, so the frame parser gets exercised.
                datagram[PacketHeaderFlyweight.VERSION_OFFSET] = (byte)PacketHeaderFlyweight.CURRENT_VERSION;
                datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET] = (byte)(1 + random.nextInt(4));
                datagram[PacketHeaderFlyweight.PACKET_NUMBER_OFFSET + 7] = 0;
            }
            validateAndVisit(datagram, length, iteration);
        }
    }

    private int buildRandomValidPacket()
    {
        writer.wrap(original, 0, HEADER_LENGTH + random.nextInt(MAX_DATAGRAM_BYTES - HEADER_LENGTH + 1));
        if (!writer.writeHeader(1 + random.nextInt(4), random.nextLong(), random.nextLong() & Long.MAX_VALUE))
        {
            throw new IllegalStateException("capacity below header");
        }
        final int frames = 1 + random.nextInt(6);
        int written = 0;
        for (int i = 0; i < frames && written < frameOffsets.length; i++)
        {
            final int frameOffset = writer.length();
            if (appendRandomFrame())
            {
                frameOffsets[written++] = frameOffset;
            }
        }
        if (0 == written)
        {
            writer.wrap(original, 0, MAX_DATAGRAM_BYTES).writeHeader(PacketType.ONE_RTT, 1, 1);
            writer.appendPing();
            frameOffsets[written++] = HEADER_LENGTH;
        }
        return written;
    }

    private boolean appendRandomFrame()
    {
        switch (random.nextInt(15))
        {
            case 0:
                return writer.appendPing();

            case 1:
                return appendRandomAck();

            case 2:
            {
                final int payloadLength = Math.min(writer.maxDataPayloadLength(), random.nextInt(300));
                final boolean fin = 0 == payloadLength || random.nextBoolean();
                final int payloadOffset = writer.appendDataHeader(
                    random.nextInt(Integer.MAX_VALUE), random.nextLong() >>> 2, fin, payloadLength);
                if (payloadOffset < 0)
                {
                    return false;
                }
                writer.buffer().putBytes(payloadOffset, token, 0, Math.min(payloadLength, token.capacity()));
                return true;
            }

            case 3:
                return writer.appendMaxData(random.nextLong() & Long.MAX_VALUE);

            case 4:
                return writer.appendMaxStreamData(
                    random.nextInt(Integer.MAX_VALUE), random.nextLong() & Long.MAX_VALUE);

            case 5:
                return writer.appendHandshake(
                    random.nextLong(), random.nextBoolean(), 1 + random.nextInt(65_507), random.nextInt(100_000),
                    random.nextInt(600_000), random.nextLong() & Long.MAX_VALUE, random.nextLong() & Long.MAX_VALUE,
                    token, 0, random.nextInt(80));

            case 6:
                return writer.appendClose(random.nextInt(), token, 0, random.nextInt(60));

            case 7:
                return writer.appendPadding(FRAME_HEADER_LENGTH + random.nextInt(40));

            case 8:
                return writer.appendCongestionControl("cc-" + "x".repeat(random.nextInt(29)));

            case 9:
            {
                final long position = random.nextLong() >>> 2;
                return writer.appendConsumed(random.nextInt(Integer.MAX_VALUE), position, position / 4 >>> 3);
            }

            case 10:
            {
                final byte[] message = new byte[NoiseFrameFlyweight.MIN_MESSAGE_LENGTH + random.nextInt(60)];
                random.nextBytes(message);
                return writer.appendNoise(1 + random.nextInt(2), 1 + random.nextInt(2), message) >= 0;
            }

            case 11:
                return writer.appendAckFrequency(random.nextLong() & Long.MAX_VALUE, random.nextInt(Integer.MAX_VALUE),
                    random.nextInt(Integer.MAX_VALUE), random.nextInt(3));

            case 12:
                return writer.appendImmediateAck();

            case 13:
                return writer.appendMinAckDelay(random.nextInt(Integer.MAX_VALUE));

            default:
            {
                // An unknown frame type, which the decoder must skip.
                final int frameOffset = writer.length();
                if (!writer.appendPadding(FRAME_HEADER_LENGTH + random.nextInt(40)))
                {
                    return false;
                }
                original.putByte(frameOffset, (byte)(FrameType.NEW_TOKEN + 1 + random.nextInt(239)));
                return true;
            }
        }
    }

    private boolean appendRandomAck()
    {
        final long largest = random.nextInt(4) == 0 ? random.nextInt(100) : random.nextLong() >>> 8;
        final int firstRange = (int)Math.min(largest, random.nextInt(50));
        long smallest = largest - firstRange;
        final int wanted = random.nextInt(PacketDecoder.MAX_ACK_RANGES + 1);
        final int[] gaps = new int[wanted];
        final int[] lengths = new int[wanted];
        int count = 0;
        while (count < wanted)
        {
            final int gap = random.nextInt(20);
            final int rangeLength = random.nextInt(20);
            final long rangeLargest = AckFrameFlyweight.nextRangeLargest(smallest, gap);
            if (rangeLargest - rangeLength < 0)
            {
                break;
            }
            gaps[count] = gap;
            lengths[count] = rangeLength;
            smallest = rangeLargest - rangeLength;
            count++;
        }
        final int frameOffset = writer.appendAck(largest, random.nextInt(Integer.MAX_VALUE), firstRange, count);
        if (frameOffset < 0)
        {
            return false;
        }
        final AckFrameFlyweight ack = new AckFrameFlyweight();
        ack.wrap(writer.buffer(), frameOffset);
        for (int i = 0; i < count; i++)
        {
            ack.range(i, gaps[i], lengths[i]);
        }
        return true;
    }

    private int mutate(final int originalLength, final int frameCount)
    {
        final UnsafeBuffer view = new UnsafeBuffer(mutated);
        int length = originalLength;
        final int mutations = 1 + random.nextInt(4);
        for (int i = 0; i < mutations; i++)
        {
            switch (random.nextInt(7))
            {
                case 0:
                {
                    final int bit = random.nextInt(length * 8);
                    mutated[bit >> 3] ^= (byte)(1 << (bit & 7));
                    break;
                }

                case 1:
                    mutated[random.nextInt(length)] = (byte)random.nextInt(256);
                    break;

                case 2:
                {
                    // A special value on a 4-byte field boundary of a frame: lengths, counts, sizes.
                    final int position = frameOffsets[random.nextInt(frameCount)] + 4 * random.nextInt(14);
                    if (position + 4 <= length)
                    {
                        view.putInt(position, SPECIAL_INTS[random.nextInt(SPECIAL_INTS.length)], BYTE_ORDER);
                    }
                    break;
                }

                case 3:
                {
                    final int position = frameOffsets[random.nextInt(frameCount)] + 8 + 4 * random.nextInt(12);
                    if (position + 8 <= length)
                    {
                        view.putLong(position, SPECIAL_LONGS[random.nextInt(SPECIAL_LONGS.length)], BYTE_ORDER);
                    }
                    break;
                }

                case 4:
                    length = random.nextInt(length + 1);
                    break;

                case 5:
                {
                    final int extra = 1 + random.nextInt(Math.min(40, mutated.length - length));
                    for (int j = 0; j < extra; j++)
                    {
                        mutated[length + j] = (byte)random.nextInt(256);
                    }
                    length += extra;
                    break;
                }

                default:
                    // Change a frame's type, so one frame's body is read as another's.
                    mutated[frameOffsets[random.nextInt(frameCount)]] =
                        (byte)random.nextInt(FrameType.MIN_ACK_DELAY + 1);
                    break;
            }
            if (0 == length)
            {
                break;
            }
        }
        return length;
    }

    private void assertValidAndVisitable(final byte[] bytes, final int length, final int iteration, final String what)
    {
        assertEquals(
            PacketDecoder.OK, validateAndVisit(bytes, length, iteration),
            () -> what + " rejected at iteration " + iteration + ": " + HexFormat.of().formatHex(bytes, 0, length));
    }

    private int validateAndVisit(final byte[] bytes, final int length, final int iteration)
    {
        final UnsafeBuffer exact = new UnsafeBuffer(Arrays.copyOf(bytes, length));
        int result = -1;
        try
        {
            result = decoder.validate(exact, 0, length);
            if (PacketDecoder.OK == result)
            {
                visitor.clear();
                decoder.visitFrames(exact, 0, length, visitor);
                for (final Object frame : visitor.frames())
                {
                    if (frame instanceof RecordingFrameVisitor.Ack)
                    {
                        assertRangesDescendFromLargestToNonNegative((RecordingFrameVisitor.Ack)frame);
                    }
                }
            }
        }
        catch (final RuntimeException ex)
        {
            fail("seed " + SEED + " iteration " + iteration + " result " + PacketDecoder.describe(result) +
                " datagram " + HexFormat.of().formatHex(bytes, 0, length), ex);
        }
        return result;
    }

    private static void assertRangesDescendFromLargestToNonNegative(final RecordingFrameVisitor.Ack ack)
    {
        long previousSmallest = -1;
        for (final String range : ack.ranges())
        {
            final int dots = range.indexOf("..");
            final long smallest = Long.parseLong(range.substring(0, dots));
            final long largest = Long.parseLong(range.substring(dots + 2));
            final boolean belowPrevious = -1 == previousSmallest ?
                largest == ack.largestAcked() : largest < previousSmallest - 1;
            assertTrue(0 <= smallest && smallest <= largest && belowPrevious, ack.toString());
            previousSmallest = smallest;
        }
    }
}
