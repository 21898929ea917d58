package io.pacelink.bbr.v3;

import io.pacelink.transport.cc.ControllerCounters;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The counters a {@link Bbr3Controller} publishes, registered once at construction and named after its variant
 * ({@code bbr3-state}, {@code bbr2-state}, ...: the names below follow the variant's name and a dash). Unbounded model
 * values (the draft's "Infinity": no short-term or long-term bound yet, no min_rtt yet) are published as
 * {@value #UNBOUNDED}.
 */
final class Bbr3Counters
{
    /**
     * Published for a bound or estimate that is not set.
     */
    static final long UNBOUNDED = -1;

    static final String STATE = "state";
    static final String MAX_BW = "max-bw-bytes-per-sec";
    static final String BW_SHORTTERM = "bw-shortterm-bytes-per-sec";
    static final String INFLIGHT_LONGTERM = "inflight-longterm-bytes";
    static final String INFLIGHT_SHORTTERM = "inflight-shortterm-bytes";
    static final String MIN_RTT = "min-rtt-ns";
    static final String PACING_GAIN = "pacing-gain-x1000";
    static final String CWND_GAIN = "cwnd-gain-x1000";
    static final String EXTRA_ACKED = "extra-acked-bytes";
    static final String ROUND_COUNT = "round-count";
    static final String ECN_ALPHA = "ecn-alpha-x1000";

    private final AtomicCounter state;
    private final AtomicCounter maxBw;
    private final AtomicCounter bwShortterm;
    private final AtomicCounter inflightLongterm;
    private final AtomicCounter inflightShortterm;
    private final AtomicCounter minRtt;
    private final AtomicCounter pacingGain;
    private final AtomicCounter cwndGain;
    private final AtomicCounter extraAcked;
    private final AtomicCounter roundCount;
    private final AtomicCounter ecnAlpha;

    Bbr3Counters(final ControllerCounters counters, final Bbr3Variant variant)
    {
        final String prefix = variant.controllerName() + "-";
        state = counters.newCounter(prefix + STATE);
        maxBw = counters.newCounter(prefix + MAX_BW);
        bwShortterm = counters.newCounter(prefix + BW_SHORTTERM);
        inflightLongterm = counters.newCounter(prefix + INFLIGHT_LONGTERM);
        inflightShortterm = counters.newCounter(prefix + INFLIGHT_SHORTTERM);
        minRtt = counters.newCounter(prefix + MIN_RTT);
        pacingGain = counters.newCounter(prefix + PACING_GAIN);
        cwndGain = counters.newCounter(prefix + CWND_GAIN);
        extraAcked = counters.newCounter(prefix + EXTRA_ACKED);
        roundCount = counters.newCounter(prefix + ROUND_COUNT);
        ecnAlpha = counters.newCounter(prefix + ECN_ALPHA);
    }

    void publishState(final Bbr3State state, final double pacingGain, final double cwndGain)
    {
        this.state.setRelease(state.code());
        this.pacingGain.setRelease(Math.round(pacingGain * 1000.0));
        this.cwndGain.setRelease(Math.round(cwndGain * 1000.0));
    }

    void publishModel(
        final long maxBwBytesPerSecond,
        final long bwShorttermBytesPerSecond,
        final long inflightLongtermBytes,
        final long inflightShorttermBytes,
        final long minRttNs,
        final long extraAckedBytes,
        final long roundCount)
    {
        maxBw.setRelease(maxBwBytesPerSecond);
        bwShortterm.setRelease(orUnbounded(bwShorttermBytesPerSecond));
        inflightLongterm.setRelease(orUnbounded(inflightLongtermBytes));
        inflightShortterm.setRelease(orUnbounded(inflightShorttermBytes));
        minRtt.setRelease(orUnbounded(minRttNs));
        extraAcked.setRelease(extraAckedBytes);
        this.roundCount.setRelease(roundCount);
    }

    /**
     * @param isEcnEligible true once ECN is in use (Linux {@code ecn_eligible}).
     * @param alpha         the EWMA of the CE-marked fraction, 0 to 1.
     */
    void publishEcn(final boolean isEcnEligible, final double alpha)
    {
        ecnAlpha.setRelease(isEcnEligible ? Math.round(alpha * 1000.0) : UNBOUNDED);
    }

    private static long orUnbounded(final long value)
    {
        return Bbr3Controller.INFINITE == value ? UNBOUNDED : value;
    }
}
