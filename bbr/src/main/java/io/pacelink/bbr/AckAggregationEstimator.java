package io.pacelink.bbr;

/**
 * Estimates how much data ACK aggregation delivers beyond what the bandwidth estimate predicts, so cwnd can be
 * provisioned to keep sending through inter-ACK silences (Linux {@code bbr_update_ack_aggregation} and
 * {@code bbr_extra_acked}; draft-ietf-ccwg-bbr {@code BBRUpdateACKAggregation}).
 * <p>
 * An aggregation epoch starts whenever the ACK rate drops to the expected rate; within it,
 * {@code extra = acked since epoch start - bw * (now - epoch start)}, capped at cwnd. The maximum is kept in two
 * buckets of {@code bucketRounds} packet-timed rounds each (Linux: 5, i.e. a max over the last 5-10 rounds), which
 * is cheaper than a full windowed filter and what both Linux BBRv1 and Linux BBRv3 do.
 * <p>
 * Works in bytes; Linux counts packets (and resets the epoch after 2^20 packets: pass
 * {@code 2^20 * max datagram size}).
 */
public final class AckAggregationEstimator
{
    /**
     * Bucket length in packet-timed rounds both Linux BBRv1 and BBRv3 use ({@code bbr_extra_acked_win_rtts}).
     */
    public static final int LINUX_BUCKET_ROUNDS = 5;

    /**
     * Packets after which Linux restarts an aggregation epoch ({@code bbr_ack_epoch_acked_reset_thresh = 2^20}).
     */
    public static final long LINUX_EPOCH_RESET_PACKETS = 1L << 20;

    private final int bucketRounds;
    private final long epochResetThresholdBytes;
    private final long[] extraAckedBytesByBucket = new long[2];

    private int bucketIndex;
    private int roundsInBucket;
    private long epochStartNs;
    private long epochAckedBytes;

    /**
     * @param bucketRounds             rounds per bucket: the maximum covers the last {@code bucketRounds} to
     *                                 {@code 2 * bucketRounds} rounds (Linux {@code bbr_extra_acked_win_rtts = 5}).
     * @param epochResetThresholdBytes restart the epoch once this much was acked in it (Linux
     *                                 {@code bbr_ack_epoch_acked_reset_thresh = 2^20} packets), so a stale epoch
     *                                 does not hide a lower ACK rate.
     * @param nowNs                    start of the first epoch.
     */
    public AckAggregationEstimator(final int bucketRounds, final long epochResetThresholdBytes, final long nowNs)
    {
        if (bucketRounds <= 0 || epochResetThresholdBytes <= 0)
        {
            throw new IllegalArgumentException(
                "bucketRounds and epochResetThresholdBytes must be positive: " + bucketRounds + ", " +
                epochResetThresholdBytes);
        }
        this.bucketRounds = bucketRounds;
        this.epochResetThresholdBytes = epochResetThresholdBytes;
        this.epochStartNs = nowNs;
    }

    /**
     * An estimator with Linux's windows ({@link #LINUX_BUCKET_ROUNDS}, {@link #LINUX_EPOCH_RESET_PACKETS} packets of
     * the given size), its first epoch starting at time 0.
     *
     * @param maxDatagramSizeBytes the maximum datagram size the packet threshold is converted to bytes with.
     * @return a new estimator.
     */
    public static AckAggregationEstimator withLinuxWindows(final int maxDatagramSizeBytes)
    {
        return withBucketRounds(LINUX_BUCKET_ROUNDS, maxDatagramSizeBytes);
    }

    /**
     * An estimator with buckets of the given length and Linux's epoch reset ({@link #LINUX_EPOCH_RESET_PACKETS}
     * packets of the given size), its first epoch starting at time 0.
     *
     * @param bucketRounds         rounds per bucket (BBRplus: 10).
     * @param maxDatagramSizeBytes the maximum datagram size the packet threshold is converted to bytes with.
     * @return a new estimator.
     */
    public static AckAggregationEstimator withBucketRounds(final int bucketRounds, final int maxDatagramSizeBytes)
    {
        return new AckAggregationEstimator(bucketRounds, LINUX_EPOCH_RESET_PACKETS * maxDatagramSizeBytes, 0);
    }

    /**
     * Update with one ACK that newly acknowledged data and carried a valid rate sample.
     *
     * @param nowNs                time the ACK was processed ({@code tp->delivered_mstamp}).
     * @param isRoundStart         true if this ACK started a packet-timed round.
     * @param ackedBytes           bytes newly acknowledged ({@code rs->acked_sacked}).
     * @param bandwidthBytesPerSec the bandwidth estimate the expected delivery is computed from.
     * @param congestionWindowBytes current cwnd: one epoch's excess is capped at it.
     */
    public void onAck(
        final long nowNs,
        final boolean isRoundStart,
        final long ackedBytes,
        final long bandwidthBytesPerSec,
        final long congestionWindowBytes)
    {
        if (isRoundStart && ++roundsInBucket >= bucketRounds)
        {
            roundsInBucket = 0;
            bucketIndex ^= 1;
            extraAckedBytesByBucket[bucketIndex] = 0;
        }

        long expectedBytes = BbrMath.bytesInInterval(bandwidthBytesPerSec, nowNs - epochStartNs);

        // The ACK rate fell to the expected rate (or the epoch is very old): start a new epoch here.
        if (epochAckedBytes <= expectedBytes || epochAckedBytes + ackedBytes >= epochResetThresholdBytes)
        {
            epochAckedBytes = 0;
            epochStartNs = nowNs;
            expectedBytes = 0;
        }

        epochAckedBytes += ackedBytes;
        final long extraBytes = Math.min(epochAckedBytes - expectedBytes, congestionWindowBytes);
        if (extraBytes > extraAckedBytesByBucket[bucketIndex])
        {
            extraAckedBytesByBucket[bucketIndex] = extraBytes;
        }
    }

    /**
     * Start a new epoch now, e.g. on restart from idle (Linux {@code bbr_cwnd_event(CA_EVENT_TX_START)}).
     *
     * @param nowNs the epoch start.
     */
    public void restartEpoch(final long nowNs)
    {
        epochStartNs = nowNs;
        epochAckedBytes = 0;
    }

    /**
     * @return the largest excess seen over the last {@code bucketRounds}..{@code 2 * bucketRounds} rounds.
     */
    public long extraAckedBytes()
    {
        return Math.max(extraAckedBytesByBucket[0], extraAckedBytesByBucket[1]);
    }

    /**
     * The cwnd increment for aggregation (Linux {@code bbr_ack_aggregation_cwnd}): {@code gain * extra_acked},
     * capped at what the bandwidth delivers in {@code maxIntervalNs} (Linux: 100 ms).
     *
     * @param gain                 multiplier ({@code bbr_extra_acked_gain}, 1.0).
     * @param bandwidthBytesPerSec the bandwidth estimate.
     * @param maxIntervalNs        the cap expressed as time at that bandwidth.
     * @return bytes to add to the target cwnd.
     */
    public long cwndCreditBytes(final double gain, final long bandwidthBytesPerSec, final long maxIntervalNs)
    {
        final long capBytes = BbrMath.bytesInInterval(bandwidthBytesPerSec, maxIntervalNs);
        return Math.min((long)(gain * extraAckedBytes()), capBytes);
    }
}
