package io.pacelink.bbr;

/**
 * Whether Startup filled the pipe, as every BBR judges it (Linux {@code bbr_check_full_bw_reached}, draft
 * {@code BBRCheckFullBWReached}): a bandwidth that has not grown by 25 % over three packet-timed rounds. BBRv1 and
 * BBRv2 alpha feed it max_bw at each round start until the pipe is full; BBRv3 feeds it each round's delivery-rate
 * sample and also uses its plateau ({@link #isFullNow()}) to end ProbeBW_UP.
 */
public final class FullPipeEstimator
{
    private boolean isReached;
    private boolean isFullNow;
    private long baselineBytesPerSecond;
    private int roundsWithoutGrowth;

    /**
     * One round's bandwidth: a new baseline if it grew by {@link BbrConstants#FULL_BANDWIDTH_GROWTH}, else one more
     * round without growth.
     *
     * @param bandwidthBytesPerSecond the round's bandwidth.
     */
    public void onRound(final long bandwidthBytesPerSecond)
    {
        if (bandwidthBytesPerSecond >= baselineBytesPerSecond * BbrConstants.FULL_BANDWIDTH_GROWTH)
        {
            restartFrom(bandwidthBytesPerSecond);
            return;
        }
        roundsWithoutGrowth++;
        isFullNow = roundsWithoutGrowth >= BbrConstants.FULL_BANDWIDTH_ROUNDS;
        if (isFullNow)
        {
            isReached = true;
        }
    }

    /**
     * Count again from this baseline (draft {@code BBRResetFullBW} followed by a new {@code full_bw}).
     *
     * @param baselineBytesPerSecond the new baseline.
     */
    public void restartFrom(final long baselineBytesPerSecond)
    {
        this.baselineBytesPerSecond = baselineBytesPerSecond;
        roundsWithoutGrowth = 0;
        isFullNow = false;
    }

    /**
     * Forget the baseline but keep the count (Linux {@code bbr_set_state(TCP_CA_Loss)}: {@code full_bw = 0}).
     */
    public void forgetBaseline()
    {
        baselineBytesPerSecond = 0;
    }

    /**
     * @param isReached whether the pipe counts as full (a loss exit from Startup sets it, an undo of that clears it).
     */
    public void markReached(final boolean isReached)
    {
        this.isReached = isReached;
    }

    /**
     * @return true once the pipe was judged full ({@code full_bw_reached}).
     */
    public boolean isReached()
    {
        return isReached;
    }

    /**
     * @return true while the bandwidth has not grown for three rounds since the last restart ({@code full_bw_now}).
     */
    public boolean isFullNow()
    {
        return isFullNow;
    }
}
