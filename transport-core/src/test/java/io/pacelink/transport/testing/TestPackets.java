package io.pacelink.transport.testing;

import io.pacelink.transport.secure.Crc32cPacketCheck;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Hand-made plaintext packets as an endpoint of wire version 3 expects them: the bytes a test wrote, then their
 * CRC32C trailer (docs/wire-format.md, "Integrity").
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
}
