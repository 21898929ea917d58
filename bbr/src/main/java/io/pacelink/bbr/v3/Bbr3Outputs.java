package io.pacelink.bbr.v3;

import io.pacelink.bbr.BbrConstants;
import io.pacelink.bbr.BbrMath;
import io.pacelink.transport.cc.RttStats;

import static io.pacelink.bbr.v3.Bbr3Controller.INFINITE;

/**
 * What BBRv3 tells the transport (draft {@code UpdateControlParameters}): the pacing rate, the send quantum and the
 * cwnd with its bounds, plus the last known good cwnd ({@code BBR.prior_cwnd}) recovery and ProbeRTT restore. Derived
 * from the model and the state's gains; changes nothing in the model.
 */
final class Bbr3Outputs
{
    private final Bbr3Parameters config;
    private final Bbr3Variant variant;
    private final RttStats rttStats;
    private final Bbr3Model model;
    private final Bbr3Mode mode;

    private long congestionWindowBytes;
    private long pacingRateBytesPerSecond;
    private int sendQuantumBytes;
    private boolean hasSeenRtt;
    private long priorCwndBytes;

    Bbr3Outputs(final Bbr3Parameters config, final RttStats rttStats, final Bbr3Model model, final Bbr3Mode mode)
    {
        this.config = config;
        this.variant = config.variant;
        this.rttStats = rttStats;
        this.model = model;
        this.mode = mode;
        this.congestionWindowBytes = model.initialCwndBytes();
        this.hasSeenRtt = rttStats.hasSample();
        this.pacingRateBytesPerSecond = initialPacingRate();
        setSendQuantum();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Pacing rate and send quantum
    // ---------------------------------------------------------------------------------------------------------------

    private long initialPacingRate()
    {
        // Draft InitPacingRate: StartupPacingGain * InitialCwnd / (srtt, or 1 ms before any RTT sample).
        final long rttNs = hasSeenRtt ? Math.max(1L, rttStats.smoothedRttNs()) : BbrConstants.NOMINAL_RTT_NS;
        return (long)(config.startupPacingGain * BbrMath.rateBytesPerSecond(model.initialCwndBytes(), rttNs));
    }

    void setPacingRateWithGain(final double gain)
    {
        // Linux bbr_set_pacing_rate: once the first RTT sample exists, re-derive the initial rate from it.
        if (!hasSeenRtt && rttStats.hasSample())
        {
            hasSeenRtt = true;
            pacingRateBytesPerSecond = initialPacingRate();
        }
        // Pace 1 % below the estimate; until the pipe is full, only ever raise the rate (app-limited samples in
        // Startup must not slow it down).
        final long rate = (long)(gain * model.bwBytesPerSecond() * (100 - config.pacingMarginPercent) / 100.0);
        if (model.isFullBwReached() || rate > pacingRateBytesPerSecond)
        {
            pacingRateBytesPerSecond = rate;
        }
    }

    void setSendQuantum()
    {
        // Draft SetSendQuantum: clamp(pacing_rate * 1 ms, 2 * SMSS, 64 KB).
        sendQuantumBytes = BbrMath.sendQuantumBytes(pacingRateBytesPerSecond, model.smssBytes());
    }

    // ---------------------------------------------------------------------------------------------------------------
    // cwnd
    // ---------------------------------------------------------------------------------------------------------------

    void setCwnd()
    {
        // Draft UpdateMaxInflight and SetCwnd: grow by what was acked toward max_inflight, cut to it once the pipe
        // was full.
        final long newlyAckedBytes = model.rateSample().newlyAckedBytes();
        final long maxInflightBytes = quantizationBudget(
            model.bdpMultiple(model.bwBytesPerSecond(), mode.cwndGain()) + model.extraAckedBytes());
        if (model.isFullBwReached())
        {
            congestionWindowBytes = Math.min(congestionWindowBytes + newlyAckedBytes, maxInflightBytes);
        }
        else if (congestionWindowBytes < maxInflightBytes || isBelowStartupGrowthFloor())
        {
            congestionWindowBytes += newlyAckedBytes;
        }
        congestionWindowBytes = Math.max(congestionWindowBytes, model.minPipeCwndBytes());
        boundCwndForProbeRtt();
        boundCwndForModel();
    }

    private void boundCwndForProbeRtt()
    {
        if (mode.is(Bbr3State.PROBE_RTT))
        {
            congestionWindowBytes = Math.min(congestionWindowBytes, probeRttCwnd());
        }
    }

    private void boundCwndForModel()
    {
        // Draft BoundCwndForModel: inflight_longterm while probing in ProbeBW, with headroom when cruising and in
        // ProbeRTT, and the short-term bound everywhere.
        final Bbr3State state = mode.state();
        long capBytes = INFINITE;
        if (state.isProbeBw() && Bbr3State.PROBE_BW_CRUISE != state)
        {
            capBytes = model.inflightLongtermBytes();
        }
        else if (Bbr3State.PROBE_RTT == state || Bbr3State.PROBE_BW_CRUISE == state)
        {
            capBytes = model.inflightWithHeadroom();
        }
        capBytes = Math.min(capBytes, model.inflightShorttermBytes());
        capBytes = Math.max(capBytes, model.minPipeCwndBytes());
        congestionWindowBytes = Math.min(congestionWindowBytes, capBytes);
    }

    private boolean isBelowStartupGrowthFloor()
    {
        // Draft SetCwnd: grow until the initial window was delivered; v2 bbr_set_cwnd: while below twice it.
        final long initialCwndBytes = model.initialCwndBytes();
        return variant.isStartupGrowingToTwiceInitialCwnd() ?
            congestionWindowBytes < 2 * initialCwndBytes : model.deliveredBytes() < initialCwndBytes;
    }

    /**
     * Remember the last known good cwnd: one not cut by loss recovery or ProbeRTT (draft {@code BBRSaveCwnd}).
     */
    void saveCwnd(final boolean isInRecovery)
    {
        if (!isInRecovery && !mode.is(Bbr3State.PROBE_RTT))
        {
            priorCwndBytes = congestionWindowBytes;
        }
        else
        {
            priorCwndBytes = Math.max(priorCwndBytes, congestionWindowBytes);
        }
    }

    /**
     * Draft {@code BBRRestoreCwnd}.
     */
    void restoreCwnd()
    {
        congestionWindowBytes = Math.max(congestionWindowBytes, priorCwndBytes);
    }

    /**
     * BBRv2 alpha's undo ({@code bbr2_undo_cwnd}): the saved cwnd, even if lower.
     */
    void resetCwndToPrior()
    {
        congestionWindowBytes = priorCwndBytes;
    }

    /**
     * Draft {@code OnEnterRTO} (Linux {@code tcp_enter_loss}): what is in flight plus one packet.
     */
    void collapseCwndToInflight()
    {
        congestionWindowBytes = model.bytesInFlight() + model.smssBytes();
    }

    void onMtuChanged()
    {
        congestionWindowBytes = Math.max(congestionWindowBytes, model.minPipeCwndBytes());
        setSendQuantum();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Derived quantities
    // ---------------------------------------------------------------------------------------------------------------

    private long quantizationBudget(final long inflightCapBytes)
    {
        // QUIC offload budget: one send quantum (draft 5.5.8.2). UP adds 2 packets so that gain cycling raises
        // inflight above the BDP even when the BDP is tiny.
        long budgetBytes = Math.max(inflightCapBytes, sendQuantumBytes);
        budgetBytes = Math.max(budgetBytes, model.minPipeCwndBytes());
        if (mode.is(Bbr3State.PROBE_BW_UP))
        {
            budgetBytes += 2L * model.smssBytes();
        }
        return budgetBytes;
    }

    /**
     * Draft {@code BBRInflight}: the BDP at this bandwidth and gain with its quantization budget.
     */
    long inflight(final long bandwidthBytesPerSecond, final double gain)
    {
        return quantizationBudget(model.bdpMultiple(bandwidthBytesPerSecond, gain));
    }

    long targetInflight()
    {
        // How much we want in flight: the BDP (v2: with its quantization budget), unless congestion cut cwnd below it.
        final long bwBytesPerSecond = model.bwBytesPerSecond();
        final long bdpBytes = variant.isTargetInflightBudgeted() ?
            inflight(bwBytesPerSecond, 1.0) : model.bdpMultiple(bwBytesPerSecond, 1.0);
        return Math.min(bdpBytes, congestionWindowBytes);
    }

    long probeRttCwnd()
    {
        return Math.max(model.bdpMultiple(model.bwBytesPerSecond(), config.probeRttCwndGain), model.minPipeCwndBytes());
    }

    long congestionWindowBytes()
    {
        return congestionWindowBytes;
    }

    long priorCwndBytes()
    {
        return priorCwndBytes;
    }

    long pacingRateBytesPerSecond()
    {
        return pacingRateBytesPerSecond;
    }

    int sendQuantumBytes()
    {
        return sendQuantumBytes;
    }
}
