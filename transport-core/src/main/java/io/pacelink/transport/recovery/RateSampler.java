package io.pacelink.transport.recovery;

/**
 * Delivery-rate estimation (the BBR draft's "Delivery Rate Samples"; Linux {@code net/ipv4/tcp_rate.c}).
 * <p>
 * Connection state: {@code C.delivered}, {@code C.deliveredTime}, {@code C.firstSentTime}, {@code C.appLimited} (the
 * delivered value at which the current application-limited bubble has left the pipe, 0 if none), {@code C.lost} and
 * {@code C.delivered_ce} (delivered bytes the peer reported CE-marked, Linux {@code tp->delivered_ce}, so that a sample
 * also says how much of what it delivered was marked: {@code rs.delivered_ce}).
 * Each sent packet is stamped with copies of them; each ACK picks the most recently sent newly acknowledged packet as
 * the sample's source and measures what was delivered since that packet was sent over the longer of the send and ACK
 * spans, dropping intervals shorter than the minimum RTT (ACK compression would otherwise over-estimate; Linux
 * {@code tcp_rate_gen}).
 * <p>
 * The steps the methods cite, in the draft's order: (1) stamp each packet as it is sent; (2) for each newly
 * acknowledged packet, count it delivered and consider it as the sample's source; (3) once per ACK, generate the
 * sample; (4) the application-limited check, run on application writes, before ACK processing and before timers that
 * may transmit.
 * <p>
 * {@link LossRecovery} drives it: per ACK {@code beginAck}, {@code onPacketDelivered} for each newly acknowledged
 * packet that counts in flight, {@code onPacketLost} for each packet declared lost, then {@code generateSample}; the
 * engine reaches the application-limited check through {@link LossRecovery#onAppLimitedCheck}. Others read it.
 * Allocation-free.
 */
public final class RateSampler
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private long deliveredBytes;
    private long deliveredTimeNs;
    private long firstSentTimeNs;
    private long appLimitedUntilBytes;
    private long lostBytes;
    private long deliveredCeBytes;

    private boolean hasSource;
    private long sourceSentTimeNs;
    private long sourcePacketNumber;
    private long priorDeliveredBytes;
    private long sendElapsedNs;
    private long ackElapsedNs;
    private long sourceTxInFlightBytes;
    private long sourceLostAtSendBytes;
    private long sourceDeliveredCeAtSendBytes;
    private boolean isSourceAppLimited;

    private boolean hasSample;
    private long sampleIntervalNs;
    private long sampleDeliveredBytes;
    private long sampleLostBytes;
    private long sampleDeliveredCeBytes;
    private long deliveryRateBytesPerSecond;

    /**
     * Stamp a packet just added to the ring (step 1). When nothing is in flight the sample clock restarts at this
     * send, so that an interval never includes idle time (Linux checks {@code packets_out}; here bytes in flight,
     * as ngtcp2 and quiche do, because a QUIC packet declared lost is never acknowledged later in the normal case).
     *
     * @param ring                    the ring holding the packet.
     * @param slot                    the packet's slot.
     * @param sentTimeNs              when it was sent.
     * @param bytesInFlightBeforeBytes bytes in flight before it was sent.
     */
    void onPacketSent(
        final SentPacketRing ring, final int slot, final long sentTimeNs, final long bytesInFlightBeforeBytes)
    {
        if (0 == bytesInFlightBeforeBytes)
        {
            firstSentTimeNs = sentTimeNs;
            deliveredTimeNs = sentTimeNs;
        }
        ring.stamp(
            slot,
            deliveredBytes,
            deliveredTimeNs,
            firstSentTimeNs,
            0 != appLimitedUntilBytes,
            bytesInFlightBeforeBytes + ring.sizeBytes(slot),
            lostBytes,
            deliveredCeBytes);
    }

    /**
     * Start processing an ACK frame: forget the previous frame's source.
     */
    void beginAck()
    {
        hasSource = false;
    }

    /**
     * A packet that counts in flight was newly acknowledged (step 2). Also called for a packet acknowledged after it
     * was declared lost: the draft and Linux {@code tcp_rate.c} count spurious retransmissions as delivered.
     *
     * @param ring          the ring holding the packet.
     * @param slot          the packet's slot.
     * @param deliveredAtNs when the ACK arrived (Linux {@code tp->tcp_mstamp}, the draft's {@code Now()} at ACK
     *                      receipt): the kernel's receive time where the port reads it, else when it was processed,
     *                      less the ACK Delay the peer reported (bounded by its max_ack_delay).
     *                      {@code C.deliveredTime} never goes back: an ACK that arrived before a send restarted the
     *                      sample clock counts as delivered at the restart.
     */
    void onPacketDelivered(final SentPacketRing ring, final int slot, final long deliveredAtNs)
    {
        deliveredBytes += ring.sizeBytes(slot);
        deliveredTimeNs = Math.max(deliveredTimeNs, deliveredAtNs);

        final long sentTimeNs = ring.sentTimeNs(slot);
        final long packetNumber = ring.packetNumber(slot);
        if (!hasSource || sentTimeNs > sourceSentTimeNs ||
            (sentTimeNs == sourceSentTimeNs && packetNumber > sourcePacketNumber))
        {
            hasSource = true;
            sourceSentTimeNs = sentTimeNs;
            sourcePacketNumber = packetNumber;
            priorDeliveredBytes = ring.deliveredAtSendBytes(slot);
            isSourceAppLimited = ring.isAppLimitedAtSend(slot);
            sendElapsedNs = sentTimeNs - ring.firstSentTimeAtSendNs(slot);
            ackElapsedNs = deliveredTimeNs - ring.deliveredTimeAtSendNs(slot);
            sourceTxInFlightBytes = ring.txInFlightBytes(slot);
            sourceLostAtSendBytes = ring.lostAtSendBytes(slot);
            sourceDeliveredCeAtSendBytes = ring.deliveredCeAtSendBytes(slot);
            firstSentTimeNs = sentTimeNs;
        }
    }

    /**
     * A packet that counts in flight was declared lost.
     *
     * @param sizeBytes its size.
     */
    void onPacketLost(final int sizeBytes)
    {
        lostBytes += sizeBytes;
    }

    /**
     * The peer reported packets of this ACK frame CE-marked: count their bytes as delivered with a mark (Linux
     * {@code tcp_ecn_rcv_ecn_echo} / AccECN's {@code delivered_ce}). Call after the frame's packets were delivered and
     * before {@link #generateSample}.
     *
     * @param bytes bytes of the newly acknowledged packets that were marked.
     */
    void onCeDelivered(final long bytes)
    {
        deliveredCeBytes += bytes;
    }

    /**
     * Finish the ACK frame (step 3): clear the app-limited mark once the bubble was delivered, then build the sample
     * from the source packet. {@code rs.lost} is taken after the frame's losses were counted, so it covers losses
     * detected with this ACK (ngtcp2 and haproxy compute it the same way).
     *
     * @param minRttNs the connection's minimum RTT, {@link Long#MAX_VALUE} before any RTT sample (Linux starts
     *                 {@code min_rtt} at ~0U, so no sample is valid before an RTT was measured).
     * @return true if the frame produced a valid delivery-rate sample.
     */
    boolean generateSample(final long minRttNs)
    {
        if (0 != appLimitedUntilBytes && deliveredBytes > appLimitedUntilBytes)
        {
            appLimitedUntilBytes = 0;
        }

        hasSample = false;
        deliveryRateBytesPerSecond = 0;
        if (!hasSource)
        {
            sampleIntervalNs = 0;
            sampleDeliveredBytes = 0;
            sampleLostBytes = 0;
            sampleDeliveredCeBytes = 0;
            return false;
        }

        sampleIntervalNs = Math.max(sendElapsedNs, ackElapsedNs);
        sampleDeliveredBytes = deliveredBytes - priorDeliveredBytes;
        sampleLostBytes = lostBytes - sourceLostAtSendBytes;
        sampleDeliveredCeBytes = deliveredCeBytes - sourceDeliveredCeAtSendBytes;

        // An interval shorter than the minimum RTT cannot be a real measurement of the path (Linux tcp_rate_gen).
        if (sampleIntervalNs < minRttNs || sampleIntervalNs <= 0)
        {
            return false;
        }

        hasSample = true;
        deliveryRateBytesPerSecond = bytesPerSecond(sampleDeliveredBytes, sampleIntervalNs);
        return true;
    }

    /**
     * Application-limited detection (step 4, the draft's {@code CheckIfApplicationLimited}). Run it on application
     * writes, at the start of ACK processing and at the start of any timer that may transmit.
     *
     * @param unsentBytes                  bytes the application queued that were never sent.
     * @param maxDatagramSizeBytes         one MSS.
     * @param nothingQueuedBelowTransport  true if no packet waits in the pacer or an unsent batch.
     * @param bytesInFlight                bytes in flight.
     * @param congestionWindowBytes        the controller's window.
     * @param allLostRetransmitted         true if every lost byte was already retransmitted.
     * @return true if the connection was marked application-limited.
     */
    boolean checkAppLimited(
        final long unsentBytes,
        final int maxDatagramSizeBytes,
        final boolean nothingQueuedBelowTransport,
        final long bytesInFlight,
        final long congestionWindowBytes,
        final boolean allLostRetransmitted)
    {
        if (unsentBytes < maxDatagramSizeBytes &&
            nothingQueuedBelowTransport &&
            bytesInFlight < congestionWindowBytes &&
            allLostRetransmitted)
        {
            appLimitedUntilBytes = Math.max(deliveredBytes + bytesInFlight, 1L);
            return true;
        }
        return false;
    }

    private static long bytesPerSecond(final long bytes, final long intervalNs)
    {
        // Exact in integers while bytes * 1e9 fits in a long (up to ~9.2 GB per sample), double beyond.
        if (bytes <= Long.MAX_VALUE / NANOS_PER_SECOND)
        {
            return bytes * NANOS_PER_SECOND / intervalNs;
        }
        return (long)((double)bytes * NANOS_PER_SECOND / intervalNs);
    }

    /**
     * @return {@code C.delivered}: bytes acknowledged over the connection's life.
     */
    public long deliveredBytes()
    {
        return deliveredBytes;
    }

    /**
     * @return {@code C.deliveredTime}.
     */
    public long deliveredTimeNs()
    {
        return deliveredTimeNs;
    }

    /**
     * @return {@code C.firstSentTime}.
     */
    public long firstSentTimeNs()
    {
        return firstSentTimeNs;
    }

    /**
     * @return {@code C.lost}: bytes ever declared lost.
     */
    public long lostBytes()
    {
        return lostBytes;
    }

    /**
     * @return {@code C.delivered_ce}: delivered bytes the peer reported CE-marked.
     */
    public long deliveredCeBytes()
    {
        return deliveredCeBytes;
    }

    /**
     * @return {@code rs.delivered_ce} of the last frame with a source: of its delivered bytes, those marked CE.
     */
    public long sampleDeliveredCeBytes()
    {
        return sampleDeliveredCeBytes;
    }

    /**
     * @return {@code C.appLimited}: the delivered value at which the app-limited mark clears, 0 if not marked.
     */
    public long appLimitedUntilBytes()
    {
        return appLimitedUntilBytes;
    }

    /**
     * @return true while the connection is marked application-limited.
     */
    public boolean isAppLimited()
    {
        return 0 != appLimitedUntilBytes;
    }

    /**
     * @return true if the last frame had a source packet (even if its interval was then rejected).
     */
    public boolean hasSampleSource()
    {
        return hasSource;
    }

    /**
     * @return true if the last frame produced a valid sample.
     */
    public boolean hasSample()
    {
        return hasSample;
    }

    /**
     * @return the last sample's rate in bytes per second, 0 without a valid sample.
     */
    public long deliveryRateBytesPerSecond()
    {
        return deliveryRateBytesPerSecond;
    }

    /**
     * @return {@code rs.interval} of the last frame with a source.
     */
    public long sampleIntervalNs()
    {
        return sampleIntervalNs;
    }

    /**
     * @return {@code rs.delivered} of the last frame with a source.
     */
    public long sampleDeliveredBytes()
    {
        return sampleDeliveredBytes;
    }

    /**
     * @return {@code rs.lost} of the last frame with a source.
     */
    public long sampleLostBytes()
    {
        return sampleLostBytes;
    }

    /**
     * @return {@code rs.prior_delivered}: {@code C.delivered} when the source was sent.
     */
    public long samplePriorDeliveredBytes()
    {
        return hasSource ? priorDeliveredBytes : 0;
    }

    /**
     * @return {@code rs.tx_in_flight}: bytes in flight when the source was sent, including it.
     */
    public long sampleTxInFlightBytes()
    {
        return hasSource ? sourceTxInFlightBytes : 0;
    }

    /**
     * @return true if the source was sent while application-limited.
     */
    public boolean isSampleAppLimited()
    {
        return hasSource && isSourceAppLimited;
    }
}
