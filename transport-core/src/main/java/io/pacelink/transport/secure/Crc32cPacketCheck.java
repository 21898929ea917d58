package io.pacelink.transport.secure;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The integrity check of a plaintext packet (docs/wire-format.md, "Integrity"): a CRC32C (RFC 3720 appendix B.4,
 * the Castagnoli polynomial) over the header and the frames, appended as a 4-byte little-endian trailer. It catches
 * what the UDP checksum lets through — a bit flipped by a NIC that does not verify checksums, or a middlebox that
 * rewrites the datagram and recomputes the checksum — before any frame is acted on. It is no defence against an
 * attacker, who can recompute it; the secure mode's AEAD tag is.
 * <p>
 * {@link CRC32C} is a HotSpot intrinsic; a heap buffer is checked through its array and a direct buffer through a
 * view of its {@link ByteBuffer} made once, so nothing is allocated per packet. Not thread safe: one per agent.
 */
public final class Crc32cPacketCheck
{
    /**
     * Bytes of the trailer.
     */
    public static final int TRAILER_LENGTH = 4;

    private static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    private final CRC32C crc = new CRC32C();
    private ByteBuffer viewedBuffer;
    private ByteBuffer view;

    /**
     * Append the trailer to a packet.
     *
     * @param buffer holding the packet, with {@link #TRAILER_LENGTH} bytes free after it.
     * @param offset of the packet.
     * @param length of the packet without the trailer.
     * @return the length with the trailer.
     */
    public int seal(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        buffer.putInt(offset + length, compute(buffer, offset, length, -1), BYTE_ORDER);
        return length + TRAILER_LENGTH;
    }

    /**
     * Append the trailer to a packet whose payload (its last bytes) lies elsewhere, in direct memory: the CRC32C
     * covers the packet's bytes before the payload, then the payload where it lies, and the trailer is written right
     * after the bytes before the payload, where the datagram's parts are gathered from (a port's {@code sendmmsg}
     * iovecs: those bytes, the payload, the trailer).
     *
     * @param buffer         holding the packet's bytes before its payload, with {@link #TRAILER_LENGTH} bytes free
     *                       after them.
     * @param offset         of the packet.
     * @param prefixLength   bytes of the packet before the payload.
     * @param payload        direct memory holding the payload; the position and limit of its {@link ByteBuffer}
     *                       are this check's to set (nothing else reads them: its users address it by
     *                       {@link DirectBuffer#addressOffset()}).
     * @param payloadIndex   where the payload starts in {@code payload}.
     * @param payloadLength  its length.
     * @return the datagram's length: the packet's, payload included, and the trailer.
     */
    public int sealGathered(
        final MutableDirectBuffer buffer,
        final int offset,
        final int prefixLength,
        final DirectBuffer payload,
        final int payloadIndex,
        final int payloadLength)
    {
        compute(buffer, offset, prefixLength, -1);
        final ByteBuffer region = payload.byteBuffer();
        final int start = payload.wrapAdjustment() + payloadIndex;
        region.limit(start + payloadLength).position(start);
        crc.update(region);
        buffer.putInt(offset + prefixLength, (int)crc.getValue(), BYTE_ORDER);
        return prefixLength + payloadLength + TRAILER_LENGTH;
    }

    /**
     * @param buffer holding the datagram.
     * @param offset of the datagram.
     * @param length of the datagram, trailer included.
     * @return true if the datagram ends in the CRC32C of the bytes before it.
     */
    public boolean isIntact(final DirectBuffer buffer, final int offset, final int length)
    {
        return isIntact(buffer, offset, length, -1);
    }

    /**
     * As {@link #isIntact(DirectBuffer, int, int)}, with the first byte replaced: tells a packet whose version byte
     * was damaged on the way (counted as corrupt) from a packet of another version (refused as such).
     *
     * @param firstByte the value the first byte is taken to have, 0..255.
     */
    public boolean isIntact(final DirectBuffer buffer, final int offset, final int length, final int firstByte)
    {
        if (length < TRAILER_LENGTH + 1)
        {
            return false;
        }
        final int bodyLength = length - TRAILER_LENGTH;
        return compute(buffer, offset, bodyLength, firstByte) == buffer.getInt(offset + bodyLength, BYTE_ORDER);
    }

    private int compute(final DirectBuffer buffer, final int offset, final int length, final int firstByte)
    {
        crc.reset();
        int from = offset;
        int remaining = length;
        if (firstByte >= 0)
        {
            crc.update(firstByte);
            from++;
            remaining--;
        }
        final byte[] array = buffer.byteArray();
        if (null != array)
        {
            crc.update(array, buffer.wrapAdjustment() + from, remaining);
        }
        else
        {
            final ByteBuffer region = view(buffer);
            final int start = buffer.wrapAdjustment() + from;
            region.limit(start + remaining).position(start);
            crc.update(region);
        }
        return (int)crc.getValue();
    }

    private ByteBuffer view(final DirectBuffer buffer)
    {
        final ByteBuffer source = buffer.byteBuffer();
        if (null == source)
        {
            throw new IllegalArgumentException("a buffer over neither an array nor a ByteBuffer");
        }
        if (source != viewedBuffer)
        {
            viewedBuffer = source;
            view = source.duplicate();
        }
        view.clear();
        return view;
    }
}
