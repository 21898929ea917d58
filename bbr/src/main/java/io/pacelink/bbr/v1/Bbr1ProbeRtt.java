package io.pacelink.bbr.v1;

import io.pacelink.bbr.ProbeRttHold;
import io.pacelink.transport.cc.AckEvent;

/**
 * PROBE_RTT, the state part of {@code bbr_update_min_rtt}: once the min_rtt filter expired, hold inflight at 4
 * packets for max(200 ms, 1 round), then restore the cwnd and return to PROBE_BW (or STARTUP if the pipe was never
 * full). Also the application-limited bubble PROBE_RTT puts on the rate samples, which the SPI cannot put on the
 * transport's sampler.
 */
final class Bbr1ProbeRtt
{
    private final Bbr1Parameters parameters;
    private final Bbr1Model model;
    private final Bbr1Mode mode;
    private final Bbr1Recovery recovery;
    private final Bbr1Outputs outputs;
    private final Bbr1GainCycle gainCycle;
    private final ProbeRttHold hold = new ProbeRttHold();

    private boolean isIdleRestart;
    private long appLimitedFromBytes = 1;
    private long appLimitedUntilBytes;

    Bbr1ProbeRtt(
        final Bbr1Parameters parameters,
        final Bbr1Model model,
        final Bbr1Mode mode,
        final Bbr1Recovery recovery,
        final Bbr1Outputs outputs,
        final Bbr1GainCycle gainCycle)
    {
        this.parameters = parameters;
        this.model = model;
        this.mode = mode;
        this.recovery = recovery;
        this.outputs = outputs;
        this.gainCycle = gainCycle;
    }

    /**
     * Restart from idle: PROBE_RTT is not entered until an ACK delivers data.
     */
    void onRestartFromIdle()
    {
        isIdleRestart = true;
    }

    /**
     * @param isFilterExpired whether the min_rtt filter had expired before this ACK.
     */
    void update(final AckEvent ack, final boolean isFilterExpired)
    {
        final long nowNs = ack.nowNs();
        if (parameters.probeRttDurationNs() > 0 && isFilterExpired && !isIdleRestart &&
            !mode.is(Bbr1State.PROBE_RTT))
        {
            mode.enter(Bbr1State.PROBE_RTT);
            recovery.saveCwnd(outputs.congestionWindowBytes(), true);
            hold.restart();
            appLimitedFromBytes = model.totalDeliveredBytes();
        }

        if (mode.is(Bbr1State.PROBE_RTT))
        {
            final long bytesInFlight = ack.bytesInFlight();
            markAppLimited(bytesInFlight);
            // Hold the inflight floor for max(200 ms, 1 round).
            if (hold.beginAtFloor(nowNs, bytesInFlight, model.minTargetCwndBytes(), parameters.probeRttDurationNs()))
            {
                model.startRound();
            }
            else if (hold.isHolding() && hold.onAck(model.isRoundStart()))
            {
                checkDone(nowNs);
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
    void checkDone(final long nowNs)
    {
        if (!hold.isOver(nowNs))
        {
            return;
        }
        model.restartMinRttInterval(nowNs);  // wait a whole interval until the next PROBE_RTT
        outputs.restoreCwnd();
        if (model.isFullBandwidthReached())
        {
            gainCycle.enterProbeBw();
        }
        else
        {
            mode.enter(Bbr1State.STARTUP);
        }
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
    private void markAppLimited(final long bytesInFlight)
    {
        appLimitedUntilBytes = Math.max(model.totalDeliveredBytes() + bytesInFlight, 1);
    }

    boolean isSampleAppLimited(final AckEvent ack)
    {
        final long priorDeliveredBytes = ack.samplePriorDeliveredBytes();
        return ack.isSampleAppLimited() ||
            (priorDeliveredBytes >= appLimitedFromBytes && priorDeliveredBytes <= appLimitedUntilBytes);
    }
}
