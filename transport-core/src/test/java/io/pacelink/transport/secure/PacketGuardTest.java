package io.pacelink.transport.secure;

import io.pacelink.transport.port.SendBatch;
import io.pacelink.transport.testing.AllocationMeter;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PacketGuardTest
{
    private static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.1", 4000);
    private static final int PAYLOAD_BYTES = 1000;

    private final SendBatch batch = new SendBatch(8, 8 * 1500);
    private final PacketWriter writer = new PacketWriter();
    private final CountersManager counters = new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)), new UnsafeBuffer(ByteBuffer.allocateDirect(8 * 1024)));
    private final AtomicCounter keyUpdates = counters.newCounter("key updates");

    /**
     * Assemble a ONE_RTT packet where the guard says, for the batch's next datagram, seal it and commit it.
     *
     * @return the offset of the datagram in the batch.
     */
    private int sendThrough(final PacketGuard guard, final long packetNumber)
    {
        final int datagramOffset = batch.nextOffset();
        final MutableDirectBuffer assembly = guard.assemblyBuffer(batch.buffer());
        final int assemblyOffset = guard.assemblyOffset(datagramOffset);
        writer.wrap(assembly, assemblyOffset, 1472 - guard.trailerLength());
        writer.writeHeader(PacketType.ONE_RTT, 0x42, packetNumber);
        writer.appendPadding(PAYLOAD_BYTES);
        assembly.putLong(assemblyOffset + PacketHeaderFlyweight.HEADER_LENGTH + 100, packetNumber * 31);
        final int length = guard.seal(batch.buffer(), datagramOffset, writer.length());
        assertEquals(writer.length() + guard.trailerLength(), length);
        batch.commit(length, PEER, 0);
        return datagramOffset;
    }

    @Test
    void theCrc32cIsWrittenInPlaceInTheBatchAndCheckedInPlace()
    {
        final Crc32cGuard guard = new Crc32cGuard();
        sendThrough(guard, 1);
        final int offset = sendThrough(guard, 2);
        assertSame(batch.buffer(), guard.assemblyBuffer(batch.buffer()), "assembled where the datagram lies");

        assertEquals(batch.length(1) - Crc32cPacketCheck.TRAILER_LENGTH,
            guard.open(batch.buffer(), offset, batch.length(1)));
        assertSame(batch.buffer(), guard.openedBuffer());
        assertEquals(offset, guard.openedOffset(), "the packet stays where it is");
        assertEquals(2 * 31, batch.buffer().getLong(offset + PacketHeaderFlyweight.HEADER_LENGTH + 100));

        batch.buffer().putByte(offset + 500, (byte)(batch.buffer().getByte(offset + 500) ^ 1));
        assertEquals(-1, guard.open(batch.buffer(), offset, batch.length(1)), "a flipped bit fails");
        assertFalse(guard.isIntegrityLimitReached(), "a CRC32C has no integrity limit");
    }

    /**
     * A packet whose payload stays in direct memory elsewhere (a send log's segment): the trailer follows the bytes
     * before the payload in the batch, and is the CRC32C of the whole packet — the datagram put together from its
     * parts is the datagram sealed whole, and it opens. Many segments in turn allocate nothing.
     */
    @Test
    void aGatheredPacketsTrailerIsTheCrc32cOfTheWholePacketAndAllocatesNothing()
    {
        final Crc32cGuard guard = new Crc32cGuard();
        final UnsafeBuffer[] segments = new UnsafeBuffer[4];
        for (int i = 0; i < segments.length; i++)
        {
            segments[i] = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
        }
        final UnsafeBuffer whole = new UnsafeBuffer(new byte[1500]);
        final int prefixLength = 37;
        final int payloadLength = 1000;
        final Runnable sealBoth = () ->
        {
            batch.clear();
            for (int i = 0; i < 8; i++)
            {
                final UnsafeBuffer segment = segments[i & 3];
                final int payloadIndex = 100 * i + 3;
                final int offset = batch.nextOffset();
                for (int b = 0; b < prefixLength; b++)
                {
                    batch.buffer().putByte(offset + b, (byte)(b * 13 + i));
                    whole.putByte(b, (byte)(b * 13 + i));
                }
                for (int b = 0; b < payloadLength; b++)
                {
                    segment.putByte(payloadIndex + b, (byte)(b * 7 + i));
                    whole.putByte(prefixLength + b, (byte)(b * 7 + i));
                }
                final int length = guard.sealGathered(
                    batch.buffer(), offset, prefixLength, segment, payloadIndex, payloadLength);
                if (length != prefixLength + payloadLength + Crc32cPacketCheck.TRAILER_LENGTH ||
                    whole.capacity() < length)
                {
                    throw new AssertionError("length " + length);
                }
                whole.putInt(prefixLength + payloadLength, batch.buffer().getInt(offset + prefixLength));
                if (guard.open(whole, 0, length) != length - Crc32cPacketCheck.TRAILER_LENGTH)
                {
                    throw new AssertionError("datagram " + i + " did not open");
                }
                batch.commitGathered(prefixLength + Crc32cPacketCheck.TRAILER_LENGTH, prefixLength, segment,
                    payloadIndex, payloadLength, PEER, 0);
            }
        };
        sealBoth.run();
        whole.putByte(prefixLength + 5, (byte)(whole.getByte(prefixLength + 5) ^ 1));
        assertEquals(-1, guard.open(whole, 0, prefixLength + payloadLength + Crc32cPacketCheck.TRAILER_LENGTH),
            "a flipped payload bit fails");
        for (int i = 0; i < 20_000; i++)
        {
            sealBoth.run();
        }
        AllocationMeter.assertAllocationFree("gathered packets sealed", () ->
        {
            for (int i = 0; i < 5_000; i++)
            {
                sealBoth.run();
            }
        });
    }

    @Test
    void theCrc32cPathAllocatesNothing()
    {
        final Crc32cGuard guard = new Crc32cGuard();
        final Runnable roundTrip = () ->
        {
            batch.clear();
            for (int i = 0; i < 8; i++)
            {
                final int offset = sendThrough(guard, i);
                if (guard.open(batch.buffer(), offset, batch.length(i)) < 0)
                {
                    throw new AssertionError("did not open");
                }
            }
        };
        for (int i = 0; i < 20_000; i++)
        {
            roundTrip.run();
        }
        AllocationMeter.assertAllocationFree("10,000 batches sealed and checked", () ->
        {
            for (int i = 0; i < 10_000; i++)
            {
                roundTrip.run();
            }
        });
    }

    @ParameterizedTest
    @EnumSource(AeadAlgorithm.class)
    void anAeadDatagramIsSealedFromTheStagingArrayIntoTheBatchAndOpensAtThePeer(final AeadAlgorithm algorithm)
    {
        final byte[] a = new byte[32];
        final byte[] b = new byte[32];
        a[0] = 1;
        b[0] = 2;
        final AeadGuard sender = new AeadGuard(
            new PacketProtection(algorithm, a, b, 3), new AeadGuard.Buffers(2048), keyUpdates);
        final AeadGuard receiver = new AeadGuard(
            new PacketProtection(algorithm, b, a, 3), new AeadGuard.Buffers(2048), keyUpdates);
        assertEquals(PacketProtection.TRAILER_LENGTH, sender.trailerLength());
        assertNotSame(batch.buffer(), sender.assemblyBuffer(batch.buffer()), "assembled in an array");
        assertEquals(0, sender.assemblyOffset(1234));

        for (int packetNumber = 0; packetNumber < 8; packetNumber++)
        {
            final int offset = sendThrough(sender, packetNumber);
            assertEquals(PAYLOAD_BYTES + PacketHeaderFlyweight.HEADER_LENGTH,
                receiver.open(batch.buffer(), offset, batch.length(packetNumber)));
            assertEquals(packetNumber * 31L, receiver.openedBuffer().getLong(
                receiver.openedOffset() + PacketHeaderFlyweight.HEADER_LENGTH + 100));
            sender.protection().onLargestAcknowledged(packetNumber);
            sender.protection().permitKeyUpdate();
        }
        // Three packets per key, but one update until the peer's answer and an acknowledgement (RFC 9001 section 6.5):
        // the sender initiated one, the receiver answered it.
        assertEquals(2, keyUpdates.get(), "the sender's update and the receiver's answer");
        assertEquals(1, sender.protection().keyUpdates());
        assertEquals(1, receiver.protection().keyUpdates());

        final int offset = batch.offset(7);
        batch.buffer().putByte(offset + 300, (byte)(batch.buffer().getByte(offset + 300) ^ 1));
        assertEquals(-1, receiver.open(batch.buffer(), offset, batch.length(7)), "a flipped bit fails the tag");
        assertEquals(1, receiver.protection().authenticationFailures());
        assertTrue(receiver.open(batch.buffer(), offset, 1 << 20) < 0, "longer than the arrays: fails, no copy");
    }
}
