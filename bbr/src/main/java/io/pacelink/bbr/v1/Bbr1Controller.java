package io.pacelink.bbr.v1;

import io.pacelink.bbr.AckAggregationEstimator;
import io.pacelink.bbr.BbrConstants;
import io.pacelink.bbr.BbrMath;
import io.pacelink.bbr.PacketRoundCounter;
import io.pacelink.bbr.WindowedFilter;
import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerRandom;
import io.pacelink.transport.cc.LostPacket;
import io.pacelink.transport.cc.RttStats;

import java.util.List;

/**
 * BBRv1 with the state machine, constants and per-ACK order of Linux {@code net/ipv4/tcp_bbr.c}. Method names follow
 * the Linux functions they mirror ({@code bbr_update_bw} → {@code updateBandwidth}). The same class runs BBRplus
 * ({@code tcp_bbrplus.c}), whose differences from mainline are switched by {@link Bbr1Variant}: its PROBE_BW cycle
 * ({@code bbr_drain_to_target_cycling}), a 10-round ACK-aggregation window, no pacing margin, a plain quantization
 * budget and an undo that keeps the estimators.
 * <p>
 * Differences forced by the transport (all documented where they occur):
 * <ul>
 *     <li>Bytes instead of packets: cwnd, BDP and inflight are bytes, converted with the max datagram size where
 *     Linux uses packet counts (4-packet floor, even-packet rounding, {@code TCP_INIT_CWND}).</li>
 *     <li>Recovery is the transport's recovery period (RFC 9002 section 7.3.2), announced by
 *     {@link CongestionEvent#startsRecovery()} and {@link AckEvent#endsRecovery()}, standing in for Linux's
 *     {@code icsk_ca_state}. A QUIC recovery period ends before the loss detector has ruled on the packets sent just
 *     after it began, so a new period whose lost packets were all sent before the previous one ended continues that
 *     episode without a second packet-conservation round, as in Linux, whose Recovery lasts until {@code high_seq}
 *     is cumulatively acknowledged and, under continuous loss, is left and re-entered within one ACK that
 *     {@code bbr_main} sees as Recovery throughout.</li>
 *     <li>Persistent congestion plays the role of Linux's RTO ({@code bbr_set_state(TCP_CA_Loss)}).</li>
 *     <li>PROBE_RTT's "mark the connection application-limited" is emulated here (see
 *     {@code markProbeRttAppLimited}) because the SPI gives the controller no way to set the sampler's mark.</li>
 *     <li>An expired min_rtt filter takes any RTT sample: Linux skips samples from delayed ACKs
 *     ({@code rs->is_ack_delayed}), which the SPI does not report.</li>
 *     <li>No departure-time pacer: {@code bbr_packets_in_net_at_edt} is taken as the inflight it is given.</li>
 * </ul>
 * Not thread safe: all calls on the connection's agent thread. No allocation after construction.
 */
public final class Bbr1Controller implements CongestionController
{
    /**
     * Phases in the PROBE_BW gain cycle ({@code CYCLE_LEN}).
     */
    public static final int CYCLE_LENGTH = 8;

    /**
     * Index of the 3/4 ("drain") phase: a randomised cycle start never lands on it.
     */
    public static final int DRAIN_PHASE_INDEX = 1;

    /**
     * The ACK-aggregation credit is capped at this much time at the estimated bandwidth
     * ({@code bbr_extra_acked_max_us = 100 ms}).
     */
    public static final long EXTRA_ACKED_MAX_INTERVAL_NS = 100_000_000L;

    /**
     * BBRplus: a PROBE_BW cycle lasts {@link #CYCLE_LENGTH} minus a random 0 to {@code CYCLE_RANDOM_PHASES - 1}
     * min_rtts, i.e. 2 to 8 ({@code CYCLE_LEN - prandom_u32_max(bbr_cycle_rand)}, {@code bbr_cycle_rand = 7}).
     */
    public static final int CYCLE_RANDOM_PHASES = 7;

    /**
     * Index of the 1.0 ("cruise") phase BBRplus moves to once the 3/4 phase has drained the queue
     * ({@code BBR_BW_PROBE_CRUISE}).
     */
    public static final int CRUISE_PHASE_INDEX = 2;

    private static final double[] PROBE_BW_PACING_GAINS = { 1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0 };

    private final Bbr1Parameters parameters;
    private final Bbr1Variant variant;
    private final ControllerContext context;
    private final RttStats rttStats;
    private final ControllerRandom random;
    private final long initialWindowBytes;
    private final double pacingMarginFactor;
    private final WindowedFilter maxBandwidthFilter;
    private final PacketRoundCounter rounds = new PacketRoundCounter();
    private final AckAggregationEstimator ackAggregation;
    private final LongTermBandwidthSampler longTermBandwidth;
    private final Bbr1Counters counters;

    private Bbr1State state = Bbr1State.STARTUP;
    private double pacingGain;
    private double cwndGain;
    private int cycleIndex;
    private long cycleStartNs;
    private int cycleLengthMinRtts;

    private long congestionWindowBytes;
    private long pacingRateBytesPerSecond;
    private int sendQuantumBytes;
    private boolean hasSeenRtt;

    private boolean hasMinRtt;
    private long minRttNs;
    private boolean hasMinRttStamp;
    private long minRttStampNs;
    private boolean hasProbeRttDoneStamp;
    private long probeRttDoneStampNs;
    private boolean isProbeRttRoundDone;
    private boolean isIdleRestart;

    private boolean isFullBandwidthReached;
    private long fullBandwidthBytesPerSecond;
    private int fullBandwidthCount;

    private long priorCwndBytes;
    private boolean isPacketConservation;
    private boolean isInRecovery;
    private boolean wasInRecovery;
    private boolean isRecoveryStartPending;
    private long recoveryEndNs = Long.MIN_VALUE;

    private long deliveredTimeNs;
    private long totalDeliveredBytes;
    private long totalLostBytes;
    private long probeRttAppLimitedFromBytes = 1;
    private long probeRttAppLimitedUntilBytes;

    /**
     * Construct in STARTUP ({@code bbr_init}).
     *
     * @param context    the connection's controller context.
     * @param parameters validated parameters.
     */
    public Bbr1Controller(final ControllerContext context, final Bbr1Parameters parameters)
    {
        this.parameters = parameters;
        this.variant = parameters.variant();
        this.context = context;
        this.rttStats = context.rttStats();
        this.random = context.random();
        this.initialWindowBytes = context.initialWindowBytes();
        this.pacingMarginFactor = 1.0 - parameters.pacingMarginPercent() / 100.0;
        this.maxBandwidthFilter = WindowedFilter.max(parameters.bandwidthFilterRounds());
        this.ackAggregation = AckAggregationEstimator.withBucketRounds(
            variant.extraAckedWindowRounds(), context.maxDatagramSizeBytes());
        this.longTermBandwidth = new LongTermBandwidthSampler(pacingMarginFactor);

        congestionWindowBytes = initialWindowBytes;
        if (rttStats.hasSample())
        {
            hasMinRtt = true;
            minRttNs = rttStats.minRttNs();
        }
        maxBandwidthFilter.reset(0, 0);
        updateGains();
        initPacingRateFromRtt();
        counters = new Bbr1Counters(context.counters(), variant);
        counters.publish(this);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Events
    // ---------------------------------------------------------------------------------------------------------------

    public void onPacketSent(
        final long nowNs,
        final long packetNumber,
        final int sizeBytes,
        final long bytesInFlight,
        final boolean isRetransmission)
    {
        // BBRv1 has no per-packet send hook in Linux; the model is driven by ACKs alone.
    }

    /**
     * Restart from idle ({@code bbr_cwnd_event(CA_EVENT_TX_START)} while app-limited).
     */
    public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
    {
        isIdleRestart = true;
        ackAggregation.restartEpoch(nowNs);
        // Avoid pointless buffer overflows: pace at the estimate if we need no more speed.
        if (Bbr1State.PROBE_BW == state)
        {
            setPacingRate(bandwidthBytesPerSecond(), 1.0);
        }
        else if (Bbr1State.PROBE_RTT == state)
        {
            checkProbeRttDone(nowNs);
        }
        counters.publish(this);
    }

    /**
     * One ACK frame: {@code bbr_main} = {@code bbr_update_model}, then pacing and cwnd.
     */
    public void onAck(final AckEvent ack)
    {
        final long nowNs = ack.nowNs();
        final long ackedBytes = ack.newlyAckedBytes();
        if (ackedBytes > 0)
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
        updateRecoveryState(ack);

        final boolean isSampleAppLimited = isSampleAppLimited(ack);
        updateBandwidth(ack, isSampleAppLimited);
        updateAckAggregation(ack);
        updateCyclePhase(ack);
        checkFullBandwidthReached(isSampleAppLimited);
        checkDrain(ack);
        updateMinRtt(ack);
        updateGains();

        final long bandwidthBytesPerSecond = bandwidthBytesPerSecond();
        setPacingRate(bandwidthBytesPerSecond, pacingGain);
        setCwnd(ack, ackedBytes, bandwidthBytesPerSecond, cwndGain);
        counters.publish(this);
    }

    public void onPacketLost(final LostPacket lost)
    {
        // Losses do not touch BBRv1's model; the ACK's newly-lost bytes drive recovery and the policer detector.
    }

    /**
     * A loss batch that starts a recovery period: enter recovery (Linux {@code tcp_enter_recovery} →
     * {@code bbr_ssthresh} → {@code bbr_save_cwnd}), or the RTO path for persistent congestion. The losses of a
     * period already answered change nothing here.
     */
    public void onCongestionEvent(final CongestionEvent event)
    {
        if (event.isPersistentCongestion())
        {
            onPersistentCongestion();
        }
        else if (event.isEcnCe() || !event.startsRecovery())
        {
            // Linux BBRv1 ignores ECN: ECE only puts TCP in CWR, where bbr_set_cwnd neither conserves nor restores.
            return;
        }
        else if (!isInRecovery)
        {
            isInRecovery = true;
            if (event.newestLostSentTimeNs() <= recoveryEndNs)
            {
                // Every packet of this batch was sent before the previous recovery ended: the losses belong to that
                // episode, which QUIC's recovery period (ended by the first ACK of a packet sent after it began)
                // closed before the loss detector could rule on them. Linux's Recovery lasts until high_seq is
                // cumulatively acknowledged, by which time such losses are already marked, so under continuous
                // loss it leaves and re-enters Recovery within one ACK and bbr_main never sees the Open state:
                // no second packet-conservation round, and bbr_save_cwnd keeps the larger cwnd.
                priorCwndBytes = Math.max(priorCwndBytes, congestionWindowBytes);
            }
            else
            {
                saveCwnd();
                isRecoveryStartPending = true;
            }
        }
        else
        {
            // A packet sent during recovery was lost: a new recovery epoch (RFC 9002 section 7.3.2). This is Linux
            // leaving and re-entering Recovery within one ACK: bbr_ssthresh saves cwnd again (as the max, the
            // previous state being Recovery), and since bbr_main never saw the Open state in between there is
            // neither a restore nor a second packet-conservation round.
            saveCwnd();
        }
        counters.publish(this);
    }

    /**
     * Undo ({@code bbr_undo_cwnd}): the losses were spurious. Linux resets full-pipe detection and long-term sampling
     * (BBRplus keeps both), keeps cwnd, then returns to the Open state, so the next ACK restores the cwnd saved at
     * recovery start.
     */
    public void onSpuriousLoss(final long nowNs)
    {
        if (variant.isUndoResettingEstimators())
        {
            fullBandwidthBytesPerSecond = 0;
            fullBandwidthCount = 0;
            longTermBandwidth.reset(totalDeliveredBytes, totalLostBytes, deliveredTimeNs);
        }
        isInRecovery = false;
        isRecoveryStartPending = false;
        counters.publish(this);
    }

    public void onMtuChanged(final int maxDatagramSizeBytes)
    {
        congestionWindowBytes = Math.max(congestionWindowBytes, minTargetCwndBytes());
        sendQuantumBytes = BbrMath.sendQuantumBytes(pacingRateBytesPerSecond, context.maxDatagramSizeBytes());
    }

    public long congestionWindowBytes()
    {
        return congestionWindowBytes;
    }

    public long pacingRateBytesPerSecond()
    {
        return pacingRateBytesPerSecond;
    }

    public int sendQuantumBytes()
    {
        return sendQuantumBytes;
    }

    public String stateName()
    {
        return state.stateName();
    }

    public List<String> stateNames()
    {
        return Bbr1State.STATE_NAMES;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // State for observation and tests
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * @return the current state.
     */
    public Bbr1State state()
    {
        return state;
    }

    /**
     * @return the PROBE_BW gain-cycle phase index (0 = 5/4, 1 = 3/4, 2..7 = 1).
     */
    public int cycleIndex()
    {
        return cycleIndex;
    }

    /**
     * @return BBRplus: the current PROBE_BW cycle's length in min_rtts, 2 to 8 (0 before the first cycle); unused
     * by Linux BBR.
     */
    public int cycleLengthMinRtts()
    {
        return cycleLengthMinRtts;
    }

    /**
     * @return the {@code tcp_bbr.c} this controller follows.
     */
    public Bbr1Variant variant()
    {
        return variant;
    }

    /**
     * @return the windowed-max delivery rate ({@code bbr_max_bw}).
     */
    public long maxBandwidthBytesPerSecond()
    {
        return maxBandwidthFilter.best();
    }

    /**
     * @return the bandwidth the model uses: the long-term rate while policed, else max_bw ({@code bbr_bw}).
     */
    public long bandwidthBytesPerSecond()
    {
        return longTermBandwidth.isInUse() ? longTermBandwidth.bandwidthBytesPerSecond() : maxBandwidthFilter.best();
    }

    /**
     * @return true once an RTT sample was taken.
     */
    public boolean hasMinRtt()
    {
        return hasMinRtt;
    }

    /**
     * @return the min_rtt estimate (meaningful only if {@link #hasMinRtt()}).
     */
    public long minRttNs()
    {
        return minRttNs;
    }

    /**
     * @return when min_rtt was last refreshed ({@code min_rtt_stamp}); PROBE_RTT starts one interval later.
     */
    public long minRttStampNs()
    {
        return minRttStampNs;
    }

    /**
     * @return the current pacing gain.
     */
    public double pacingGain()
    {
        return pacingGain;
    }

    /**
     * @return the current cwnd gain.
     */
    public double cwndGain()
    {
        return cwndGain;
    }

    /**
     * @return true once STARTUP judged the pipe full.
     */
    public boolean isFullBandwidthReached()
    {
        return isFullBandwidthReached;
    }

    /**
     * @return true while the long-term (policer) rate is in use ({@code lt_use_bw}).
     */
    public boolean isLongTermBandwidthInUse()
    {
        return longTermBandwidth.isInUse();
    }

    /**
     * @return how often the long-term (policer) rate has been put in use, over the connection's life.
     */
    public long longTermBandwidthEngagements()
    {
        return longTermBandwidth.engagements();
    }

    /**
     * @return the long-term rate ({@code lt_bw}); 0 before the first lossy interval.
     */
    public long longTermBandwidthBytesPerSecond()
    {
        return longTermBandwidth.bandwidthBytesPerSecond();
    }

    /**
     * @return packet-timed rounds so far ({@code rtt_cnt}).
     */
    public long roundCount()
    {
        return rounds.roundCount();
    }

    /**
     * @return true while in loss recovery as tracked by this controller.
     */
    public boolean isInRecovery()
    {
        return isInRecovery;
    }

    /**
     * @return true during the first round of recovery (packet conservation).
     */
    public boolean isPacketConservation()
    {
        return isPacketConservation;
    }

    /**
     * @return the cwnd saved on entering recovery or PROBE_RTT ({@code prior_cwnd}).
     */
    public long priorCwndBytes()
    {
        return priorCwndBytes;
    }

    /**
     * @return the ACK-aggregation estimate ({@code bbr_extra_acked}).
     */
    public long extraAckedBytes()
    {
        return ackAggregation.extraAckedBytes();
    }

    /**
     * @param gain a gain.
     * @return the inflight target for max_bw and that gain ({@code bbr_inflight}).
     */
    public long inflightTargetBytes(final double gain)
    {
        return inflightBytes(maxBandwidthFilter.best(), gain);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Model update (bbr_update_model)
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * Recovery ends when a packet sent after it started is acknowledged (RFC 9002 section 7.3.2), the QUIC analogue
     * of Linux's {@code snd_una >= high_seq}; Linux updates its CA state before calling {@code bbr_main}.
     */
    private void updateRecoveryState(final AckEvent ack)
    {
        if (isInRecovery && ack.endsRecovery())
        {
            isInRecovery = false;
            recoveryEndNs = ack.nowNs();
        }
    }

    /**
     * {@code bbr_update_bw}: round accounting, long-term sampling and the max-bandwidth filter.
     */
    private void updateBandwidth(final AckEvent ack, final boolean isSampleAppLimited)
    {
        rounds.clearRoundStart();
        if (!ack.hasRateSample())
        {
            return;
        }

        if (rounds.onAck(ack.samplePriorDeliveredBytes(), totalDeliveredBytes))
        {
            isPacketConservation = false;
        }

        if (parameters.isLongTermBandwidthEnabled() && longTermBandwidth.onSample(
            Bbr1State.PROBE_BW == state, rounds.isRoundStart(), ack.newlyLostBytes() > 0, isSampleAppLimited,
            totalDeliveredBytes, totalLostBytes, deliveredTimeNs))
        {
            resetProbeBwMode();
        }
        if (longTermBandwidth.isInUse())
        {
            pacingGain = 1.0;
        }

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
    private void updateAckAggregation(final AckEvent ack)
    {
        if (0.0 == parameters.extraAckedGain() || ack.newlyAckedBytes() <= 0 || !ack.hasRateSample())
        {
            return;
        }
        ackAggregation.onAck(
            deliveredTimeNs, rounds.isRoundStart(), ack.newlyAckedBytes(), bandwidthBytesPerSecond(),
            congestionWindowBytes);
    }

    /**
     * {@code bbr_update_cycle_phase} / {@code bbr_is_next_cycle_phase}; BBRplus: {@code bbr_drain_to_target_cycling}.
     */
    private void updateCyclePhase(final AckEvent ack)
    {
        if (Bbr1State.PROBE_BW != state)
        {
            return;
        }
        if (variant.isDrainToTargetCycling())
        {
            drainToTargetCycling(ack);
        }
        else if (isNextCyclePhase(ack))
        {
            advanceCyclePhase();
        }
    }

    /**
     * BBRplus {@code bbr_drain_to_target_cycling}: every cycle of {@link #cycleLengthMinRtts} min_rtts (from a
     * cycle start, not a phase start) begins in the 5/4 phase. 5/4 ends, after at least one min_rtt, once inflight
     * reaches the 5/4 target or on any loss or application-limited sample; 3/4 then lasts until inflight is down to
     * the BDP target ("drain to target"), whatever the time; the rest of the cycle cruises at 1.0. Linux's time
     * limits per phase do not apply. BBRplus also leaves 5/4 when nothing is ready to send or the receive window
     * blocks the next segment ({@code !tcp_send_head}, {@code tcp_snd_wnd_test}); the SPI tells the controller of
     * neither, so the application-limited mark of the rate sample stands for them.
     */
    private void drainToTargetCycling(final AckEvent ack)
    {
        final long elapsedNs = deliveredTimeNs - cycleStartNs;
        if (hasMinRtt && elapsedNs > cycleLengthMinRtts * minRttNs)
        {
            // Always probe before the bandwidth estimate is forgotten: a new cycle of 2 to 8 min_rtts.
            cycleStartNs = deliveredTimeNs;
            cycleLengthMinRtts = CYCLE_LENGTH - random.nextInt(CYCLE_RANDOM_PHASES);
            cycleIndex = 0;
            return;
        }
        if (1.0 == pacingGain)
        {
            return;  // cruise at the estimate
        }

        final long inflightBytes = ack.priorBytesInFlightBytes();
        final long maxBandwidth = maxBandwidthFilter.best();
        if (pacingGain < 1.0)
        {
            if (inflightBytes <= inflightBytes(maxBandwidth, 1.0))
            {
                cycleIndex = CRUISE_PHASE_INDEX;  // the queue we added is drained
            }
            return;
        }
        if (hasMinRtt && elapsedNs > minRttNs && (inflightBytes >= inflightBytes(maxBandwidth, pacingGain) ||
            ack.newlyLostBytes() > 0 || ack.isSampleAppLimited()))
        {
            cycleIndex = DRAIN_PHASE_INDEX;
        }
    }

    private boolean isNextCyclePhase(final AckEvent ack)
    {
        final boolean isFullLength = hasMinRtt && deliveredTimeNs - cycleStartNs > minRttNs;
        if (1.0 == pacingGain)
        {
            return isFullLength;
        }

        // Without a departure-time pacer the inflight "at EDT" is the inflight before this ACK.
        final long inflightBytes = ack.priorBytesInFlightBytes();
        final long maxBandwidth = maxBandwidthFilter.best();

        // 5/4: raise inflight to 5/4 BDP (may take longer than min_rtt), but stop persisting on loss: a path with
        // small buffers may not hold that much.
        if (pacingGain > 1.0)
        {
            return isFullLength &&
                (ack.newlyLostBytes() > 0 || inflightBytes >= inflightBytes(maxBandwidth, pacingGain));
        }

        // 3/4: end early once the queue we added is drained; persisting would under-utilise the pipe.
        return isFullLength || inflightBytes <= inflightBytes(maxBandwidth, 1.0);
    }

    private void advanceCyclePhase()
    {
        cycleIndex = (cycleIndex + 1) & (CYCLE_LENGTH - 1);
        cycleStartNs = deliveredTimeNs;
    }

    /**
     * {@code bbr_check_full_bw_reached}.
     */
    private void checkFullBandwidthReached(final boolean isSampleAppLimited)
    {
        if (isFullBandwidthReached || !rounds.isRoundStart() || isSampleAppLimited)
        {
            return;
        }

        final long maxBandwidth = maxBandwidthFilter.best();
        if (maxBandwidth >= BbrConstants.FULL_BANDWIDTH_GROWTH * fullBandwidthBytesPerSecond)
        {
            fullBandwidthBytesPerSecond = maxBandwidth;
            fullBandwidthCount = 0;
            return;
        }
        isFullBandwidthReached = ++fullBandwidthCount >= BbrConstants.FULL_BANDWIDTH_ROUNDS;
    }

    /**
     * {@code bbr_check_drain}. Linux also sets ssthresh here, for monitoring only; there is none to set.
     */
    private void checkDrain(final AckEvent ack)
    {
        if (Bbr1State.STARTUP == state && isFullBandwidthReached)
        {
            state = Bbr1State.DRAIN;
        }
        // Fall through: inflight may already be small enough.
        if (Bbr1State.DRAIN == state && ack.bytesInFlight() <= inflightBytes(maxBandwidthFilter.best(), 1.0))
        {
            resetProbeBwMode();
        }
    }

    /**
     * {@code bbr_update_min_rtt}: the 10 s min_rtt filter and PROBE_RTT.
     */
    private void updateMinRtt(final AckEvent ack)
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

        if (parameters.probeRttDurationNs() > 0 && isFilterExpired && !isIdleRestart && Bbr1State.PROBE_RTT != state)
        {
            state = Bbr1State.PROBE_RTT;
            saveCwnd();
            hasProbeRttDoneStamp = false;
            probeRttAppLimitedFromBytes = totalDeliveredBytes;
        }

        if (Bbr1State.PROBE_RTT == state)
        {
            final long bytesInFlight = ack.bytesInFlight();
            markProbeRttAppLimited(bytesInFlight);
            // Hold the inflight floor for max(200 ms, 1 round).
            if (!hasProbeRttDoneStamp && bytesInFlight <= minTargetCwndBytes())
            {
                hasProbeRttDoneStamp = true;
                probeRttDoneStampNs = nowNs + parameters.probeRttDurationNs();
                isProbeRttRoundDone = false;
                rounds.startRound(totalDeliveredBytes);
            }
            else if (hasProbeRttDoneStamp)
            {
                if (rounds.isRoundStart())
                {
                    isProbeRttRoundDone = true;
                }
                if (isProbeRttRoundDone)
                {
                    checkProbeRttDone(nowNs);
                }
            }
        }

        // A restart from idle ends with the first ACK that delivers data.
        if (ack.newlyAckedBytes() > 0)
        {
            isIdleRestart = false;
        }
    }

    /**
     * {@code bbr_check_probe_rtt_done}.
     */
    private void checkProbeRttDone(final long nowNs)
    {
        if (!(hasProbeRttDoneStamp && nowNs - probeRttDoneStampNs > 0))
        {
            return;
        }
        minRttStampNs = nowNs;  // wait a whole interval until the next PROBE_RTT
        congestionWindowBytes = Math.max(congestionWindowBytes, priorCwndBytes);
        resetMode();
    }

    /**
     * Linux sets {@code tp->app_limited = delivered + inflight} on every PROBE_RTT ACK so the low delivery rates of
     * packets sent meanwhile do not drag max_bw down; the rate sampler stamps every packet sent while the mark is
     * set as app-limited, and clears the mark once more than that was delivered. The SPI gives the controller no way
     * to set the sampler's mark, so the controller keeps the same bubble itself. The mark is renewed on every
     * PROBE_RTT ACK (the sampler's clearing runs before BBR re-marks), so it is continuous from the PROBE_RTT entry
     * until the last mark is delivered: a sample is app-limited if its source was sent while {@code C.delivered}
     * was between the value at entry and the last mark.
     */
    private void markProbeRttAppLimited(final long bytesInFlight)
    {
        probeRttAppLimitedUntilBytes = Math.max(totalDeliveredBytes + bytesInFlight, 1);
    }

    private boolean isSampleAppLimited(final AckEvent ack)
    {
        final long priorDeliveredBytes = ack.samplePriorDeliveredBytes();
        return ack.isSampleAppLimited() ||
            (priorDeliveredBytes >= probeRttAppLimitedFromBytes && priorDeliveredBytes <= probeRttAppLimitedUntilBytes);
    }

    /**
     * {@code bbr_update_gains}.
     */
    private void updateGains()
    {
        switch (state)
        {
            case STARTUP:
                pacingGain = parameters.startupPacingGain();
                cwndGain = parameters.startupCwndGain();
                break;

            case DRAIN:
                pacingGain = parameters.drainPacingGain();
                cwndGain = parameters.startupCwndGain();  // keep cwnd while the queue drains
                break;

            case PROBE_BW:
                pacingGain = longTermBandwidth.isInUse() ? 1.0 : PROBE_BW_PACING_GAINS[cycleIndex];
                cwndGain = parameters.cwndGain();
                break;

            case PROBE_RTT:
                pacingGain = 1.0;
                cwndGain = 1.0;
                break;
        }
    }

    private void resetMode()
    {
        if (isFullBandwidthReached)
        {
            resetProbeBwMode();
        }
        else
        {
            state = Bbr1State.STARTUP;
        }
    }

    /**
     * {@code bbr_reset_probe_bw_mode}: start the gain cycle at a random phase other than 3/4. Linux picks
     * {@code CYCLE_LEN - 1 - random(7)} and advances once, i.e. uniformly from {2, ..., 7, 0}.
     */
    private void resetProbeBwMode()
    {
        state = Bbr1State.PROBE_BW;
        cycleIndex = CYCLE_LENGTH - 1 - random.nextInt(CYCLE_LENGTH - 1);
        advanceCyclePhase();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Control: pacing and cwnd
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * {@code bbr_init_pacing_rate_from_rtt}: {@code high_gain * cwnd / srtt}, with a nominal 1 ms RTT before any
     * sample.
     */
    private void initPacingRateFromRtt()
    {
        final long rttNs;
        if (rttStats.hasSample())
        {
            rttNs = Math.max(rttStats.smoothedRttNs(), 1);
            hasSeenRtt = true;
        }
        else
        {
            rttNs = BbrConstants.NOMINAL_RTT_NS;
        }
        final long bandwidth = BbrMath.rateBytesPerSecond(congestionWindowBytes, rttNs);
        pacingRateBytesPerSecond = toPacingRate(bandwidth, parameters.startupPacingGain());
        sendQuantumBytes = BbrMath.sendQuantumBytes(pacingRateBytesPerSecond, context.maxDatagramSizeBytes());
    }

    /**
     * {@code bbr_set_pacing_rate}: until the pipe is full the rate only rises, so a low early sample cannot slow
     * STARTUP.
     */
    private void setPacingRate(final long bandwidthBytesPerSecond, final double gain)
    {
        final long rate = toPacingRate(bandwidthBytesPerSecond, gain);
        if (!hasSeenRtt && rttStats.hasSample())
        {
            initPacingRateFromRtt();
        }
        if (isFullBandwidthReached || rate > pacingRateBytesPerSecond)
        {
            pacingRateBytesPerSecond = rate;
        }
        sendQuantumBytes = BbrMath.sendQuantumBytes(pacingRateBytesPerSecond, context.maxDatagramSizeBytes());
    }

    /**
     * {@code bbr_bw_to_pacing_rate}: pace 1 % below the estimate, capped by the configured maximum.
     */
    private long toPacingRate(final long bandwidthBytesPerSecond, final double gain)
    {
        final long rate = (long)(bandwidthBytesPerSecond * gain * pacingMarginFactor);
        return Math.min(rate, parameters.maxPacingRateBytesPerSecond());
    }

    /**
     * {@code bbr_set_cwnd}.
     */
    private void setCwnd(final AckEvent ack, final long ackedBytes, final long bandwidth, final double gain)
    {
        long cwnd = congestionWindowBytes;
        if (ackedBytes > 0)
        {
            final boolean isConserving = setCwndToRecoverOrRestore(ack, ackedBytes);
            cwnd = congestionWindowBytes;
            if (!isConserving)
            {
                long targetBytes = bdpBytes(bandwidth, gain);
                // Provision for data that aggregation (of data or ACKs) delivers beyond the bandwidth estimate.
                targetBytes += ackAggregationCwndBytes();
                targetBytes = quantizationBudget(targetBytes);

                // Slow-start toward the target; only cut cwnd once the pipe was filled.
                if (isFullBandwidthReached)
                {
                    cwnd = Math.min(cwnd + ackedBytes, targetBytes);
                }
                else if (cwnd < targetBytes || totalDeliveredBytes < initialWindowBytes)
                {
                    cwnd = cwnd + ackedBytes;
                }
                cwnd = Math.max(cwnd, minTargetCwndBytes());
            }
        }

        if (Bbr1State.PROBE_RTT == state)
        {
            cwnd = Math.min(cwnd, minTargetCwndBytes());  // drain the queue, refresh min_rtt
        }
        congestionWindowBytes = cwnd;
    }

    /**
     * {@code bbr_set_cwnd_to_recover_or_restore}: an ACK for P bytes releases at most 2P. Newly lost bytes come off
     * cwnd; the first round of recovery follows packet conservation; on leaving recovery the saved cwnd returns.
     * Leaves the result in {@link #congestionWindowBytes}.
     *
     * @return true if packet conservation decided cwnd.
     */
    private boolean setCwndToRecoverOrRestore(final AckEvent ack, final long ackedBytes)
    {
        long cwnd = congestionWindowBytes;
        final long lostBytes = ack.newlyLostBytes();
        if (lostBytes > 0)
        {
            cwnd = Math.max(cwnd - lostBytes, context.maxDatagramSizeBytes());  // Linux floor: 1 packet
        }

        final long bytesInFlight = ack.bytesInFlight();
        if (isInRecovery && isRecoveryStartPending)
        {
            // First round of recovery: packet conservation, starting a round now; cut cwnd the application,
            // pacing or batching left unused.
            isPacketConservation = true;
            rounds.startRound(totalDeliveredBytes);
            cwnd = bytesInFlight + ackedBytes;
        }
        else if (wasInRecovery && !isInRecovery)
        {
            cwnd = Math.max(cwnd, priorCwndBytes);
            isPacketConservation = false;
        }
        isRecoveryStartPending = false;
        wasInRecovery = isInRecovery;

        if (isPacketConservation)
        {
            congestionWindowBytes = Math.max(cwnd, bytesInFlight + ackedBytes);
            return true;
        }
        congestionWindowBytes = cwnd;
        return false;
    }

    /**
     * {@code bbr_save_cwnd}: remember the last known good cwnd, unless recovery or PROBE_RTT already cut it.
     */
    private void saveCwnd()
    {
        if (!wasInRecovery && Bbr1State.PROBE_RTT != state)
        {
            priorCwndBytes = congestionWindowBytes;
        }
        else
        {
            priorCwndBytes = Math.max(priorCwndBytes, congestionWindowBytes);
        }
    }

    /**
     * Persistent congestion handled like Linux's RTO: {@code tcp_enter_loss} saves cwnd and collapses it, then
     * {@code bbr_set_state(TCP_CA_Loss)} resets {@code full_bw}, treats the event as a round end and as a loss for
     * long-term sampling. Linux collapses to 1 packet; here the window collapses to the RFC 9002 minimum (2 datagrams),
     * and the next ACK lifts it to the 4-packet floor as in Linux. cwnd then regrows by the acked bytes and the saved
     * cwnd returns when the episode ends. The previous CA state becomes "Loss", so this episode gets no
     * packet-conservation round.
     */
    private void onPersistentCongestion()
    {
        saveCwnd();
        congestionWindowBytes = context.minimumWindowBytes();
        isInRecovery = true;
        wasInRecovery = true;
        isRecoveryStartPending = false;
        isPacketConservation = false;

        fullBandwidthBytesPerSecond = 0;
        // The RTO counts as a round end and as a loss for long-term sampling (Linux sets round_start = 1 and feeds
        // bbr_lt_bw_sampling a sample with losses = 1).
        if (parameters.isLongTermBandwidthEnabled() && longTermBandwidth.onSample(
            Bbr1State.PROBE_BW == state, true, true, false, totalDeliveredBytes, totalLostBytes, deliveredTimeNs))
        {
            resetProbeBwMode();
            updateGains();
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Derived quantities (Linux bbr_bdp, bbr_quantization_budget, bbr_inflight)
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * {@code bbr_bdp}: {@code ceil(bw * min_rtt * gain)}; without an RTT sample, the initial window (Linux:
     * {@code TCP_INIT_CWND}).
     */
    private long bdpBytes(final long bandwidthBytesPerSecond, final double gain)
    {
        if (!hasMinRtt)
        {
            return initialWindowBytes;
        }
        return BbrMath.bdpBytes(bandwidthBytesPerSecond, minRttNs, gain);
    }

    /**
     * {@code bbr_quantization_budget}: room for three send quanta in the end hosts (Linux: three TSO bursts), rounded
     * up to an even number of packets (fewer delayed ACKs), plus 2 packets in the 5/4 phase so gain cycling raises
     * inflight above BDP even for tiny BDPs. BBRplus keeps only the three quanta.
     */
    private long quantizationBudget(final long windowBytes)
    {
        long budgetBytes = windowBytes + 3L * sendQuantumBytes;
        if (!variant.hasEvenAndProbeUpQuantization())
        {
            return budgetBytes;
        }
        final long twoPacketsBytes = 2L * context.maxDatagramSizeBytes();
        budgetBytes = (budgetBytes + twoPacketsBytes - 1) / twoPacketsBytes * twoPacketsBytes;
        if (Bbr1State.PROBE_BW == state && 0 == cycleIndex)
        {
            budgetBytes += twoPacketsBytes;
        }
        return budgetBytes;
    }

    /**
     * {@code bbr_inflight}.
     */
    private long inflightBytes(final long bandwidthBytesPerSecond, final double gain)
    {
        return quantizationBudget(bdpBytes(bandwidthBytesPerSecond, gain));
    }

    /**
     * {@code bbr_ack_aggregation_cwnd}: used only once the pipe was filled.
     */
    private long ackAggregationCwndBytes()
    {
        if (0.0 == parameters.extraAckedGain() || !isFullBandwidthReached)
        {
            return 0;
        }
        return ackAggregation.cwndCreditBytes(
            parameters.extraAckedGain(), bandwidthBytesPerSecond(), EXTRA_ACKED_MAX_INTERVAL_NS);
    }

    private long minTargetCwndBytes()
    {
        return BbrConstants.minPipeCwndBytes(context.maxDatagramSizeBytes());
    }

    public String toString()
    {
        return "Bbr1Controller{variant=" + variant + ", state=" + state + ", cycleIndex=" + cycleIndex + ", maxBw=" +
            maxBandwidthFilter.best() + ", minRttNs=" + minRttNs + ", cwnd=" + congestionWindowBytes + ", pacingRate=" +
            pacingRateBytesPerSecond + ", fullBw=" + isFullBandwidthReached + ", ltUseBw=" +
            longTermBandwidth.isInUse() + ", rounds=" + rounds.roundCount() + "}";
    }
}
