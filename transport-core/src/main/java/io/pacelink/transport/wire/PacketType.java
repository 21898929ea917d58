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

    /**
     * The server's stateless answer to a hello without a valid address-validation token: carries a token, no frames
     * ({@link RetryPacketFlyweight}, RFC 9000 section 8.1.2).
     */
    public static final int RETRY = 5;

    private PacketType()
    {
    }

    /**
     * @param packetType a packet type value.
     * @return true if the value is one this version of the wire format defines.
     */
    public static boolean isKnown(final int packetType)
    {
        return packetType >= HANDSHAKE && packetType <= RETRY;
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
            case RETRY:
                return "RETRY";
            default:
                return "UNKNOWN";
        }
    }
}
