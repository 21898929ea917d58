package io.pacelink.bbr.v1;

import io.pacelink.bbr.BbrMath;

/**
 * BBRv1's long-term ("LT") bandwidth estimator, which detects token-bucket policers (Linux {@code bbr_lt_bw_sampling},
 * {@code bbr_lt_bw_interval_done}).
 * <p>
 * Sampling starts at the first loss (so the policer has exhausted its tokens). An interval lasts at least 4 and at
 * most 16 packet-timed rounds and ends at a loss; it is lossy if lost/delivered is at least 50/256 (about 20 %).
 * Two consecutive lossy intervals whose delivery rates differ by at most 1/8 (or 4 kbit/s) mean we are policed:
 * the controller then uses their average as its bandwidth, with pacing gain 1, for 48 rounds of PROBE_BW.
 * <p>
 * Linux counts packets and stamps intervals in milliseconds; this class counts bytes and nanoseconds (an interval
 * shorter than 1 ms is still not used, as in Linux).
 */
public final class LongTermBandwidthSampler
{
    /**
     * Minimum rounds in a sampling interval ({@code bbr_lt_intvl_min_rtts}).
     */
    public static final int MIN_INTERVAL_ROUNDS = 4;

    /**
     * An interval longer than this many rounds is abandoned ({@code 4 * bbr_lt_intvl_min_rtts}).
     */
    public static final int MAX_INTERVAL_ROUNDS = 4 * MIN_INTERVAL_ROUNDS;

    /**
     * Lossy if {@code lost / delivered >= 50 / 256} ({@code bbr_lt_loss_thresh}).
     */
    public static final double LOSS_THRESHOLD = 50.0 / 256.0;

    /**
     * Two intervals are consistent if their rates differ by at most this fraction ({@code bbr_lt_bw_ratio}).
     */
    public static final double CONSISTENT_RATIO = 1.0 / 8.0;

    /**
     * ... or by at most 4 kbit/s ({@code bbr_lt_bw_diff = 4000 / 8} bytes per second).
     */
    public static final long CONSISTENT_DIFF_BYTES_PER_SECOND = 4000 / 8;

    /**
     * Rounds of PROBE_BW for which the long-term rate is used ({@code bbr_lt_bw_max_rtts}).
     */
    public static final int MAX_USE_ROUNDS = 48;

    private static final long MIN_INTERVAL_NS = 1_000_000L;

    private final double pacingMarginFactor;

    private boolean isSampling;
    private boolean isInUse;
    private long engagements;
    private long bandwidthBytesPerSecond;
    private int rounds;
    private long intervalStartDeliveredBytes;
    private long intervalStartLostBytes;
    private long intervalStartNs;

    /**
     * @param pacingMarginFactor {@code 1 - margin}: Linux compares the 4 kbit/s difference after converting it with
     *                           {@code bbr_rate_bytes_per_sec}, which applies the pacing margin.
     */
    public LongTermBandwidthSampler(final double pacingMarginFactor)
    {
        this.pacingMarginFactor = pacingMarginFactor;
    }

    /**
     * Feed one valid rate sample ({@code bbr_lt_bw_sampling}).
     *
     * @param isProbeBw           true if the controller is in PROBE_BW.
     * @param isRoundStart        true if this ACK started a packet-timed round.
     * @param hasLosses           true if packets were newly declared lost with this ACK ({@code rs->losses}).
     * @param isAppLimited        true if the sample is application-limited.
     * @param totalDeliveredBytes {@code C.delivered}.
     * @param totalLostBytes      {@code C.lost}.
     * @param deliveredTimeNs     when {@code C.delivered} last changed ({@code tp->delivered_mstamp}).
     * @return true if the long-term rate was just abandoned after {@link #MAX_USE_ROUNDS}: the controller restarts
     * gain cycling ({@code bbr_reset_probe_bw_mode}).
     */
    public boolean onSample(
        final boolean isProbeBw,
        final boolean isRoundStart,
        final boolean hasLosses,
        final boolean isAppLimited,
        final long totalDeliveredBytes,
        final long totalLostBytes,
        final long deliveredTimeNs)
    {
        if (isInUse)
        {
            if (isProbeBw && isRoundStart && ++rounds >= MAX_USE_ROUNDS)
            {
                reset(totalDeliveredBytes, totalLostBytes, deliveredTimeNs);
                return true;
            }
            return false;
        }

        // Wait for the first loss: the policer's tokens are then exhausted and what follows is its steady rate.
        if (!isSampling)
        {
            if (!hasLosses)
            {
                return false;
            }
            startInterval(totalDeliveredBytes, totalLostBytes, deliveredTimeNs);
            isSampling = true;
        }

        // Running out of data would under-estimate the policed rate.
        if (isAppLimited)
        {
            reset(totalDeliveredBytes, totalLostBytes, deliveredTimeNs);
            return false;
        }

        if (isRoundStart)
        {
            rounds++;
        }
        if (rounds < MIN_INTERVAL_ROUNDS)
        {
            return false;
        }
        if (rounds > MAX_INTERVAL_ROUNDS)
        {
            reset(totalDeliveredBytes, totalLostBytes, deliveredTimeNs);
            return false;
        }

        // End the interval at a loss, when the tokens are surely exhausted.
        if (!hasLosses)
        {
            return false;
        }

        final long lostBytes = totalLostBytes - intervalStartLostBytes;
        final long deliveredBytes = totalDeliveredBytes - intervalStartDeliveredBytes;
        if (deliveredBytes <= 0 || lostBytes < LOSS_THRESHOLD * deliveredBytes)
        {
            return false;
        }

        final long intervalNs = deliveredTimeNs - intervalStartNs;
        if (intervalNs < MIN_INTERVAL_NS)
        {
            return false;
        }

        onIntervalDone(
            BbrMath.rateBytesPerSecond(deliveredBytes, intervalNs), totalDeliveredBytes, totalLostBytes,
            deliveredTimeNs);
        return false;
    }

    /**
     * Completely reset long-term sampling ({@code bbr_reset_lt_bw_sampling}), e.g. on undo.
     *
     * @param totalDeliveredBytes {@code C.delivered}.
     * @param totalLostBytes      {@code C.lost}.
     * @param deliveredTimeNs     when {@code C.delivered} last changed.
     */
    public void reset(final long totalDeliveredBytes, final long totalLostBytes, final long deliveredTimeNs)
    {
        bandwidthBytesPerSecond = 0;
        isInUse = false;
        isSampling = false;
        startInterval(totalDeliveredBytes, totalLostBytes, deliveredTimeNs);
    }

    /**
     * @return true if the controller should use {@link #bandwidthBytesPerSecond()} ({@code lt_use_bw}).
     */
    public boolean isInUse()
    {
        return isInUse;
    }

    /**
     * @return how often the long-term rate has been put in use, over the connection's life.
     */
    public long engagements()
    {
        return engagements;
    }

    /**
     * @return the long-term rate ({@code lt_bw}); 0 before the first lossy interval.
     */
    public long bandwidthBytesPerSecond()
    {
        return bandwidthBytesPerSecond;
    }

    /**
     * @return rounds in the current interval, or rounds of use while in use ({@code lt_rtt_cnt}).
     */
    public int rounds()
    {
        return rounds;
    }

    private void onIntervalDone(
        final long intervalBytesPerSecond,
        final long totalDeliveredBytes,
        final long totalLostBytes,
        final long deliveredTimeNs)
    {
        if (bandwidthBytesPerSecond > 0)
        {
            final long diff = Math.abs(intervalBytesPerSecond - bandwidthBytesPerSecond);
            if (diff <= CONSISTENT_RATIO * bandwidthBytesPerSecond ||
                diff * pacingMarginFactor <= CONSISTENT_DIFF_BYTES_PER_SECOND)
            {
                // Two consistent lossy intervals: we are policed; use their average.
                bandwidthBytesPerSecond = (intervalBytesPerSecond + bandwidthBytesPerSecond) / 2;
                isInUse = true;
                engagements++;
                rounds = 0;
                return;
            }
        }
        bandwidthBytesPerSecond = intervalBytesPerSecond;
        startInterval(totalDeliveredBytes, totalLostBytes, deliveredTimeNs);
    }

    private void startInterval(final long totalDeliveredBytes, final long totalLostBytes, final long deliveredTimeNs)
    {
        intervalStartDeliveredBytes = totalDeliveredBytes;
        intervalStartLostBytes = totalLostBytes;
        intervalStartNs = deliveredTimeNs;
        rounds = 0;
    }
}
