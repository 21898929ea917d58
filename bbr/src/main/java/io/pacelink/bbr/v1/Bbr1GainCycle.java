package io.pacelink.bbr.v1;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.ControllerRandom;

import static io.pacelink.bbr.v1.Bbr1Controller.CRUISE_PHASE_INDEX;
import static io.pacelink.bbr.v1.Bbr1Controller.CYCLE_LENGTH;
import static io.pacelink.bbr.v1.Bbr1Controller.CYCLE_RANDOM_PHASES;
import static io.pacelink.bbr.v1.Bbr1Controller.DRAIN_PHASE_INDEX;

/**
 * PROBE_BW's gain cycle: when to move to the next of its phases, 5/4, 3/4 and six of 1
 * ({@code bbr_update_cycle_phase}, {@code bbr_is_next_cycle_phase}), or BBRplus's cycle
 * ({@code bbr_drain_to_target_cycling}), and where a cycle starts ({@code bbr_reset_probe_bw_mode}).
 */
final class Bbr1GainCycle
{
    private final Bbr1Variant variant;
    private final ControllerRandom random;
    private final Bbr1Model model;
    private final Bbr1Mode mode;
    private final Bbr1Outputs outputs;

    private long cycleStartNs;
    private int cycleLengthMinRtts;

    Bbr1GainCycle(
        final Bbr1Variant variant,
        final ControllerRandom random,
        final Bbr1Model model,
        final Bbr1Mode mode,
        final Bbr1Outputs outputs)
    {
        this.variant = variant;
        this.random = random;
        this.model = model;
        this.mode = mode;
        this.outputs = outputs;
    }

    /**
     * {@code bbr_reset_probe_bw_mode}: enter PROBE_BW at a random phase other than 3/4. Linux picks
     * {@code CYCLE_LEN - 1 - random(7)} and advances once, i.e. uniformly from {2, ..., 7, 0}.
     */
    void enterProbeBw()
    {
        mode.enter(Bbr1State.PROBE_BW);
        mode.setCycleIndex(CYCLE_LENGTH - 1 - random.nextInt(CYCLE_LENGTH - 1));
        advance();
    }

    /**
     * {@code bbr_update_cycle_phase}; BBRplus: {@code bbr_drain_to_target_cycling}.
     */
    void update(final AckEvent ack)
    {
        if (!mode.is(Bbr1State.PROBE_BW))
        {
            return;
        }
        if (variant.isDrainToTargetCycling())
        {
            drainToTargetCycling(ack);
        }
        else if (isNextPhase(ack))
        {
            advance();
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
        final long deliveredTimeNs = model.deliveredTimeNs();
        final long elapsedNs = deliveredTimeNs - cycleStartNs;
        final boolean hasMinRtt = model.hasMinRtt();
        final long minRttNs = model.minRttNs();
        if (hasMinRtt && elapsedNs > cycleLengthMinRtts * minRttNs)
        {
            // Always probe before the bandwidth estimate is forgotten: a new cycle of 2 to 8 min_rtts.
            cycleStartNs = deliveredTimeNs;
            cycleLengthMinRtts = CYCLE_LENGTH - random.nextInt(CYCLE_RANDOM_PHASES);
            mode.setCycleIndex(0);
            return;
        }
        final double pacingGain = mode.pacingGain();
        if (1.0 == pacingGain)
        {
            return;  // cruise at the estimate
        }

        final long inflightBytes = ack.priorBytesInFlightBytes();
        final long maxBandwidth = model.maxBandwidthBytesPerSecond();
        if (pacingGain < 1.0)
        {
            if (inflightBytes <= outputs.inflightBytes(maxBandwidth, 1.0))
            {
                mode.setCycleIndex(CRUISE_PHASE_INDEX);  // the queue we added is drained
            }
            return;
        }
        if (hasMinRtt && elapsedNs > minRttNs && (inflightBytes >= outputs.inflightBytes(maxBandwidth, pacingGain) ||
            ack.newlyLostBytes() > 0 || ack.isSampleAppLimited()))
        {
            mode.setCycleIndex(DRAIN_PHASE_INDEX);
        }
    }

    private boolean isNextPhase(final AckEvent ack)
    {
        final boolean isFullLength = model.hasMinRtt() && model.deliveredTimeNs() - cycleStartNs > model.minRttNs();
        final double pacingGain = mode.pacingGain();
        if (1.0 == pacingGain)
        {
            return isFullLength;
        }

        // Without a departure-time pacer the inflight "at EDT" is the inflight before this ACK.
        final long inflightBytes = ack.priorBytesInFlightBytes();
        final long maxBandwidth = model.maxBandwidthBytesPerSecond();

        // 5/4: raise inflight to 5/4 BDP (may take longer than min_rtt), but stop persisting on loss: a path with
        // small buffers may not hold that much.
        if (pacingGain > 1.0)
        {
            return isFullLength &&
                (ack.newlyLostBytes() > 0 || inflightBytes >= outputs.inflightBytes(maxBandwidth, pacingGain));
        }

        // 3/4: end early once the queue we added is drained; persisting would under-utilise the pipe.
        return isFullLength || inflightBytes <= outputs.inflightBytes(maxBandwidth, 1.0);
    }

    private void advance()
    {
        mode.setCycleIndex((mode.cycleIndex() + 1) & (CYCLE_LENGTH - 1));
        cycleStartNs = model.deliveredTimeNs();
    }

    int cycleLengthMinRtts()
    {
        return cycleLengthMinRtts;
    }
}
