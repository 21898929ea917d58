package io.pacelink.sim.results;

import org.HdrHistogram.Histogram;

/**
 * Order statistics of a latency histogram (RTT samples, queueing delay), in nanoseconds; all zero if it is empty.
 *
 * @param count  samples.
 * @param minNs  smallest sample.
 * @param p50Ns  median.
 * @param p95Ns  95th percentile.
 * @param p99Ns  99th percentile.
 * @param maxNs  largest sample.
 * @param meanNs mean.
 */
public record LatencySummary(long count, long minNs, long p50Ns, long p95Ns, long p99Ns, long maxNs, double meanNs)
{
    /**
     * @param histogram samples in ns.
     * @return its summary (values at HdrHistogram's precision: equivalent values, 3 significant digits).
     */
    public static LatencySummary of(final Histogram histogram)
    {
        if (histogram.getTotalCount() == 0)
        {
            return new LatencySummary(0, 0, 0, 0, 0, 0, 0);
        }
        return new LatencySummary(
            histogram.getTotalCount(),
            histogram.getMinValue(),
            histogram.getValueAtPercentile(50),
            histogram.getValueAtPercentile(95),
            histogram.getValueAtPercentile(99),
            histogram.getMaxValue(),
            histogram.getMean());
    }

    /**
     * @return e.g. {@code n=1200 min=40.1ms p50=52.3ms p95=71.0ms p99=80.2ms max=85.0ms}.
     */
    public String toString()
    {
        return String.format("n=%d min=%.3fms p50=%.3fms p95=%.3fms p99=%.3fms max=%.3fms",
            count, minNs / 1e6, p50Ns / 1e6, p95Ns / 1e6, p99Ns / 1e6, maxNs / 1e6);
    }
}
