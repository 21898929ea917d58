package io.pacelink.bbr;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AckAggregationEstimatorTest
{
    private static final long MS = 1_000_000L;
    private static final long BW = 1_000_000L; // 1 MB/s = 1000 bytes per ms

    @Test
    void smoothAckStreamHasNoExtra()
    {
        final AckAggregationEstimator estimator = new AckAggregationEstimator(5, 1L << 30, 0);
        for (int i = 1; i <= 100; i++)
        {
            estimator.onAck(i * MS, false, 1_000, BW, 1_000_000);
        }
        // Each ACK brings exactly what the bandwidth predicts: the epoch restarts each time, extra = one ACK.
        assertEquals(1_000, estimator.extraAckedBytes());
    }

    @Test
    void burstAfterSilenceMeasuresAggregation()
    {
        final AckAggregationEstimator estimator = new AckAggregationEstimator(5, 1L << 30, 0);
        estimator.onAck(0, false, 1_000, BW, 1_000_000);
        // 10 ms of silence: the ACK rate fell below bw, so a new epoch starts with this ACK (10 KB).
        estimator.onAck(10 * MS, false, 10_000, BW, 1_000_000);
        assertEquals(10_000, estimator.extraAckedBytes());
        // 1 ms later another 10 KB: 20 KB acked in the epoch against 1 KB expected.
        estimator.onAck(11 * MS, false, 10_000, BW, 1_000_000);
        assertEquals(19_000, estimator.extraAckedBytes());
        // The credit is gain * extra, capped at bw * max interval.
        assertEquals(19_000, estimator.cwndCreditBytes(1.0, BW, 100 * MS));
        assertEquals(5_000, estimator.cwndCreditBytes(1.0, BW, 5 * MS));
        assertEquals(38_000, estimator.cwndCreditBytes(2.0, BW, 100 * MS));
    }

    @Test
    void extraIsCappedAtCwndAndAgesOutAfterTwoBuckets()
    {
        final AckAggregationEstimator estimator = new AckAggregationEstimator(5, 1L << 30, 0);
        estimator.onAck(1 * MS, false, 50_000, BW, 8_000);
        assertEquals(8_000, estimator.extraAckedBytes());
        long now = 2 * MS;
        // Round starts with smooth ACKs: after 5 rounds the other bucket is current, after 10 the burst is gone.
        for (int round = 1; round <= 9; round++)
        {
            now += 60 * MS;
            estimator.onAck(now, true, 1_000, BW, 8_000);
            assertEquals(8_000, estimator.extraAckedBytes(), "round " + round);
        }
        now += 60 * MS;
        estimator.onAck(now, true, 1_000, BW, 8_000);
        assertEquals(1_000, estimator.extraAckedBytes());
    }

    @Test
    void restartEpochForgetsAccumulatedAcks()
    {
        final AckAggregationEstimator kept = new AckAggregationEstimator(5, 1L << 30, 0);
        final AckAggregationEstimator restarted = new AckAggregationEstimator(5, 1L << 30, 0);
        kept.onAck(0, false, 5_000, BW, 1_000_000);
        restarted.onAck(0, false, 5_000, BW, 1_000_000);
        restarted.restartEpoch(1 * MS);

        kept.onAck(1 * MS, false, 5_000, BW, 1_000_000);
        restarted.onAck(1 * MS, false, 5_000, BW, 1_000_000);
        // Same epoch: 10 KB acked vs 1 KB expected. Restarted epoch: only the new 5 KB.
        assertEquals(9_000, kept.extraAckedBytes());
        assertEquals(5_000, restarted.extraAckedBytes());
    }

    @Test
    void staleEpochIsResetAfterThreshold()
    {
        final AckAggregationEstimator estimator = new AckAggregationEstimator(5, 12_000, 0);
        estimator.onAck(0, false, 6_000, BW, 1_000_000);
        estimator.onAck(1, false, 5_000, BW, 1_000_000);
        assertEquals(11_000, estimator.extraAckedBytes());
        // 11 KB + 2 KB reaches the 12 KB threshold: new epoch, extra 2 KB (the bucket keeps its 11 KB max).
        estimator.onAck(2, false, 2_000, BW, 1_000_000);
        estimator.onAck(3, false, 9_000, BW, 1_000_000);
        assertEquals(11_000, estimator.extraAckedBytes());
    }
}
