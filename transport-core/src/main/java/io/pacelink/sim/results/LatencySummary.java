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
     * The same numbers as HdrHistogram's {@code getValueAtPercentile} and {@code getMean} (so every result stays
     * as it was), in one walk over the histogram's buckets instead of four: each of those walks from the first bucket,
     * {@code getMean} through an iterator object per bucket, and a run's summaries are computed once, by cold code —
     * 2.6 % of a 10-s run of 50 flows went there (perf/FINDINGS.md, "Simulator speed, round 13").
     *
     * @param histogram samples in ns.
     * @return its summary (values at HdrHistogram's precision: equivalent values, 3 significant digits).
     */
    public static LatencySummary of(final Histogram histogram)
    {
        final long count = histogram.getTotalCount();
        if (count == 0)
        {
            return new LatencySummary(0, 0, 0, 0, 0, 0, 0);
        }
        final long p50Rank = rank(50, count);
        final long p95Rank = rank(95, count);
        final long p99Rank = rank(99, count);
        long p50Ns = 0;
        long p95Ns = 0;
        long p99Ns = 0;
        double totalNs = 0;
        long countBelow = 0;
        final long maxNs = histogram.getMaxValue();
        // Bucket by bucket in value order: each step lands on the next bucket's lowest value (the buckets tile the
        // range), and nothing is counted above the largest value recorded.
        for (long valueNs = 0; valueNs <= maxNs; valueNs = histogram.nextNonEquivalentValue(valueNs))
        {
            final long bucketCount = histogram.getCountAtValue(valueNs);
            if (bucketCount == 0)
            {
                continue;
            }
            totalNs += histogram.medianEquivalentValue(valueNs) * (double)bucketCount;
            final long countBefore = countBelow;
            countBelow += bucketCount;
            if (countBefore < p50Rank && countBelow >= p50Rank)
            {
                p50Ns = histogram.highestEquivalentValue(valueNs);
            }
            if (countBefore < p95Rank && countBelow >= p95Rank)
            {
                p95Ns = histogram.highestEquivalentValue(valueNs);
            }
            if (countBefore < p99Rank && countBelow >= p99Rank)
            {
                p99Ns = histogram.highestEquivalentValue(valueNs);
            }
        }
        return new LatencySummary(
            count, histogram.getMinValue(), p50Ns, p95Ns, p99Ns, maxNs, totalNs * 1.0 / count);
    }

    /**
     * @return how many samples lie at or below the percentile's value: HdrHistogram's own rounding (just below the
     * percentile, times the count, rounded up, at least one).
     */
    private static long rank(final double percentile, final long count)
    {
        final double requested = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0.0D), 100.0D);
        return Math.max(1, (long)Math.ceil(requested * count / 100.0));
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
