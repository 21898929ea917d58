package io.pacelink.bbr.v1;

import io.pacelink.bbr.AckAggregationEstimator;
import io.pacelink.bbr.BbrConstants;
import io.pacelink.bbr.BbrMath;
import io.pacelink.bbr.FullPipeEstimator;
import io.pacelink.bbr.PacketRoundCounter;
import io.pacelink.bbr.WindowedFilter;
import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.ControllerContext;

/**
 * BBRv1's estimators ({@code bbr_update_model} without the state machine): packet-timed rounds, the windowed-max
 * delivery rate, ACK aggregation, the long-term (policer) rate, the full-pipe estimator and the min_rtt filter, with
 * the delivery counters they read and the BDP they give.
 */
final class Bbr1Model
{
    /**
     * The ACK-aggregation credit is capped at this much time at the estimated bandwidth
     * ({@code bbr_extra_acked_max_us = 100 ms}).
     */
    private static final long EXTRA_ACKED_MAX_INTERVAL_NS = Bbr1Controller.EXTRA_ACKED_MAX_INTERVAL_NS;

    private final Bbr1Parameters parameters;
    private final ControllerContext context;
    private final long initialWindowBytes;
    private final WindowedFilter maxBandwidthFilter;
    private final PacketRoundCounter rounds = new PacketRoundCounter();
    private final AckAggregationEstimator ackAggregation;
    private final LongTermBandwidthSampler longTermBandwidth;
    private final FullPipeEstimator fullPipe = new FullPipeEstimator();

    private boolean hasMinRtt;
    private long minRttNs;
    private boolean hasMinRttStamp;
    private long minRttStampNs;

    private long deliveredTimeNs;
    private long totalDeliveredBytes;
    private long totalLostBytes;

    Bbr1Model(final Bbr1Parameters parameters, final ControllerContext context, final double pacingMarginFactor)
    {
        this.parameters = parameters;
        this.context = context;
        this.initialWindowBytes = context.initialWindowBytes();
        this.maxBandwidthFilter = WindowedFilter.max(parameters.bandwidthFilterRounds());
        this.ackAggregation = AckAggregationEstimator.withBucketRounds(
            parameters.variant().extraAckedWindowRounds(), context.maxDatagramSizeBytes());
        this.longTermBandwidth = new LongTermBandwidthSampler(pacingMarginFactor);
        if (context.rttStats().hasSample())
        {
            hasMinRtt = true;
            minRttNs = context.rttStats().minRttNs();
        }
        maxBandwidthFilter.reset(0, 0);
    }

    /**
     * The delivery counters of one ACK, before the model is updated from it.
     */
    void observe(final AckEvent ack)
    {
        final long nowNs = ack.nowNs();
        if (ack.newlyAckedBytes() > 0)
        {
            deliveredTimeNs = nowNs;
        }
        totalDeliveredBytes = ack.totalDeliveredBytes();
        totalLostBytes = ack.totalLostBytes();
        if (!hasMinRttStamp)
        {
            // Linux stamps min_rtt at bbr_init; the SPI gives no time at construction, so the first ACK does.
            hasMinRttStamp = true;
            minRttStampNs = nowNs;
        }
    }

    void clearRoundStart()
    {
        rounds.clearRoundStart();
    }

    /**
     * @return true if the ACK's sample started a new packet-timed round ({@code bbr_update_bw}).
     */
    boolean onRoundAck(final AckEvent ack)
    {
        return rounds.onAck(ack.samplePriorDeliveredBytes(), totalDeliveredBytes);
    }

    void startRound()
    {
        rounds.startRound(totalDeliveredBytes);
    }

    /**
     * {@code bbr_lt_bw_sampling} for one ACK.
     *
     * @return true if the long-term rate was just put in use: PROBE_BW restarts at it.
     */
    boolean sampleLongTermBandwidth(final boolean isProbeBw, final AckEvent ack, final boolean isSampleAppLimited)
    {
        return parameters.isLongTermBandwidthEnabled() && longTermBandwidth.onSample(
            isProbeBw, rounds.isRoundStart(), ack.newlyLostBytes() > 0, isSampleAppLimited,
            totalDeliveredBytes, totalLostBytes, deliveredTimeNs);
    }

    /**
     * Linux {@code bbr_set_state(TCP_CA_Loss)}: an RTO counts as a round end and as a loss for long-term sampling
     * (round_start = 1 and a sample with losses = 1), and resets {@code full_bw}.
     *
     * @return true if the long-term rate was just put in use.
     */
    boolean onRetransmissionTimeout(final boolean isProbeBw)
    {
        fullPipe.forgetBaseline();
        return parameters.isLongTermBandwidthEnabled() && longTermBandwidth.onSample(
            isProbeBw, true, true, false, totalDeliveredBytes, totalLostBytes, deliveredTimeNs);
    }

    void updateMaxBandwidth(final AckEvent ack, final boolean isSampleAppLimited)
    {
        // App-limited samples reflect the application, not the path: use them only if they raise the estimate.
        final long sampleBytesPerSecond = ack.deliveryRateBytesPerSecond();
        if (!isSampleAppLimited || sampleBytesPerSecond >= maxBandwidthFilter.best())
        {
            maxBandwidthFilter.update(rounds.roundCount(), sampleBytesPerSecond);
        }
    }

    /**
     * {@code bbr_update_ack_aggregation}.
     */
    void updateAckAggregation(final AckEvent ack, final long congestionWindowBytes)
    {
        if (0.0 == parameters.extraAckedGain() || ack.newlyAckedBytes() <= 0 || !ack.hasRateSample())
        {
            return;
        }
        ackAggregation.onAck(
            deliveredTimeNs, rounds.isRoundStart(), ack.newlyAckedBytes(), bandwidthBytesPerSecond(),
            congestionWindowBytes);
    }

    void restartAckAggregationEpoch(final long nowNs)
    {
        ackAggregation.restartEpoch(nowNs);
    }

    /**
     * {@code bbr_check_full_bw_reached}.
     */
    void checkFullBandwidthReached(final boolean isSampleAppLimited)
    {
        if (fullPipe.isReached() || !rounds.isRoundStart() || isSampleAppLimited)
        {
            return;
        }
        fullPipe.onRound(maxBandwidthFilter.best());
    }

    /**
     * {@code bbr_undo_cwnd}: a spurious slow-down; reset full-pipe detection and long-term sampling.
     */
    void resetEstimatorsOnUndo()
    {
        fullPipe.restartFrom(0);
        longTermBandwidth.reset(totalDeliveredBytes, totalLostBytes, deliveredTimeNs);
    }

    /**
     * The min_rtt filter of {@code bbr_update_min_rtt}.
     *
     * @return true if the filter had expired before this ACK: PROBE_RTT is due.
     */
    boolean updateMinRtt(final AckEvent ack)
    {
        final long nowNs = ack.nowNs();
        final boolean isFilterExpired = nowNs - minRttStampNs > parameters.probeRttIntervalNs();
        final long rttNs = ack.latestRttNs();
        // Only a strictly lower sample refreshes the stamp (Linux commit "tcp: only postpone PROBE_RTT if RTT is <
        // current min_rtt estimate", 2020): with "<=" samples equal to min_rtt, common on a stable path, keep
        // postponing PROBE_RTT, and a later rise of the path delay stays invisible. Linux also requires
        // !rs->is_ack_delayed to refresh an expired filter; the SPI does not say whether the ACK was delayed, so an
        // expired filter takes any sample.
        if (rttNs >= 0 && (!hasMinRtt || rttNs < minRttNs || isFilterExpired))
        {
            hasMinRtt = true;
            minRttNs = rttNs;
            minRttStampNs = nowNs;
        }
        return isFilterExpired;
    }

    /**
     * PROBE_RTT done: wait a whole interval until the next one.
     */
    void restartMinRttInterval(final long nowNs)
    {
        minRttStampNs = nowNs;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Derived quantities
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * {@code bbr_bw}: the long-term rate while policed, else max_bw.
     */
    long bandwidthBytesPerSecond()
    {
        return longTermBandwidth.isInUse() ? longTermBandwidth.bandwidthBytesPerSecond() : maxBandwidthFilter.best();
    }

    /**
     * {@code bbr_bdp}: {@code ceil(bw * min_rtt * gain)}; without an RTT sample, the initial window (Linux:
     * {@code TCP_INIT_CWND}).
     */
    long bdpBytes(final long bandwidthBytesPerSecond, final double gain)
    {
        if (!hasMinRtt)
        {
            return initialWindowBytes;
        }
        return BbrMath.bdpBytes(bandwidthBytesPerSecond, minRttNs, gain);
    }

    /**
     * {@code bbr_ack_aggregation_cwnd}: used only once the pipe was filled.
     */
    long ackAggregationCwndBytes()
    {
        if (0.0 == parameters.extraAckedGain() || !fullPipe.isReached())
        {
            return 0;
        }
        return ackAggregation.cwndCreditBytes(
            parameters.extraAckedGain(), bandwidthBytesPerSecond(), EXTRA_ACKED_MAX_INTERVAL_NS);
    }

    int maxDatagramSizeBytes()
    {
        return context.maxDatagramSizeBytes();
    }

    long minTargetCwndBytes()
    {
        return BbrConstants.minPipeCwndBytes(context.maxDatagramSizeBytes());
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Reading the model
    // ---------------------------------------------------------------------------------------------------------------

    long maxBandwidthBytesPerSecond()
    {
        return maxBandwidthFilter.best();
    }

    boolean isRoundStart()
    {
        return rounds.isRoundStart();
    }

    long roundCount()
    {
        return rounds.roundCount();
    }

    boolean isFullBandwidthReached()
    {
        return fullPipe.isReached();
    }

    boolean hasMinRtt()
    {
        return hasMinRtt;
    }

    long minRttNs()
    {
        return minRttNs;
    }

    long minRttStampNs()
    {
        return minRttStampNs;
    }

    long deliveredTimeNs()
    {
        return deliveredTimeNs;
    }

    long totalDeliveredBytes()
    {
        return totalDeliveredBytes;
    }

    long initialWindowBytes()
    {
        return initialWindowBytes;
    }

    long extraAckedBytes()
    {
        return ackAggregation.extraAckedBytes();
    }

    LongTermBandwidthSampler longTermBandwidth()
    {
        return longTermBandwidth;
    }
}
