package io.pacelink.sim.results;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LatencySummaryTest
{
    @Test
    void equalsHdrHistogramsOwnPercentilesAndMeanBitForBit()
    {
        final Random random = new Random(5);
        for (int i = 0; i < 300; i++)
        {
            final Histogram histogram = newHistogram(i % 3);
            final int samples = i % 7 == 0 ? 1 + random.nextInt(3) : 1 + random.nextInt(5_000);
            final long baseNs = 1 + (long)(random.nextDouble() * 50_000_000L);
            for (int s = 0; s < samples; s++)
            {
                final long valueNs = switch (i % 4)
                {
                    case 0 -> baseNs;
                    case 1 -> (long)(baseNs * (1 + random.nextDouble()));
                    case 2 -> (long)(random.nextDouble() * random.nextDouble() * 3_000_000_000L);
                    default -> random.nextInt(2_000);
                };
                histogram.recordValueWithCount(valueNs, 1 + random.nextInt(i % 5 == 0 ? 1_000 : 3));
            }
            final LatencySummary summary = LatencySummary.of(histogram);
            final String input = "histogram " + i;
            assertEquals(histogram.getTotalCount(), summary.count(), input);
            assertEquals(histogram.getMinValue(), summary.minNs(), input);
            assertEquals(histogram.getValueAtPercentile(50), summary.p50Ns(), input);
            assertEquals(histogram.getValueAtPercentile(95), summary.p95Ns(), input);
            assertEquals(histogram.getValueAtPercentile(99), summary.p99Ns(), input);
            assertEquals(histogram.getMaxValue(), summary.maxNs(), input);
            assertEquals(
                Double.doubleToLongBits(histogram.getMean()), Double.doubleToLongBits(summary.meanNs()), input);
        }
    }

    @Test
    void anEmptyHistogramIsAllZero()
    {
        assertEquals(new LatencySummary(0, 0, 0, 0, 0, 0, 0), LatencySummary.of(newHistogram(0)));
    }

    /**
     * The simulator's three shapes: RTTs (1-µs resolution, resized as needed), queueing delays, application latencies.
     */
    private static Histogram newHistogram(final int kind)
    {
        if (kind == 0)
        {
            final Histogram histogram = new Histogram(1_000, 2_000_000, 3);
            histogram.setAutoResize(true);
            return histogram;
        }
        return kind == 1 ? new Histogram(100, 3_600_000_000_000L, 3) : new Histogram(3_600_000_000_000L, 3);
    }
}
