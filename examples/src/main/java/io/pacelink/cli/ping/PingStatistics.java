package io.pacelink.cli.ping;

import org.HdrHistogram.Histogram;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.concurrent.TimeUnit;

/**
 * A ping's round-trip times in HdrHistogram: as measured, and corrected for coordinated omission when requests
 * follow a schedule. A request waits for the previous echo, so one slow echo delays the requests behind it, which
 * then never measure the stall; HdrHistogram's {@code recordValueWithExpectedInterval} adds the samples those
 * requests would have seen (Gil Tene, "How NOT to measure latency").
 */
final class PingStatistics
{
    /**
     * The percentiles a ping summary prints.
     */
    static final double[] PERCENTILES = {50, 90, 99, 99.9};

    private static final long HIGHEST_TRACKABLE_NS = TimeUnit.MINUTES.toNanos(10);
    private static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram measured = new Histogram(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    private final Histogram corrected = new Histogram(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    private final long intervalNs;
    private long count;
    private double sumNs;
    private double sumOfSquaresNs;

    /**
     * @param intervalNs the requests' schedule, 0 when each follows the previous echo at once (no correction).
     */
    PingStatistics(final long intervalNs)
    {
        this.intervalNs = intervalNs;
    }

    /**
     * @param rttNs one round trip.
     */
    void record(final long rttNs)
    {
        final long value = Math.min(rttNs, HIGHEST_TRACKABLE_NS);
        measured.recordValue(value);
        count++;
        sumNs += rttNs;
        sumOfSquaresNs += (double)rttNs * rttNs;
        if (intervalNs > 0)
        {
            corrected.recordValueWithExpectedInterval(value, intervalNs);
        }
        else
        {
            corrected.recordValue(value);
        }
    }

    /**
     * @return the round trips as measured.
     */
    Histogram measured()
    {
        return measured;
    }

    /**
     * @return the round trips with the samples coordinated omission hid (the same as {@link #measured()} without a
     * schedule).
     */
    Histogram corrected()
    {
        return corrected;
    }

    /**
     * @return the mean round trip as measured, exactly (not from the histogram's buckets), as ping's {@code avg}.
     */
    double meanNs()
    {
        return 0 == count ? 0 : sumNs / count;
    }

    /**
     * @return ping's {@code mdev}: the standard deviation of the measured round trips, sqrt(mean of squares - square
     * of mean), as iputils computes it (ping_common.c, {@code finish()}).
     */
    double mdevNs()
    {
        if (0 == count)
        {
            return 0;
        }
        final double mean = sumNs / count;
        return Math.sqrt(Math.max(0, sumOfSquaresNs / count - mean * mean));
    }

    /**
     * @param transmitted requests sent.
     * @param received    echoes received.
     * @return the share of requests not echoed, in percent, as ping's {@code %g} prints it: up to six significant
     * digits, no trailing zeros ({@code 0}, {@code 40}, {@code 33.3333}).
     */
    static String lossPercent(final long transmitted, final long received)
    {
        if (0 == transmitted)
        {
            return "0";
        }
        final double percent = (transmitted - received) * 100.0 / transmitted;
        return new BigDecimal(percent).round(new MathContext(6, RoundingMode.HALF_EVEN)).stripTrailingZeros()
            .toPlainString();
    }

    /**
     * @return the schedule the correction assumes, 0 for none.
     */
    long intervalNs()
    {
        return intervalNs;
    }
}
