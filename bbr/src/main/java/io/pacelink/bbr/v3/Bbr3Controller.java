package io.pacelink.bbr.v3;

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
 * ({@code bbr_plb}) is left out: a connection here has one path.
 * <p>
 * The SPI has no way to mark the connection application-limited (draft {@code MarkConnectionAppLimited} in
 * ProbeRTT), so the controller itself treats samples whose source was sent while ProbeRTT held the mark as
 * application-limited, exactly the packets the transport's rate sampler would have flagged.
 * <p>
 * Not thread safe; every method runs on the endpoint's agent thread and none allocates.
 */
public final class Bbr3Controller implements CongestionController
{
    /**
     * The draft's "Infinity" for unset bounds (inflight_longterm, bw_shortterm, ...) and min_rtt before a sample.
     */
    static final long INFINITE = Long.MAX_VALUE;

    /**
     * BBRv2 alpha ends ProbeBW_UP once inflight reaches this multiple of the BDP ({@code bbr_bw_probe_pif_gain =
     * BBR_UNIT * 5 / 4}, "as in BBR v1").
     */
    static final double V2_PROBE_UP_INFLIGHT_GAIN = 1.25;

    private static final int MAX_PROBE_UP_ROUNDS = 30;
    private static final int PROBE_WAIT_RANDOM_ROUNDS = 2;

    private final Bbr3Parameters config;
    private final Bbr3Variant variant;
    private final ControllerContext context;
    private final RttStats rttStats;
    private final ControllerRandom random;
    private final Bbr3Counters counters;
    private final long initialCwndBytes;
    private final PacketRoundCounter rounds = new PacketRoundCounter();
    // Draft BBR.max_bw_filter: Kathleen Nichols' max over the current and the previous ProbeBW cycle (time is
    // BBR.cycle_count; a sample stays eligible while cycle_count - its cycle <= 1, i.e. two slots as Linux bw_hi[2]).
    private final WindowedFilter maxBwFilter = WindowedFilter.max(1);
    private final AckAggregationEstimator ackAggregation;

    private long congestionWindowBytes;
    private long pacingRateBytesPerSecond;
    private int sendQuantumBytes;
    private boolean hasSeenRtt;
    private boolean hasStartedClocks;

    // Latest transport state seen in a callback: C.delivered and C.inflight.
    private long deliveredBytes;
    private long bytesInFlight;

    // The rate sample of the ACK being processed (draft RS).
    private boolean rsIsValid;
    private long rsDeliveryRateBytesPerSecond;
    private long rsDeliveredBytes;
    private long rsPriorDeliveredBytes;
    private long rsTxInFlightBytes;
    private long rsLostBytes;
    private boolean rsIsAppLimited;
    private long rsNewlyAckedBytes;
    private long rsNewlyLostBytes;
    private long rsPriorInflightBytes;
    private long rsRttNs;

    private Bbr3State state;
    private double pacingGain;
    private double cwndGain;
    private boolean idleRestart;
    private long drainStartRound;

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
    private boolean isEcnInRound;
    private boolean isEcnInCycle;

    // ECN (Linux BBRv3)
    private boolean isEcnCapable;
    private boolean ecnEligible;
    private double ecnAlpha;
    private long alphaLastDeliveredBytes;
    private long alphaLastDeliveredCeBytes;
    private long startupEcnRounds;
    private long rsDeliveredCeBytes;
    private boolean rsIsEce;
    private long totalDeliveredCeBytes;

    // Data-volume model.
    private long inflightLongtermBytes = INFINITE;
    private long inflightShorttermBytes = INFINITE;

    // min_rtt and ProbeRTT.
    private long minRttNs;
    private long minRttStampNs;
    private long probeRttMinDelayNs = INFINITE;
    private long probeRttMinStampNs;
    private boolean probeRttExpired;
    private boolean isProbeRttDoneStampSet;
    private long probeRttDoneStampNs;
    private boolean probeRttRoundDone;
    private long priorCwndBytes;
    private long probeRttAppLimitedFromDeliveredBytes = INFINITE;
    private long probeRttAppLimitedToDeliveredBytes = -1;

    // Full-pipe estimator.
    private boolean fullBwReached;
    private boolean fullBwNow;
    private long fullBwBytesPerSecond;
    private int fullBwCount;

    // ProbeBW cycle.
    private AckPhase ackPhase = AckPhase.INIT;
    private boolean isBwProbeSample;
    private boolean prevProbeTooHigh;
    private boolean prevProbePrecautionary;
    private long bwProbeUpAckedBytes;
    private long probeUpAckedPerIncBytes = INFINITE;
    private int bwProbeUpRounds;
    private long roundsSinceProbeUp;
    private long cycleStampNs;
    private long bwProbeWaitNs;

    // Startup loss exit: discontiguous lost ranges (v2: lossy ACKs) in the current loss round.
    private long lossEventsInRound;
    private long lastLostPacketNumber = Long.MIN_VALUE;

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
        this.config = config;
        this.variant = config.variant;
        this.context = context;
        this.rttStats = context.rttStats();
        this.random = context.random();
        this.counters = new Bbr3Counters(context.counters(), variant);
        this.initialCwndBytes = context.initialWindowBytes();
        this.congestionWindowBytes = initialCwndBytes;
        this.ackAggregation = AckAggregationEstimator.withLinuxWindows(context.maxDatagramSizeBytes());
        this.ecnAlpha = config.ecnAlphaInit;

        hasSeenRtt = rttStats.hasSample();
        minRttNs = hasSeenRtt ? rttStats.smoothedRttNs() : INFINITE;
        pacingRateBytesPerSecond = initialPacingRate();
        sendQuantumBytes = BbrMath.sendQuantumBytes(pacingRateBytesPerSecond, smssBytes());
        enterStartup();
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
        this.bytesInFlight = bytesInFlight;
    }

    /**
     * Draft {@code HandleRestartFromIdle} (Linux {@code bbr_cwnd_event(CA_EVENT_TX_START)}): the transport calls this
     * only when nothing is in flight and the application had nothing to send.
     */
    public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
    {
        startClocksIfNeeded(nowNs);
        idleRestart = true;
        ackAggregation.restartEpoch(nowNs);
        if (state.isProbeBw())
        {
            // Pace at exactly bw: return to rate balance and a full pipe within one min_rtt, without a burst.
            setPacingRateWithGain(1.0);
            setSendQuantum();
        }
        else if (Bbr3State.PROBE_RTT == state)
        {
            checkProbeRttDone(nowNs);
        }
        publishCounters();
    }

    /**
     * Draft {@code UpdateOnACK}: {@code UpdateModelAndState} then {@code UpdateControlParameters}.
     */
    public void onAck(final AckEvent ack)
    {
        final long nowNs = ack.nowNs();
        startClocksIfNeeded(nowNs);
        deliveredBytes = ack.totalDeliveredBytes();
        bytesInFlight = ack.bytesInFlight();
        readRateSample(ack);

        updateLatestDeliverySignals();
        updateCongestionSignals();
        updateAckAggregation(nowNs);
        checkFullBwReached();
        checkStartupDone();
        checkDrainDone(nowNs);
        updateProbeBwCyclePhase(nowNs, ack.isCwndLimited());
        updateMinRtt(nowNs);
        checkProbeRtt(nowNs);
        advanceLatestDeliverySignals();
        boundBwForModel();
        // Linux bbr_main, at its end.
        isLossInCycle |= rsLostBytes > 0;
        isEcnInCycle |= rsDeliveredCeBytes > 0;

        // Recovery ends once a packet sent after it began is acknowledged (RFC 9002 section 7.3.2). Evaluated after
        // the model so the Startup loss exit sees the round that just ended as spent in recovery; the draft then
        // restores the last known good cwnd and lets SetCwnd bound it by the model on the same ACK.
        if (inRecovery && ack.endsRecovery())
        {
            inRecovery = false;
            restoreCwnd();
        }

        setPacingRateWithGain(pacingGain);
        setSendQuantum();
        setCwnd();
        publishCounters();
    }

    /**
     * Draft {@code HandleLostPacket} (Linux {@code bbr_skb_marked_lost}): per packet, with the packet's send-time
     * stamp, so a probe that went too high is stopped at the inflight where losses crossed the threshold.
     */
    public void onPacketLost(final LostPacket lost)
    {
        final long nowNs = lost.nowNs();
        startClocksIfNeeded(nowNs);
        deliveredBytes = lost.totalDeliveredBytes();
        bytesInFlight = lost.bytesInFlight();
        if (!variant.isStartupLossCountingLossyAcks())
        {
            countLostRange(lost.packetNumber());
        }

        noteLoss();
        if (isBwProbeSample)
        {
            // Rebuild the sample of the flight that led up to this loss from the packet's own stamp.
            final long txInFlightBytes = lost.txInFlightBytes();
            final long lostSinceSendBytes = lost.totalLostBytes() - lost.lostAtSendBytes();
            if (isInflightTooHigh(lostSinceSendBytes, txInFlightBytes))
            {
                handleInflightTooHigh(
                    nowNs,
                    inflightAtLoss(lost.sizeBytes(), txInFlightBytes, lostSinceSendBytes),
                    lost.isAppLimited());
            }
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
        final long nowNs = event.nowNs();
        startClocksIfNeeded(nowNs);
        bytesInFlight = event.bytesInFlight();
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
                saveCwnd();
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
            restoreCwnd();
        }
        else
        {
            congestionWindowBytes = priorCwndBytes;
        }
        isLossInRound = false;
        resetFullBw();
        bwShorttermBytesPerSecond = Math.max(bwShorttermBytesPerSecond, undoBwShorttermBytesPerSecond);
        inflightShorttermBytes = Math.max(inflightShorttermBytes, undoInflightShorttermBytes);
        inflightLongtermBytes = Math.max(inflightLongtermBytes, undoInflightLongtermBytes);
        if (!variant.isUndoResumingProbe())
        {
            undoState = null;
        }
        else if (Bbr3State.STARTUP == undoState && Bbr3State.STARTUP != state)
        {
            fullBwReached = false;
            if (Bbr3State.PROBE_RTT != state)
            {
                enterStartup();
            }
        }
        else if (Bbr3State.PROBE_BW_UP == undoState && Bbr3State.PROBE_BW_UP != state)
        {
            if (Bbr3State.PROBE_RTT != state)
            {
                startProbeBwRefill(0);
            }
        }
        undoState = null;
        inRecovery = false;
        publishCounters();
    }

    public void onMtuChanged(final int maxDatagramSizeBytes)
    {
        congestionWindowBytes = Math.max(congestionWindowBytes, minPipeCwndBytes());
        setSendQuantum();
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
        return state.name();
    }

    public List<String> stateNames()
    {
        return Bbr3State.STATE_NAMES;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // State for observation and tests
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * @return the current state.
     */
    public Bbr3State state()
    {
        return state;
    }

    /**
     * @return the long-term bandwidth estimate ({@code BBR.max_bw}).
     */
    public long maxBwBytesPerSecond()
    {
        return maxBwBytesPerSecond;
    }

    /**
     * @return the bandwidth the model uses: {@code min(max_bw, bw_shortterm)} ({@code BBR.bw}).
     */
    public long bwBytesPerSecond()
    {
        return bwBytesPerSecond;
    }

    /**
     * @return the short-term bandwidth bound, {@link Long#MAX_VALUE} while unset ({@code BBR.bw_shortterm}).
     */
    public long bwShorttermBytesPerSecond()
    {
        return bwShorttermBytesPerSecond;
    }

    /**
     * @return the long-term inflight bound, {@link Long#MAX_VALUE} while unset ({@code BBR.inflight_longterm}).
     */
    public long inflightLongtermBytes()
    {
        return inflightLongtermBytes;
    }

    /**
     * @return the short-term inflight bound, {@link Long#MAX_VALUE} while unset ({@code BBR.inflight_shortterm}).
     */
    public long inflightShorttermBytes()
    {
        return inflightShorttermBytes;
    }

    /**
     * @return the min_rtt estimate, {@link Long#MAX_VALUE} before any RTT sample ({@code BBR.min_rtt}).
     */
    public long minRttNs()
    {
        return minRttNs;
    }

    /**
     * @return packet-timed rounds so far ({@code BBR.round_count}).
     */
    public long roundCount()
    {
        return rounds.roundCount();
    }

    /**
     * @return true once the pipe was judged full ({@code BBR.full_bw_reached}).
     */
    public boolean isFullBwReached()
    {
        return fullBwReached;
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
     * @return true while in loss recovery as tracked by this controller.
     */
    public boolean isInRecovery()
    {
        return inRecovery;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Inputs
    // ---------------------------------------------------------------------------------------------------------------

    private void startClocksIfNeeded(final long nowNs)
    {
        // Draft OnInit stamps the filters with Now(); the SPI's first clock reading is the first callback.
        if (!hasStartedClocks)
        {
            hasStartedClocks = true;
            minRttStampNs = nowNs;
            probeRttMinStampNs = nowNs;
        }
    }

    private void readRateSample(final AckEvent ack)
    {
        isEcnCapable = ack.isEcnCapable();
        totalDeliveredCeBytes = ack.totalDeliveredCeBytes();
        rsIsEce = ack.newlyEcnCePackets() > 0;
        rsDeliveredCeBytes = ack.hasRateSample() ? ack.sampleDeliveredCeBytes() : 0;
        rsNewlyAckedBytes = ack.newlyAckedBytes();
        rsNewlyLostBytes = ack.newlyLostBytes();
        rsPriorInflightBytes = ack.priorBytesInFlightBytes();
        rsRttNs = ack.latestRttNs();
        rsIsValid = ack.hasRateSample();
        if (rsIsValid)
        {
            rsDeliveryRateBytesPerSecond = ack.deliveryRateBytesPerSecond();
            rsDeliveredBytes = ack.sampleDeliveredBytes();
            rsPriorDeliveredBytes = ack.samplePriorDeliveredBytes();
            rsTxInFlightBytes = ack.sampleTxInFlightBytes();
            rsLostBytes = ack.sampleLostBytes();
            rsIsAppLimited = ack.isSampleAppLimited() || isMarkedAppLimitedByProbeRtt(rsPriorDeliveredBytes);
        }
        else
        {
            rsDeliveryRateBytesPerSecond = 0;
            rsDeliveredBytes = 0;
            rsPriorDeliveredBytes = 0;
            rsTxInFlightBytes = 0;
            rsLostBytes = 0;
            rsIsAppLimited = false;
        }
    }

    private boolean isMarkedAppLimitedByProbeRtt(final long priorDeliveredBytes)
    {
        // A packet sent while the mark was set has C.delivered at send within [entry, mark].
        return priorDeliveredBytes >= probeRttAppLimitedFromDeliveredBytes &&
            priorDeliveredBytes <= probeRttAppLimitedToDeliveredBytes;
    }

    private void markConnectionAppLimited()
    {
        // Draft MarkConnectionAppLimited, Linux tcp_rate_check_app_limited: C.app_limited = max(C.delivered + inflight,
        // 1).
        probeRttAppLimitedToDeliveredBytes =
            Math.max(probeRttAppLimitedToDeliveredBytes, Math.max(deliveredBytes + bytesInFlight, 1));
    }

    private void countLostRange(final long packetNumber)
    {
        // Packet numbers are never reused, so a lost packet that does not follow the previous lost one starts a new
        // discontiguous lost range (the draft's SACK "sequence ranges").
        if (packetNumber != lastLostPacketNumber + 1)
        {
            lossEventsInRound++;
        }
        lastLostPacketNumber = packetNumber;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // UpdateModelAndState
    // ---------------------------------------------------------------------------------------------------------------

    private void updateLatestDeliverySignals()
    {
        lossRoundStart = false;
        if (!rsIsValid)
        {
            return; // Linux bbr_update_latest_delivery_signals: not a valid observation.
        }
        bwLatestBytesPerSecond = Math.max(bwLatestBytesPerSecond, rsDeliveryRateBytesPerSecond);
        inflightLatestBytes = Math.max(inflightLatestBytes, rsDeliveredBytes);
        if (rsPriorDeliveredBytes >= lossRoundDeliveredBytes)
        {
            lossRoundDeliveredBytes = deliveredBytes;
            lossRoundStart = true;
        }
    }

    private void updateCongestionSignals()
    {
        updateMaxBw();
        if (rounds.isRoundStart())
        {
            updateEcnAlpha(); // Linux bbr_main: at each packet-timed round start
        }
        isEcnInRound |= ecnEligible && rsIsEce;
        if (!lossRoundStart)
        {
            return; // wait until the end of the round trip
        }
        adaptLowerBoundsFromCongestion();
        isLossInRound = false;
        isEcnInRound = false;
    }

    private void updateEcnAlpha()
    {
        // Linux bbr_update_ecn_alpha: eligible once the path carries marks and min_rtt says a shallow-threshold
        // queue is likely (a LAN or data-centre path); then, per round, alpha = (1 - g) alpha + g (CE / delivered).
        if (!ecnEligible && config.ecn && isEcnCapable && config.ecnFactor > 0 &&
            (0 == config.ecnMaxRttNs || minRttNs <= config.ecnMaxRttNs))
        {
            ecnEligible = true;
        }
        if (!ecnEligible)
        {
            return;
        }
        final long deliveredInRoundBytes = deliveredBytes - alphaLastDeliveredBytes;
        final long deliveredCeInRoundBytes = totalDeliveredCeBytes - alphaLastDeliveredCeBytes;
        if (deliveredInRoundBytes <= 0 || deliveredCeInRoundBytes < 0)
        {
            return;
        }
        final double ceRatio = Math.min(1.0, deliveredCeInRoundBytes / (double)deliveredInRoundBytes);
        ecnAlpha = Math.min(1.0, (1.0 - config.ecnAlphaGain) * ecnAlpha + config.ecnAlphaGain * ceRatio);
        alphaLastDeliveredBytes = deliveredBytes;
        alphaLastDeliveredCeBytes = totalDeliveredCeBytes;
        checkEcnTooHighInStartup(ceRatio);
    }

    private void checkEcnTooHighInStartup(final double ceRatio)
    {
        // Linux bbr_check_ecn_too_high_in_startup: consecutive rounds marked at or above ecn_thresh mean the queue is
        // already at the marking threshold: the pipe is full.
        if (fullBwReached || 0 == config.startupFullEcnCount)
        {
            return;
        }
        startupEcnRounds = ceRatio >= config.ecnThreshold ? startupEcnRounds + 1 : 0;
        if (startupEcnRounds >= config.startupFullEcnCount)
        {
            // Linux bbr_handle_queue_too_high_in_startup.
            fullBwReached = true;
            inflightLongtermBytes = Math.max(inflight(maxBwBytesPerSecond, 1.0), inflightLatestBytes);
        }
    }

    private void updateMaxBw()
    {
        // Draft UpdateRound (Linux bbr_update_round_start: only ACKs with a valid sample can end a round).
        if (!rsIsValid)
        {
            rounds.clearRoundStart();
            return;
        }
        if (rounds.onAck(rsPriorDeliveredBytes, deliveredBytes))
        {
            roundsSinceProbeUp++;
        }

        // App-limited samples are used only if they show more bandwidth than the estimate (draft 5.5.4).
        if (rsDeliveryRateBytesPerSecond > 0 &&
            (rsDeliveryRateBytesPerSecond >= maxBwBytesPerSecond || !rsIsAppLimited))
        {
            maxBwBytesPerSecond = maxBwFilter.update(cycleCount, rsDeliveryRateBytesPerSecond);
        }
    }

    private void adaptLowerBoundsFromCongestion()
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
        if (isEcnInRound && config.ecnFactor > 0)
        {
            if (INFINITE == inflightShorttermBytes)
            {
                inflightShorttermBytes = congestionWindowBytes;
            }
            ecnInflightBytes = (long)(inflightShorttermBytes * (1.0 - ecnAlpha * config.ecnFactor));
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

    private void updateAckAggregation(final long nowNs)
    {
        // Draft UpdateACKAggregation (Linux bbr_update_ack_aggregation: ACKs with a valid sample). The shared
        // estimator's two 5-round buckets (a max over 5-10 rounds, as Linux) stand for the draft's 10-round window;
        // the 1-round window both use in Startup is not applied.
        if (rsIsValid && rsNewlyAckedBytes > 0)
        {
            ackAggregation.onAck(
                nowNs, rounds.isRoundStart(), rsNewlyAckedBytes, bwBytesPerSecond, congestionWindowBytes);
        }
    }

    private void checkFullBwReached()
    {
        // Draft CheckFullBWReached: three non-app-limited rounds without 25 % growth of the delivery rate. BBRv2
        // alpha (bbr_check_full_bw_reached) looks at max_bw instead, and only until the pipe was first full.
        final boolean isV2 = variant.isFullBwJudgedOnMaxBw();
        if (fullBwNow || !rounds.isRoundStart() || rsIsAppLimited || (isV2 && fullBwReached))
        {
            return;
        }
        final long bandwidthBytesPerSecond = isV2 ? maxBwBytesPerSecond : rsDeliveryRateBytesPerSecond;
        if (bandwidthBytesPerSecond >= fullBwBytesPerSecond * BbrConstants.FULL_BANDWIDTH_GROWTH)
        {
            resetFullBw();
            fullBwBytesPerSecond = bandwidthBytesPerSecond;
            return;
        }
        fullBwCount++;
        fullBwNow = fullBwCount >= BbrConstants.FULL_BANDWIDTH_ROUNDS;
        if (fullBwNow)
        {
            fullBwReached = true;
        }
    }

    private void checkStartupDone()
    {
        checkStartupHighLoss();
        if (Bbr3State.STARTUP == state && fullBwReached)
        {
            enterDrain();
        }
    }

    private void checkStartupHighLoss()
    {
        // Draft "Exiting Startup Based on Packet Loss" (Linux bbr_check_loss_too_high_in_startup), evaluated at the
        // end of each loss round: a whole round spent in recovery (NoteLoss started the round at the first loss),
        // loss rate above LossThresh, and at least BBRStartupFullLossCnt discontiguous lost ranges (v2: ACKs that
        // marked losses, loss_events_in_round).
        if (variant.isStartupLossCountingLossyAcks() && rsNewlyLostBytes > 0)
        {
            lossEventsInRound++;
        }
        if (!lossRoundStart)
        {
            return;
        }
        if (Bbr3State.STARTUP == state && !fullBwReached && inRecovery &&
            lossEventsInRound >= config.startupFullLossCount &&
            (isInflightTooHigh(rsLostBytes, rsTxInFlightBytes) || isEcnTooHigh()))
        {
            undoState = Bbr3State.STARTUP;
            fullBwReached = true;
            // v2 bbr2_handle_queue_too_high_in_startup: the BDP of max_bw with its quantization budget.
            inflightLongtermBytes = variant.isStartupLossBoundTheBdp() ? inflight(maxBwBytesPerSecond, 1.0) :
                Math.max(bdpMultiple(bwBytesPerSecond, 1.0), inflightLatestBytes);
        }
        lossEventsInRound = 0;
    }

    private void checkDrainDone(final long nowNs)
    {
        if (Bbr3State.DRAIN == state &&
            (bytesInFlight <= inflight(bwBytesPerSecond, 1.0) ||
            (config.drainRoundsTimeout > 0 && rounds.roundCount() > drainStartRound + config.drainRoundsTimeout)))
        {
            startProbeBwDown(nowNs); // draft EnterProbeBW: DefaultCwndGain comes with the state
        }
    }

    private void updateProbeBwCyclePhase(final long nowNs, final boolean isCwndLimited)
    {
        if (!fullBwReached)
        {
            return; // only steady-state behaviour here
        }
        if (adaptLongTermModel(nowNs, isCwndLimited))
        {
            return; // already decided a state transition
        }
        switch (state)
        {
            case PROBE_BW_DOWN:
                if (isTimeToProbeBw(nowNs))
                {
                    return;
                }
                if (isTimeToCruise())
                {
                    startProbeBwCruise();
                }
                break;

            case PROBE_BW_CRUISE:
                isTimeToProbeBw(nowNs);
                break;

            case PROBE_BW_REFILL:
                // After one round of REFILL the samples reflect a full pipe: start probing.
                if (rounds.isRoundStart())
                {
                    isBwProbeSample = true;
                    startProbeBwUp(nowNs);
                }
                break;

            case PROBE_BW_UP:
                if (isTimeToGoDown(nowNs, isCwndLimited))
                {
                    prevProbeTooHigh = false; // no high loss (yet)
                    startProbeBwDown(nowNs);
                }
                break;

            default:
                break;
        }
    }

    private boolean adaptLongTermModel(final long nowNs, final boolean isCwndLimited)
    {
        // Draft AdaptLongTermModel (Linux bbr_adapt_upper_bounds). Excess loss while probing is handled per lost
        // packet in onPacketLost, as the draft's HandleLostPacket does; excess CE marks, which only ACKs report, here
        // (Linux: bbr_is_inflight_too_high's ECN test, then bbr_handle_inflight_too_high while bw_probe_samples).
        if (AckPhase.PROBE_STARTING == ackPhase && rounds.isRoundStart())
        {
            ackPhase = AckPhase.PROBE_FEEDBACK; // starting to get bw probing samples
        }
        if (AckPhase.PROBE_STOPPING == ackPhase && rounds.isRoundStart())
        {
            // End of samples from the probe: the best moment to forget the previous cycle's bandwidth.
            isBwProbeSample = false;
            ackPhase = AckPhase.INIT;
            if (state.isProbeBw() && !rsIsAppLimited)
            {
                cycleCount++; // draft AdvanceMaxBwFilter: the filter drops the older cycle on its next sample
            }
            // Precautionary bandwidth probing, acceleration: the cautious probe reached inflight_longterm without
            // excess loss, so probe again right away and this time hold inflight there.
            if (state.isProbeBw() && prevProbePrecautionary && !prevProbeTooHigh)
            {
                startProbeBwRefill(0);
                return true;
            }
        }

        if (isEcnTooHigh())
        {
            if (isBwProbeSample)
            {
                handleInflightTooHigh(nowNs, rsTxInFlightBytes, rsIsAppLimited);
            }
        }
        else if (!isInflightTooHigh(rsLostBytes, rsTxInFlightBytes))
        {
            if (INFINITE == inflightLongtermBytes)
            {
                return false; // no upper bound to raise
            }
            // Resilience to random loss: a higher inflight observed without excess loss is safe.
            if (rsTxInFlightBytes > inflightLongtermBytes)
            {
                inflightLongtermBytes = rsTxInFlightBytes;
            }
            if (Bbr3State.PROBE_BW_UP == state)
            {
                probeInflightLongtermUpward(isCwndLimited);
            }
        }
        return false;
    }

    private void probeInflightLongtermUpward(final boolean isCwndLimited)
    {
        // Draft ProbeInflightLongtermUpward (Linux bbr_probe_inflight_hi_upward): grow inflight_longterm only while
        // it limits us, by 1, 2, 4, ... SMSS per round spread over the round's ACKs.
        if (!isCwndLimited || congestionWindowBytes < inflightLongtermBytes)
        {
            if (variant.isProbeUpCreditForgottenWhenNotLimited())
            {
                bwProbeUpAckedBytes = 0;
            }
            return;
        }
        bwProbeUpAckedBytes += rsNewlyAckedBytes;
        if (bwProbeUpAckedBytes >= probeUpAckedPerIncBytes)
        {
            final long delta = bwProbeUpAckedBytes / probeUpAckedPerIncBytes;
            bwProbeUpAckedBytes -= delta * probeUpAckedPerIncBytes;
            inflightLongtermBytes += delta * smssBytes();
        }
        if (rounds.isRoundStart())
        {
            raiseInflightLongtermSlope();
        }
    }

    private void raiseInflightLongtermSlope()
    {
        final long growthThisRound = 1L << bwProbeUpRounds;
        bwProbeUpRounds = Math.min(bwProbeUpRounds + 1, MAX_PROBE_UP_ROUNDS);
        probeUpAckedPerIncBytes = Math.max(congestionWindowBytes / growthThisRound, smssBytes());
    }

    private boolean isTimeToProbeBw(final long nowNs)
    {
        // Linux bbr_check_time_to_probe_bw: marks but no loss in this cycle, and not in recovery, mean an operating
        // point at the marking threshold; once the marks cease, re-probe at once, raising inflight_longterm by
        // ecnReprobeGain of itself in the first round (bw_probe_up_rounds = log2 of that in packets).
        if (config.ecnReprobeGain > 0 && ecnEligible && isEcnInCycle && !isLossInCycle && !inRecovery)
        {
            final double reprobePackets = Math.min((double)inflightLongtermBytes / smssBytes() * config.ecnReprobeGain,
                (double)(1L << MAX_PROBE_UP_ROUNDS));
            startProbeBwRefill(reprobePackets < 1.0 ? 0 : 63 - Long.numberOfLeadingZeros((long)reprobePackets));
            return true;
        }
        // Draft IsTimeToProbeBW: the BBR-native wall-clock wait or the Reno-coexistence round count.
        if (nowNs > cycleStampNs + bwProbeWaitNs || isRenoCoexistenceProbeTime())
        {
            startProbeBwRefill(0);
            return true;
        }
        return false;
    }

    private boolean isRenoCoexistenceProbeTime()
    {
        // A Reno flow with our BDP needs about BDP-in-packets rounds between losses; bounded at 63 rounds so that 1 %
        // random loss per round cannot erode the model between probes (draft 5.3.3.8). The draft compares the bytes of
        // TargetInflight() with a round count; so the bytes are divided by the SMSS here.
        final long renoRounds = targetInflight() / smssBytes();
        return roundsSinceProbeUp >= Math.min(renoRounds, config.probeMaxRounds);
    }

    private boolean isTimeToCruise()
    {
        final long inflightBytes = probeBwInflightBytes();
        if (inflightBytes > inflightWithHeadroom())
        {
            return false; // not enough headroom
        }
        return inflightBytes <= inflight(maxBwBytesPerSecond, 1.0); // queue drained
    }

    private boolean isTimeToGoDown(final long nowNs, final boolean isCwndLimited)
    {
        // Precautionary bandwidth probing, deceleration: the last probe lost too much at inflight_longterm.
        final long inflightBytes = probeBwInflightBytes();
        if (prevProbeTooHigh && inflightBytes >= inflightLongtermBytes)
        {
            prevProbePrecautionary = true;
            return true;
        }
        if (variant.isProbeUpEndedByInflight())
        {
            // v2 "is_queuing": probed for at least a min_rtt and inflight reached 1.25 BDP.
            return INFINITE != minRttNs && nowNs - cycleStampNs > minRttNs &&
                inflightBytes >= inflight(maxBwBytesPerSecond, V2_PROBE_UP_INFLIGHT_GAIN);
        }
        if (isCwndLimited && congestionWindowBytes >= inflightLongtermBytes)
        {
            // inflight_longterm, not the path, limits growth: the plateau says nothing yet.
            resetFullBw();
            fullBwBytesPerSecond = rsDeliveryRateBytesPerSecond;
        }
        else if (fullBwNow)
        {
            return true; // the path's bandwidth is fully used
        }
        return false;
    }

    private void updateMinRtt(final long nowNs)
    {
        // Draft UpdateMinRTT: probe_rtt_min_delay is a 5 s min that schedules ProbeRTT; min_rtt a 10 s min.
        probeRttExpired = nowNs > probeRttMinStampNs + config.probeRttIntervalNs;
        // BBRv2 alpha refreshes both on an equal sample (bbr_update_min_rtt: <=), which postpones ProbeRTT on a
        // stable path.
        final boolean isEqualFresh = variant.isMinRttRefreshedByEqualSamples();
        if (rsRttNs >= 0 && (rsRttNs < probeRttMinDelayNs || (isEqualFresh && rsRttNs == probeRttMinDelayNs) ||
            probeRttExpired))
        {
            probeRttMinDelayNs = rsRttNs;
            probeRttMinStampNs = nowNs;
        }
        final boolean minRttExpired = nowNs > minRttStampNs + config.minRttFilterLengthNs;
        if (probeRttMinDelayNs < minRttNs || (isEqualFresh && probeRttMinDelayNs == minRttNs) || minRttExpired)
        {
            minRttNs = probeRttMinDelayNs;
            minRttStampNs = probeRttMinStampNs;
        }
    }

    private void checkProbeRtt(final long nowNs)
    {
        // Draft CheckProbeRTT. Idleness that let probe_rtt_min_delay expire counts as having drained the queue.
        if (Bbr3State.PROBE_RTT != state && probeRttExpired && !idleRestart)
        {
            setState(Bbr3State.PROBE_RTT);
            saveCwnd();
            isProbeRttDoneStampSet = false;
            ackPhase = AckPhase.PROBE_STOPPING;
            rounds.startRound(deliveredBytes);
            probeRttAppLimitedFromDeliveredBytes = deliveredBytes;
            probeRttAppLimitedToDeliveredBytes = -1;
        }
        if (Bbr3State.PROBE_RTT == state)
        {
            handleProbeRtt(nowNs);
        }
        if (rsDeliveredBytes > 0)
        {
            idleRestart = false;
        }
    }

    private void handleProbeRtt(final long nowNs)
    {
        markConnectionAppLimited(); // ignore the low rate samples ProbeRTT produces
        if (!isProbeRttDoneStampSet && bytesInFlight <= probeRttCwnd())
        {
            // Hold inflight down for ProbeRTTDuration and at least one round.
            probeRttDoneStampNs = nowNs + config.probeRttDurationNs;
            isProbeRttDoneStampSet = true;
            probeRttRoundDone = false;
            rounds.startRound(deliveredBytes);
        }
        else if (isProbeRttDoneStampSet)
        {
            if (rounds.isRoundStart())
            {
                probeRttRoundDone = true;
            }
            if (probeRttRoundDone)
            {
                checkProbeRttDone(nowNs);
            }
        }
    }

    private void checkProbeRttDone(final long nowNs)
    {
        if (isProbeRttDoneStampSet && nowNs > probeRttDoneStampNs)
        {
            probeRttMinStampNs = nowNs; // schedule the next ProbeRTT
            restoreCwnd();
            exitProbeRtt(nowNs);
        }
    }

    private void exitProbeRtt(final long nowNs)
    {
        // Congestion met in ProbeRTT may have pulled the short-term model far below the path's capacity. Restart
        // the probing clock with DOWN, but inflight is already below the BDP, so cruise at once.
        resetShortTermModel();
        if (fullBwReached)
        {
            startProbeBwDown(nowNs);
            startProbeBwCruise();
        }
        else
        {
            enterStartup();
        }
    }

    private void advanceLatestDeliverySignals()
    {
        if (lossRoundStart)
        {
            bwLatestBytesPerSecond = rsDeliveryRateBytesPerSecond;
            inflightLatestBytes = rsDeliveredBytes;
        }
    }

    private void boundBwForModel()
    {
        bwBytesPerSecond = Math.min(maxBwBytesPerSecond, bwShorttermBytesPerSecond);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Loss handling
    // ---------------------------------------------------------------------------------------------------------------

    private void noteLoss()
    {
        // Draft NoteLoss: the first loss of a round starts a loss round (so it covers a full round of recovery) and
        // takes the undo snapshot.
        if (!isLossInRound)
        {
            lossRoundDeliveredBytes = deliveredBytes;
            if (variant.isUndoResumingProbe())
            {
                saveStateUponLoss();
            }
        }
        isLossInRound = true;
        isLossInCycle = true;
    }

    private boolean isInflightTooHigh(final long lostBytes, final long txInFlightBytes)
    {
        // Draft IsInflightTooHigh; the transport has selective ACKs.
        return lostBytes > txInFlightBytes * config.lossThreshold;
    }

    private boolean isEcnTooHigh()
    {
        // Linux bbr_is_inflight_too_high, ECN half: more than ecn_thresh of the sample's delivered data was marked.
        return ecnEligible && rsDeliveredCeBytes > 0 && rsDeliveredBytes > 0 &&
            rsDeliveredCeBytes > rsDeliveredBytes * config.ecnThreshold;
    }

    private long inflightAtLoss(final int sizeBytes, final long txInFlightBytes, final long lostBytes)
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

    private void handleInflightTooHigh(final long nowNs, final long txInFlightBytes, final boolean isAppLimited)
    {
        // Draft HandleInflightTooHigh: react once per probe; never cut harder than Beta * target (CUBIC's 0.7).
        prevProbeTooHigh = true;
        isBwProbeSample = false;
        if (!isAppLimited)
        {
            inflightLongtermBytes = Math.max(txInFlightBytes, (long)(targetInflight() * config.beta));
        }
        if (Bbr3State.PROBE_BW_UP == state)
        {
            undoState = Bbr3State.PROBE_BW_UP;
            startProbeBwDown(nowNs);
        }
    }

    private void enterRtoRecovery()
    {
        // Draft OnEnterRTO plus Linux bbr_set_state(TCP_CA_Loss): the path may have changed, so re-check the full
        // pipe and, if not probing, bound the short-term volume by the cwnd we had.
        saveStateUponLoss();
        resetFullBw();
        if (!state.isProbingBandwidth() && INFINITE == inflightShorttermBytes)
        {
            inflightShorttermBytes = Math.max(congestionWindowBytes, priorCwndBytes);
        }
        congestionWindowBytes = bytesInFlight + smssBytes();
    }

    private void saveStateUponLoss()
    {
        saveCwnd();
        undoState = null;
        undoBwShorttermBytesPerSecond = bwShorttermBytesPerSecond;
        undoInflightShorttermBytes = inflightShorttermBytes;
        undoInflightLongtermBytes = inflightLongtermBytes;
    }

    private void saveCwnd()
    {
        // Remember the last known good cwnd: one not cut by loss recovery or ProbeRTT.
        if (!inRecovery && Bbr3State.PROBE_RTT != state)
        {
            priorCwndBytes = congestionWindowBytes;
        }
        else
        {
            priorCwndBytes = Math.max(priorCwndBytes, congestionWindowBytes);
        }
    }

    private void restoreCwnd()
    {
        congestionWindowBytes = Math.max(congestionWindowBytes, priorCwndBytes);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // State transitions
    // ---------------------------------------------------------------------------------------------------------------

    private void setState(final Bbr3State newState)
    {
        // Pacing and cwnd gains per state (draft 5.6.1 table).
        state = newState;
        switch (newState)
        {
            case STARTUP:
                pacingGain = config.startupPacingGain;
                cwndGain = config.startupCwndGain;
                break;
            case DRAIN:
                pacingGain = config.drainPacingGain;
                cwndGain = config.startupCwndGain;
                break;
            case PROBE_BW_DOWN:
                pacingGain = config.downPacingGain;
                cwndGain = config.cwndGain;
                break;
            case PROBE_BW_UP:
                pacingGain = config.upPacingGain;
                cwndGain = config.upCwndGain;
                break;
            case PROBE_RTT:
                pacingGain = 1.0;
                cwndGain = config.probeRttCwndGain;
                break;
            default: // CRUISE and REFILL
                pacingGain = 1.0;
                cwndGain = config.cwndGain;
                break;
        }
    }

    private void enterStartup()
    {
        setState(Bbr3State.STARTUP);
    }

    private void enterDrain()
    {
        setState(Bbr3State.DRAIN);
        drainStartRound = rounds.roundCount();
    }

    private void startProbeBwDown(final long nowNs)
    {
        resetCongestionSignals();
        probeUpAckedPerIncBytes = INFINITE; // not growing inflight_longterm
        pickProbeWait();
        cycleStampNs = nowNs; // start the wall clock
        ackPhase = AckPhase.PROBE_STOPPING;
        rounds.startRound(deliveredBytes);
        setState(Bbr3State.PROBE_BW_DOWN);
    }

    private void startProbeBwCruise()
    {
        if (variant.isCruiseBoundingShortTermByLongTerm() && INFINITE != inflightShorttermBytes)
        {
            inflightShorttermBytes = Math.min(inflightShorttermBytes, inflightLongtermBytes);
        }
        setState(Bbr3State.PROBE_BW_CRUISE);
    }

    private void startProbeBwRefill(final int probeUpRounds)
    {
        resetShortTermModel();
        bwProbeUpRounds = probeUpRounds;
        bwProbeUpAckedBytes = 0;
        prevProbePrecautionary = false;
        ackPhase = AckPhase.REFILLING;
        rounds.startRound(deliveredBytes);
        setState(Bbr3State.PROBE_BW_REFILL);
    }

    private void startProbeBwUp(final long nowNs)
    {
        ackPhase = AckPhase.PROBE_STARTING;
        rounds.startRound(deliveredBytes);
        // Linux v2 and v3 stamp the phase start (bbr*_start_bw_probe_up); only v2's exit from UP reads it.
        cycleStampNs = nowNs;
        if (!variant.isProbeUpEndedByInflight())
        {
            resetFullBw();
            fullBwBytesPerSecond = rsDeliveryRateBytesPerSecond;
        }
        setState(Bbr3State.PROBE_BW_UP);
        raiseInflightLongtermSlope();
    }

    private void pickProbeWait()
    {
        // Randomised for mixing and fairness convergence: start the round count at 0 or 1 and wait 2 s + U[0, 1) s.
        roundsSinceProbeUp = random.nextInt(PROBE_WAIT_RANDOM_ROUNDS);
        bwProbeWaitNs = config.probeWaitBaseNs + (long)(random.nextDouble() * config.probeWaitRandomNs);
    }

    private void resetCongestionSignals()
    {
        // Linux bbr_reset_congestion_signals.
        isLossInRound = false;
        isEcnInRound = false;
        isLossInCycle = false;
        isEcnInCycle = false;
        bwLatestBytesPerSecond = 0;
        inflightLatestBytes = 0;
    }

    private void resetShortTermModel()
    {
        bwShorttermBytesPerSecond = INFINITE;
        inflightShorttermBytes = INFINITE;
    }

    private void resetFullBw()
    {
        fullBwBytesPerSecond = 0;
        fullBwCount = 0;
        fullBwNow = false;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // UpdateControlParameters
    // ---------------------------------------------------------------------------------------------------------------

    private long initialPacingRate()
    {
        // Draft InitPacingRate: StartupPacingGain * InitialCwnd / (srtt, or 1 ms before any RTT sample).
        final long rttNs = hasSeenRtt ? Math.max(1L, rttStats.smoothedRttNs()) : BbrConstants.NOMINAL_RTT_NS;
        return (long)(config.startupPacingGain * BbrMath.rateBytesPerSecond(initialCwndBytes, rttNs));
    }

    private void setPacingRateWithGain(final double gain)
    {
        // Linux bbr_set_pacing_rate: once the first RTT sample exists, re-derive the initial rate from it.
        if (!hasSeenRtt && rttStats.hasSample())
        {
            hasSeenRtt = true;
            pacingRateBytesPerSecond = initialPacingRate();
        }
        // Pace 1 % below the estimate; until the pipe is full, only ever raise the rate (app-limited samples in
        // Startup must not slow it down).
        final long rate = (long)(gain * bwBytesPerSecond * (100 - config.pacingMarginPercent) / 100.0);
        if (fullBwReached || rate > pacingRateBytesPerSecond)
        {
            pacingRateBytesPerSecond = rate;
        }
    }

    private void setSendQuantum()
    {
        // Draft SetSendQuantum: clamp(pacing_rate * 1 ms, 2 * SMSS, 64 KB).
        sendQuantumBytes = BbrMath.sendQuantumBytes(pacingRateBytesPerSecond, smssBytes());
    }

    private void setCwnd()
    {
        // Draft UpdateMaxInflight and SetCwnd: grow by what was acked toward max_inflight, cut to it once the pipe
        // was full.
        final long maxInflightBytes = quantizationBudget(bdpMultiple(bwBytesPerSecond, cwndGain) + extraAckedBytes());
        if (fullBwReached)
        {
            congestionWindowBytes = Math.min(congestionWindowBytes + rsNewlyAckedBytes, maxInflightBytes);
        }
        else if (congestionWindowBytes < maxInflightBytes || isBelowStartupGrowthFloor())
        {
            congestionWindowBytes += rsNewlyAckedBytes;
        }
        congestionWindowBytes = Math.max(congestionWindowBytes, minPipeCwndBytes());
        boundCwndForProbeRtt();
        boundCwndForModel();
    }

    private void boundCwndForProbeRtt()
    {
        if (Bbr3State.PROBE_RTT == state)
        {
            congestionWindowBytes = Math.min(congestionWindowBytes, probeRttCwnd());
        }
    }

    private void boundCwndForModel()
    {
        // Draft BoundCwndForModel: inflight_longterm while probing in ProbeBW, with headroom when cruising and in
        // ProbeRTT, and the short-term bound everywhere.
        long capBytes = INFINITE;
        if (state.isProbeBw() && Bbr3State.PROBE_BW_CRUISE != state)
        {
            capBytes = inflightLongtermBytes;
        }
        else if (Bbr3State.PROBE_RTT == state || Bbr3State.PROBE_BW_CRUISE == state)
        {
            capBytes = inflightWithHeadroom();
        }
        capBytes = Math.min(capBytes, inflightShorttermBytes);
        capBytes = Math.max(capBytes, minPipeCwndBytes());
        congestionWindowBytes = Math.min(congestionWindowBytes, capBytes);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Derived quantities
    // ---------------------------------------------------------------------------------------------------------------

    private long extraAckedBytes()
    {
        return ackAggregation.extraAckedBytes();
    }

    private long bdpMultiple(final long bandwidthBytesPerSecond, final double gain)
    {
        if (INFINITE == minRttNs)
        {
            return initialCwndBytes; // no valid RTT sample yet
        }
        return BbrMath.bdpBytes(bandwidthBytesPerSecond, minRttNs, gain);
    }

    private long quantizationBudget(final long inflightCapBytes)
    {
        // QUIC offload budget: one send quantum (draft 5.5.8.2). UP adds 2 packets so that gain cycling raises
        // inflight above the BDP even when the BDP is tiny.
        long budgetBytes = Math.max(inflightCapBytes, sendQuantumBytes);
        budgetBytes = Math.max(budgetBytes, minPipeCwndBytes());
        if (Bbr3State.PROBE_BW_UP == state)
        {
            budgetBytes += 2L * smssBytes();
        }
        return budgetBytes;
    }

    private long inflight(final long bandwidthBytesPerSecond, final double gain)
    {
        return quantizationBudget(bdpMultiple(bandwidthBytesPerSecond, gain));
    }

    private long targetInflight()
    {
        // How much we want in flight: the BDP (v2: with its quantization budget), unless congestion cut cwnd below it.
        final long bdpBytes = variant.isTargetInflightBudgeted() ?
            inflight(bwBytesPerSecond, 1.0) : bdpMultiple(bwBytesPerSecond, 1.0);
        return Math.min(bdpBytes, congestionWindowBytes);
    }

    private boolean isBelowStartupGrowthFloor()
    {
        // Draft SetCwnd: grow until the initial window was delivered; v2 bbr_set_cwnd: while below twice it.
        return variant.isStartupGrowingToTwiceInitialCwnd() ?
            congestionWindowBytes < 2 * initialCwndBytes : deliveredBytes < initialCwndBytes;
    }

    private long probeBwInflightBytes()
    {
        // The inflight ProbeBW's exits judge: the draft's C.inflight, or v2's rs->prior_in_flight.
        return variant.isProbeBwJudgedOnPriorInflight() ? rsPriorInflightBytes : bytesInFlight;
    }

    private long inflightWithHeadroom()
    {
        if (INFINITE == inflightLongtermBytes)
        {
            return INFINITE;
        }
        final long headroomBytes = Math.max(smssBytes(), (long)(config.headroom * inflightLongtermBytes));
        return Math.max(inflightLongtermBytes - headroomBytes, minPipeCwndBytes());
    }

    private long probeRttCwnd()
    {
        return Math.max(bdpMultiple(bwBytesPerSecond, config.probeRttCwndGain), minPipeCwndBytes());
    }

    private void publishCounters()
    {
        counters.publishState(state, pacingGain, cwndGain);
        counters.publishModel(
            maxBwBytesPerSecond,
            bwShorttermBytesPerSecond,
            inflightLongtermBytes,
            inflightShorttermBytes,
            minRttNs,
            extraAckedBytes(),
            rounds.roundCount());
        counters.publishEcn(ecnEligible, ecnAlpha);
    }

    /**
     * @return the maximum datagram size (the draft's SMSS), read from the context that owns it.
     */
    private int smssBytes()
    {
        return context.maxDatagramSizeBytes();
    }

    /**
     * @return draft {@code BBR.MinPipeCwnd}: 4 SMSS.
     */
    private long minPipeCwndBytes()
    {
        return BbrConstants.minPipeCwndBytes(context.maxDatagramSizeBytes());
    }
}
