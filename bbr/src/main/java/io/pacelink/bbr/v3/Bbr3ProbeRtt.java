package io.pacelink.bbr.v3;

import io.pacelink.bbr.ProbeRttHold;

import static io.pacelink.bbr.v3.Bbr3Controller.INFINITE;

/**
 * ProbeRTT (draft section 5.3.4): when {@code probe_rtt_min_delay} expired (5 s without a lower sample), hold inflight
 * at half the BDP for ProbeRTTDuration and at least one round, then restore the cwnd and return to ProbeBW (or Startup
 * if the pipe was never full). Also keeps the application-limited mark the draft sets while in ProbeRTT, which the SPI
 * cannot set on the transport's rate sampler.
 */
final class Bbr3ProbeRtt
{
    private final Bbr3Parameters config;
    private final Bbr3Model model;
    private final Bbr3Mode mode;
    private final Bbr3Outputs outputs;
    private final Bbr3ProbeBw probeBw;
    private final ProbeRttHold hold = new ProbeRttHold();

    private boolean isIdleRestart;
    private long appLimitedFromDeliveredBytes = INFINITE;
    private long appLimitedToDeliveredBytes = -1;

    Bbr3ProbeRtt(
        final Bbr3Parameters config,
        final Bbr3Model model,
        final Bbr3Mode mode,
        final Bbr3Outputs outputs,
        final Bbr3ProbeBw probeBw)
    {
        this.config = config;
        this.model = model;
        this.mode = mode;
        this.outputs = outputs;
        this.probeBw = probeBw;
    }

    /**
     * Draft {@code HandleRestartFromIdle}: idleness that let probe_rtt_min_delay expire counts as having drained the
     * queue, until the next ACK that delivers data.
     */
    void onRestartFromIdle(final long nowNs)
    {
        isIdleRestart = true;
        if (mode.is(Bbr3State.PROBE_RTT))
        {
            checkDone(nowNs);
        }
    }

    /**
     * @param priorDeliveredBytes C.delivered when the sampled packet was sent.
     * @return true if the packet was sent while ProbeRTT held the application-limited mark: its sample is
     * application-limited, exactly the packets the transport's rate sampler would have flagged.
     */
    boolean isMarkedAppLimited(final long priorDeliveredBytes)
    {
        // A packet sent while the mark was set has C.delivered at send within [entry, mark].
        return priorDeliveredBytes >= appLimitedFromDeliveredBytes &&
            priorDeliveredBytes <= appLimitedToDeliveredBytes;
    }

    /**
     * Draft {@code CheckProbeRTT}.
     *
     * @param isInRecovery whether the connection is in loss recovery (for the cwnd saved on entry).
     */
    void check(final long nowNs, final boolean isInRecovery)
    {
        if (!mode.is(Bbr3State.PROBE_RTT) && model.isProbeRttDue() && !isIdleRestart)
        {
            mode.enter(Bbr3State.PROBE_RTT);
            outputs.saveCwnd(isInRecovery);
            hold.restart();
            probeBw.stopSampling();
            model.startRound();
            appLimitedFromDeliveredBytes = model.deliveredBytes();
            appLimitedToDeliveredBytes = -1;
        }
        if (mode.is(Bbr3State.PROBE_RTT))
        {
            handle(nowNs);
        }
        if (model.rateSample().deliveredBytes() > 0)
        {
            isIdleRestart = false;
        }
    }

    private void handle(final long nowNs)
    {
        markConnectionAppLimited(); // ignore the low rate samples ProbeRTT produces
        // Hold inflight down for ProbeRTTDuration and at least one round.
        if (hold.beginAtFloor(nowNs, model.bytesInFlight(), outputs.probeRttCwnd(), config.probeRttDurationNs))
        {
            model.startRound();
        }
        else if (hold.isHolding() && hold.onAck(model.isRoundStart()))
        {
            checkDone(nowNs);
        }
    }

    private void markConnectionAppLimited()
    {
        // Draft MarkConnectionAppLimited, Linux tcp_rate_check_app_limited: C.app_limited = max(C.delivered + inflight,
        // 1).
        appLimitedToDeliveredBytes =
            Math.max(appLimitedToDeliveredBytes, Math.max(model.deliveredBytes() + model.bytesInFlight(), 1));
    }

    private void checkDone(final long nowNs)
    {
        if (hold.isOver(nowNs))
        {
            model.scheduleNextProbeRtt(nowNs);
            outputs.restoreCwnd();
            exit(nowNs);
        }
    }

    private void exit(final long nowNs)
    {
        // Congestion met in ProbeRTT may have pulled the short-term model far below the path's capacity. Restart
        // the probing clock with DOWN, but inflight is already below the BDP, so cruise at once.
        model.resetShortTermModel();
        if (model.isFullBwReached())
        {
            probeBw.startDown(nowNs);
            probeBw.startCruise();
        }
        else
        {
            mode.enter(Bbr3State.STARTUP);
        }
    }
}
