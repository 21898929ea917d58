package io.pacelink.bbr.v3;

import io.pacelink.bbr.AckAggregationEstimator;
import io.pacelink.bbr.BbrConstants;
import io.pacelink.bbr.BbrMath;
import io.pacelink.bbr.FullPipeEstimator;
import io.pacelink.bbr.PacketRoundCounter;
import io.pacelink.bbr.WindowedFilter;
import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.ControllerContext;

import static io.pacelink.bbr.v3.Bbr3Controller.INFINITE;

/**
 * BBRv3's network path model (draft section 5.5 "BBR Network Path Model"): the data-rate model ({@code max_bw} over
 * two ProbeBW cycles, the short-term {@code bw_shortterm}), the data-volume model ({@code inflight_longterm},
 * {@code inflight_shortterm}), the latest delivery and congestion signals they are adapted from, the min_rtt filters,
 * ACK aggregation, packet-timed rounds, the full-pipe estimator and the ECN signals ({@link Bbr3Ecn}). The phases
 * read it and set the bounds the draft lets them set; it knows nothing of pacing or cwnd except the cwnd a first lower
 * bound starts from.
 */
final class Bbr3Model
{
    private final Bbr3Parameters config;
    private final Bbr3Variant variant;
    private final ControllerContext context;
    private final long initialCwndBytes;
    private final PacketRoundCounter rounds = new PacketRoundCounter();
    // Draft BBR.max_bw_filter: Kathleen Nichols' max over the current and the previous ProbeBW cycle (time is
    // BBR.cycle_count; a sample stays eligible while cycle_count - its cycle <= 1, i.e. two slots as Linux bw_hi[2]).
    private final WindowedFilter maxBwFilter = WindowedFilter.max(1);
    private final AckAggregationEstimator ackAggregation;
    private final Bbr3RateSample rs = new Bbr3RateSample();
    private final Bbr3MinRttFilter minRtt;
    private final FullPipeEstimator fullPipe = new FullPipeEstimator();
    private final Bbr3Ecn ecn;

    // Latest transport state seen in a callback: C.delivered and C.inflight.
    private long deliveredBytes;
    private long bytesInFlight;

    // Data-rate model.
    private long cycleCount;
    private long maxBwBytesPerSecond;
    private long bwShorttermBytesPerSecond = INFINITE;
    private long bwBytesPerSecond;
    private long bwLatestBytesPerSecond;
    private long inflightLatestBytes;
    private long lossRoundDeliveredBytes;
    private boolean lossRoundStart;
    private boolean isLossInRound;
    private boolean isLossInCycle;

    // Data-volume model.
    private long inflightLongtermBytes = INFINITE;
    private long inflightShorttermBytes = INFINITE;

    Bbr3Model(final Bbr3Parameters config, final ControllerContext context, final long initialRttNs)
    {
        this.config = config;
        this.variant = config.variant;
        this.context = context;
        this.initialCwndBytes = context.initialWindowBytes();
        this.ackAggregation = AckAggregationEstimator.withLinuxWindows(context.maxDatagramSizeBytes());
        this.minRtt = new Bbr3MinRttFilter(config, variant, initialRttNs);
        this.ecn = new Bbr3Ecn(config);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Inputs
    // ---------------------------------------------------------------------------------------------------------------

    void startClock(final long nowNs)
    {
        minRtt.startClock(nowNs);
    }

    void observe(final long totalDeliveredBytes, final long bytesInFlight)
    {
        this.deliveredBytes = totalDeliveredBytes;
        this.bytesInFlight = bytesInFlight;
    }

    void observeInflight(final long bytesInFlight)
    {
        this.bytesInFlight = bytesInFlight;
    }

    void readRateSample(final AckEvent ack, final Bbr3ProbeRtt probeRtt)
    {
        rs.read(ack, probeRtt);
        ecn.read(ack);
    }

    void restartAckAggregationEpoch(final long nowNs)
    {
        ackAggregation.restartEpoch(nowNs);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // UpdateModelAndState, the model's part
    // ---------------------------------------------------------------------------------------------------------------

    void updateLatestDeliverySignals()
    {
        lossRoundStart = false;
        if (!rs.isValid())
        {
            return; // Linux bbr_update_latest_delivery_signals: not a valid observation.
        }
        bwLatestBytesPerSecond = Math.max(bwLatestBytesPerSecond, rs.deliveryRateBytesPerSecond());
        inflightLatestBytes = Math.max(inflightLatestBytes, rs.deliveredBytes());
        if (rs.priorDeliveredBytes() >= lossRoundDeliveredBytes)
        {
            lossRoundDeliveredBytes = deliveredBytes;
            lossRoundStart = true;
        }
    }

    /**
     * Draft {@code UpdateRound} and {@code UpdateMaxBw}.
     *
     * @return true if this ACK started a new packet-timed round.
     */
    boolean updateMaxBw()
    {
        // Linux bbr_update_round_start: only ACKs with a valid sample can end a round.
        if (!rs.isValid())
        {
            rounds.clearRoundStart();
            return false;
        }
        final boolean isRoundStart = rounds.onAck(rs.priorDeliveredBytes(), deliveredBytes);

        // App-limited samples are used only if they show more bandwidth than the estimate (draft 5.5.4).
        final long rateBytesPerSecond = rs.deliveryRateBytesPerSecond();
        if (rateBytesPerSecond > 0 && (rateBytesPerSecond >= maxBwBytesPerSecond || !rs.isAppLimited()))
        {
            maxBwBytesPerSecond = maxBwFilter.update(cycleCount, rateBytesPerSecond);
        }
        return isRoundStart;
    }

    /**
     * Linux {@code bbr_update_ecn_alpha}, called at each packet-timed round start ({@code bbr_main}).
     *
     * @return the round's CE-marked fraction if alpha was updated, else -1.
     */
    double updateEcnAlpha()
    {
        return ecn.updateAlpha(deliveredBytes, minRtt.minRttNs());
    }

    /**
     * The per-round part of draft {@code UpdateCongestionSignals}.
     */
    void adaptLowerBoundsOncePerRound(final Bbr3State state, final long congestionWindowBytes)
    {
        ecn.noteAck();
        if (!lossRoundStart)
        {
            return; // wait until the end of the round trip
        }
        adaptLowerBoundsFromCongestion(state, congestionWindowBytes);
        isLossInRound = false;
        ecn.endRound();
    }

    private void adaptLowerBoundsFromCongestion(final Bbr3State state, final long congestionWindowBytes)
    {
        // Once per round: when not probing, a lossy round moves the short-term model toward the latest delivery
        // process, never below what that round delivered (draft AdaptLowerBoundsFromCongestion); a round with CE
        // marks cuts the short-term volume by alpha * ecnFactor (Linux bbr_adapt_lower_bounds, bbr_ecn_lower_bounds),
        // and the lower of the two holds.
        if (state.isProbingBandwidth())
        {
            return;
        }
        long ecnInflightBytes = INFINITE;
        if (ecn.isCuttingThisRound())
        {
            if (INFINITE == inflightShorttermBytes)
            {
                inflightShorttermBytes = congestionWindowBytes;
            }
            ecnInflightBytes = ecn.lowerInflightShorttermBytes(inflightShorttermBytes);
        }
        if (isLossInRound)
        {
            if (INFINITE == bwShorttermBytesPerSecond)
            {
                bwShorttermBytesPerSecond = maxBwBytesPerSecond;
            }
            if (INFINITE == inflightShorttermBytes)
            {
                inflightShorttermBytes = congestionWindowBytes;
            }
            bwShorttermBytesPerSecond = Math.max(
                bwLatestBytesPerSecond, (long)(config.beta * bwShorttermBytesPerSecond));
            inflightShorttermBytes = Math.max(inflightLatestBytes, (long)(config.beta * inflightShorttermBytes));
            // Linux bbr_adapt_lower_bounds: never cut the rate bound to 0.
            bwShorttermBytesPerSecond = Math.max(1, bwShorttermBytesPerSecond);
        }
        inflightShorttermBytes = Math.min(inflightShorttermBytes, ecnInflightBytes);
    }

    void updateAckAggregation(final long nowNs, final long congestionWindowBytes)
    {
        // Draft UpdateACKAggregation (Linux bbr_update_ack_aggregation: ACKs with a valid sample). The shared
        // estimator's two 5-round buckets (a max over 5-10 rounds, as Linux) stand for the draft's 10-round window;
        // the 1-round window both use in Startup is not applied.
        if (rs.isValid() && rs.newlyAckedBytes() > 0)
        {
            ackAggregation.onAck(
                nowNs, rounds.isRoundStart(), rs.newlyAckedBytes(), bwBytesPerSecond, congestionWindowBytes);
        }
    }

    void checkFullBwReached()
    {
        // Draft CheckFullBWReached: three non-app-limited rounds without 25 % growth of the delivery rate. BBRv2
        // alpha (bbr_check_full_bw_reached) looks at max_bw instead, and only until the pipe was first full.
        final boolean isV2 = variant.isFullBwJudgedOnMaxBw();
        if (fullPipe.isFullNow() || !rounds.isRoundStart() || rs.isAppLimited() || (isV2 && fullPipe.isReached()))
        {
            return;
        }
        fullPipe.onRound(isV2 ? maxBwBytesPerSecond : rs.deliveryRateBytesPerSecond());
    }

    void updateMinRtt(final long nowNs)
    {
        minRtt.update(nowNs, rs.rttNs());
    }

    void advanceLatestDeliverySignals()
    {
        if (lossRoundStart)
        {
            bwLatestBytesPerSecond = rs.deliveryRateBytesPerSecond();
            inflightLatestBytes = rs.deliveredBytes();
        }
    }

    void boundBwForModel()
    {
        bwBytesPerSecond = Math.min(maxBwBytesPerSecond, bwShorttermBytesPerSecond);
    }

    /**
     * Linux {@code bbr_main}, at its end: the sample's losses and marks belong to the ProbeBW cycle.
     */
    void noteCycleSignals()
    {
        isLossInCycle |= rs.lostBytes() > 0;
        ecn.endAck();
    }

    /**
     * Draft {@code AdvanceMaxBwFilter}: the filter drops the older cycle on its next sample.
     */
    void advanceMaxBwFilter()
    {
        cycleCount++;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Loss
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * Draft {@code NoteLoss}: the first loss of a round starts a loss round, so it covers a full round of recovery.
     *
     * @return true if this was the round's first loss (the moment the draft takes its undo snapshot).
     */
    boolean noteLoss()
    {
        final boolean isFirstInRound = !isLossInRound;
        if (isFirstInRound)
        {
            lossRoundDeliveredBytes = deliveredBytes;
        }
        isLossInRound = true;
        isLossInCycle = true;
        return isFirstInRound;
    }

    /**
     * Undo of a spurious loss: the round's loss did not happen.
     */
    void forgetLossInRound()
    {
        isLossInRound = false;
    }

    boolean isInflightTooHigh(final long lostBytes, final long txInFlightBytes)
    {
        // Draft IsInflightTooHigh; the transport has selective ACKs.
        return lostBytes > txInFlightBytes * config.lossThreshold;
    }

    long inflightAtLoss(final int sizeBytes, final long txInFlightBytes, final long lostBytes)
    {
        // Draft InflightAtLoss (Linux bbr_inflight_hi_from_lost_skb): the inflight at which the loss rate crossed
        // LossThresh inside this packet, solving (lost_prev + prefix) / (inflight_prev + prefix) = LossThresh.
        final long inflightPrevBytes = txInFlightBytes - sizeBytes;
        if (inflightPrevBytes < 0)
        {
            return txInFlightBytes; // stamp inconsistent with the packet size: keep the packet's own inflight
        }
        final long lostPrevBytes = lostBytes - sizeBytes;
        final double lostPrefixBytes = Math.max(
            0.0, (config.lossThreshold * inflightPrevBytes - lostPrevBytes) / (1.0 - config.lossThreshold));
        return inflightPrevBytes + (long)lostPrefixBytes;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Resets and bounds the phases set
    // ---------------------------------------------------------------------------------------------------------------

    void resetCongestionSignals()
    {
        // Linux bbr_reset_congestion_signals.
        isLossInRound = false;
        isLossInCycle = false;
        ecn.resetSignals();
        bwLatestBytesPerSecond = 0;
        inflightLatestBytes = 0;
    }

    void resetShortTermModel()
    {
        bwShorttermBytesPerSecond = INFINITE;
        inflightShorttermBytes = INFINITE;
    }

    void resetFullBw()
    {
        fullPipe.restartFrom(0);
    }

    /**
     * A new plateau baseline: the full-pipe estimator starts counting again from the current sample (ProbeBW_UP).
     */
    void restartFullBwFromSample()
    {
        fullPipe.restartFrom(rs.deliveryRateBytesPerSecond());
    }

    void markFullBwReached(final boolean isReached)
    {
        fullPipe.markReached(isReached);
    }

    void startRound()
    {
        rounds.startRound(deliveredBytes);
    }

    void setInflightLongtermBytes(final long bytes)
    {
        inflightLongtermBytes = bytes;
    }

    void setInflightShorttermBytes(final long bytes)
    {
        inflightShorttermBytes = bytes;
    }

    /**
     * Undo: bounds never lower than they were when the spurious recovery began.
     */
    void restoreBounds(final long bwShorttermBytesPerSecond, final long inflightShorttermBytes,
        final long inflightLongtermBytes)
    {
        this.bwShorttermBytesPerSecond = Math.max(this.bwShorttermBytesPerSecond, bwShorttermBytesPerSecond);
        this.inflightShorttermBytes = Math.max(this.inflightShorttermBytes, inflightShorttermBytes);
        this.inflightLongtermBytes = Math.max(this.inflightLongtermBytes, inflightLongtermBytes);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Derived quantities
    // ---------------------------------------------------------------------------------------------------------------

    long bdpMultiple(final long bandwidthBytesPerSecond, final double gain)
    {
        final long minRttNs = minRtt.minRttNs();
        if (INFINITE == minRttNs)
        {
            return initialCwndBytes; // no valid RTT sample yet
        }
        return BbrMath.bdpBytes(bandwidthBytesPerSecond, minRttNs, gain);
    }

    long inflightWithHeadroom()
    {
        if (INFINITE == inflightLongtermBytes)
        {
            return INFINITE;
        }
        final long headroomBytes = Math.max(smssBytes(), (long)(config.headroom * inflightLongtermBytes));
        return Math.max(inflightLongtermBytes - headroomBytes, minPipeCwndBytes());
    }

    /**
     * @return the maximum datagram size (the draft's SMSS), read from the context that owns it.
     */
    int smssBytes()
    {
        return context.maxDatagramSizeBytes();
    }

    /**
     * @return draft {@code BBR.MinPipeCwnd}: 4 SMSS.
     */
    long minPipeCwndBytes()
    {
        return BbrConstants.minPipeCwndBytes(context.maxDatagramSizeBytes());
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Reading the model
    // ---------------------------------------------------------------------------------------------------------------

    Bbr3RateSample rateSample()
    {
        return rs;
    }

    Bbr3Ecn ecn()
    {
        return ecn;
    }

    boolean isLossInCycle()
    {
        return isLossInCycle;
    }

    long deliveredBytes()
    {
        return deliveredBytes;
    }

    long bytesInFlight()
    {
        return bytesInFlight;
    }

    long initialCwndBytes()
    {
        return initialCwndBytes;
    }

    boolean isRoundStart()
    {
        return rounds.isRoundStart();
    }

    long roundCount()
    {
        return rounds.roundCount();
    }

    boolean isLossRoundStart()
    {
        return lossRoundStart;
    }

    long maxBwBytesPerSecond()
    {
        return maxBwBytesPerSecond;
    }

    long bwBytesPerSecond()
    {
        return bwBytesPerSecond;
    }

    long bwShorttermBytesPerSecond()
    {
        return bwShorttermBytesPerSecond;
    }

    long inflightLatestBytes()
    {
        return inflightLatestBytes;
    }

    long inflightLongtermBytes()
    {
        return inflightLongtermBytes;
    }

    long inflightShorttermBytes()
    {
        return inflightShorttermBytes;
    }

    long minRttNs()
    {
        return minRtt.minRttNs();
    }

    boolean isProbeRttDue()
    {
        return minRtt.isProbeRttExpired();
    }

    void scheduleNextProbeRtt(final long nowNs)
    {
        minRtt.scheduleNextProbeRtt(nowNs);
    }

    boolean isFullBwReached()
    {
        return fullPipe.isReached();
    }

    boolean isFullBwNow()
    {
        return fullPipe.isFullNow();
    }

    long extraAckedBytes()
    {
        return ackAggregation.extraAckedBytes();
    }
}
