package io.pacelink.transport.cc;

/**
 * Read-only view of one processed ACK frame together with the delivery-rate sample it produced (draft-ietf-ccwg-bbr
 * "Delivery Rate Samples", Linux {@code net/ipv4/tcp_rate.c}). The transport reuses one instance: values are valid only
 * during {@link CongestionController#onAck(AckEvent)}.
 */
public interface AckEvent
{
    /**
     * @return the time the ACK was processed.
     */
    long nowNs();

    /**
     * @return bytes newly acknowledged by this frame (packets that count towards bytes in flight).
     */
    long newlyAckedBytes();

    /**
     * @return bytes newly declared lost while processing this frame.
     */
    long newlyLostBytes();

    /**
     * @return bytes in flight before this frame was processed.
     */
    long priorBytesInFlightBytes();

    /**
     * @return bytes in flight after acknowledged and lost packets were removed.
     */
    long bytesInFlight();

    /**
     * @return number of the largest packet this frame newly acknowledged, or -1 if none. HyStart++ delimits its rounds
     * by packet number: a round ends when a packet sent after it began is acknowledged (RFC 9406 section 4.2).
     */
    long largestAckedPacketNumber();

    /**
     * @return RTT of the newest packet acknowledged by this frame (what BBR uses), or -1 if none was newly acked.
     */
    long latestRttNs();

    /**
     * @return true if the connection was limited by the congestion window since the last ACK (RFC 7661 / RFC 9002
     * section 7.8): window controllers grow only then.
     */
    boolean isCwndLimited();

    /**
     * @return true if this frame ended the connection's recovery period: it newly acknowledged a packet sent after
     * the period began (RFC 9002 section 7.3.2). Started by the {@link CongestionEvent} whose
     * {@link CongestionEvent#startsRecovery()} was true; a window controller does not grow during the period, nor on
     * the frame that ends it.
     */
    boolean endsRecovery();

    /**
     * @return true if this frame newly acknowledged the oldest packet still in flight before it: the acknowledged
     * prefix of the connection's packets advanced, which is what TCP's {@code snd_una} advancing says (Linux
     * {@code FLAG_SND_UNA_ADVANCED}); false when it acknowledged only packets beyond a hole. Proportional Rate
     * Reduction lets the window grow a datagram more on such a frame.
     */
    boolean acknowledgesOldestInFlight();

    /**
     * @return total bytes delivered over the connection's life (the rate sampler's {@code C.delivered}).
     */
    long totalDeliveredBytes();

    /**
     * @return total bytes ever declared lost.
     */
    long totalLostBytes();

    /**
     * @return true if this frame produced a valid delivery-rate sample.
     */
    boolean hasRateSample();

    /**
     * @return the sample's delivery rate in bytes per second; 0 without a sample.
     */
    long deliveryRateBytesPerSecond();

    /**
     * @return bytes delivered over the sample interval ({@code rs.delivered}).
     */
    long sampleDeliveredBytes();

    /**
     * @return the sample interval, the longer of the send and ACK spans ({@code rs.interval}).
     */
    long sampleIntervalNs();

    /**
     * @return {@code C.delivered} when the sample's source packet was sent ({@code rs.prior_delivered}); used for
     * packet-timed rounds (draft-ietf-ccwg-bbr {@code BBRUpdateRound}).
     */
    long samplePriorDeliveredBytes();

    /**
     * @return bytes in flight when the sample's source packet was sent, including it ({@code rs.tx_in_flight}).
     */
    long sampleTxInFlightBytes();

    /**
     * @return bytes lost between the source packet's send and this ACK ({@code rs.lost}).
     */
    long sampleLostBytes();

    /**
     * @return true if the sample's source packet was sent while the connection was application-limited.
     */
    boolean isSampleAppLimited();

    /**
     * @return true once ECN validation (RFC 9000 section 13.4.2) found the path and the peer to carry and report marks
     * correctly: the CE figures below are then trustworthy, and every packet is sent ECN-capable. Linux BBRv3 reads
     * ECN only on such a path ({@code bbr_can_use_ecn}).
     */
    default boolean isEcnCapable()
    {
        return false;
    }

    /**
     * @return packets this frame newly reported CE-marked: the validated increase of the peer's ECN-CE count
     * (RFC 9000 section 13.4.2.1); 0 without ECN, or while validation failed.
     */
    default long newlyEcnCePackets()
    {
        return 0;
    }

    /**
     * @return bytes of this frame's newly acknowledged packets the peer reported CE-marked (estimated from the count:
     * the frame's mean packet size times the newly marked packets, at most its newly acknowledged bytes).
     */
    default long newlyEcnCeBytes()
    {
        return 0;
    }

    /**
     * @return total delivered bytes reported CE-marked over the connection's life ({@code C.delivered_ce}, Linux
     * {@code tp->delivered_ce}).
     */
    default long totalDeliveredCeBytes()
    {
        return 0;
    }

    /**
     * @return of {@link #sampleDeliveredBytes()}, the bytes reported CE-marked ({@code rs.delivered_ce}).
     */
    default long sampleDeliveredCeBytes()
    {
        return 0;
    }
}
