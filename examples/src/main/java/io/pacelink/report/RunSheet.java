package io.pacelink.report;

import io.pacelink.sim.scenario.ScenarioResult;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;

import java.awt.Rectangle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's charts for a single run, in one SVG file ({@code pacelink sim --plot FILE.svg}): the
 * throughput-delay plot with one point per controller, the flows' shares with Jain's index (two or more flows), and
 * the time series of every flow.
 */
public final class RunSheet
{
    private static final int WIDTH = 1200;
    private static final int TOP_HEIGHT = 460;
    private static final int SERIES_HEIGHT = 900;

    private RunSheet()
    {
    }

    /**
     * @param title           what ran, e.g. the path.
     * @param result          the run's result.
     * @param series          its flows' time series (from a {@link RunRecorder}).
     * @param flowControllers each flow's controller.
     * @return a standalone SVG document.
     */
    public static String svg(
        final String title,
        final ScenarioResult result,
        final List<FlowSeries> series,
        final List<String> flowControllers)
    {
        final Palette palette = new Palette();
        flowControllers.forEach(palette::indexOf);

        final Map<String, List<ControllerFigures>> points = new LinkedHashMap<>();
        for (final ControllerFigures figures : ControllerFigures.of(result))
        {
            points.computeIfAbsent(figures.congestionControl(), (name) -> new ArrayList<>()).add(figures);
        }
        final JFreeChart scatter = ThroughputDelayChart.create("Throughput against delay", points, palette);

        final SVGGraphics2D g2 = ChartStyle.canvas(WIDTH, TOP_HEIGHT + SERIES_HEIGHT, "run");
        final boolean shared = flowControllers.size() > 1;
        scatter.draw(g2, new Rectangle(0, 0, shared ? WIDTH / 2 : WIDTH, TOP_HEIGHT));
        if (shared)
        {
            final double[] shares = new double[flowControllers.size()];
            double total = 0;
            for (int i = 0; i < shares.length; i++)
            {
                total += result.flow(i).goodputBitsPerSecond();
            }
            final List<String> labels = new ArrayList<>();
            for (int i = 0; i < shares.length; i++)
            {
                shares[i] = total > 0 ? 100 * result.flow(i).goodputBitsPerSecond() / total : 0;
                labels.add("flow " + i + " " + flowControllers.get(i));
            }
            final ShareChart.ShareBar bar = new ShareChart.ShareBar(
                String.format(Locale.ROOT, "J = %.3f", result.jainIndex()), labels, shares);
            ShareChart.create("Shares of goodput", List.of(bar), FlowColors.of(flowControllers, palette), "one run")
                .draw(g2, new Rectangle(WIDTH / 2, 0, WIDTH / 2, TOP_HEIGHT));
        }
        TimeSeriesChart.create(title, series, FlowColors.of(flowControllers, palette))
            .draw(g2, new Rectangle(0, TOP_HEIGHT, WIDTH, SERIES_HEIGHT));
        return document(g2);
    }

    /**
     * The time series alone, for runs of real endpoints ({@code pacelink perf --plot}), which have no bottleneck to
     * observe and no scenario result.
     *
     * @param title           what ran.
     * @param series          one per flow (stream), in flow order.
     * @param flowControllers each flow's controller.
     * @param quantities      the panels to draw.
     * @return a standalone SVG document.
     */
    public static String seriesSvg(
        final String title,
        final List<FlowSeries> series,
        final List<String> flowControllers,
        final List<FlowSeries.Quantity> quantities)
    {
        final Palette palette = new Palette();
        flowControllers.forEach(palette::indexOf);
        final int height = SERIES_HEIGHT * quantities.size() / FlowSeries.Quantity.values().length + 80;
        final SVGGraphics2D g2 = ChartStyle.canvas(WIDTH, height, "run");
        TimeSeriesChart.create(title, series, FlowColors.of(flowControllers, palette), quantities)
            .draw(g2, new Rectangle(0, 0, WIDTH, height));
        return document(g2);
    }

    private static String document(final SVGGraphics2D g2)
    {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + g2.getSVGElement("run") + "\n";
    }

    /**
     * @param file            where the SVG will go; its folder must exist.
     * @param flowControllers each flow's controller.
     * @param durationNs      the run's simulated time.
     * @param baseRttNs       the path's base RTT.
     * @return a recorder to attach to the run's scenario.
     * @throws IllegalArgumentException if the file's folder does not exist (checked before the run, not after).
     */
    public static RunRecorder recorderFor(
        final Path file, final List<String> flowControllers, final long durationNs, final long baseRttNs)
    {
        final Path folder = file.toAbsolutePath().getParent();
        if (null == folder || !Files.isDirectory(folder))
        {
            throw new IllegalArgumentException("--plot: the folder " + folder + " does not exist");
        }
        return new RunRecorder(flowControllers, durationNs, baseRttNs);
    }

    /**
     * @param file            where the SVG goes.
     * @param title           what ran.
     * @param result          the run's result.
     * @param series          its flows' time series.
     * @param flowControllers each flow's controller.
     * @throws UncheckedIOException if the file cannot be written.
     */
    public static void write(
        final Path file,
        final String title,
        final ScenarioResult result,
        final List<FlowSeries> series,
        final List<String> flowControllers)
    {
        try
        {
            Files.writeString(file, svg(title, result, series, flowControllers), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write --plot " + file + ": " + ex.getMessage(), ex);
        }
    }
}
