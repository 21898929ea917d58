package io.pacelink.transport.wire;

/**
 * Packet types carried in the packet header (docs/wire-format.md). Plain {@code int} constants rather than an enum so
 * the receive path switches on a primitive.
 */
public final class PacketType
{
    /**
     * Connection set-up: carries a HANDSHAKE frame (and may carry ACK, PADDING).
     */
    public static final int HANDSHAKE = 1;

    /**
     * An established connection's data packet.
     */
    public static final int ONE_RTT = 2;

    /**
     * Orderly close: carries a CLOSE frame.
     */
    public static final int CLOSE = 3;

    /**
     * Abortive reset of a connection the receiver does not know.
     */
    public static final int RESET = 4;

    private PacketType()
    {
    }

    /**
     * @param packetType a packet type value.
     * @return true if the value is one this version of the wire format defines.
     */
    public static boolean isKnown(final int packetType)
    {
        return packetType >= HANDSHAKE && packetType <= RESET;
    }

    /**
     * @param packetType a packet type value.
     * @return its name for diagnostics, or {@code "UNKNOWN"}.
     */
    public static String name(final int packetType)
    {
        switch (packetType)
        {
            case HANDSHAKE:
                return "HANDSHAKE";
            case ONE_RTT:
                return "ONE_RTT";
            case CLOSE:
                return "CLOSE";
            case RESET:
                return "RESET";
            default:
                return "UNKNOWN";
        }
    }
}
