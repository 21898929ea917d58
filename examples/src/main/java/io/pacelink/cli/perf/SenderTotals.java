package io.pacelink.cli.perf;

/**
 * A sending connection over the whole test: iperf3's end-of-test sender figures and Pacelink's own.
 *
 * @param retransmits         packets retransmitted.
 * @param packetsLost         packets declared lost.
 * @param maxCwndBytes        largest congestion window seen.
 * @param minRttNs            minimum RTT, 0 without a sample.
 * @param meanRttNs           mean of the smoothed RTT sampled every 100 ms, 0 without a sample.
 * @param maxRttNs            largest smoothed RTT sampled.
 */
public record SenderTotals(
    long retransmits, long packetsLost, long maxCwndBytes, long minRttNs, long meanRttNs, long maxRttNs)
{
}
