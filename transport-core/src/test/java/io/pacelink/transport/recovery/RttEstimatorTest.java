package io.pacelink.transport.recovery;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RttEstimatorTest
{
    private static final long MS = 1_000_000L;
    private static final long MAX_ACK_DELAY_NS = 25 * MS;

    private final RttEstimator rtt = new RttEstimator(RecoveryConfig.DEFAULT_INITIAL_RTT_NS, MS);

    @Test
    void beforeAnySampleUsesInitialRttAndPtoOfAboutOneSecond()
    {
        assertFalse(rtt.hasSample());
        assertEquals(333 * MS, rtt.smoothedRttNs());
        assertEquals(333 * MS, rtt.minRttNs());
        assertEquals(333 * MS, rtt.latestRttNs());
        assertEquals(166_500_000L, rtt.rttVarianceNs());
        // 333 + 4 * 166.5 = 999 ms, RFC 9002 6.2.2's one-second initial PTO (no max_ack_delay here).
        assertEquals(999 * MS, rtt.ptoPeriodNs(0));
        assertEquals(Long.MAX_VALUE, rtt.firstSampleTimeNs());
    }

    @Test
    void initialRttIsConfigurable()
    {
        final RttEstimator custom = new RttEstimator(100 * MS, MS);
        assertEquals(100 * MS, custom.smoothedRttNs());
        assertEquals(50 * MS, custom.rttVarianceNs());
        assertEquals(100 * MS, custom.initialRttNs());
    }

    @Test
    void firstSampleSetsSmoothedToLatestAndVarianceToHalfIgnoringAckDelay()
    {
        rtt.onRttSample(7 * MS, 100 * MS, 20 * MS, MAX_ACK_DELAY_NS);

        assertTrue(rtt.hasSample());
        assertEquals(100 * MS, rtt.latestRttNs());
        assertEquals(100 * MS, rtt.minRttNs());
        assertEquals(100 * MS, rtt.smoothedRttNs());
        assertEquals(50 * MS, rtt.rttVarianceNs());
        assertEquals(7 * MS, rtt.firstSampleTimeNs());
        // srtt + max(4 * rttvar, 1 ms) + max_ack_delay = 100 + 200 + 25.
        assertEquals(325 * MS, rtt.ptoPeriodNs(MAX_ACK_DELAY_NS));
    }

    @Test
    void ackDelayIsSubtractedWhenTheResultStaysAboveMinRtt()
    {
        rtt.onRttSample(0, 100 * MS, 0, MAX_ACK_DELAY_NS);
        rtt.onRttSample(0, 140 * MS, 20 * MS, MAX_ACK_DELAY_NS);

        // adjusted = 140 - 20 = 120; rttvar = (3 * 50 + |100 - 120|) / 4 = 42.5; srtt = (7 * 100 + 120) / 8 = 102.5.
        assertEquals(100 * MS, rtt.minRttNs());
        assertEquals(140 * MS, rtt.latestRttNs());
        assertEquals(42_500_000L, rtt.rttVarianceNs());
        assertEquals(102_500_000L, rtt.smoothedRttNs());
    }

    @Test
    void ackDelayIsCappedAtMaxAckDelay()
    {
        rtt.onRttSample(0, 100 * MS, 0, MAX_ACK_DELAY_NS);
        rtt.onRttSample(0, 200 * MS, 80 * MS, MAX_ACK_DELAY_NS);

        // The reported 80 ms counts as 25 ms: adjusted = 175; rttvar = (150 + 75) / 4 = 56.25; srtt = 875 / 8.
        assertEquals(56_250_000L, rtt.rttVarianceNs());
        assertEquals(109_375_000L, rtt.smoothedRttNs());
    }

    @Test
    void ackDelayIsIgnoredWhenSubtractingItWouldGoBelowMinRtt()
    {
        rtt.onRttSample(0, 100 * MS, 0, MAX_ACK_DELAY_NS);
        rtt.onRttSample(0, 110 * MS, 20 * MS, MAX_ACK_DELAY_NS);

        // 110 < 100 + 20: adjusted stays 110; rttvar = (150 + 10) / 4 = 40; srtt = (700 + 110) / 8 = 101.25.
        assertEquals(40 * MS, rtt.rttVarianceNs());
        assertEquals(101_250_000L, rtt.smoothedRttNs());
    }

    @Test
    void ackDelayEqualToTheSlackIsSubtracted()
    {
        rtt.onRttSample(0, 100 * MS, 0, MAX_ACK_DELAY_NS);
        rtt.onRttSample(0, 120 * MS, 20 * MS, MAX_ACK_DELAY_NS);

        // latest_rtt >= min_rtt + ack_delay holds with equality (RFC 9002 after quicwg/base-drafts#4883): 100.
        assertEquals(37_500_000L, rtt.rttVarianceNs());
        assertEquals(100 * MS, rtt.smoothedRttNs());
    }

    @Test
    void minRttIsTheRawMinimumNeverAdjustedForAckDelay()
    {
        rtt.onRttSample(0, 100 * MS, 0, MAX_ACK_DELAY_NS);
        rtt.onRttSample(0, 90 * MS, 20 * MS, MAX_ACK_DELAY_NS);
        assertEquals(90 * MS, rtt.minRttNs());

        rtt.onRttSample(0, 150 * MS, 0, MAX_ACK_DELAY_NS);
        assertEquals(90 * MS, rtt.minRttNs());
        assertEquals(150 * MS, rtt.latestRttNs());
    }

    @Test
    void ewmaOverASequenceOfSamplesIsExact()
    {
        rtt.onRttSample(0, 80 * MS, 0, MAX_ACK_DELAY_NS);
        rtt.onRttSample(0, 96 * MS, 0, MAX_ACK_DELAY_NS);
        rtt.onRttSample(0, 64 * MS, 0, MAX_ACK_DELAY_NS);

        // 1: srtt 80, var 40. 2: var (120 + 16) / 4 = 34, srtt (560 + 96) / 8 = 82.
        // 3: var (102 + 18) / 4 = 30, srtt (574 + 64) / 8 = 79.75.
        assertEquals(30 * MS, rtt.rttVarianceNs());
        assertEquals(79_750_000L, rtt.smoothedRttNs());
        assertEquals(64 * MS, rtt.minRttNs());
        // PTO: 79.75 + 120 + 0.
        assertEquals(199_750_000L, rtt.ptoPeriodNs(0));
    }

    @Test
    void ptoVarianceTermIsAtLeastTheGranularity()
    {
        rtt.onRttSample(0, MS / 10, 0, 0);
        // srtt 0.1 ms, rttvar 0.05 ms: 4 * rttvar = 0.2 ms < kGranularity 1 ms.
        assertEquals(MS / 10 + MS + 5 * MS, rtt.ptoPeriodNs(5 * MS));
    }

    @Test
    void persistentCongestionResetsMinRttToTheLatestSample()
    {
        rtt.onRttSample(0, 100 * MS, 0, MAX_ACK_DELAY_NS);
        rtt.onRttSample(0, 180 * MS, 0, MAX_ACK_DELAY_NS);
        assertEquals(100 * MS, rtt.minRttNs());

        rtt.onPersistentCongestion();
        assertEquals(180 * MS, rtt.minRttNs());
    }
}
