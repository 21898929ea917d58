package io.pacelink.sim.results;

import java.util.Arrays;

/**
 * Bytes delivered to an application per fixed interval of virtual time: the goodput-over-time series of a flow.
 * Bin {@code i} covers [i·interval, (i+1)·interval).
 */
public final class GoodputSeries
{
    private static final int DEFAULT_BINS = 64;
    /**
     * The most bins a series is made with (32 KiB): a longer run of fine bins grows as it goes instead, so a thousand
     * flows do not each hold a long run's bins from the start.
     */
    private static final int MOST_PRESIZED_BINS = 4096;

    private final long intervalNs;
    private long[] binBytes;
    private int binCount;
    private long totalBytes;

    /**
     * @param intervalNs the width of a bin, positive.
     */
    public GoodputSeries(final long intervalNs)
    {
        this(intervalNs, 0);
    }

    /**
     * A series with a bin for every interval of a run of known length from the start, so recording the run never
     * grows it: a run that grew its series in the middle paid the copy and the JIT's recompilation of the recording
     * path (a 10-s run of 100-ms bins grew at 6.4 s).
     *
     * @param intervalNs the width of a bin, positive.
     * @param durationNs how long the run records, not negative (more is still recorded: the series grows; so does a
     *                   series of more than 4,096 bins).
     */
    public GoodputSeries(final long intervalNs, final long durationNs)
    {
        if (intervalNs <= 0 || durationNs < 0)
        {
            throw new IllegalArgumentException("interval must be positive and duration not negative");
        }
        this.intervalNs = intervalNs;
        binBytes = new long[(int)Math.max(DEFAULT_BINS, Math.min(MOST_PRESIZED_BINS, durationNs / intervalNs + 1))];
    }

    /**
     * @param nowNs when the bytes were delivered, not negative.
     * @param bytes how many.
     */
    public void record(final long nowNs, final long bytes)
    {
        final int bin = (int)(nowNs / intervalNs);
        if (bin >= binBytes.length)
        {
            binBytes = Arrays.copyOf(binBytes, Math.max(bin + 1, binBytes.length << 1));
        }
        binBytes[bin] += bytes;
        binCount = Math.max(binCount, bin + 1);
        totalBytes += bytes;
    }

    /**
     * @return the bin width.
     */
    public long intervalNs()
    {
        return intervalNs;
    }

    /**
     * @return bins up to the last one with data.
     */
    public int binCount()
    {
        return binCount;
    }

    /**
     * @param bin the bin index.
     * @return bytes delivered in it.
     */
    public long bytes(final int bin)
    {
        return bin < binCount ? binBytes[bin] : 0;
    }

    /**
     * @param bin the bin index.
     * @return the bin's goodput in bits per second.
     */
    public double bitsPerSecond(final int bin)
    {
        return bytes(bin) * 8e9 / intervalNs;
    }

    /**
     * @return bytes delivered in all.
     */
    public long totalBytes()
    {
        return totalBytes;
    }

    /**
     * @param fromNs start, a multiple of the interval.
     * @param toNs   end, a multiple of the interval, after start.
     * @return the mean goodput over the whole bins in [from, to), in bits per second.
     */
    public double bitsPerSecond(final long fromNs, final long toNs)
    {
        if (fromNs % intervalNs != 0 || toNs % intervalNs != 0 || toNs <= fromNs)
        {
            throw new IllegalArgumentException("the range must be whole bins of " + intervalNs + "ns");
        }
        long bytes = 0;
        for (int bin = (int)(fromNs / intervalNs), end = (int)(toNs / intervalNs); bin < end; bin++)
        {
            bytes += bytes(bin);
        }
        return bytes * 8e9 / (toNs - fromNs);
    }
}
