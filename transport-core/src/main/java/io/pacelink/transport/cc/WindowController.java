package io.pacelink.transport.cc;

import java.util.List;

/**
 * Shared base for loss-based window controllers (Reno, CUBIC): keeps cwnd, ssthresh and whether the controller is
 * answering the connection's recovery period (which the transport keeps and announces through the events, limiting
 * reductions to one per round trip), and paces at {@code gain * cwnd / srtt} with gain 2.0 while cwnd is below half of
 * ssthresh and 1.2 from there on (Linux's {@code tcp_update_pacing_rate}, net/ipv4/tcp_input.c:
 * {@code sysctl_tcp_pacing_ss_ratio = 200} only while {@code snd_cwnd < snd_ssthresh / 2}, else
 * {@code ca_ratio = 120}).
 * <p>
 * During a recovery period the window follows Proportional Rate Reduction (RFC 6937, {@link ProportionalRateReduction},
 * as Linux runs it for every loss-based controller): the subclass sets ssthresh when a period starts, and from then
 * until it ends each ACK sets cwnd to the flight plus what that ACK lets the sender send; when it ends, cwnd is
 * ssthresh ({@code tcp_end_cwnd_reduction}).
 */
public abstract class WindowController implements CongestionController
{
    /**
     * {@link CongestionController#stateName()} while cwnd is below ssthresh.
     */
    public static final String STATE_SLOW_START = "SLOW_START";

    /**
     * {@link CongestionController#stateName()} while cwnd is at or above ssthresh.
     */
    public static final String STATE_CONGESTION_AVOIDANCE = "CONGESTION_AVOIDANCE";

    /**
     * {@link CongestionController#stateName()} from a reduction until a packet sent after it is acknowledged.
     */
    public static final String STATE_RECOVERY = "RECOVERY";

    /**
     * The states every window controller has, in {@link CongestionController#stateNames()} order.
     */
    public static final List<String> WINDOW_STATE_NAMES =
        List.of(STATE_SLOW_START, STATE_CONGESTION_AVOIDANCE, STATE_RECOVERY);

    /**
     * Pacing gain while cwnd < ssthresh / 2: lets slow start double per RTT without becoming pacing-limited. From half
     * of ssthresh on, slow start is near its end and paces at {@link #CONGESTION_AVOIDANCE_PACING_GAIN}, as Linux
     * does: a window that PRR lowered below ssthresh in a recovery (the flight fell with a burst of losses) is regrown
     * at 1.2 times the window's rate, not in bursts at twice it into the queue that just overflowed.
     */
    public static final double SLOW_START_PACING_GAIN = 2.0;

    /**
     * Pacing gain in congestion avoidance: a little above cwnd/srtt so pacing never becomes the bottleneck.
     */
    public static final double CONGESTION_AVOIDANCE_PACING_GAIN = 1.2;

    /**
     * Upper bound of the send quantum (the size Linux caps a GSO/TSO burst at).
     */
    public static final int MAX_SEND_QUANTUM_BYTES = 64 * 1024;

    /**
     * Pacing granularity the send quantum is sized for: bursts of about 1 ms of rate, as Linux's
     * {@code sk_pacing_shift = 10} does, so that timers of about 1 ms granularity still keep the rate.
     */
    public static final long SEND_QUANTUM_INTERVAL_NS = 1_000_000L;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    protected final ControllerContext context;
    protected long congestionWindowBytes;
    protected long slowStartThresholdBytes = Long.MAX_VALUE;
    private final ProportionalRateReduction rateReduction = new ProportionalRateReduction();
    private boolean isInRecovery;
    private boolean hasEndedRecovery;
    private long windowBeforeReductionBytes;

    protected WindowController(final ControllerContext context)
    {
        this.context = context;
        this.congestionWindowBytes = context.initialWindowBytes();
    }

    /**
     * @return true while cwnd is below ssthresh.
     */
    public final boolean isInSlowStart()
    {
        return congestionWindowBytes < slowStartThresholdBytes;
    }

    /**
     * @return true until the first reduction or HyStart's exit set ssthresh (or an undo restored it to infinity), and
     * through the recovery period that answered slow start's overshoot: the initial search, in which the window grows
     * per ACK, and the repair of the losses it ended with.
     * <p>
     * Why the first recovery too: slow start ends with the bottleneck's queue full, and during the recovery that
     * follows Proportional Rate Reduction sends what each ACK delivers (RFC 6937). On decimated ACKs it sends that in
     * groups of 10 into the still-full queue, where one more packet was dropped; sent after the period began, its
     * loss started a second recovery at once, at a window 40 packets below the one the same seed reached with an ACK
     * every second packet (CUBIC on a 202-ms path: W_max and so the next 19 s of regrowth that much lower, 0.7 points
     * of a minute's utilisation; perf/FINDINGS.md, branch {@code ack9}). So the peer is asked for fewer ACKs only
     * once that first repair is over.
     */
    @Override
    public boolean isInStartup()
    {
        return Long.MAX_VALUE == slowStartThresholdBytes || (isInRecovery && !hasEndedRecovery);
    }

    /**
     * @return true from a reduction until a packet sent after it is acknowledged (RFC 9002 section 7.3.2).
     */
    public final boolean isInRecovery()
    {
        return isInRecovery;
    }

    /**
     * @param event a batch of losses.
     * @return true if it started a new recovery period (RFC 9002 section 7.3.2): the caller reduces its window once.
     */
    protected final boolean startsRecovery(final CongestionEvent event)
    {
        if (event.startsRecovery())
        {
            isInRecovery = true;
            windowBeforeReductionBytes = congestionWindowBytes;
            return true;
        }
        return false;
    }

    /**
     * Hand the window to Proportional Rate Reduction once the subclass has set ssthresh for the period
     * {@link #startsRecovery} started ({@code tcp_init_cwnd_reduction}): it scales what is delivered by ssthresh over
     * the window before the reduction, and allows the fast retransmit at once, so cwnd is the flight plus one datagram
     * until an ACK says more.
     *
     * @param event the congestion event that started the period.
     */
    protected final void startRateReduction(final CongestionEvent event)
    {
        rateReduction.start(windowBeforeReductionBytes);
        congestionWindowBytes = rateReduction.firstWindowBytes(
            event.bytesInFlight(), context.maxDatagramSizeBytes(), context.minimumWindowBytes());
    }

    /**
     * @param ack a processed ACK frame.
     * @return true if the window must not grow on it: the recovery period is running, or this frame ends it. The
     * frame that ends it may also acknowledge packets sent before the period began, which RFC 9002 Appendix B.5 does
     * not let grow the window; with only the frame's largest packet known, skipping the frame does not over-count.
     * During the period Proportional Rate Reduction sets the window on every such frame; the frame that ends it
     * sets the window to ssthresh.
     */
    protected final boolean isRecoveryAck(final AckEvent ack)
    {
        if (!isInRecovery)
        {
            return false;
        }
        if (ack.endsRecovery())
        {
            hasEndedRecovery = true;
            isInRecovery = false;
            if (rateReduction.isActive())
            {
                // Linux tcp_end_cwnd_reduction: the reduction ends at ssthresh, whatever the flight is.
                rateReduction.stop();
                congestionWindowBytes = Math.max(slowStartThresholdBytes, context.minimumWindowBytes());
            }
        }
        else if (rateReduction.isActive())
        {
            congestionWindowBytes = rateReduction.windowOnAck(
                congestionWindowBytes,
                slowStartThresholdBytes,
                ack.bytesInFlight(),
                ack.newlyAckedBytes(),
                ack.newlyLostBytes(),
                ack.acknowledgesOldestInFlight(),
                context.maxDatagramSizeBytes(),
                context.minimumWindowBytes());
        }
        return true;
    }

    /**
     * Grow again from the next ACK: after persistent congestion (RFC 9002 Appendix B.8) or an undone reduction. The
     * transport's recovery period goes on, so the other losses of the episode still do not reduce; the rate
     * reduction stops and the window is what the caller sets.
     */
    protected final void leaveRecovery()
    {
        isInRecovery = false;
        rateReduction.stop();
    }

    /**
     * @return true while Proportional Rate Reduction sets the window.
     */
    public final boolean isInRateReduction()
    {
        return rateReduction.isActive();
    }

    /**
     * @return the slow-start threshold in bytes, {@link Long#MAX_VALUE} until the first reduction.
     */
    public final long slowStartThresholdBytes()
    {
        return slowStartThresholdBytes;
    }

    public long congestionWindowBytes()
    {
        return congestionWindowBytes;
    }

    public long pacingRateBytesPerSecond()
    {
        final double gain = congestionWindowBytes < slowStartThresholdBytes / 2 ?
            SLOW_START_PACING_GAIN : CONGESTION_AVOIDANCE_PACING_GAIN;
        final long srttNs = Math.max(1L, context.rttStats().smoothedRttNs());
        return (long)(gain * congestionWindowBytes * NANOS_PER_SECOND / srttNs);
    }

    public int sendQuantumBytes()
    {
        final long burstBytes = pacingRateBytesPerSecond() * SEND_QUANTUM_INTERVAL_NS / NANOS_PER_SECOND;
        return (int)Math.max(2L * context.maxDatagramSizeBytes(), Math.min(MAX_SEND_QUANTUM_BYTES, burstBytes));
    }

    /**
     * RFC 9002 section 7.1 and RFC 3168 section 6.1.2: an increase of the CE count is a congestion event like a loss,
     * answered once per recovery period, and nothing is retransmitted for it.
     *
     * @return true.
     */
    public boolean isEcnCeCongestionEvent()
    {
        return true;
    }

    /**
     * The window never stays below the minimum of the new size (RFC 9002 section 7.2).
     */
    public void onMtuChanged(final int maxDatagramSizeBytes)
    {
        congestionWindowBytes = Math.max(congestionWindowBytes, context.minimumWindowBytes());
    }

    /**
     * Counts what is sent during a rate reduction ({@code prr_out}); a subclass that overrides it calls it.
     */
    public void onPacketSent(
        final long nowNs,
        final long packetNumber,
        final int sizeBytes,
        final long bytesInFlight,
        final boolean isRetransmission)
    {
        rateReduction.onPacketSent(sizeBytes);
    }

    public void onPacketLost(final LostPacket lost)
    {
    }
}
