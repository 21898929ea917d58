package io.pacelink.cli;

import io.pacelink.transport.ConnectionStats;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Prints per-interval lines in the spirit of {@code iperf -e}: interval, transfer, bandwidth, retransmits, cwnd and
 * RTT, then a summary line per transfer.
 */
public final class TransferReporter
{
    private final PrintStream out;
    private final String label;
    private long lastBytes;
    private long lastRetransmits;
    private long lastReportNs;
    private final long startNs;

    /**
     * @param out     where to print.
     * @param label   e.g. the controller's name.
     * @param startNs when the transfer started.
     */
    public TransferReporter(final PrintStream out, final String label, final long startNs)
    {
        this.out = out;
        this.label = label;
        this.startNs = startNs;
        this.lastReportNs = startNs;
    }

    /**
     * Print the column header.
     */
    public void header()
    {
        out.printf(Locale.ROOT, "[%6s] %-15s %12s %16s %8s %10s %10s%n",
            "cc", "Interval", "Transfer", "Bandwidth", "Retr", "Cwnd", "RTT");
    }

    /**
     * Print one interval line.
     *
     * @param nowNs          end of the interval.
     * @param bytesDelivered bytes delivered to the receiving application so far.
     * @param stats          the sending connection's stats.
     */
    public void interval(final long nowNs, final long bytesDelivered, final ConnectionStats stats)
    {
        final long retransmits = stats.packetsRetransmitted();
        print(lastReportNs, nowNs, bytesDelivered - lastBytes, retransmits - lastRetransmits,
            stats.congestionWindowBytes(), stats.smoothedRttNs());
        lastBytes = bytesDelivered;
        lastRetransmits = retransmits;
        lastReportNs = nowNs;
    }

    /**
     * Print the summary line over the whole transfer.
     *
     * @param nowNs          end of the transfer.
     * @param bytesDelivered bytes delivered in total.
     * @param stats          the sending connection's stats.
     */
    public void summary(final long nowNs, final long bytesDelivered, final ConnectionStats stats)
    {
        out.println("- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -");
        print(startNs, nowNs, bytesDelivered, stats.packetsRetransmitted(), stats.congestionWindowBytes(),
            stats.smoothedRttNs());
    }

    private void print(
        final long fromNs, final long toNs, final long bytes, final long retransmits, final long congestionWindowBytes,
        final long rttNs)
    {
        final double seconds = Math.max(1e-9, (toNs - fromNs) / 1e9);
        out.printf(Locale.ROOT, "[%6s] %6.2f-%-6.2f sec %12s %16s %8d %10s %8.2f ms%n",
            label,
            (fromNs - startNs) / 1e9,
            (toNs - startNs) / 1e9,
            Units.bytes(bytes),
            Units.bitsPerSecond(bytes * 8 / seconds),
            retransmits,
            Units.bytes(congestionWindowBytes),
            rttNs / 1e6);
    }
}
