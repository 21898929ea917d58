package io.pacelink.transport.cc;

/**
 * Read-only view of one packet newly declared lost, with the rate-sampler stamp written when it was sent
 * (draft-ietf-ccwg-bbr "Delivery Rate Samples"). Reused by the transport: valid only during
 * {@link CongestionController#onPacketLost(LostPacket)}.
 */
public interface LostPacket
{
    /**
     * @return the time the loss was detected.
     */
    long nowNs();

    /**
     * @return the lost packet's number.
     */
    long packetNumber();

    /**
     * @return the lost packet's size in bytes.
     */
    int sizeBytes();

    /**
     * @return when the lost packet was sent.
     */
    long sentTimeNs();

    /**
     * @return {@code C.delivered} when the packet was sent.
     */
    long deliveredAtSendBytes();

    /**
     * @return bytes in flight when the packet was sent, including it.
     */
    long txInFlightBytes();

    /**
     * @return {@code C.lost} when the packet was sent.
     */
    long lostAtSendBytes();

    /**
     * @return true if the packet was sent while the connection was application-limited.
     */
    boolean isAppLimited();

    /**
     * @return total bytes ever declared lost, including this packet ({@code C.lost}).
     */
    long totalLostBytes();

    /**
     * @return total bytes delivered so far ({@code C.delivered}).
     */
    long totalDeliveredBytes();

    /**
     * @return bytes in flight after this packet was removed.
     */
    long bytesInFlight();
}
