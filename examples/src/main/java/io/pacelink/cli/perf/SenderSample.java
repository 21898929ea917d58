package io.pacelink.cli.perf;

import io.pacelink.transport.ConnectionStats;

/**
 * What a sending connection's statistics ({@code Connection.stats()}) showed at one moment, the columns
 * {@code iperf -e} prints for TCP and a little more.
 *
 * @param retransmits               packets retransmitted so far, or in the interval the sample ends.
 * @param cwndBytes                 congestion window.
 * @param pacingRateBitsPerSecond   pacing rate, 0 when not paced.
 * @param smoothedRttNs             smoothed RTT (RFC 9002 section 5.3), 0 before the first sample.
 * @param minRttNs                  minimum RTT, 0 before the first sample.
 * @param deliveryRateBitsPerSecond the latest delivery-rate sample: the bandwidth estimate BBR's filter takes in.
 */
public record SenderSample(
    long retransmits,
    long cwndBytes,
    long pacingRateBitsPerSecond,
    long smoothedRttNs,
    long minRttNs,
    long deliveryRateBitsPerSecond)
{
    /**
     * @param stats       a connection's statistics.
     * @param retransmits the retransmits to report (a total, or a difference over an interval).
     * @return the sample.
     */
    static SenderSample of(final ConnectionStats stats, final long retransmits)
    {
        final long pacingRate = stats.pacingRateBytesPerSecond();
        final boolean hasRtt = stats.rttSamples() > 0;
        return new SenderSample(
            retransmits,
            stats.congestionWindowBytes(),
            // An unpaced sender reports "infinite" rates; say "not paced" instead.
            pacingRate <= 0 || pacingRate >= Long.MAX_VALUE / 16 ? 0 : pacingRate * 8,
            hasRtt ? stats.smoothedRttNs() : 0,
            hasRtt ? stats.minRttNs() : 0,
            Math.max(0, stats.deliveryRateBytesPerSecond()) * 8);
    }
}
