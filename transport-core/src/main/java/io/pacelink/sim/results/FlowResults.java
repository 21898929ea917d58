package io.pacelink.sim.results;

import org.HdrHistogram.Histogram;

/**
 * What one flow achieved in a simulation, fed by the endpoint's per-connection statistics: goodput over time and
 * in total, bytes retransmitted and declared lost, and its RTT samples.
 */
public final class FlowResults
{
    /**
     * Largest RTT sample tracked: 60 s.
     */
    public static final long MAX_TRACKED_RTT_NS = 60_000_000_000L;

    private final String name;
    private final GoodputSeries goodput;
    /**
     * Grown to the largest RTT recorded (at most {@link #MAX_TRACKED_RTT_NS}) rather than sized for it: a histogram
     * of 3 significant digits from 1 us to 60 s holds 144 KiB of counts, one that has seen 40 ms a third of that,
     * which matters with a thousand flows. The percentiles are the same either way.
     */
    private final Histogram rttHistogramNs = newRttHistogram();
    private long sentBytes;
    private long retransmittedBytes;
    private long lostBytes;

    private static Histogram newRttHistogram()
    {
        final Histogram histogram = new Histogram(1_000, 2_000_000, 3);
        histogram.setAutoResize(true);
        return histogram;
    }

    /**
     * @param name             the flow's name in reports.
     * @param goodputIntervalNs the width of a goodput bin.
     */
    public FlowResults(final String name, final long goodputIntervalNs)
    {
        this(name, goodputIntervalNs, 0);
    }

    /**
     * @param name              the flow's name in reports.
     * @param goodputIntervalNs the width of a goodput bin.
     * @param durationNs        how long the run records: the goodput series has a bin for each interval of it.
     */
    public FlowResults(final String name, final long goodputIntervalNs, final long durationNs)
    {
        this.name = name;
        this.goodput = new GoodputSeries(goodputIntervalNs, durationNs);
    }

    /**
     * @param nowNs when application bytes were delivered in order at the receiver.
     * @param bytes how many.
     */
    public void onDelivered(final long nowNs, final long bytes)
    {
        goodput.record(nowNs, bytes);
    }

    /**
     * @param bytes bytes the sender put on the wire (new and retransmitted).
     */
    public void onSent(final long bytes)
    {
        sentBytes += bytes;
    }

    /**
     * @param bytes bytes the sender sent again.
     */
    public void onRetransmitted(final long bytes)
    {
        retransmittedBytes += bytes;
    }

    /**
     * @param bytes bytes the sender declared lost.
     */
    public void onLost(final long bytes)
    {
        lostBytes += bytes;
    }

    /**
     * @param rttNs one RTT sample.
     */
    public void onRttSample(final long rttNs)
    {
        onRttSamples(rttNs, 1);
    }

    /**
     * @param rttNs   an RTT sample.
     * @param samples how many samples it stands for (several ACKs processed in one duty cycle are read as the latest).
     */
    public void onRttSamples(final long rttNs, final long samples)
    {
        rttHistogramNs.recordValueWithCount(Math.min(Math.max(rttNs, 0), MAX_TRACKED_RTT_NS), samples);
    }

    /**
     * @return the flow's name.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return goodput over time.
     */
    public GoodputSeries goodput()
    {
        return goodput;
    }

    /**
     * @return application bytes delivered.
     */
    public long deliveredBytes()
    {
        return goodput.totalBytes();
    }

    /**
     * @return bytes sent, including retransmissions.
     */
    public long sentBytes()
    {
        return sentBytes;
    }

    /**
     * @return bytes retransmitted.
     */
    public long retransmittedBytes()
    {
        return retransmittedBytes;
    }

    /**
     * @return bytes declared lost.
     */
    public long lostBytes()
    {
        return lostBytes;
    }

    /**
     * @return the RTT samples' summary (min, p50, p95, p99).
     */
    public LatencySummary rtt()
    {
        return LatencySummary.of(rttHistogramNs);
    }

    /**
     * @return the RTT histogram, in ns; do not modify.
     */
    public Histogram rttHistogram()
    {
        return rttHistogramNs;
    }
}
