package io.pacelink.cli.perf;

import io.pacelink.cli.Units;

import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The text report of a test, line by line as iperf3 prints it, with the columns {@code iperf -e} adds for TCP:
 * per interval and stream the transfer and bandwidth, and at a sender the retransmits, congestion window, pacing
 * rate, smoothed and minimum RTT and the bandwidth estimate; {@code [SUM]} lines with several streams; at the end a
 * sender and a receiver line per stream (one of them measured by the other end).
 */
final class PerfText
{
    private static final String SEPARATOR = "- - - - - - - - - - - - - - - - - - - - - - - - -";

    private final Consumer<String> out;
    private boolean headerPrinted;

    /**
     * @param out where each line goes.
     */
    PerfText(final Consumer<String> out)
    {
        this.out = out;
    }

    /**
     * The data connections are up: say which they are and what the test does.
     *
     * @param report the test.
     */
    void connected(final PerfReport report)
    {
        for (final PerfReport.Connected stream : report.connected)
        {
            line(String.format(Locale.ROOT, "[%3d] local %s port %d connected to %s port %d",
                stream.id(), stream.local().getAddress().getHostAddress(), stream.local().getPort(),
                stream.remote().getAddress().getHostAddress(), stream.remote().getPort()));
        }
        final PerfParameters parameters = report.parameters;
        if (parameters.reverse())
        {
            line(report.isClient ? "Reverse mode, remote host " + report.peer.getHostString() + " is sending" :
                "Reverse mode: this server sends");
        }
        else if (parameters.bidir())
        {
            line("Bidirectional mode: both ends send");
        }
        final long rate = parameters.rateBitsPerSecond();
        line(String.format(Locale.ROOT, "cc %s, qdisc %s, %s messages, %s%s",
            report.congestionControl, report.qdisc, Units.bytes(parameters.messageBytes()),
            parameters.durationNs() > 0 ? Units.seconds(parameters.durationNs()) +
                (parameters.omitNs() > 0 ? " after " + Units.seconds(parameters.omitNs()) + " omitted" : "") :
                Units.bytes(parameters.bytes()) + " per direction",
            rate > 0 ? ", each sender limited to " + Units.bitsPerSecond(rate) : ""));
    }

    /**
     * @param report  the test.
     * @param samples one interval, one sample per stream.
     */
    void interval(final PerfReport report, final List<IntervalSample> samples)
    {
        if (!headerPrinted)
        {
            headerPrinted = true;
            final String header = String.format(Locale.ROOT, "%-" + labelWidth(report) + "s %-17s %12s %16s",
                "[ ID]", "Interval", "Transfer", "Bandwidth");
            line(report.connected.stream().anyMatch(PerfReport.Connected::localSends) ?
                header + String.format(Locale.ROOT, " %7s %12s %16s %21s %16s", "Retr", "Cwnd", "Pacing",
                    "sRTT/minRTT", "BW est") : header);
        }
        for (final IntervalSample sample : samples)
        {
            final String label = String.format(Locale.ROOT, "[%3d]", sample.id()) +
                direction(report, report.indexOf(sample.id()));
            final StringBuilder line = new StringBuilder(figures(report, label, sample.startSeconds(),
                sample.endSeconds(), sample.bytes(), sample.bitsPerSecond()));
            final SenderSample state = sample.state();
            if (null != state)
            {
                line.append(String.format(Locale.ROOT, " %7d %12s %16s %21s %16s",
                    state.retransmits(),
                    Units.bytes(state.cwndBytes()),
                    0 == state.pacingRateBitsPerSecond() ? "-" : Units.bitsPerSecond(state.pacingRateBitsPerSecond()),
                    0 == state.smoothedRttNs() ? "-" :
                        millis(state.smoothedRttNs()) + "/" + millis(state.minRttNs()) + " ms",
                    0 == state.deliveryRateBitsPerSecond() ? "-" :
                        Units.bitsPerSecond(state.deliveryRateBitsPerSecond())));
            }
            if (report.isOmitted(sample.startSeconds()))
            {
                line.append("  (omitted)");
            }
            line(line.toString());
        }
        if (samples.size() > 1)
        {
            for (final boolean reverse : new boolean[] {false, true})
            {
                final PerfReport.Sum sum = report.intervalSum(samples, reverse);
                if (null != sum)
                {
                    line(figures(report, "[SUM]" + sumDirection(report, reverse), sum.startSeconds(),
                        sum.endSeconds(), sum.bytes(), sum.bitsPerSecond()) +
                        (sum.retransmits() < 0 ? "" : String.format(Locale.ROOT, " %7d", sum.retransmits())) +
                        (report.isOmitted(sum.startSeconds()) ? "  (omitted)" : ""));
                }
            }
        }
    }

    /**
     * The end of the test: a sender and a receiver line per stream, their sums, the senders' RTT and loss, the CPU
     * used at both ends.
     *
     * @param report the finished test.
     */
    void summary(final PerfReport report)
    {
        line(SEPARATOR);
        line(String.format(Locale.ROOT, "%-" + labelWidth(report) + "s %-17s %12s %16s %7s",
            "[ ID]", "Interval", "Transfer", "Bandwidth", "Retr"));
        for (final PerfReport.StreamEnd stream : report.ends)
        {
            final String label = String.format(Locale.ROOT, "[%3d]", stream.id()) + direction(report, stream.index());
            totalsLine(report, label, stream.sender(), true);
            totalsLine(report, label, stream.receiver(), false);
        }
        if (report.ends.size() > 1)
        {
            for (final boolean reverse : new boolean[] {false, true})
            {
                final String label = "[SUM]" + sumDirection(report, reverse);
                sumLine(report, label, report.endSum(true, reverse), true);
                sumLine(report, label, report.endSum(false, reverse), false);
            }
        }
        for (final PerfReport.StreamEnd stream : report.ends)
        {
            final StreamTotals sender = stream.sender();
            if (null != sender && null != sender.senderTotals())
            {
                final SenderTotals totals = sender.senderTotals();
                line(String.format(Locale.ROOT,
                    "[%3d] sender %s: cc %s, RTT min/mean/max %s/%s/%s ms, max cwnd %s, %d packets lost",
                    stream.id(), stream.localSends() ? "(here)" : "(remote)",
                    stream.localSends() ? stream.congestionControl() : report.remoteCongestionControl,
                    millis(totals.minRttNs()), millis(totals.meanRttNs()), millis(totals.maxRttNs()),
                    Units.bytes(totals.maxCwndBytes()), totals.packetsLost()));
            }
            ecnLine(stream);
        }
        if (!Double.isNaN(report.cpuPercent))
        {
            if (report.omitSeconds() > 0)
            {
                // Both figures: the steady state, and the whole test with the JVM's warm-up, which is never hidden.
                line(String.format(Locale.ROOT, "CPU use (of one core, after the %s s omitted): here %.1f %%%s",
                    seconds(report.omitSeconds()), report.cpuPercent, remoteCpu(report.remoteCpuPercent)));
                line(String.format(Locale.ROOT, "CPU use (of one core, over the whole test): here %.1f %%%s",
                    report.wholeCpuPercent, remoteCpu(report.remoteWholeCpuPercent)));
            }
            else
            {
                line(String.format(Locale.ROOT, "CPU use (of one core, over the test): here %.1f %%%s",
                    report.cpuPercent, remoteCpu(report.remoteCpuPercent)));
            }
        }
        if (null != report.serverOutputText)
        {
            line("");
            line("Server output:");
            report.serverOutputText.lines().forEach(this::line);
        }
    }

    private static String remoteCpu(final double percent)
    {
        return Double.isNaN(percent) ? "" : String.format(Locale.ROOT, ", the server %.1f %%", percent);
    }

    private static String seconds(final double seconds)
    {
        return seconds == Math.rint(seconds) ? String.valueOf((long)seconds) :
            String.format(Locale.ROOT, "%.3f", seconds).replaceAll("0+$", "");
    }

    /**
     * @param text a line of its own.
     */
    void line(final String text)
    {
        out.accept(text);
    }

    /**
     * The stream's ECN outcome (docs/ecn.md), when the sender's end is known: its validation, the marks reported and
     * answered; and the CE marks the receiver counted, when its end is known too.
     */
    private void ecnLine(final PerfReport.StreamEnd stream)
    {
        final EcnTotals sent = null == stream.sender() ? null : stream.sender().ecn();
        if (null == sent)
        {
            return;
        }
        final EcnTotals received = null == stream.receiver() ? null : stream.receiver().ecn();
        line(String.format(Locale.ROOT, "[%3d] ECN: sender %s%s, %d packets marked ECT(0), %d CE reported, " +
            "%d reactions%s",
            stream.id(), sent.state(), "NONE".equals(sent.failure()) ? "" : " (" + sent.failure() + ")",
            sent.markedSent(), sent.ceReported(), sent.ceReactions(),
            null == received ? "" : String.format(Locale.ROOT, "; receiver %d CE received", received.ceReceived())));
    }

    private void totalsLine(
        final PerfReport report, final String label, final StreamTotals totals, final boolean sender)
    {
        if (null == totals)
        {
            // The server learns the client's senders' totals but not its receivers'; the client lacks figures only
            // when the test failed.
            if (report.isClient)
            {
                line(label + "  (no " + (sender ? "sender" : "receiver") + " figures: the test ended early)");
            }
            return;
        }
        line(figures(report, label, totals.startSeconds(), totals.endSeconds(), totals.bytes(),
            totals.bitsPerSecond()) +
            (null == totals.senderTotals() ? "        " :
                String.format(Locale.ROOT, " %7d", totals.senderTotals().retransmits())) +
            (sender ? "  sender" : "  receiver"));
    }

    private void sumLine(final PerfReport report, final String label, final PerfReport.Sum sum, final boolean sender)
    {
        if (null != sum)
        {
            line(figures(report, label, sum.startSeconds(), sum.endSeconds(), sum.bytes(), sum.bitsPerSecond()) +
                (sum.retransmits() < 0 ? "        " : String.format(Locale.ROOT, " %7d", sum.retransmits())) +
                (sender ? "  sender" : "  receiver"));
        }
    }

    private static String figures(
        final PerfReport report, final String label, final double startSeconds, final double endSeconds,
        final long bytes, final double bitsPerSecond)
    {
        return String.format(Locale.ROOT, "%-" + labelWidth(report) + "s %6.2f-%-6.2f sec %12s %16s",
            label, startSeconds, endSeconds, Units.bytes(bytes), Units.bitsPerSecond(bitsPerSecond));
    }

    /**
     * {@code [  1]}, or {@code [  1][TX-C]} in a {@code --bidir} test.
     */
    private static int labelWidth(final PerfReport report)
    {
        return report.parameters.bidir() ? 11 : 5;
    }

    /**
     * RTTs in milliseconds with microseconds: loopback RTTs are tens of microseconds.
     */
    private static String millis(final long ns)
    {
        return String.format(Locale.ROOT, "%.3f", ns / 1e6);
    }

    /**
     * iperf3's tags in a {@code --bidir} test: {@code [TX-C]} for what the client sends, {@code [RX-S]} for what the
     * server receives, and so on.
     */
    private static String direction(final PerfReport report, final int index)
    {
        if (!report.parameters.bidir())
        {
            return "";
        }
        final boolean transmits = report.parameters.clientSends(index) == report.isClient;
        return (transmits ? "[TX-" : "[RX-") + (report.isClient ? "C]" : "S]");
    }

    private static String sumDirection(final PerfReport report, final boolean reverse)
    {
        return direction(report, reverse ? report.parameters.streams() : 0);
    }
}
