package io.pacelink.transport.secure;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The plaintext packet's guard: a {@link Crc32cPacketCheck} trailer, written in place after the packet wherever it was
 * assembled (the send batch's direct buffer) and checked in place in the receive buffer. Sealing and checking each
 * have their own check, so each keeps the view of its one direct buffer it made once, and none is made per packet.
 * One per endpoint; not thread safe.
 */
public final class Crc32cGuard implements PacketGuard
{
    private final Crc32cPacketCheck sealing = new Crc32cPacketCheck();
    private final Crc32cPacketCheck checking = new Crc32cPacketCheck();
    private DirectBuffer openedBuffer;
    private int openedOffset;

    /**
     * {@inheritDoc}
     */
    public int trailerLength()
    {
        return Crc32cPacketCheck.TRAILER_LENGTH;
    }

    /**
     * {@inheritDoc}
     *
     * @return {@code datagramBuffer}: the trailer is written in place.
     */
    public MutableDirectBuffer assemblyBuffer(final MutableDirectBuffer datagramBuffer)
    {
        return datagramBuffer;
    }

    /**
     * {@inheritDoc}
     */
    public int assemblyOffset(final int datagramOffset)
    {
        return datagramOffset;
    }

    /**
     * {@inheritDoc}
     */
    public int seal(final MutableDirectBuffer datagramBuffer, final int datagramOffset, final int packetLength)
    {
        return sealing.seal(datagramBuffer, datagramOffset, packetLength);
    }

    /**
     * Seal a packet whose payload, its last bytes, is sent from where it lies
     * ({@link Crc32cPacketCheck#sealGathered}); the trailer follows the bytes before the payload in the datagram's
     * buffer.
     *
     * @return the datagram's length, payload included.
     */
    public int sealGathered(
        final MutableDirectBuffer datagramBuffer,
        final int datagramOffset,
        final int prefixLength,
        final DirectBuffer payload,
        final int payloadIndex,
        final int payloadLength)
    {
        return sealing.sealGathered(datagramBuffer, datagramOffset, prefixLength, payload, payloadIndex, payloadLength);
    }

    /**
     * {@inheritDoc}
     * <p>
     * The packet stays where it is.
     */
    public int open(final DirectBuffer buffer, final int offset, final int length)
    {
        if (!checking.isIntact(buffer, offset, length))
        {
            return -1;
        }
        openedBuffer = buffer;
        openedOffset = offset;
        return length - Crc32cPacketCheck.TRAILER_LENGTH;
    }

    /**
     * {@inheritDoc}
     */
    public DirectBuffer openedBuffer()
    {
        return openedBuffer;
    }

    /**
     * {@inheritDoc}
     */
    public int openedOffset()
    {
        return openedOffset;
    }

    /**
     * @param buffer holding the datagram.
     * @param offset of the datagram.
     * @param length of the datagram, trailer included.
     * @return true if it ends in the CRC32C of the bytes before it, without opening it.
     */
    public boolean isIntact(final DirectBuffer buffer, final int offset, final int length)
    {
        return checking.isIntact(buffer, offset, length);
    }

    /**
     * As {@link #isIntact(DirectBuffer, int, int)}, with the first byte taken to be {@code firstByte}: tells a packet
     * whose version byte was damaged on the way from a packet of another version
     * ({@link Crc32cPacketCheck#isIntact(DirectBuffer, int, int, int)}).
     */
    public boolean isIntact(final DirectBuffer buffer, final int offset, final int length, final int firstByte)
    {
        return checking.isIntact(buffer, offset, length, firstByte);
    }
}
