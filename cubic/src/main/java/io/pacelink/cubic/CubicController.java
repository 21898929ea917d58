package io.pacelink.cubic;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.WindowController;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.List;

/**
 * CUBIC (RFC 9438) with HyStart++ (RFC 9406) in the initial slow start, or Linux's HyStart
 * ({@code cubic.hystart=linux}, {@link HyStart}).
 * <p>
 * In congestion avoidance the window follows {@code W_cubic(t) = C·(t − K)³ + W_max}: each ACK moves cwnd a share
 * of the way towards {@code W_cubic(t + srtt)} clamped to {@code [cwnd, 1.5·cwnd]}, unless the Reno-friendly
 * estimate W_est is larger, in which case cwnd follows W_est. A congestion event multiplies cwnd by β once per
 * recovery period (RFC 9002 section 7.3.2, kept by the transport), reached by Proportional Rate Reduction over the
 * period (RFC 6937, as Linux; {@link WindowController}). The window grows only
 * while the sender is cwnd-limited, and time spent application-limited or idle is excluded from {@code t} so the
 * curve resumes where it paused.
 * <p>
 * cwnd is kept in bytes; the curve is computed in bytes as doubles with C scaled by the datagram size (RFC 9438
 * states it in segments), and growth smaller than a byte is carried to the next ACK. No callback allocates.
 */
public final class CubicController extends WindowController
{
    /**
     * {@link #stateName()} in HyStart++ Conservative Slow Start; the other states are {@link WindowController}'s.
     */
    public static final String STATE_CONSERVATIVE_SLOW_START = "CONSERVATIVE_SLOW_START";

    private static final List<String> STATE_NAMES = List.of(
        STATE_SLOW_START, STATE_CONSERVATIVE_SLOW_START, STATE_CONGESTION_AVOIDANCE, STATE_RECOVERY);

    /**
     * Counter name: the congestion window.
     */
    public static final String CWND_COUNTER = "cubic-cwnd-bytes";

    /**
     * Counter name: the slow-start threshold ({@link Long#MAX_VALUE} before the first reduction).
     */
    public static final String SSTHRESH_COUNTER = "cubic-ssthresh-bytes";

    /**
     * Counter name: W_max (0 while undefined).
     */
    public static final String W_MAX_COUNTER = "cubic-w-max-bytes";

    /**
     * Counter name: K.
     */
    public static final String K_COUNTER = "cubic-k-ns";

    /**
     * Counter name: the start of the current epoch, shifted by idle and application-limited time
     * ({@link Long#MIN_VALUE} while no epoch runs).
     */
    public static final String EPOCH_START_COUNTER = "cubic-epoch-start-ns";

    /**
     * Counter name: 1 while in HyStart++ Conservative Slow Start.
     */
    public static final String IN_CSS_COUNTER = "cubic-in-css";

    /**
     * Counter name: 1 while the Reno-friendly estimate sets the window.
     */
    public static final String RENO_FRIENDLY_COUNTER = "cubic-reno-friendly";

    /**
     * RFC 9438 section 4.2: the target never exceeds 1.5 cwnd, so cwnd grows at most by half per RTT (Linux keeps
     * {@code cnt >= 2}).
     */
    private static final double MAX_TARGET_GROWTH = 1.5;

    private static final double NANOS_PER_SECOND = 1e9;

    private final double beta;
    private final double cSegmentsPerSecondCubed;
    private final double renoFriendlyAlpha;
    private final boolean isFastConvergenceEnabled;
    private final HyStart hyStart;
    private final CubicState state = new CubicState();
    private final CubicState undoState = new CubicState();
    private final AtomicCounter cwndCounter;
    private final AtomicCounter ssthreshCounter;
    private final AtomicCounter wMaxCounter;
    private final AtomicCounter kCounter;
    private final AtomicCounter epochStartCounter;
    private final AtomicCounter inCssCounter;
    private final AtomicCounter renoFriendlyCounter;

    private double cwndFractionBytes;
    private boolean isRenoFriendly;
    private long lastAckTimeNs;
    private boolean hasUndoState;
    private long undoCongestionWindowBytes;
    private double undoCwndFractionBytes;
    private long undoSlowStartThresholdBytes;

    /**
     * @param context    the connection's controller context.
     * @param parameters the validated {@code cubic.*} parameters.
     */
    public CubicController(final ControllerContext context, final CubicParameters parameters)
    {
        super(context);
        this.beta = parameters.beta();
        this.cSegmentsPerSecondCubed = parameters.c();
        // RFC 9438 section 4.3: the AIMD increase that matches Reno's average window for a decrease of β.
        this.renoFriendlyAlpha = 3.0 * (1.0 - beta) / (1.0 + beta);
        this.isFastConvergenceEnabled = parameters.isFastConvergenceEnabled();
        this.hyStart = HyStart.of(parameters.hyStartMode(), context.counters());
        this.state.reset(renoFriendlyAlpha);

        this.cwndCounter = context.counters().newCounter(CWND_COUNTER);
        this.ssthreshCounter = context.counters().newCounter(SSTHRESH_COUNTER);
        this.wMaxCounter = context.counters().newCounter(W_MAX_COUNTER);
        this.kCounter = context.counters().newCounter(K_COUNTER);
        this.epochStartCounter = context.counters().newCounter(EPOCH_START_COUNTER);
        this.inCssCounter = context.counters().newCounter(IN_CSS_COUNTER);
        this.renoFriendlyCounter = context.counters().newCounter(RENO_FRIENDLY_COUNTER);
        publishCounters();
    }

    public void onPacketSent(
        final long nowNs,
        final long packetNumber,
        final int sizeBytes,
        final long bytesInFlight,
        final boolean isRetransmission)
    {
        super.onPacketSent(nowNs, packetNumber, sizeBytes, bytesInFlight, isRetransmission);
        hyStart.onPacketSent(packetNumber);
    }

    /**
     * Shift the epoch by the idle time so that {@code W_cubic(t)} does not jump after an application pause (RFC 9438
     * section 5.8; Linux {@code bictcp_cwnd_event(CA_EVENT_TX_START)}, never past now).
     */
    public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
    {
        if (CubicState.NO_EPOCH != state.epochStartNs)
        {
            state.epochStartNs = Math.min(state.epochStartNs + idleNs, nowNs);
        }
        // The idle span is accounted for: application-limited time counts again from here.
        lastAckTimeNs = nowNs;
        publishCounters();
    }

    public void onAck(final AckEvent ack)
    {
        final long nowNs = ack.nowNs();
        final long sinceLastAckNs = nowNs - lastAckTimeNs;
        lastAckTimeNs = nowNs;

        // RFC 9002 section 7.3.2: no growth during recovery, nor on the frame that ends it.
        if (isRecoveryAck(ack))
        {
            return;
        }

        if (hyStart.onAck(nowNs, ack.largestAckedPacketNumber(), ack.latestRttNs(), isInSlowStart(),
            congestionWindowBytes / context.maxDatagramSizeBytes(), pacingRateBytesPerSecond()))
        {
            // RFC 9406 section 4.2: CSS_ROUNDS rounds of CSS done (or Linux's HyStart found the exit point): enter
            // congestion avoidance.
            slowStartThresholdBytes = congestionWindowBytes;
        }

        if (!ack.isCwndLimited())
        {
            // RFC 9438 section 5.8: t must not include time in which the window did not grow because the flow was
            // application-limited; "cwnd-limited since the last ACK" being false means the whole gap was.
            if (CubicState.NO_EPOCH != state.epochStartNs)
            {
                state.epochStartNs = Math.min(state.epochStartNs + sinceLastAckNs, nowNs);
            }
            publishCounters();
            return;
        }

        long ackedBytes = ack.newlyAckedBytes();
        if (isInSlowStart())
        {
            ackedBytes = slowStart(ackedBytes);
        }
        if (ackedBytes > 0 && !isInSlowStart())
        {
            congestionAvoidance(nowNs, ackedBytes);
        }
        publishCounters();
    }

    public void onCongestionEvent(final CongestionEvent event)
    {
        // RFC 9002 section 7.3.2: one reduction per recovery period.
        if (startsRecovery(event))
        {
            reduce();
            startRateReduction(event);
        }

        if (event.isPersistentCongestion())
        {
            // RFC 9002 section 7.6.2 and RFC 9438 section 4.8: minimum window, and the next epoch starts afresh with
            // K = 0 and W_max = cwnd_epoch (Linux resets all CUBIC state on a timeout).
            setCongestionWindow(context.minimumWindowBytes());
            leaveRecovery();
            isRenoFriendly = false;
            state.reset(renoFriendlyAlpha);
            hasUndoState = false;
            hyStart.onPersistentCongestion();
        }
        publishCounters();
    }

    /**
     * Undo the last reduction (RFC 9438 section 4.9.2; Linux {@code tcp_undo_cwnd_reduction}): cwnd, cwnd_prior,
     * ssthresh, W_max, K, t_epoch and W_est return to their values before it, once per reduction and only while the
     * reduction runs (Proportional Rate Reduction sets the window from the flight then, which may be above cwnd_prior)
     * or cwnd is still below cwnd_prior. The window grows again; the transport's recovery period goes on, so the other
     * losses of the same spurious episode still do not reduce. HyStart++ resumes if the reduction had stopped it.
     */
    public void onSpuriousLoss(final long nowNs)
    {
        if (!hasUndoState)
        {
            return;
        }
        hasUndoState = false;

        if (isInRateReduction() || congestionWindowBytes < undoCongestionWindowBytes)
        {
            congestionWindowBytes = undoCongestionWindowBytes;
            cwndFractionBytes = undoCwndFractionBytes;
            slowStartThresholdBytes = undoSlowStartThresholdBytes;
            state.copyFrom(undoState);
            hyStart.onCongestionEventUndone();
            leaveRecovery();
            publishCounters();
        }
    }

    public void onMtuChanged(final int maxDatagramSizeBytes)
    {
        super.onMtuChanged(maxDatagramSizeBytes);
        publishCounters();
    }

    public String stateName()
    {
        if (isInRecovery())
        {
            return STATE_RECOVERY;
        }
        if (isInSlowStart())
        {
            return hyStart.isInConservativeSlowStart() ? STATE_CONSERVATIVE_SLOW_START : STATE_SLOW_START;
        }
        return STATE_CONGESTION_AVOIDANCE;
    }

    public List<String> stateNames()
    {
        return STATE_NAMES;
    }

    /**
     * @return W_max in bytes, 0 while undefined.
     */
    public double wMaxBytes()
    {
        return state.wMaxBytes;
    }

    /**
     * @return K in seconds for the current (or, right after a reduction, the coming) epoch.
     */
    public double kSeconds()
    {
        return state.kSeconds;
    }

    /**
     * @return the start of the current epoch shifted by idle and application-limited time, {@link Long#MIN_VALUE}
     * while no epoch runs.
     */
    public long epochStartNs()
    {
        return state.epochStartNs;
    }

    /**
     * @return true if the last congestion-avoidance ACK took the window from the Reno-friendly estimate.
     */
    public boolean isRenoFriendly()
    {
        return isRenoFriendly;
    }

    /**
     * @param tSeconds time since the epoch start.
     * @return {@code W_cubic(t) = C·(t − K)³ + W_max} in bytes (RFC 9438 section 4.2, Figure 1).
     */
    public double cubicWindowBytes(final double tSeconds)
    {
        final double offsetSeconds = tSeconds - state.kSeconds;
        final double cBytesPerSecondCubed = cSegmentsPerSecondCubed * context.maxDatagramSizeBytes();
        return cBytesPerSecondCubed * offsetSeconds * offsetSeconds * offsetSeconds + state.wMaxBytes;
    }

    private long slowStart(final long ackedBytes)
    {
        final long slowStartBytes = Math.min(ackedBytes, slowStartThresholdBytes - congestionWindowBytes);
        if (hyStart.isInConservativeSlowStart())
        {
            // RFC 9406 section 4.2: CSS grows at a quarter of the slow-start rate (L = infinity: we pace).
            setCongestionWindow(congestionWindowBytes + cwndFractionBytes +
                (double)slowStartBytes / HyStartPlusPlus.CSS_GROWTH_DIVISOR);
        }
        else
        {
            congestionWindowBytes += slowStartBytes;
        }
        // What is left over once ssthresh is reached is congestion avoidance's (Linux tcp_slow_start()).
        return ackedBytes - slowStartBytes;
    }

    private void congestionAvoidance(final long nowNs, final long ackedBytes)
    {
        final double windowBytes = congestionWindowBytes + cwndFractionBytes;
        if (CubicState.NO_EPOCH == state.epochStartNs)
        {
            startEpoch(nowNs, windowBytes);
        }

        final double tSeconds = (nowNs - state.epochStartNs) / NANOS_PER_SECOND;
        final double rttSeconds = context.rttStats().smoothedRttNs() / NANOS_PER_SECOND;
        final double targetBytes = Math.min(
            Math.max(cubicWindowBytes(tSeconds + rttSeconds), windowBytes), MAX_TARGET_GROWTH * windowBytes);

        // RFC 9438 section 4.3: W_est grows by α segments per window of acknowledged segments.
        state.wEstBytes += state.alpha * context.maxDatagramSizeBytes() * ackedBytes / windowBytes;
        if (state.wEstBytes >= state.cwndPriorBytes)
        {
            state.alpha = 1.0;
        }

        if (cubicWindowBytes(tSeconds) < state.wEstBytes)
        {
            isRenoFriendly = true;
            setCongestionWindow(Math.max(windowBytes, state.wEstBytes));
        }
        else
        {
            // RFC 9438 section 4.4 (concave) and 4.5 (convex): cwnd += (target − cwnd) / cwnd per acked segment.
            isRenoFriendly = false;
            setCongestionWindow(windowBytes + (targetBytes - windowBytes) * ackedBytes / windowBytes);
        }
    }

    private void startEpoch(final long nowNs, final double windowBytes)
    {
        // RFC 9438 section 4.2; W_max at or below cwnd (no loss yet, or HyStart++ exit) means K = 0.
        state.epochStartNs = nowNs;
        state.cwndEpochBytes = windowBytes;
        state.wEstBytes = windowBytes;
        if (state.wMaxBytes <= windowBytes)
        {
            // W_max undefined (slow start ended by HyStart++ or after persistent congestion) or already regained.
            state.wMaxBytes = windowBytes;
            state.cwndPriorBytes = windowBytes;
            state.kSeconds = 0.0;
        }
        else
        {
            state.kSeconds = kSecondsFor(state.wMaxBytes, windowBytes);
        }
        state.alpha = state.wEstBytes >= state.cwndPriorBytes ? 1.0 : renoFriendlyAlpha;
    }

    private void reduce()
    {
        undoState.copyFrom(state);
        undoCongestionWindowBytes = congestionWindowBytes;
        undoCwndFractionBytes = cwndFractionBytes;
        undoSlowStartThresholdBytes = slowStartThresholdBytes;
        hasUndoState = true;

        isRenoFriendly = false;
        hyStart.onCongestionEvent();

        // RFC 9438 section 4.7 fast convergence, applied to the current cwnd, not the reduced W_max (quinn PR #2640).
        final double windowBytes = congestionWindowBytes;
        state.wMaxBytes = isFastConvergenceEnabled && windowBytes < state.wMaxBytes ?
            windowBytes * (1.0 + beta) / 2.0 : windowBytes;
        state.cwndPriorBytes = windowBytes;

        // RFC 9438 section 4.6 allows cwnd instead of flight size because growth is gated on being cwnd-limited.
        slowStartThresholdBytes = Math.max((long)(windowBytes * beta), context.minimumWindowBytes());
        setCongestionWindow(slowStartThresholdBytes);

        state.epochStartNs = CubicState.NO_EPOCH;
        state.kSeconds = kSecondsFor(state.wMaxBytes, congestionWindowBytes);
    }

    private double kSecondsFor(final double wMaxBytes, final double cwndEpochBytes)
    {
        // RFC 9438 section 4.2, Figure 2: K = cbrt((W_max − cwnd_epoch) / C), in segments.
        return Math.cbrt(Math.max(0.0, wMaxBytes - cwndEpochBytes) /
            (cSegmentsPerSecondCubed * context.maxDatagramSizeBytes()));
    }

    private void setCongestionWindow(final double bytes)
    {
        final long wholeBytes = (long)bytes;
        congestionWindowBytes = wholeBytes;
        cwndFractionBytes = bytes - wholeBytes;
    }

    private void publishCounters()
    {
        cwndCounter.setRelease(congestionWindowBytes);
        ssthreshCounter.setRelease(slowStartThresholdBytes);
        wMaxCounter.setRelease((long)state.wMaxBytes);
        kCounter.setRelease((long)(state.kSeconds * NANOS_PER_SECOND));
        epochStartCounter.setRelease(state.epochStartNs);
        inCssCounter.setRelease(hyStart.isInConservativeSlowStart() ? 1 : 0);
        renoFriendlyCounter.setRelease(isRenoFriendly ? 1 : 0);
    }
}
