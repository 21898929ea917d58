package io.pacelink.transport.testing;

import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.Random;

/**
 * Hand-made plaintext packets as an endpoint of the current wire version expects them: the bytes a test wrote, then
 * their CRC32C trailer (docs/wire-format.md, "Integrity"); and datagrams shaped like packets for the stateless reset
 * tests.
 */
public final class TestPackets
{
    private TestPackets()
    {
    }

    /**
     * @param buffer holding a packet from offset 0.
     * @param length of the packet.
     * @return a new datagram: the packet and its CRC32C.
     */
    public static byte[] withCrc(final DirectBuffer buffer, final int length)
    {
        final byte[] datagram = new byte[length + Crc32cPacketCheck.TRAILER_LENGTH];
        buffer.getBytes(0, datagram, 0, length);
        new Crc32cPacketCheck().seal(new UnsafeBuffer(datagram), 0, length);
        return datagram;
    }

    /**
     * @param packet a packet without its trailer.
     * @return a new datagram: the packet and its CRC32C.
     */
    public static byte[] withCrc(final byte[] packet)
    {
        return withCrc(new UnsafeBuffer(packet), packet.length);
    }

    /**
     * @param datagram a datagram with its trailer.
     * @return the packet without it.
     */
    public static byte[] withoutCrc(final byte[] datagram)
    {
        return Arrays.copyOf(datagram, datagram.length - Crc32cPacketCheck.TRAILER_LENGTH);
    }

    /**
     * @param haystack bytes, e.g. a datagram captured on the wire.
     * @param needle   bytes to look for, e.g. a payload that must not travel in the clear.
     * @return where the needle first starts in the haystack, or -1.
     */
    public static int indexOf(final byte[] haystack, final byte[] needle)
    {
        for (int i = 0; i + needle.length <= haystack.length; i++)
        {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param length       the datagram's length, any.
     * @param connectionId its destination connection id (written where it fits).
     * @return random bytes shaped like a sealed ONE_RTT packet of this version to the connection id: what a stateless
     * reset answers.
     */
    public static byte[] sealedLooking(final int length, final long connectionId)
    {
        final byte[] datagram = new byte[Math.max(length, PacketHeaderFlyweight.PACKET_NUMBER_OFFSET)];
        new Random(length).nextBytes(datagram);
        final UnsafeBuffer buffer = new UnsafeBuffer(datagram);
        buffer.putByte(PacketHeaderFlyweight.VERSION_OFFSET, (byte)PacketHeaderFlyweight.CURRENT_VERSION);
        buffer.putByte(PacketHeaderFlyweight.PACKET_TYPE_OFFSET, (byte)PacketType.ONE_RTT);
        buffer.putShort(PacketHeaderFlyweight.FLAGS_OFFSET, (short)PacketHeaderFlyweight.FLAG_SEALED,
            PacketHeaderFlyweight.BYTE_ORDER);
        buffer.putLong(PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET, connectionId,
            PacketHeaderFlyweight.BYTE_ORDER);
        return Arrays.copyOf(datagram, length);
    }

    /**
     * @param length the datagram's length, at least the token's.
     * @param token  the bytes it ends in.
     * @return random bytes shaped like a plaintext ONE_RTT packet of this version ending in the token: a stateless
     * reset, genuine or forged.
     */
    public static byte[] endingIn(final int length, final byte[] token)
    {
        final byte[] datagram = new byte[length];
        new Random(-length).nextBytes(datagram);
        datagram[PacketHeaderFlyweight.VERSION_OFFSET] = (byte)PacketHeaderFlyweight.CURRENT_VERSION;
        datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET] = (byte)PacketType.ONE_RTT;
        datagram[PacketHeaderFlyweight.FLAGS_OFFSET] = 0;
        System.arraycopy(token, 0, datagram, length - token.length, token.length);
        return datagram;
    }
}
