package io.pacelink.transport.recovery;

import org.junit.jupiter.api.Test;

import static io.pacelink.transport.recovery.RecoveryDriver.ms;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The delivery-rate sample is timed by the ACK's arrival, not by when the thread got round to it
 * ({@link LossRecovery#onAckReceived(AckRanges, long, long, long, PacketOutcomeListener)}): the same path read with
 * late wakes gives the same samples as read on time, while read late without the arrival it over-estimates the rate
 * that a max filter then keeps. RTT samples stay on the processing time.
 */
class AckArrivalTimeTest
{
    /**
     * 1200-byte packets sent every 0.8 ms, faster than the bottleneck, which delivers one per millisecond (1.2 MB/s),
     * as a sender probing above the path's rate does: each ACK arrives 100 ms + one millisecond per packet after the
     * first was sent, so the ACK span, not the send span, is a sample's interval, and how it is timed decides the
     * rate.
     */
    private static final long RATE_BYTES_PER_SECOND = 1_200_000L;
    private static final int PACKETS = 400;
    private static final long SEND_GAP_NS = 800_000L;
    private static final long RTT_MS = 100;
    /**
     * The first packet sent after the first ACK was read, late or not (0.8 ms × 126 > 100.5 ms): from its sample on,
     * every interval spans whole ACK gaps.
     */
    private static final int FIRST_STEADY = 126;

    /**
     * How late the thread reads the ACK of packet {@code pn}: every other one 0.5 ms late, the rest on time — a wake
     * quantum's lateness, within the ACK gap so the reads keep their order.
     */
    private static long lateNs(final long pn)
    {
        return 0 == pn % 2 ? 500_000L : 0;
    }

    private enum Reading
    {
        ON_TIME, LATE_WITH_ARRIVAL, LATE_WITHOUT_ARRIVAL
    }

    private static long arrivalNs(final long pn)
    {
        return ms(RTT_MS + pn);
    }

    private static long readNs(final Reading reading, final long pn)
    {
        return arrivalNs(pn) + (Reading.ON_TIME == reading ? 0 : lateNs(pn));
    }

    /**
     * @return the delivery rate after each ACK, by the packet number it acknowledges.
     */
    private static long[] deliveryRates(final Reading reading, final RecoveryDriver driver)
    {
        final long[] rates = new long[PACKETS];
        int sent = 0;
        int acked = 0;
        while (acked < PACKETS)
        {
            // In the order the thread does things: a send at its time, or the read of an ACK (an ACK read late is
            // read after the sends its lateness let go first).
            if (sent < PACKETS && sent * SEND_GAP_NS < readNs(reading, acked))
            {
                driver.sendAtNs(sent, sent * SEND_GAP_NS, false);
                sent++;
                continue;
            }
            final long nowNs = readNs(reading, acked);
            if (Reading.LATE_WITH_ARRIVAL == reading)
            {
                driver.lossRecovery.onAckReceived(
                    driver.ranges.of(acked, acked), 0, arrivalNs(acked), nowNs, driver.listener);
            }
            else
            {
                driver.ackAtNs(nowNs, acked, acked);
            }
            rates[acked++] = driver.lossRecovery.rateSampler().deliveryRateBytesPerSecond();
        }
        return rates;
    }

    private static RecoveryDriver newDriver()
    {
        return new RecoveryDriver(new RecoveryConfig(), ms(5));
    }

    private static long max(final long[] values, final int from)
    {
        long max = 0;
        for (int i = from; i < values.length; i++)
        {
            max = Math.max(max, values[i]);
        }
        return max;
    }

    @Test
    void acksReadLateButTimedByTheirArrivalMeasureThePathsRate()
    {
        final long[] onTime = deliveryRates(Reading.ON_TIME, newDriver());
        final long[] late = deliveryRates(Reading.LATE_WITH_ARRIVAL, newDriver());
        for (int pn = FIRST_STEADY; pn < PACKETS; pn++)
        {
            assertEquals(RATE_BYTES_PER_SECOND, onTime[pn], "read on time, ack of " + pn);
            assertEquals(RATE_BYTES_PER_SECOND, late[pn], "read late, timed by arrival, ack of " + pn);
        }
    }

    @Test
    void acksReadLateAndTimedWhenReadOverEstimateTheRateTheMaxFilterKeeps()
    {
        final long[] late = deliveryRates(Reading.LATE_WITHOUT_ARRIVAL, newDriver());
        // An on-time read whose interval starts at a read 0.5 ms late is 0.5 ms short: over an interval of 125 to
        // 180 ms, 0.3 to 0.4 % over the path — the kind of sample a max filter keeps.
        assertTrue(max(late, FIRST_STEADY) >= RATE_BYTES_PER_SECOND * 1003 / 1000,
            "timed when read, a sample after a late read over-estimates: max " + max(late, FIRST_STEADY));
    }

    @Test
    void theRttSampleStaysOnTheProcessingTime()
    {
        final RecoveryDriver driver = newDriver();
        driver.sendAtMs(0, 0);
        driver.lossRecovery.onAckReceived(driver.ranges.of(0, 0), 0, ms(100), ms(101), driver.listener);
        assertEquals(ms(101), driver.lossRecovery.rttEstimator().latestRttNs(), "never shorter than the path's");
        assertEquals(ms(100), driver.lossRecovery.rateSampler().deliveredTimeNs(), "delivered when it arrived");
    }

    @Test
    void anArrivalAfterTheProcessingTimeCountsAsTheProcessingTime()
    {
        final RecoveryDriver driver = newDriver();
        driver.sendAtMs(0, 0);
        driver.lossRecovery.onAckReceived(driver.ranges.of(0, 0), 0, ms(150), ms(100), driver.listener);
        assertEquals(ms(100), driver.lossRecovery.rateSampler().deliveredTimeNs());
        assertEquals(ms(100), driver.lossRecovery.rateSampler().sampleIntervalNs());
    }

    /**
     * RFC 9000 section 13.2.5: the peer's ACK Delay is the time since it received the largest acknowledged packet;
     * the delivery happened then, so the sample is timed by the ACK's arrival less it. The RTT sample is not.
     */
    @Test
    void theDeliveryIsTimedByTheArrivalLessThePeersReportedDelay()
    {
        final RecoveryDriver driver = newDriver();
        driver.sendAtMs(0, 0);
        driver.lossRecovery.onAckReceived(driver.ranges.of(0, 0), ms(4), ms(100), ms(101), driver.listener);
        assertEquals(ms(96), driver.lossRecovery.rateSampler().deliveredTimeNs());
        assertEquals(ms(101), driver.lossRecovery.rttEstimator().latestRttNs());
    }

    /**
     * A delay beyond the peer's max_ack_delay (5 ms here) is believed only up to it, so a broken or lying peer can
     * shorten a sample's span by no more than that; and {@code C.delivered_time} never goes back, whatever the delay.
     */
    @Test
    void theDelayBelievedIsAtMostTheMaxAckDelayAndTheDeliveredTimeNeverGoesBack()
    {
        final RecoveryDriver driver = newDriver();
        driver.sendAtMs(0, 0);
        driver.sendAtMs(1, 1);
        driver.lossRecovery.onAckReceived(driver.ranges.of(0, 0), ms(20), ms(100), ms(100), driver.listener);
        assertEquals(ms(95), driver.lossRecovery.rateSampler().deliveredTimeNs());
        driver.lossRecovery.onAckReceived(driver.ranges.of(0, 1), ms(5), ms(99), ms(100), driver.listener);
        assertEquals(ms(95), driver.lossRecovery.rateSampler().deliveredTimeNs());
    }

    @Test
    void theDeliveredTimeNeverGoesBackForAnAckThatArrivedBeforeTheSampleClockRestarted()
    {
        final RecoveryDriver driver = newDriver();
        driver.sendAtMs(0, 0);
        driver.ackAtMs(100, 0, 0);
        // Nothing in flight: packet 1 restarts the sample clock at 120 ms; its ACK is said to have arrived at 110.
        driver.sendAtMs(1, 120);
        driver.lossRecovery.onAckReceived(driver.ranges.of(1, 1), 0, ms(110), ms(230), driver.listener);
        assertEquals(ms(120), driver.lossRecovery.rateSampler().deliveredTimeNs());
    }

    /**
     * BBR's PROBE_RTT in miniature: the flight empties, four packets leave together (the sample clock restarts at
     * their send, the processing time of the last ACK) and one ACK acknowledges them all. Every ACK is read 50 µs
     * after it arrived, so min_rtt, on the processing time, is 50 µs longer than the sample's span on the arrival's:
     * a floor of min_rtt would drop the sample, and with it the round BBR waits for to leave PROBE_RTT.
     */
    @Test
    void aBurstSentAfterTheFlightEmptiedYieldsASampleThoughEveryAckIsReadAfterItArrived()
    {
        final long readLateNs = 50_000L;
        final RecoveryDriver driver = newDriver();
        driver.sendAtMs(0, 0);
        driver.lossRecovery.onAckReceived(driver.ranges.of(0, 0), 0, ms(100), ms(100) + readLateNs, driver.listener);
        assertEquals(ms(100) + readLateNs, driver.lossRecovery.rttEstimator().minRttNs());
        assertTrue(driver.lossRecovery.rateSampler().hasSample(), "the first sample spans 100 ms: the path's RTT");

        final long sentNs = ms(100) + readLateNs;
        for (int pn = 1; pn <= 4; pn++)
        {
            driver.sendAtNs(pn, sentNs, false);
        }
        driver.lossRecovery.onAckReceived(
            driver.ranges.of(1, 4), 0, sentNs + ms(100), sentNs + ms(100) + readLateNs, driver.listener);
        assertEquals(ms(100), driver.lossRecovery.rateSampler().sampleIntervalNs());
        assertTrue(driver.lossRecovery.rateSampler().hasSample(), "a span of the path's RTT is a real measurement");
        assertEquals(4L * RecoveryDriver.PACKET_BYTES * 10,
            driver.lossRecovery.rateSampler().deliveryRateBytesPerSecond(), "four packets in 100 ms");
        assertEquals(ms(100) + readLateNs, driver.lossRecovery.rttEstimator().minRttNs(), "min_rtt unchanged");
    }
}
