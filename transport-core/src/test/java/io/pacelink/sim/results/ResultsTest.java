package io.pacelink.sim.results;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultsTest
{
    private static final long MS = 1_000_000L;

    @Test
    void jainIndexOfEqualAndSkewedShares()
    {
        assertEquals(1.0, Fairness.jainIndex(5, 5, 5, 5), 1e-12);
        assertEquals(0.25, Fairness.jainIndex(8, 0, 0, 0), 1e-12);
        // (3 + 1)^2 / (2 * (9 + 1)) = 0.8
        assertEquals(0.8, Fairness.jainIndex(3, 1), 1e-12);
        assertEquals(1.0, Fairness.jainIndex(), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> Fairness.jainIndex(1, -1));
    }

    @Test
    void goodputSeriesBinsDeliveries()
    {
        final GoodputSeries series = new GoodputSeries(100 * MS);
        series.record(0, 1000);
        series.record(99 * MS, 250);
        series.record(100 * MS, 500);
        series.record(350 * MS, 125);

        assertEquals(4, series.binCount());
        assertEquals(1250, series.bytes(0));
        assertEquals(0, series.bytes(2));
        assertEquals(1250 * 8 * 10.0, series.bitsPerSecond(0), 1e-9);
        assertEquals(1875, series.totalBytes());
        assertEquals((1250 + 500) * 8 / 0.2, series.bitsPerSecond(0, 200 * MS), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> series.bitsPerSecond(5, 100 * MS));
    }

    @Test
    void aGoodputSeriesSizedForItsRunRecordsTheWholeRunWithoutGrowing()
    {
        final long runNs = 10_000 * MS;
        final GoodputSeries sized = new GoodputSeries(100 * MS, runNs);
        final GoodputSeries unsized = new GoodputSeries(100 * MS);
        recordEveryBin(sized, runNs);
        recordEveryBin(unsized, runNs);

        assertEquals(0, allocatedBytes(() -> recordEveryBin(new GoodputSeries(100 * MS, runNs), runNs)) -
            allocatedBytes(() -> new GoodputSeries(100 * MS, runNs)), "sized for the run: never grown");
        assertTrue(allocatedBytes(() -> recordEveryBin(new GoodputSeries(100 * MS), runNs)) -
            allocatedBytes(() -> new GoodputSeries(100 * MS)) >= 101 * Long.BYTES, "without: grown at 6.4 s");
        assertEquals(unsized.totalBytes(), sized.totalBytes());
        assertEquals(101, sized.binCount());
        sized.record(runNs + 100 * MS, 7);
        assertEquals(102, sized.binCount(), "a run longer than said still records");
        assertThrows(IllegalArgumentException.class, () -> new GoodputSeries(100 * MS, -1));
    }

    private static void recordEveryBin(final GoodputSeries series, final long runNs)
    {
        for (long nowNs = 0; nowNs <= runNs; nowNs += 50 * MS)
        {
            series.record(nowNs, 1000);
        }
    }

    /**
     * Bytes this thread allocated running {@code work} (warmed up first, so class loading is not counted).
     */
    private static long allocatedBytes(final Runnable work)
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        work.run();
        final long before = threads.getCurrentThreadAllocatedBytes();
        work.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void flowResultsSummariseRtt()
    {
        final FlowResults flow = new FlowResults("a", MS);
        for (int i = 1; i <= 100; i++)
        {
            flow.onRttSample(i * MS);
        }
        flow.onRetransmitted(1200);
        flow.onLost(1200);
        flow.onSent(12_000);

        final LatencySummary rtt = flow.rtt();
        assertEquals(100, rtt.count());
        assertEquals(1 * MS, rtt.minNs(), 0.001 * MS);
        assertEquals(50 * MS, rtt.p50Ns(), 0.001 * 50 * MS);
        assertEquals(95 * MS, rtt.p95Ns(), 0.001 * 95 * MS);
        assertEquals(99 * MS, rtt.p99Ns(), 0.001 * 99 * MS);
        assertEquals(1200, flow.retransmittedBytes());
        assertEquals(1200, flow.lostBytes());
        assertEquals(12_000, flow.sentBytes());
        assertEquals(0, LatencySummary.of(new Histogram(3)).count());
    }
}
