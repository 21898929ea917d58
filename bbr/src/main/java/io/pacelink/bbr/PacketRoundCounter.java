package io.pacelink.bbr;

/**
 * Packet-timed round trips (Linux {@code bbr_update_bw}, draft-ietf-ccwg-bbr {@code BBRUpdateRound}). A round ends when
 * a packet sent after the previous round ended is acknowledged: the ACK's sample source was sent when
 * {@code C.delivered} had reached the delivered count recorded at the previous round start.
 * <p>
 * All counts are bytes of the transport's 64-bit {@code C.delivered} (a 32-bit count would wrap after 4 GiB).
 */
public final class PacketRoundCounter
{
    private long nextRoundDeliveredBytes;
    private long roundCount;
    private boolean isRoundStart;

    /**
     * Check whether this ACK starts a new round and, if so, count it. Call once per ACK that carries a sample
     * source (BBRv1: only with a valid rate sample, as Linux returns early otherwise).
     *
     * @param samplePriorDeliveredBytes   {@code C.delivered} when the sample's source packet was sent.
     * @param totalDeliveredBytes         {@code C.delivered} now.
     * @return true if a new round started with this ACK.
     */
    public boolean onAck(final long samplePriorDeliveredBytes, final long totalDeliveredBytes)
    {
        isRoundStart = samplePriorDeliveredBytes >= nextRoundDeliveredBytes;
        if (isRoundStart)
        {
            nextRoundDeliveredBytes = totalDeliveredBytes;
            roundCount++;
        }
        return isRoundStart;
    }

    /**
     * Mark this ACK as not starting a round (Linux clears {@code round_start} before validating the sample).
     */
    public void clearRoundStart()
    {
        isRoundStart = false;
    }

    /**
     * Start a new round now: the round ends when a packet sent from now on is acknowledged (Linux sets
     * {@code next_rtt_delivered = tp->delivered} on entering recovery and when PROBE_RTT reaches its inflight floor).
     *
     * @param totalDeliveredBytes {@code C.delivered} now.
     */
    public void startRound(final long totalDeliveredBytes)
    {
        nextRoundDeliveredBytes = totalDeliveredBytes;
    }

    /**
     * @return true if the last {@link #onAck} started a round.
     */
    public boolean isRoundStart()
    {
        return isRoundStart;
    }

    /**
     * @return rounds counted so far ({@code rtt_cnt}).
     */
    public long roundCount()
    {
        return roundCount;
    }

    /**
     * @return the {@code C.delivered} value a sample's source must have reached to end the current round.
     */
    public long nextRoundDeliveredBytes()
    {
        return nextRoundDeliveredBytes;
    }
}
