package io.pacelink.transport.wire;

/**
 * Flyweight over the 20-byte packet header that starts every datagram (docs/wire-format.md, "Packet header").
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |  Version (8)  | Packet Type(8)|           Flags (16)          |
 * +---------------+---------------+-------------------------------+
 * |                  Destination Connection Id (64)               |
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                       Packet Number (64)                      |
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                        Frames ...                             |
 * </pre>
 * Packet numbers start at 0 and grow by one for every packet sent, probes and retransmissions included; they are
 * never reused (RFC 9000 section 12.3).
 */
public final class PacketHeaderFlyweight extends WireFlyweight
{
    /**
     * The wire format version this code speaks. Version 2 added address validation (the RETRY packet and its token)
     * and the 1200-byte floor for hellos; version 3 an integrity check on every packet (a CRC32C trailer, or the
     * secure mode's AEAD tag), the NOISE frame and the header flags below; version 4 the ECN counts an ACK frame may
     * carry ({@link AckFrameFlyweight#FLAG_ECN}) and the server's stateless reset token in its handshake answer,
     * covered by the secure handshake's transcript. A hello of another version is refused (docs/wire-format.md,
     * "Versions").
     */
    public static final int CURRENT_VERSION = 4;

    /**
     * The first version whose packets end in an integrity trailer: a refusal to a client of this version or later
     * carries one, or the client would drop it as corrupt.
     */
    public static final int FIRST_VERSION_WITH_TRAILER = 3;

    /**
     * Flag: the packet is sealed by the secure mode's AEAD (its frames are ciphertext, a 16-byte tag ends it);
     * without it a CRC32C trailer ends the packet.
     */
    public static final int FLAG_SEALED = 0x1;

    /**
     * Flag: the key phase of a sealed packet, flipped at every key update (RFC 9001 section 6).
     */
    public static final int FLAG_KEY_PHASE = 0x2;

    /**
     * Offset of the version (unsigned 8 bits).
     */
    public static final int VERSION_OFFSET = 0;

    /**
     * Offset of the packet type (unsigned 8 bits, {@link PacketType}).
     */
    public static final int PACKET_TYPE_OFFSET = 1;

    /**
     * Offset of the flags (unsigned 16 bits: {@link #FLAG_SEALED}, {@link #FLAG_KEY_PHASE}; others sent as zero and
     * ignored on receipt).
     */
    public static final int FLAGS_OFFSET = 2;

    /**
     * Offset of the destination connection id (64 bits).
     */
    public static final int DESTINATION_CONNECTION_ID_OFFSET = 4;

    /**
     * Offset of the packet number (64 bits).
     */
    public static final int PACKET_NUMBER_OFFSET = 12;

    /**
     * Length of the header; the first frame starts here.
     */
    public static final int HEADER_LENGTH = 20;

    /**
     * @return the wire format version.
     */
    public int version()
    {
        return buffer().getByte(offset() + VERSION_OFFSET) & 0xFF;
    }

    /**
     * @param version the wire format version.
     * @return this.
     */
    public PacketHeaderFlyweight version(final int version)
    {
        mutableBuffer().putByte(offset() + VERSION_OFFSET, (byte)version);
        return this;
    }

    /**
     * @return the {@link PacketType}.
     */
    public int packetType()
    {
        return buffer().getByte(offset() + PACKET_TYPE_OFFSET) & 0xFF;
    }

    /**
     * @param packetType the {@link PacketType}.
     * @return this.
     */
    public PacketHeaderFlyweight packetType(final int packetType)
    {
        mutableBuffer().putByte(offset() + PACKET_TYPE_OFFSET, (byte)packetType);
        return this;
    }

    /**
     * @return the flags.
     */
    public int flags()
    {
        return buffer().getShort(offset() + FLAGS_OFFSET, BYTE_ORDER) & 0xFFFF;
    }

    /**
     * @param flags the flags.
     * @return this.
     */
    public PacketHeaderFlyweight flags(final int flags)
    {
        mutableBuffer().putShort(offset() + FLAGS_OFFSET, (short)flags, BYTE_ORDER);
        return this;
    }

    /**
     * @return the connection id the receiver chose for this connection.
     */
    public long destinationConnectionId()
    {
        return buffer().getLong(offset() + DESTINATION_CONNECTION_ID_OFFSET, BYTE_ORDER);
    }

    /**
     * @param connectionId the connection id the receiver chose for this connection.
     * @return this.
     */
    public PacketHeaderFlyweight destinationConnectionId(final long connectionId)
    {
        mutableBuffer().putLong(offset() + DESTINATION_CONNECTION_ID_OFFSET, connectionId, BYTE_ORDER);
        return this;
    }

    /**
     * @return the packet number.
     */
    public long packetNumber()
    {
        return buffer().getLong(offset() + PACKET_NUMBER_OFFSET, BYTE_ORDER);
    }

    /**
     * @param packetNumber the packet number.
     * @return this.
     */
    public PacketHeaderFlyweight packetNumber(final long packetNumber)
    {
        mutableBuffer().putLong(offset() + PACKET_NUMBER_OFFSET, packetNumber, BYTE_ORDER);
        return this;
    }
}
