package io.pacelink.bbr.v3;

import io.pacelink.transport.cc.ControllerRandom;
import io.pacelink.transport.cc.LostPacket;

import static io.pacelink.bbr.v3.Bbr3Controller.INFINITE;

/**
 * ProbeBW's four phases (draft section 5.3.3): DOWN drains the queue a probe made, CRUISE holds inflight with headroom
 * below {@code inflight_longterm}, REFILL fills the pipe for a round, UP probes above the model, raising
 * {@code inflight_longterm} 1, 2, 4 ... packets per round while it limits, until loss above LossThresh (handled per
 * lost packet), CE marks above the ECN threshold or a bandwidth plateau ends the probe. Also when to probe (wall clock,
 * Reno-coexistence rounds or, after a cycle with marks but no loss, Linux BBRv3's quick ECN re-probe) and the
 * long-term model's adaptation ({@code AdaptLongTermModel}).
 */
final class Bbr3ProbeBw
{
    /**
     * BBRv2 alpha ends ProbeBW_UP once inflight reaches this multiple of the BDP ({@code bbr_bw_probe_pif_gain =
     * BBR_UNIT * 5 / 4}, "as in BBR v1").
     */
    static final double V2_PROBE_UP_INFLIGHT_GAIN = 1.25;

    private static final int MAX_PROBE_UP_ROUNDS = 30;
    private static final int PROBE_WAIT_RANDOM_ROUNDS = 2;

    private final Bbr3Parameters config;
    private final Bbr3Variant variant;
    private final ControllerRandom random;
    private final Bbr3Model model;
    private final Bbr3Mode mode;
    private final Bbr3Outputs outputs;

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
    private boolean isUpStoppedByEcn;

    Bbr3ProbeBw(
        final Bbr3Parameters config,
        final ControllerRandom random,
        final Bbr3Model model,
        final Bbr3Mode mode,
        final Bbr3Outputs outputs)
    {
        this.config = config;
        this.variant = config.variant;
        this.random = random;
        this.model = model;
        this.mode = mode;
        this.outputs = outputs;
    }

    /**
     * A packet-timed round ended: one more round since the last probe.
     */
    void onRoundStart()
    {
        roundsSinceProbeUp++;
    }

    /**
     * Draft {@code UpdateProbeBWCyclePhase}.
     *
     * @param isInRecovery whether the connection is in loss recovery (no quick ECN re-probe then).
     * @return true if excess CE marks stopped a ProbeBW_UP probe (an undo then resumes it, as after excess loss).
     */
    boolean updateCyclePhase(final long nowNs, final boolean isCwndLimited, final boolean isInRecovery)
    {
        isUpStoppedByEcn = false;
        if (!model.isFullBwReached())
        {
            return false; // only steady-state behaviour here
        }
        if (adaptLongTermModel(nowNs, isCwndLimited))
        {
            return isUpStoppedByEcn; // already decided a state transition
        }
        switch (mode.state())
        {
            case PROBE_BW_DOWN:
                if (isTimeToProbeBw(nowNs, isInRecovery))
                {
                    return isUpStoppedByEcn;
                }
                if (isTimeToCruise())
                {
                    startCruise();
                }
                break;

            case PROBE_BW_CRUISE:
                isTimeToProbeBw(nowNs, isInRecovery);
                break;

            case PROBE_BW_REFILL:
                // After one round of REFILL the samples reflect a full pipe: start probing.
                if (model.isRoundStart())
                {
                    isBwProbeSample = true;
                    startUp(nowNs);
                }
                break;

            case PROBE_BW_UP:
                if (isTimeToGoDown(nowNs, isCwndLimited))
                {
                    prevProbeTooHigh = false; // no high loss (yet)
                    startDown(nowNs);
                }
                break;

            default:
                break;
        }
        return isUpStoppedByEcn;
    }

    /**
     * Draft {@code HandleLostPacket} (Linux {@code bbr_skb_marked_lost}): per packet, with the packet's send-time
     * stamp, so a probe that went too high is stopped at the inflight where losses crossed the threshold.
     *
     * @return true if the loss stopped a ProbeBW_UP probe (the undo then resumes it).
     */
    boolean onPacketLost(final LostPacket lost)
    {
        if (!isBwProbeSample)
        {
            return false;
        }
        // Rebuild the sample of the flight that led up to this loss from the packet's own stamp.
        final long txInFlightBytes = lost.txInFlightBytes();
        final long lostSinceSendBytes = lost.totalLostBytes() - lost.lostAtSendBytes();
        if (!model.isInflightTooHigh(lostSinceSendBytes, txInFlightBytes))
        {
            return false;
        }
        return handleInflightTooHigh(
            lost.nowNs(),
            model.inflightAtLoss(lost.sizeBytes(), txInFlightBytes, lostSinceSendBytes),
            lost.isAppLimited());
    }

    private boolean handleInflightTooHigh(final long nowNs, final long txInFlightBytes, final boolean isAppLimited)
    {
        // Draft HandleInflightTooHigh: react once per probe; never cut harder than Beta * target (CUBIC's 0.7).
        prevProbeTooHigh = true;
        isBwProbeSample = false;
        if (!isAppLimited)
        {
            model.setInflightLongtermBytes(
                Math.max(txInFlightBytes, (long)(outputs.targetInflight() * config.beta)));
        }
        if (mode.is(Bbr3State.PROBE_BW_UP))
        {
            startDown(nowNs);
            return true;
        }
        return false;
    }

    private boolean adaptLongTermModel(final long nowNs, final boolean isCwndLimited)
    {
        // Draft AdaptLongTermModel (Linux bbr_adapt_upper_bounds). Excess loss while probing is handled per lost
        // packet in onPacketLost, as the draft's HandleLostPacket does; excess CE marks, which only ACKs report, here
        // (Linux: bbr_is_inflight_too_high's ECN test, then bbr_handle_inflight_too_high while bw_probe_samples).
        final Bbr3RateSample rs = model.rateSample();
        if (AckPhase.PROBE_STARTING == ackPhase && model.isRoundStart())
        {
            ackPhase = AckPhase.PROBE_FEEDBACK; // starting to get bw probing samples
        }
        if (AckPhase.PROBE_STOPPING == ackPhase && model.isRoundStart())
        {
            // End of samples from the probe: the best moment to forget the previous cycle's bandwidth.
            isBwProbeSample = false;
            ackPhase = AckPhase.INIT;
            final boolean isProbeBw = mode.state().isProbeBw();
            if (isProbeBw && !rs.isAppLimited())
            {
                model.advanceMaxBwFilter();
            }
            // Precautionary bandwidth probing, acceleration: the cautious probe reached inflight_longterm without
            // excess loss, so probe again right away and this time hold inflight there.
            if (isProbeBw && prevProbePrecautionary && !prevProbeTooHigh)
            {
                startRefill();
                return true;
            }
        }

        if (model.ecn().isTooHigh(rs.deliveredBytes()))
        {
            if (isBwProbeSample)
            {
                isUpStoppedByEcn = handleInflightTooHigh(nowNs, rs.txInFlightBytes(), rs.isAppLimited());
            }
        }
        else if (!model.isInflightTooHigh(rs.lostBytes(), rs.txInFlightBytes()))
        {
            final long inflightLongtermBytes = model.inflightLongtermBytes();
            if (INFINITE == inflightLongtermBytes)
            {
                return false; // no upper bound to raise
            }
            // Resilience to random loss: a higher inflight observed without excess loss is safe.
            if (rs.txInFlightBytes() > inflightLongtermBytes)
            {
                model.setInflightLongtermBytes(rs.txInFlightBytes());
            }
            if (mode.is(Bbr3State.PROBE_BW_UP))
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
        if (!isCwndLimited || outputs.congestionWindowBytes() < model.inflightLongtermBytes())
        {
            if (variant.isProbeUpCreditForgottenWhenNotLimited())
            {
                bwProbeUpAckedBytes = 0;
            }
            return;
        }
        bwProbeUpAckedBytes += model.rateSample().newlyAckedBytes();
        if (bwProbeUpAckedBytes >= probeUpAckedPerIncBytes)
        {
            final long delta = bwProbeUpAckedBytes / probeUpAckedPerIncBytes;
            bwProbeUpAckedBytes -= delta * probeUpAckedPerIncBytes;
            model.setInflightLongtermBytes(model.inflightLongtermBytes() + delta * model.smssBytes());
        }
        if (model.isRoundStart())
        {
            raiseInflightLongtermSlope();
        }
    }

    private void raiseInflightLongtermSlope()
    {
        final long growthThisRound = 1L << bwProbeUpRounds;
        bwProbeUpRounds = Math.min(bwProbeUpRounds + 1, MAX_PROBE_UP_ROUNDS);
        probeUpAckedPerIncBytes = Math.max(outputs.congestionWindowBytes() / growthThisRound, model.smssBytes());
    }

    private boolean isTimeToProbeBw(final long nowNs, final boolean isInRecovery)
    {
        // Linux bbr_check_time_to_probe_bw: marks but no loss in this cycle, and not in recovery, mean an operating
        // point at the marking threshold; once the marks cease, re-probe at once, raising inflight_longterm by
        // ecnReprobeGain of itself in the first round.
        final Bbr3Ecn ecn = model.ecn();
        if (ecn.isReprobeDue(model.isLossInCycle(), isInRecovery))
        {
            startRefill(ecn.reprobeUpRounds(model.inflightLongtermBytes(), model.smssBytes(), MAX_PROBE_UP_ROUNDS));
            return true;
        }
        // Draft IsTimeToProbeBW: the BBR-native wall-clock wait or the Reno-coexistence round count.
        if (nowNs > cycleStampNs + bwProbeWaitNs || isRenoCoexistenceProbeTime())
        {
            startRefill();
            return true;
        }
        return false;
    }

    private boolean isRenoCoexistenceProbeTime()
    {
        // A Reno flow with our BDP needs about BDP-in-packets rounds between losses; bounded at 63 rounds so that 1 %
        // random loss per round cannot erode the model between probes (draft 5.3.3.8). The draft compares the bytes of
        // TargetInflight() with a round count; so the bytes are divided by the SMSS here.
        final long renoRounds = outputs.targetInflight() / model.smssBytes();
        return roundsSinceProbeUp >= Math.min(renoRounds, config.probeMaxRounds);
    }

    private boolean isTimeToCruise()
    {
        final long inflightBytes = probeBwInflightBytes();
        if (inflightBytes > model.inflightWithHeadroom())
        {
            return false; // not enough headroom
        }
        return inflightBytes <= outputs.inflight(model.maxBwBytesPerSecond(), 1.0); // queue drained
    }

    private boolean isTimeToGoDown(final long nowNs, final boolean isCwndLimited)
    {
        // Precautionary bandwidth probing, deceleration: the last probe lost too much at inflight_longterm.
        final long inflightBytes = probeBwInflightBytes();
        if (prevProbeTooHigh && inflightBytes >= model.inflightLongtermBytes())
        {
            prevProbePrecautionary = true;
            return true;
        }
        if (config.isProbeUpEndedByInflight)
        {
            // v2 "is_queuing": probed for at least a min_rtt and inflight reached 1.25 BDP.
            final long minRttNs = model.minRttNs();
            return INFINITE != minRttNs && nowNs - cycleStampNs > minRttNs &&
                inflightBytes >= outputs.inflight(model.maxBwBytesPerSecond(), V2_PROBE_UP_INFLIGHT_GAIN);
        }
        if (isCwndLimited && outputs.congestionWindowBytes() >= model.inflightLongtermBytes())
        {
            // inflight_longterm, not the path, limits growth: the plateau says nothing yet.
            model.restartFullBwFromSample();
        }
        else if (model.isFullBwNow())
        {
            return true; // the path's bandwidth is fully used
        }
        return false;
    }

    private long probeBwInflightBytes()
    {
        // The inflight ProbeBW's exits judge: the draft's C.inflight, or v2's rs->prior_in_flight.
        return variant.isProbeBwJudgedOnPriorInflight() ?
            model.rateSample().priorInflightBytes() : model.bytesInFlight();
    }

    /**
     * ProbeRTT began: the samples still to come are not a probe's (Linux {@code bbr_check_probe_rtt}: ack_phase =
     * BBR_ACKS_PROBE_STOPPING).
     */
    void stopSampling()
    {
        ackPhase = AckPhase.PROBE_STOPPING;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Phase entries
    // ---------------------------------------------------------------------------------------------------------------

    void startDown(final long nowNs)
    {
        model.resetCongestionSignals();
        probeUpAckedPerIncBytes = INFINITE; // not growing inflight_longterm
        pickProbeWait();
        cycleStampNs = nowNs; // start the wall clock
        ackPhase = AckPhase.PROBE_STOPPING;
        model.startRound();
        mode.enter(Bbr3State.PROBE_BW_DOWN);
    }

    void startCruise()
    {
        final long inflightShorttermBytes = model.inflightShorttermBytes();
        if (variant.isCruiseBoundingShortTermByLongTerm() && INFINITE != inflightShorttermBytes)
        {
            model.setInflightShorttermBytes(Math.min(inflightShorttermBytes, model.inflightLongtermBytes()));
        }
        mode.enter(Bbr3State.PROBE_BW_CRUISE);
    }

    void startRefill()
    {
        startRefill(0);
    }

    /**
     * @param probeUpRounds the probe round UP starts at: 0, or later for the quick ECN re-probe's head start.
     */
    private void startRefill(final int probeUpRounds)
    {
        model.resetShortTermModel();
        bwProbeUpRounds = probeUpRounds;
        bwProbeUpAckedBytes = 0;
        prevProbePrecautionary = false;
        ackPhase = AckPhase.REFILLING;
        model.startRound();
        mode.enter(Bbr3State.PROBE_BW_REFILL);
    }

    private void startUp(final long nowNs)
    {
        ackPhase = AckPhase.PROBE_STARTING;
        model.startRound();
        // Linux v2 and v3 stamp the phase start (bbr*_start_bw_probe_up); only v2's exit from UP reads it.
        cycleStampNs = nowNs;
        if (!config.isProbeUpEndedByInflight)
        {
            model.restartFullBwFromSample();
        }
        mode.enter(Bbr3State.PROBE_BW_UP);
        raiseInflightLongtermSlope();
    }

    private void pickProbeWait()
    {
        // Randomised for mixing and fairness convergence: start the round count at 0 or 1 and wait 2 s + U[0, 1) s.
        roundsSinceProbeUp = random.nextInt(PROBE_WAIT_RANDOM_ROUNDS);
        bwProbeWaitNs = config.probeWaitBaseNs + (long)(random.nextDouble() * config.probeWaitRandomNs);
    }
}
