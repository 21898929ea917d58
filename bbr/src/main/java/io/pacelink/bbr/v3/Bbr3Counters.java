package io.pacelink.bbr.v3;

import io.pacelink.transport.cc.ControllerCounters;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The counters a BBRv3 controller publishes, registered once at construction. Unbounded model values (the draft's
 * "Infinity": no short-term or long-term bound yet, no min_rtt yet) are published as {@value #UNBOUNDED}.
 */
final class Bbr3Counters
{
    /**
     * Published for a bound or estimate that is not set.
     */
    static final long UNBOUNDED = -1;

    static final String STATE = "bbr3-state";
    static final String MAX_BW = "bbr3-max-bw-bytes-per-sec";
    static final String BW_SHORTTERM = "bbr3-bw-shortterm-bytes-per-sec";
    static final String INFLIGHT_LONGTERM = "bbr3-inflight-longterm-bytes";
    static final String INFLIGHT_SHORTTERM = "bbr3-inflight-shortterm-bytes";
    static final String MIN_RTT = "bbr3-min-rtt-ns";
    static final String PACING_GAIN = "bbr3-pacing-gain-x1000";
    static final String CWND_GAIN = "bbr3-cwnd-gain-x1000";
    static final String EXTRA_ACKED = "bbr3-extra-acked-bytes";
    static final String ROUND_COUNT = "bbr3-round-count";

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

    Bbr3Counters(final ControllerCounters counters)
    {
        state = counters.newCounter(STATE);
        maxBw = counters.newCounter(MAX_BW);
        bwShortterm = counters.newCounter(BW_SHORTTERM);
        inflightLongterm = counters.newCounter(INFLIGHT_LONGTERM);
        inflightShortterm = counters.newCounter(INFLIGHT_SHORTTERM);
        minRtt = counters.newCounter(MIN_RTT);
        pacingGain = counters.newCounter(PACING_GAIN);
        cwndGain = counters.newCounter(CWND_GAIN);
        extraAcked = counters.newCounter(EXTRA_ACKED);
        roundCount = counters.newCounter(ROUND_COUNT);
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

    private static long orUnbounded(final long value)
    {
        return Bbr3Controller.INFINITE == value ? UNBOUNDED : value;
    }
}
