package io.pacelink.transport.secure;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What protects a packet on the wire and checks it on arrival: the CRC32C trailer of a plaintext packet
 * ({@link Crc32cGuard}, docs/wire-format.md, "Integrity"), or the AEAD of a keyed secure connection
 * ({@link AeadGuard}, docs/security.md, "Secure mode").
 * <p>
 * Sending: the packet is assembled where the guard says — {@link #assemblyBuffer} at {@link #assemblyOffset}, given
 * where its datagram is to lie — with {@link #trailerLength()} bytes left free, then {@link #seal} leaves the datagram
 * at that place: a guard that seals in place has the packet assembled right there, one that cannot (the JDK's AEAD
 * allocates on direct buffers) has it assembled in a staging buffer of its own and copies the sealed datagram once.
 * Receiving: {@link #open} checks (and decrypts) a datagram and leaves the packet at {@link #openedBuffer()}
 * and {@link #openedOffset()}.
 * <p>
 * Agent thread only; nothing is allocated per packet beyond what the JDK's AEAD allocates itself.
 */
public interface PacketGuard
{
    /**
     * @return bytes the guard adds to a packet: the CRC32C or the AEAD tag.
     */
    int trailerLength();

    /**
     * @param datagramBuffer where the sealed datagram is to lie.
     * @return where to assemble the packet: {@code datagramBuffer} itself, or the guard's staging buffer.
     */
    MutableDirectBuffer assemblyBuffer(MutableDirectBuffer datagramBuffer);

    /**
     * @param datagramOffset where the sealed datagram is to start in its buffer.
     * @return where the packet starts in {@link #assemblyBuffer}.
     */
    int assemblyOffset(int datagramOffset);

    /**
     * Seal a packet assembled at {@link #assemblyBuffer} and {@link #assemblyOffset} into the datagram at
     * {@code datagramOffset} of {@code datagramBuffer}, which has room for the packet and the trailer.
     *
     * @param datagramBuffer where the datagram lies.
     * @param datagramOffset where it starts.
     * @param packetLength   the packet's length without the trailer.
     * @return the datagram's length: {@code packetLength + trailerLength()}.
     */
    int seal(MutableDirectBuffer datagramBuffer, int datagramOffset, int packetLength);

    /**
     * Check a datagram and, secure, decrypt it; the packet is then at {@link #openedBuffer()} and
     * {@link #openedOffset()}.
     *
     * @param buffer holding the datagram.
     * @param offset of the datagram.
     * @param length of the datagram, trailer included.
     * @return the packet's length without the trailer, or -1 if the datagram failed the check (it must be dropped).
     */
    int open(DirectBuffer buffer, int offset, int length);

    /**
     * @return the buffer holding the packet the last successful {@link #open} left.
     */
    DirectBuffer openedBuffer();

    /**
     * @return where that packet starts.
     */
    int openedOffset();

    /**
     * @return true once more datagrams failed to open than the guard's integrity limit allows: the connection must
     * close (RFC 9001 section 6.6); never for a CRC32C, which is no defence against an attacker.
     */
    default boolean isIntegrityLimitReached()
    {
        return false;
    }
}
