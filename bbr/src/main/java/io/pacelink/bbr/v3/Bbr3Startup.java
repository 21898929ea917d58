package io.pacelink.bbr.v3;

/**
 * Startup and Drain (draft sections 5.3.1 and 5.3.2): Startup ends when the full-pipe estimator sees three rounds
 * without 25 % growth, on excess loss ("Exiting Startup Based on Packet Loss") or, as Linux BBRv3, on rounds marked
 * at or above the ECN threshold ({@code bbr_check_ecn_too_high_in_startup}); Drain then paces below the
 * bandwidth until inflight is down to the BDP and hands over to ProbeBW_DOWN.
 */
final class Bbr3Startup
{
    private final Bbr3Parameters config;
    private final Bbr3Variant variant;
    private final Bbr3Model model;
    private final Bbr3Mode mode;
    private final Bbr3Outputs outputs;
    private final Bbr3ProbeBw probeBw;

    // Startup loss exit: discontiguous lost ranges (v2: lossy ACKs) in the current loss round.
    private long lossEventsInRound;
    private long lastLostPacketNumber = Long.MIN_VALUE;
    private long drainStartRound;
    private long startupEcnRounds;

    Bbr3Startup(
        final Bbr3Parameters config,
        final Bbr3Model model,
        final Bbr3Mode mode,
        final Bbr3Outputs outputs,
        final Bbr3ProbeBw probeBw)
    {
        this.config = config;
        this.variant = config.variant;
        this.model = model;
        this.mode = mode;
        this.outputs = outputs;
        this.probeBw = probeBw;
    }

    void enter()
    {
        mode.enter(Bbr3State.STARTUP);
    }

    void onPacketLost(final long packetNumber)
    {
        // Packet numbers are never reused, so a lost packet that does not follow the previous lost one starts a new
        // discontiguous lost range (the draft's SACK "sequence ranges"); v2 counts lossy ACKs instead.
        if (!variant.isStartupLossCountingLossyAcks())
        {
            if (packetNumber != lastLostPacketNumber + 1)
            {
                lossEventsInRound++;
            }
            lastLostPacketNumber = packetNumber;
        }
    }

    /**
     * Linux {@code bbr_check_ecn_too_high_in_startup}, at each round start that updated alpha: consecutive rounds
     * marked at or above {@code ecnThreshold} mean the queue is already at the marking threshold: the pipe is full.
     *
     * @param ceRatio the round's CE-marked fraction.
     */
    void checkEcnTooHigh(final double ceRatio)
    {
        if (model.isFullBwReached() || 0 == config.startupFullEcnCount)
        {
            return;
        }
        startupEcnRounds = ceRatio >= config.ecnThreshold ? startupEcnRounds + 1 : 0;
        if (startupEcnRounds >= config.startupFullEcnCount)
        {
            // Linux bbr_handle_queue_too_high_in_startup.
            model.markFullBwReached(true);
            model.setInflightLongtermBytes(
                Math.max(outputs.inflight(model.maxBwBytesPerSecond(), 1.0), model.inflightLatestBytes()));
        }
    }

    /**
     * Draft {@code CheckStartupDone}.
     *
     * @param isInRecovery whether the connection is in loss recovery.
     * @return true if excess loss ended Startup (an undo of that loss resumes Startup).
     */
    boolean checkDone(final boolean isInRecovery)
    {
        final boolean isEndedByLoss = checkHighLoss(isInRecovery);
        if (mode.is(Bbr3State.STARTUP) && model.isFullBwReached())
        {
            mode.enter(Bbr3State.DRAIN);
            drainStartRound = model.roundCount();
        }
        return isEndedByLoss;
    }

    private boolean checkHighLoss(final boolean isInRecovery)
    {
        // Draft "Exiting Startup Based on Packet Loss" (Linux bbr_check_loss_too_high_in_startup), evaluated at the
        // end of each loss round: a whole round spent in recovery (NoteLoss started the round at the first loss),
        // loss rate above LossThresh, and at least BBRStartupFullLossCnt discontiguous lost ranges (v2: ACKs that
        // marked losses, loss_events_in_round).
        final Bbr3RateSample rs = model.rateSample();
        if (variant.isStartupLossCountingLossyAcks() && rs.newlyLostBytes() > 0)
        {
            lossEventsInRound++;
        }
        if (!model.isLossRoundStart())
        {
            return false;
        }
        boolean isEndedByLoss = false;
        if (mode.is(Bbr3State.STARTUP) && !model.isFullBwReached() && isInRecovery &&
            lossEventsInRound >= config.startupFullLossCount &&
            (model.isInflightTooHigh(rs.lostBytes(), rs.txInFlightBytes()) ||
            model.ecn().isTooHigh(rs.deliveredBytes())))
        {
            isEndedByLoss = true;
            model.markFullBwReached(true);
            // v2 bbr2_handle_queue_too_high_in_startup: the BDP of max_bw with its quantization budget.
            model.setInflightLongtermBytes(variant.isStartupLossBoundTheBdp() ?
                outputs.inflight(model.maxBwBytesPerSecond(), 1.0) :
                Math.max(model.bdpMultiple(model.bwBytesPerSecond(), 1.0), model.inflightLatestBytes()));
        }
        lossEventsInRound = 0;
        return isEndedByLoss;
    }

    /**
     * Draft {@code CheckDrainDone}: inflight down to the BDP (or v2's round limit), then ProbeBW_DOWN, whose default
     * cwnd gain comes with the state.
     */
    void checkDrainDone(final long nowNs)
    {
        if (mode.is(Bbr3State.DRAIN) &&
            (model.bytesInFlight() <= outputs.inflight(model.bwBytesPerSecond(), 1.0) ||
            (config.drainRoundsTimeout > 0 && model.roundCount() > drainStartRound + config.drainRoundsTimeout)))
        {
            probeBw.startDown(nowNs);
        }
    }
}
