package io.pacelink.bbr.v1;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.LostPacket;

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
 *     {@code icsk_ca_state} ({@link Bbr1Recovery} says how an episode maps to Linux's).</li>
 *     <li>Persistent congestion plays the role of Linux's RTO ({@code bbr_set_state(TCP_CA_Loss)}).</li>
 *     <li>PROBE_RTT's "mark the connection application-limited" is emulated here (see
 *     {@code markProbeRttAppLimited}) because the SPI gives the controller no way to set the sampler's mark.</li>
 *     <li>An expired min_rtt filter takes any RTT sample: Linux skips samples from delayed ACKs
 *     ({@code rs->is_ack_delayed}), which the SPI does not report.</li>
 *     <li>No departure-time pacer: {@code bbr_packets_in_net_at_edt} is taken as the inflight it is given.</li>
 * </ul>
 * The parts: {@link Bbr1Model} (the estimators), {@link Bbr1Mode} (state, gain-cycle phase, gains),
 * {@link Bbr1GainCycle} (PROBE_BW), {@link Bbr1ProbeRtt}, {@link Bbr1Recovery} (packet conservation and restore) and
 * {@link Bbr1Outputs} (pacing rate, send quantum, cwnd); this class answers the SPI's callbacks in {@code bbr_main}'s
 * order.
 * <p>
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

    private final Bbr1Variant variant;
    private final ControllerContext context;
    private final Bbr1Model model;
    private final Bbr1Mode mode;
    private final Bbr1Recovery recovery;
    private final Bbr1Outputs outputs;
    private final Bbr1GainCycle gainCycle;
    private final Bbr1ProbeRtt probeRtt;
    private final Bbr1Counters counters;

    /**
     * Construct in STARTUP ({@code bbr_init}).
     *
     * @param context    the connection's controller context.
     * @param parameters validated parameters.
     */
    public Bbr1Controller(final ControllerContext context, final Bbr1Parameters parameters)
    {
        this.variant = parameters.variant();
        this.context = context;
        final double pacingMarginFactor = 1.0 - parameters.pacingMarginPercent() / 100.0;
        this.model = new Bbr1Model(parameters, context, pacingMarginFactor);
        this.mode = new Bbr1Mode(parameters);
        this.recovery = new Bbr1Recovery(model);
        this.outputs = new Bbr1Outputs(parameters, context.rttStats(), model, mode, recovery, pacingMarginFactor);
        this.gainCycle = new Bbr1GainCycle(variant, context.random(), model, mode, outputs);
        this.probeRtt = new Bbr1ProbeRtt(parameters, model, mode, recovery, outputs, gainCycle);

        mode.updateGains(false);
        outputs.initPacingRateFromRtt();
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
        probeRtt.onRestartFromIdle();
        model.restartAckAggregationEpoch(nowNs);
        // Avoid pointless buffer overflows: pace at the estimate if we need no more speed.
        if (mode.is(Bbr1State.PROBE_BW))
        {
            outputs.setPacingRate(model.bandwidthBytesPerSecond(), 1.0);
        }
        else if (mode.is(Bbr1State.PROBE_RTT))
        {
            probeRtt.checkDone(nowNs);
        }
        counters.publish(this);
    }

    /**
     * One ACK frame: {@code bbr_main} = {@code bbr_update_model}, then pacing and cwnd.
     */
    public void onAck(final AckEvent ack)
    {
        final long ackedBytes = ack.newlyAckedBytes();
        model.observe(ack);
        recovery.onAck(ack);

        final boolean isSampleAppLimited = probeRtt.isSampleAppLimited(ack);
        updateBandwidth(ack, isSampleAppLimited);
        model.updateAckAggregation(ack, outputs.congestionWindowBytes());
        gainCycle.update(ack);
        model.checkFullBandwidthReached(isSampleAppLimited);
        checkDrain(ack);
        probeRtt.update(ack, model.updateMinRtt(ack));
        mode.updateGains(model.longTermBandwidth().isInUse());

        final long bandwidthBytesPerSecond = model.bandwidthBytesPerSecond();
        outputs.setPacingRate(bandwidthBytesPerSecond, mode.pacingGain());
        outputs.setCwnd(ack, ackedBytes, bandwidthBytesPerSecond, mode.cwndGain());
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
        else
        {
            recovery.onRecoveryStart(
                event.newestLostSentTimeNs(), outputs.congestionWindowBytes(), mode.is(Bbr1State.PROBE_RTT));
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
            model.resetEstimatorsOnUndo();
        }
        recovery.onSpuriousLoss();
        counters.publish(this);
    }

    public void onMtuChanged(final int maxDatagramSizeBytes)
    {
        outputs.onMtuChanged();
    }

    public long congestionWindowBytes()
    {
        return outputs.congestionWindowBytes();
    }

    public long pacingRateBytesPerSecond()
    {
        return outputs.pacingRateBytesPerSecond();
    }

    public int sendQuantumBytes()
    {
        return outputs.sendQuantumBytes();
    }

    public String stateName()
    {
        return mode.state().stateName();
    }

    public List<String> stateNames()
    {
        return Bbr1State.STATE_NAMES;
    }

    /**
     * @return true in STARTUP: its bandwidth filter and full-pipe detection grow per ACK.
     */
    @Override
    public boolean isInStartup()
    {
        return mode.is(Bbr1State.STARTUP);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // State for observation and tests
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * @return the current state.
     */
    public Bbr1State state()
    {
        return mode.state();
    }

    /**
     * @return the PROBE_BW gain-cycle phase index (0 = 5/4, 1 = 3/4, 2..7 = 1).
     */
    public int cycleIndex()
    {
        return mode.cycleIndex();
    }

    /**
     * @return BBRplus: the current PROBE_BW cycle's length in min_rtts, 2 to 8 (0 before the first cycle); unused
     * by Linux BBR.
     */
    public int cycleLengthMinRtts()
    {
        return gainCycle.cycleLengthMinRtts();
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
        return model.maxBandwidthBytesPerSecond();
    }

    /**
     * @return the bandwidth the model uses: the long-term rate while policed, else max_bw ({@code bbr_bw}).
     */
    public long bandwidthBytesPerSecond()
    {
        return model.bandwidthBytesPerSecond();
    }

    /**
     * @return true once an RTT sample was taken.
     */
    public boolean hasMinRtt()
    {
        return model.hasMinRtt();
    }

    /**
     * @return the min_rtt estimate (meaningful only if {@link #hasMinRtt()}).
     */
    public long minRttNs()
    {
        return model.minRttNs();
    }

    /**
     * @return when min_rtt was last refreshed ({@code min_rtt_stamp}); PROBE_RTT starts one interval later.
     */
    public long minRttStampNs()
    {
        return model.minRttStampNs();
    }

    /**
     * @return the current pacing gain.
     */
    public double pacingGain()
    {
        return mode.pacingGain();
    }

    /**
     * @return the current cwnd gain.
     */
    public double cwndGain()
    {
        return mode.cwndGain();
    }

    /**
     * @return true once STARTUP judged the pipe full.
     */
    public boolean isFullBandwidthReached()
    {
        return model.isFullBandwidthReached();
    }

    /**
     * @return true while the long-term (policer) rate is in use ({@code lt_use_bw}).
     */
    public boolean isLongTermBandwidthInUse()
    {
        return model.longTermBandwidth().isInUse();
    }

    /**
     * @return how often the long-term (policer) rate has been put in use, over the connection's life.
     */
    public long longTermBandwidthEngagements()
    {
        return model.longTermBandwidth().engagements();
    }

    /**
     * @return the long-term rate ({@code lt_bw}); 0 before the first lossy interval.
     */
    public long longTermBandwidthBytesPerSecond()
    {
        return model.longTermBandwidth().bandwidthBytesPerSecond();
    }

    /**
     * @return packet-timed rounds so far ({@code rtt_cnt}).
     */
    public long roundCount()
    {
        return model.roundCount();
    }

    /**
     * @return true while in loss recovery as tracked by this controller.
     */
    public boolean isInRecovery()
    {
        return recovery.isInRecovery();
    }

    /**
     * @return true during the first round of recovery (packet conservation).
     */
    public boolean isPacketConservation()
    {
        return recovery.isPacketConservation();
    }

    /**
     * @return the cwnd saved on entering recovery or PROBE_RTT ({@code prior_cwnd}).
     */
    public long priorCwndBytes()
    {
        return recovery.priorCwndBytes();
    }

    /**
     * @return the ACK-aggregation estimate ({@code bbr_extra_acked}).
     */
    public long extraAckedBytes()
    {
        return model.extraAckedBytes();
    }

    /**
     * @param gain a gain.
     * @return the inflight target for max_bw and that gain ({@code bbr_inflight}).
     */
    public long inflightTargetBytes(final double gain)
    {
        return outputs.inflightBytes(model.maxBandwidthBytesPerSecond(), gain);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // bbr_update_model's steps that move the state machine
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * {@code bbr_update_bw}: round accounting, long-term sampling and the max-bandwidth filter.
     */
    private void updateBandwidth(final AckEvent ack, final boolean isSampleAppLimited)
    {
        model.clearRoundStart();
        if (!ack.hasRateSample())
        {
            return;
        }
        if (model.onRoundAck(ack))
        {
            recovery.onRoundStart();
        }
        if (model.sampleLongTermBandwidth(mode.is(Bbr1State.PROBE_BW), ack, isSampleAppLimited))
        {
            gainCycle.enterProbeBw();
        }
        if (model.longTermBandwidth().isInUse())
        {
            mode.paceAtEstimate();
        }
        model.updateMaxBandwidth(ack, isSampleAppLimited);
    }

    /**
     * {@code bbr_check_drain}. Linux also sets ssthresh here, for monitoring only; there is none to set.
     */
    private void checkDrain(final AckEvent ack)
    {
        if (mode.is(Bbr1State.STARTUP) && model.isFullBandwidthReached())
        {
            mode.enter(Bbr1State.DRAIN);
        }
        // Fall through: inflight may already be small enough.
        if (mode.is(Bbr1State.DRAIN) &&
            ack.bytesInFlight() <= outputs.inflightBytes(model.maxBandwidthBytesPerSecond(), 1.0))
        {
            gainCycle.enterProbeBw();
        }
    }

    /**
     * Persistent congestion handled like Linux's RTO: {@code tcp_enter_loss} saves cwnd and collapses it, then
     * {@code bbr_set_state(TCP_CA_Loss)} resets {@code full_bw}, treats the event as a round end and as a loss for
     * long-term sampling. cwnd then regrows by the acked bytes and the saved cwnd returns when the episode ends.
     */
    private void onPersistentCongestion()
    {
        recovery.onPersistentCongestion(outputs.congestionWindowBytes(), mode.is(Bbr1State.PROBE_RTT));
        outputs.collapseCwnd(context.minimumWindowBytes());
        if (model.onRetransmissionTimeout(mode.is(Bbr1State.PROBE_BW)))
        {
            gainCycle.enterProbeBw();
            mode.updateGains(model.longTermBandwidth().isInUse());
        }
    }

    public String toString()
    {
        return "Bbr1Controller{variant=" + variant + ", state=" + mode.state() + ", cycleIndex=" + mode.cycleIndex() +
            ", maxBw=" + model.maxBandwidthBytesPerSecond() + ", minRttNs=" + model.minRttNs() + ", cwnd=" +
            outputs.congestionWindowBytes() + ", pacingRate=" + outputs.pacingRateBytesPerSecond() + ", fullBw=" +
            model.isFullBandwidthReached() + ", ltUseBw=" + model.longTermBandwidth().isInUse() + ", rounds=" +
            model.roundCount() + "}";
    }
}
