package io.pacelink.bbr.v3;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.LostPacket;

import java.util.List;

/**
 * BBRv3 as specified by draft-ietf-ccwg-bbr-06, in bytes and nanoseconds. Method names follow the draft's pseudo-code
 * ({@code UpdateModelAndState}, {@code CheckStartupDone}, ...) and cite the Linux v3 function ({@code google/bbr}
 * {@code net/ipv4/tcp_bbr.c}) where the draft leaves a detail open. The same state machine runs BBRv2 alpha
 * ({@code tcp_bbr2.c}), whose different rules {@link Bbr3Variant} switches and whose constants
 * {@link Bbr3Parameters} gives.
 * <p>
 * Per ACK frame the transport calls {@link #onPacketLost} for each newly lost packet (draft {@code HandleLostPacket}),
 * {@link #onCongestionEvent} once if any was lost (loss-recovery entry), then {@link #onAck} (draft
 * {@code UpdateOnACK}: model and state, then pacing rate, send quantum and cwnd).
 * <p>
 * Loss recovery is the transport's recovery period (RFC 9002 section 7.3.2), announced by
 * {@link CongestionEvent#startsRecovery()} and {@link AckEvent#endsRecovery()}; persistent congestion is handled like
 * an RTO (draft {@code OnEnterRTO}, Linux {@code bbr_set_state(TCP_CA_Loss)}).
 * <p>
 * ECN follows Linux BBRv3 ({@code tcp_bbr.c}; BBRv2 alpha's {@code tcp_bbr2.c} has the same rules), not the draft,
 * which only says CE counts as congestion: once the path is ECN-capable ({@link AckEvent#isEcnCapable()}) and min_rtt
 * at most {@code ecnMaxRttUs}, the CE-marked fraction of each round's delivered data feeds an EWMA
 * ({@code bbr_update_ecn_alpha}); two Startup rounds at or above {@code ecnThreshold} end Startup
 * ({@code bbr_check_ecn_too_high_in_startup}); a sample above it has inflight too high, which ends a bandwidth probe
 * like excess loss ({@code bbr_is_inflight_too_high}); a round with marks while not probing cuts inflight_shortterm to
 * {@code 1 - ecnFactor * alpha} of itself ({@code bbr_ecn_lower_bounds}); and a cycle with marks but no loss re-probes
 * with a head start ({@code bbr_ecn_reprobe_gain}). Marks never open a loss recovery. Protective load balancing
 * ({@code bbr_plb}) is left out: a connection here has one path. {@link Bbr3Ecn} holds these signals.
 * <p>
 * The SPI has no way to mark the connection application-limited (draft {@code MarkConnectionAppLimited} in
 * ProbeRTT), so the controller itself treats samples whose source was sent while ProbeRTT held the mark as
 * application-limited, exactly the packets the transport's rate sampler would have flagged.
 * <p>
 * The parts, as google quiche splits its BBR2 sender: {@link Bbr3Model} (the network path model and its signals),
 * one class per group of states ({@link Bbr3Startup} with Drain, {@link Bbr3ProbeBw}, {@link Bbr3ProbeRtt}),
 * {@link Bbr3Outputs} (pacing rate, send quantum, cwnd), and this thin sender, which answers the SPI's callbacks in
 * the draft's order and keeps the loss-recovery and undo state.
 * <p>
 * Not thread safe; every method runs on the endpoint's agent thread and none allocates.
 */
public final class Bbr3Controller implements CongestionController
{
    /**
     * The draft's "Infinity" for unset bounds (inflight_longterm, bw_shortterm, ...) and min_rtt before a sample.
     */
    static final long INFINITE = Long.MAX_VALUE;

    private final Bbr3Variant variant;
    private final Bbr3Counters counters;
    private final Bbr3Model model;
    private final Bbr3Mode mode;
    private final Bbr3Outputs outputs;
    private final Bbr3ProbeBw probeBw;
    private final Bbr3ProbeRtt probeRtt;
    private final Bbr3Startup startup;
    private boolean hasStartedClocks;

    // Answering the transport's recovery period (RFC 9002 section 7.3.2).
    private boolean inRecovery;

    // Undo state (draft "Undo State"); null is the draft's "None".
    private Bbr3State undoState;
    private long undoBwShorttermBytesPerSecond;
    private long undoInflightShorttermBytes;
    private long undoInflightLongtermBytes;

    /**
     * Draft {@code OnInit}.
     *
     * @param context the connection's controller context.
     * @param config  the BBRv3 constants.
     */
    public Bbr3Controller(final ControllerContext context, final Bbr3Parameters config)
    {
        this.variant = config.variant;
        this.counters = new Bbr3Counters(context.counters(), variant);
        final boolean hasRtt = context.rttStats().hasSample();
        this.model = new Bbr3Model(config, context, hasRtt ? context.rttStats().smoothedRttNs() : INFINITE);
        this.mode = new Bbr3Mode(config);
        this.outputs = new Bbr3Outputs(config, context.rttStats(), model, mode);
        this.probeBw = new Bbr3ProbeBw(config, context.random(), model, mode, outputs);
        this.probeRtt = new Bbr3ProbeRtt(config, model, mode, outputs, probeBw);
        this.startup = new Bbr3Startup(config, model, mode, outputs, probeBw);
        startup.enter();
        publishCounters();
    }

    public void onPacketSent(
        final long nowNs,
        final long packetNumber,
        final int sizeBytes,
        final long bytesInFlight,
        final boolean isRetransmission)
    {
        startClocksIfNeeded(nowNs);
        model.observeInflight(bytesInFlight);
    }

    /**
     * Draft {@code HandleRestartFromIdle} (Linux {@code bbr_cwnd_event(CA_EVENT_TX_START)}): the transport calls this
     * only when nothing is in flight and the application had nothing to send.
     */
    public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
    {
        startClocksIfNeeded(nowNs);
        model.restartAckAggregationEpoch(nowNs);
        if (mode.state().isProbeBw())
        {
            // Pace at exactly bw: return to rate balance and a full pipe within one min_rtt, without a burst.
            outputs.setPacingRateWithGain(1.0);
            outputs.setSendQuantum();
        }
        probeRtt.onRestartFromIdle(nowNs);
        publishCounters();
    }

    /**
     * Draft {@code UpdateOnACK}: {@code UpdateModelAndState} then {@code UpdateControlParameters}.
     */
    public void onAck(final AckEvent ack)
    {
        final long nowNs = ack.nowNs();
        startClocksIfNeeded(nowNs);
        model.observe(ack.totalDeliveredBytes(), ack.bytesInFlight());
        model.readRateSample(ack, probeRtt);

        model.updateLatestDeliverySignals();
        if (model.updateMaxBw())
        {
            probeBw.onRoundStart();
            final double ceRatio = model.updateEcnAlpha(); // Linux bbr_main: at each packet-timed round start
            if (ceRatio >= 0)
            {
                startup.checkEcnTooHigh(ceRatio);
            }
        }
        model.adaptLowerBoundsOncePerRound(mode.state(), outputs.congestionWindowBytes());
        model.updateAckAggregation(nowNs, outputs.congestionWindowBytes());
        model.checkFullBwReached();
        if (startup.checkDone(inRecovery))
        {
            undoState = Bbr3State.STARTUP;
        }
        startup.checkDrainDone(nowNs);
        if (probeBw.updateCyclePhase(nowNs, ack.isCwndLimited(), inRecovery))
        {
            undoState = Bbr3State.PROBE_BW_UP;
        }
        model.updateMinRtt(nowNs);
        probeRtt.check(nowNs, inRecovery);
        model.advanceLatestDeliverySignals();
        model.boundBwForModel();
        model.noteCycleSignals();

        // Recovery ends once a packet sent after it began is acknowledged (RFC 9002 section 7.3.2). Evaluated after
        // the model so the Startup loss exit sees the round that just ended as spent in recovery; the draft then
        // restores the last known good cwnd and lets SetCwnd bound it by the model on the same ACK.
        if (inRecovery && ack.endsRecovery())
        {
            inRecovery = false;
            outputs.restoreCwnd();
        }

        outputs.setPacingRateWithGain(mode.pacingGain());
        outputs.setSendQuantum();
        outputs.setCwnd();
        publishCounters();
    }

    /**
     * Draft {@code HandleLostPacket} (Linux {@code bbr_skb_marked_lost}): note the loss, count it for the Startup
     * loss exit, and let a probe that went too high stop at the inflight where losses crossed the threshold.
     */
    public void onPacketLost(final LostPacket lost)
    {
        startClocksIfNeeded(lost.nowNs());
        model.observe(lost.totalDeliveredBytes(), lost.bytesInFlight());
        startup.onPacketLost(lost.packetNumber());
        noteLoss();
        if (probeBw.onPacketLost(lost))
        {
            undoState = Bbr3State.PROBE_BW_UP;
        }
        publishCounters();
    }

    /**
     * Loss-recovery entry (draft {@code OnEnterFastRecovery}, or {@code OnEnterRTO} on persistent congestion) when the
     * batch starts a recovery period; losses of packets sent before the current period began belong to it. The
     * transport reports CE marks to this controller through {@link AckEvent} only ({@link #isEcnCeCongestionEvent()}
     * is false); a CE congestion event, should one come, changes nothing: Linux BBRv3 reads marks per round, never as
     * a loss.
     */
    public void onCongestionEvent(final CongestionEvent event)
    {
        startClocksIfNeeded(event.nowNs());
        model.observeInflight(event.bytesInFlight());
        if (event.isEcnCe())
        {
            return;
        }

        if (event.isPersistentCongestion())
        {
            enterRtoRecovery();
        }
        else if (event.startsRecovery())
        {
            if (variant.isUndoResumingProbe())
            {
                // The undo snapshot was taken by NoteLoss at the round's first loss; saving it again here would
                // discard an undo_state set by HandleInflightTooHigh for this very batch.
                outputs.saveCwnd(inRecovery);
            }
            else
            {
                saveStateUponLoss();  // v2 bbr2_ssthresh: cwnd and bounds saved on entering recovery
            }
        }
        else
        {
            return;
        }
        inRecovery = true;
        publishCounters();
    }

    /**
     * Draft {@code HandleSpuriousLossDetection} (Linux {@code bbr_undo_cwnd}): the recovery was spurious, restore
     * cwnd and the bounds saved when it began, and resume probing if the loss had stopped it. BBRv2 alpha
     * ({@code bbr2_undo_cwnd}) sets cwnd to the saved one and restores the bounds, without resuming a probe.
     */
    public void onSpuriousLoss(final long nowNs)
    {
        startClocksIfNeeded(nowNs);
        if (variant.isUndoResumingProbe())
        {
            outputs.restoreCwnd();
        }
        else
        {
            outputs.resetCwndToPrior();
        }
        model.forgetLossInRound();
        model.resetFullBw();
        model.restoreBounds(undoBwShorttermBytesPerSecond, undoInflightShorttermBytes, undoInflightLongtermBytes);
        final Bbr3State state = mode.state();
        if (!variant.isUndoResumingProbe())
        {
            undoState = null;
        }
        else if (Bbr3State.STARTUP == undoState && Bbr3State.STARTUP != state)
        {
            model.markFullBwReached(false);
            if (Bbr3State.PROBE_RTT != state)
            {
                startup.enter();
            }
        }
        else if (Bbr3State.PROBE_BW_UP == undoState && Bbr3State.PROBE_BW_UP != state)
        {
            if (Bbr3State.PROBE_RTT != state)
            {
                probeBw.startRefill();
            }
        }
        undoState = null;
        inRecovery = false;
        publishCounters();
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
        return mode.state().name();
    }

    public List<String> stateNames()
    {
        return Bbr3State.STATE_NAMES;
    }

    /**
     * @return true in STARTUP: its bandwidth filter and full-pipe detection grow per ACK.
     */
    @Override
    public boolean isInStartup()
    {
        return Bbr3State.STARTUP == mode.state();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // State for observation and tests
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * @return the current state.
     */
    public Bbr3State state()
    {
        return mode.state();
    }

    /**
     * @return the long-term bandwidth estimate ({@code BBR.max_bw}).
     */
    public long maxBwBytesPerSecond()
    {
        return model.maxBwBytesPerSecond();
    }

    /**
     * @return the bandwidth the model uses: {@code min(max_bw, bw_shortterm)} ({@code BBR.bw}).
     */
    public long bwBytesPerSecond()
    {
        return model.bwBytesPerSecond();
    }

    /**
     * @return the short-term bandwidth bound, {@link Long#MAX_VALUE} while unset ({@code BBR.bw_shortterm}).
     */
    public long bwShorttermBytesPerSecond()
    {
        return model.bwShorttermBytesPerSecond();
    }

    /**
     * @return the long-term inflight bound, {@link Long#MAX_VALUE} while unset ({@code BBR.inflight_longterm}).
     */
    public long inflightLongtermBytes()
    {
        return model.inflightLongtermBytes();
    }

    /**
     * @return the short-term inflight bound, {@link Long#MAX_VALUE} while unset ({@code BBR.inflight_shortterm}).
     */
    public long inflightShorttermBytes()
    {
        return model.inflightShorttermBytes();
    }

    /**
     * @return the min_rtt estimate, {@link Long#MAX_VALUE} before any RTT sample ({@code BBR.min_rtt}).
     */
    public long minRttNs()
    {
        return model.minRttNs();
    }

    /**
     * @return packet-timed rounds so far ({@code BBR.round_count}).
     */
    public long roundCount()
    {
        return model.roundCount();
    }

    /**
     * @return true once the pipe was judged full ({@code BBR.full_bw_reached}).
     */
    public boolean isFullBwReached()
    {
        return model.isFullBwReached();
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
     * @return true while in loss recovery as tracked by this controller.
     */
    public boolean isInRecovery()
    {
        return inRecovery;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Loss recovery and undo
    // ---------------------------------------------------------------------------------------------------------------

    private void startClocksIfNeeded(final long nowNs)
    {
        if (!hasStartedClocks)
        {
            hasStartedClocks = true;
            model.startClock(nowNs);
        }
    }

    private void noteLoss()
    {
        // Draft NoteLoss: the first loss of a round also takes the undo snapshot (v3).
        if (model.noteLoss() && variant.isUndoResumingProbe())
        {
            saveStateUponLoss();
        }
    }

    private void enterRtoRecovery()
    {
        // Draft OnEnterRTO plus Linux bbr_set_state(TCP_CA_Loss): the path may have changed, so re-check the full
        // pipe and, if not probing, bound the short-term volume by the cwnd we had.
        saveStateUponLoss();
        model.resetFullBw();
        if (!mode.state().isProbingBandwidth() && INFINITE == model.inflightShorttermBytes())
        {
            model.setInflightShorttermBytes(Math.max(outputs.congestionWindowBytes(), outputs.priorCwndBytes()));
        }
        outputs.collapseCwndToInflight();
    }

    private void saveStateUponLoss()
    {
        outputs.saveCwnd(inRecovery);
        undoState = null;
        undoBwShorttermBytesPerSecond = model.bwShorttermBytesPerSecond();
        undoInflightShorttermBytes = model.inflightShorttermBytes();
        undoInflightLongtermBytes = model.inflightLongtermBytes();
    }

    private void publishCounters()
    {
        counters.publishState(mode.state(), mode.pacingGain(), mode.cwndGain());
        counters.publishModel(
            model.maxBwBytesPerSecond(),
            model.bwShorttermBytesPerSecond(),
            model.inflightLongtermBytes(),
            model.inflightShorttermBytes(),
            model.minRttNs(),
            model.extraAckedBytes(),
            model.roundCount());
        counters.publishEcn(model.ecn().isEligible(), model.ecn().alpha());
    }
}
