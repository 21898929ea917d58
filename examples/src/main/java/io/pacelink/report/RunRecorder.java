package io.pacelink.report;

import io.pacelink.sim.scenario.Scenario;
import io.pacelink.transport.ConnectionStats;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Records every flow's {@link FlowSeries} while a scenario runs: it listens to the flows' statistics at a fixed
 * interval of simulated time and to the queueing delay of each of their packets at the bottleneck. Goodput is taken
 * over a trailing window of at least four base RTTs and four intervals: over one short interval, data released at once
 * after a loss is repaired (head-of-line blocking) would show as spikes far above the link rate. Listening does not
 * change what the flows do.
 */
public final class RunRecorder implements Scenario.ProgressListener, Scenario.FlowQueueDelayListener
{
    /**
     * About this many samples per flow and run: enough for a smooth line 1200 pixels wide.
     */
    static final int TARGET_SAMPLES = 400;

    private static final long MIN_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long BYTES_PER_KB = 1000;
    private static final int MIN_GOODPUT_WINDOW_SAMPLES = 4;
    private static final int GOODPUT_WINDOW_RTTS = 4;

    private final long intervalNs;
    private final int goodputWindowSamples;
    private final List<FlowSeries> series = new ArrayList<>();
    private final long[][] deliveredHistory;
    private final int[] samples;
    private final double[] queueDelaySumNs;
    private final long[] queueDelayPackets;

    /**
     * @param flowControllers each flow's controller, in flow order.
     * @param durationNs      the run's simulated time.
     * @param baseRttNs       the path's base RTT, which sets the goodput window.
     */
    public RunRecorder(final List<String> flowControllers, final long durationNs, final long baseRttNs)
    {
        this.intervalNs = intervalFor(durationNs);
        this.goodputWindowSamples = (int)Math.max(MIN_GOODPUT_WINDOW_SAMPLES,
            (GOODPUT_WINDOW_RTTS * baseRttNs + intervalNs - 1) / intervalNs);
        for (int i = 0; i < flowControllers.size(); i++)
        {
            series.add(new FlowSeries(i, flowControllers.get(i)));
        }
        this.deliveredHistory = new long[flowControllers.size()][goodputWindowSamples];
        this.samples = new int[flowControllers.size()];
        this.queueDelaySumNs = new double[flowControllers.size()];
        this.queueDelayPackets = new long[flowControllers.size()];
    }

    /**
     * @param durationNs a run's simulated time.
     * @return the sampling interval: a multiple of 10 ms giving about {@link #TARGET_SAMPLES} samples.
     */
    static long intervalFor(final long durationNs)
    {
        final long raw = durationNs / TARGET_SAMPLES;
        return Math.max(MIN_INTERVAL_NS, raw / MIN_INTERVAL_NS * MIN_INTERVAL_NS);
    }

    /**
     * @param builder the scenario to record; this recorder becomes its progress and queue-delay listener.
     * @return the builder.
     */
    public Scenario.Builder attachTo(final Scenario.Builder builder)
    {
        return builder.progress(intervalNs, this).queueDelays(this);
    }

    /**
     * @return the trailing window goodput is measured over.
     */
    public long goodputWindowNs()
    {
        return goodputWindowSamples * intervalNs;
    }

    /**
     * @return every flow's series, in flow order.
     */
    public List<FlowSeries> series()
    {
        return series;
    }

    /**
     * {@inheritDoc}
     */
    public void onQueueDelay(final int flowIndex, final long queueDelayNs, final long nowNs)
    {
        queueDelaySumNs[flowIndex] += queueDelayNs;
        queueDelayPackets[flowIndex]++;
    }

    /**
     * {@inheritDoc}
     */
    public void onProgress(
        final int flowIndex, final long nowNs, final long deliveredBytes, final ConnectionStats stats)
    {
        if (null == stats || stats.congestionWindowBytes() == 0)
        {
            return; // not connected yet: the handshake has not given the connection a window
        }
        // The window reaches back to the flow's first sample at most (delivered bytes are zero before it).
        final long[] history = deliveredHistory[flowIndex];
        final int windowSamples = Math.min(goodputWindowSamples, samples[flowIndex] + 1);
        final int slot = samples[flowIndex] % goodputWindowSamples;
        final long deliveredBefore = samples[flowIndex] < goodputWindowSamples ? 0 : history[slot];
        history[slot] = deliveredBytes;
        samples[flowIndex]++;
        final double goodputMbps = (deliveredBytes - deliveredBefore) * 8e3 / ((double)windowSamples * intervalNs);
        final long packets = queueDelayPackets[flowIndex];
        final double queueDelayMs = packets == 0 ? Double.NaN : queueDelaySumNs[flowIndex] / packets / 1e6;
        queueDelaySumNs[flowIndex] = 0;
        queueDelayPackets[flowIndex] = 0;

        final long pacingRate = stats.pacingRateBytesPerSecond();
        series.get(flowIndex).add(
            nowNs / 1e9,
            goodputMbps,
            stats.congestionWindowBytes() / (double)BYTES_PER_KB,
            pacingRate <= 0 || pacingRate >= Long.MAX_VALUE / 16 ? Double.NaN : pacingRate * 8 / 1e6,
            stats.rttSamples() == 0 ? Double.NaN : stats.smoothedRttNs() / 1e6,
            queueDelayMs);
    }
}
