package io.pacelink.cli.perf;

import io.pacelink.report.FlowSeries;
import io.pacelink.report.RunSheet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code pacelink perf --plot FILE.svg}: every stream's interval series drawn with the report's time-series chart
 * (goodput at the receiver; congestion window, pacing rate and smoothed RTT at the sender), one line per stream.
 * The other end's figures come back in the server's results.
 */
final class PerfPlot
{
    private static final List<FlowSeries.Quantity> QUANTITIES = List.of(FlowSeries.Quantity.GOODPUT,
        FlowSeries.Quantity.CWND, FlowSeries.Quantity.PACING_RATE, FlowSeries.Quantity.RTT);

    private PerfPlot()
    {
    }

    /**
     * @param file   where the SVG goes.
     * @param report the client's finished report.
     * @throws UncheckedIOException if the file cannot be written.
     */
    static void write(final Path file, final PerfReport report)
    {
        final List<FlowSeries> series = new ArrayList<>();
        final List<String> controllers = new ArrayList<>();
        for (final PerfReport.Connected stream : report.connected)
        {
            final List<IntervalSample> local = report.intervalsOf(stream.id());
            final List<IntervalSample> remote =
                report.remoteIntervals.getOrDefault(stream.index(), Collections.emptyList());
            final List<IntervalSample> sender = stream.localSends() ? local : remote;
            final List<IntervalSample> receiver = stream.localSends() ? remote : local;
            final List<IntervalSample> timeline = sender.isEmpty() ? receiver : sender;
            final FlowSeries flow = new FlowSeries(series.size(), report.congestionControl,
                "stream " + stream.id() + (report.parameters.bidir() ?
                    (report.parameters.clientSends(stream.index()) ? " (client sends)" : " (server sends)") : ""));
            for (int row = 0; row < timeline.size(); row++)
            {
                final IntervalSample at = timeline.get(row);
                final SenderSample state = row < sender.size() ? sender.get(row).state() : null;
                final double goodputMbps = row < receiver.size() ? receiver.get(row).bitsPerSecond() / 1e6 : Double.NaN;
                flow.add(at.endSeconds(),
                    goodputMbps,
                    null == state ? Double.NaN : state.cwndBytes() / 1e3,
                    null == state || 0 == state.pacingRateBitsPerSecond() ? Double.NaN :
                        state.pacingRateBitsPerSecond() / 1e6,
                    null == state || 0 == state.smoothedRttNs() ? Double.NaN : state.smoothedRttNs() / 1e6,
                    Double.NaN);
            }
            series.add(flow);
            controllers.add(report.congestionControl);
        }
        final String title = "pacelink perf to " + report.peer.getHostString() + ":" + report.peer.getPort() +
            ", cc " + report.congestionControl;
        try
        {
            Files.writeString(file, RunSheet.seriesSvg(title, series, controllers, QUANTITIES), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write --plot " + file + ": " + ex.getMessage(), ex);
        }
    }
}
