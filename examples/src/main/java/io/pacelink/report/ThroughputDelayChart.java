package io.pacelink.report;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYLineAnnotation;
import org.jfree.chart.annotations.XYPolygonAnnotation;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pantheon's picture of a scenario: one point per run and controller, throughput against 95th-percentile RTT, the
 * delay axis reversed so that better (more throughput, less delay) is up and to the right. Each controller's runs
 * get a one-standard-deviation ellipse (three or more runs, from the covariance of the points as plotted) or a line
 * from one run to the other (two runs). When throughputs span more than {@link #LOG_SCALE_SPREAD} times, the
 * throughput axis is logarithmic, so loss-limited controllers do not vanish at the bottom.
 */
public final class ThroughputDelayChart
{
    /**
     * Ratio of the largest to the smallest throughput above which the throughput axis is logarithmic.
     */
    static final double LOG_SCALE_SPREAD = 30;

    private static final int ELLIPSE_VERTICES = 48;
    private static final double AXIS_MARGIN = 0.12;
    private static final double MIN_DELAY_SPAN = 0.1;
    private static final double LABEL_CLEARANCE_X = 0.2;
    private static final double LABEL_CLEARANCE_Y = 0.08;
    private static final float ELLIPSE_FILL_ALPHA = 0.12f;

    private ThroughputDelayChart()
    {
    }

    /**
     * @param title        the chart's title.
     * @param byController each controller's points (one per run), in legend order.
     * @param palette      the report's colours by controller.
     * @return the chart.
     */
    public static JFreeChart create(
        final String title, final Map<String, List<ControllerFigures>> byController, final Palette palette)
    {
        final XYSeriesCollection dataset = new XYSeriesCollection();
        double smallest = Double.MAX_VALUE;
        double largest = 0;
        for (final Map.Entry<String, List<ControllerFigures>> entry : byController.entrySet())
        {
            final XYSeries series = new XYSeries(entry.getKey(), false, true);
            for (final ControllerFigures point : entry.getValue())
            {
                if (!Double.isNaN(point.p95RttMs()))
                {
                    series.add(point.p95RttMs(), point.throughputMbps());
                    if (point.throughputMbps() > 0)
                    {
                        smallest = Math.min(smallest, point.throughputMbps());
                    }
                    largest = Math.max(largest, point.throughputMbps());
                }
            }
            dataset.addSeries(series);
        }
        final boolean logScale = smallest < Double.MAX_VALUE && largest / smallest > LOG_SCALE_SPREAD;

        final NumberAxis delayAxis =
            new NumberAxis("95th percentile RTT (ms) — axis reversed, lower delay to the right");
        delayAxis.setInverted(true);
        delayAxis.setAutoRangeIncludesZero(false);
        delayAxis.setLowerMargin(AXIS_MARGIN);
        delayAxis.setUpperMargin(AXIS_MARGIN);
        // Delays a few per cent apart are not worth a full axis: show at least a tenth of the largest.
        delayAxis.setAutoRangeMinimumSize(Math.max(1, MIN_DELAY_SPAN * maxDelay(dataset)));
        final ValueAxis throughputAxis;
        if (logScale)
        {
            final LogAxis axis = ChartStyle.logAxis("throughput (Mbit/s, log scale)", smallest);
            axis.setLowerMargin(AXIS_MARGIN);
            axis.setUpperMargin(AXIS_MARGIN);
            throughputAxis = axis;
        }
        else
        {
            final NumberAxis axis = new NumberAxis("throughput (Mbit/s)");
            axis.setAutoRangeIncludesZero(true);
            axis.setUpperMargin(AXIS_MARGIN);
            throughputAxis = axis;
        }

        final XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(false, true);
        final XYPlot plot = new XYPlot(dataset, delayAxis, throughputAxis, renderer);
        final JFreeChart chart = ChartStyle.apply(new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true));
        chart.addSubtitle(
            new TextTitle("one point per run; ellipse: 1 σ of a controller's runs; better is up and right"));
        renderer.setDefaultShapesFilled(true);

        final Bounds bounds = Bounds.of(dataset, logScale);
        final List<double[]> labels = new ArrayList<>();
        int series = 0;
        for (final Map.Entry<String, List<ControllerFigures>> entry : byController.entrySet())
        {
            final Color color = Palette.color(palette.indexOf(entry.getKey()));
            renderer.setSeriesPaint(series, color);
            annotate(plot, entry.getKey(), dataset.getSeries(series), color, logScale, bounds, labels);
            series++;
        }
        return chart;
    }

    private static void annotate(
        final XYPlot plot,
        final String name,
        final XYSeries series,
        final Color color,
        final boolean logScale,
        final Bounds bounds,
        final List<double[]> labels)
    {
        final int n = series.getItemCount();
        if (n == 0)
        {
            return;
        }
        final double[] x = new double[n];
        final double[] y = new double[n];
        double meanX = 0;
        double meanY = 0;
        for (int i = 0; i < n; i++)
        {
            x[i] = series.getX(i).doubleValue();
            y[i] = plotted(series.getY(i).doubleValue(), logScale);
            meanX += x[i] / n;
            meanY += y[i] / n;
        }
        final BasicStroke stroke = new BasicStroke(1.5f);
        if (n == 2)
        {
            plot.addAnnotation(new XYLineAnnotation(x[0], data(y[0], logScale), x[1], data(y[1], logScale),
                stroke, color));
        }
        else if (n > 2)
        {
            final double[] polygon = ellipse(x, y, meanX, meanY, logScale);
            if (null != polygon)
            {
                final Color fill = new Color(color.getRed(), color.getGreen(), color.getBlue(),
                    Math.round(255 * ELLIPSE_FILL_ALPHA));
                plot.addAnnotation(new XYPolygonAnnotation(polygon, stroke, color, fill));
            }
        }
        // The name goes beside the mean, towards the middle of the plot so it is not cut off at an edge, and below
        // the mean instead of above it when an earlier name is already close by.
        final double[] spot = { bounds.fractionX(meanX), bounds.fractionY(meanY) };
        final boolean crowded = labels.stream().anyMatch((other) ->
            Math.abs(other[0] - spot[0]) < LABEL_CLEARANCE_X && Math.abs(other[1] - spot[1]) < LABEL_CLEARANCE_Y);
        labels.add(spot);
        final boolean lowDelaySide = spot[0] > 0.5;
        final XYTextAnnotation label = new XYTextAnnotation(lowDelaySide ? name + "  " : "  " + name, meanX,
            data(meanY, logScale));
        label.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        label.setPaint(color);
        label.setTextAnchor(crowded ?
            (lowDelaySide ? TextAnchor.TOP_RIGHT : TextAnchor.TOP_LEFT) :
            (lowDelaySide ? TextAnchor.BOTTOM_RIGHT : TextAnchor.BOTTOM_LEFT));
        plot.addAnnotation(label);
    }

    /**
     * Where the points lie, to place labels by their position in the plot (0 to 1 each way; the delay axis is
     * reversed, so 1 is the low-delay, right-hand side).
     */
    private record Bounds(double minX, double maxX, double minY, double maxY)
    {
        static Bounds of(final XYSeriesCollection dataset, final boolean logScale)
        {
            double minY = Double.MAX_VALUE;
            double maxY = -Double.MAX_VALUE;
            for (int s = 0; s < dataset.getSeriesCount(); s++)
            {
                for (int i = 0; i < dataset.getItemCount(s); i++)
                {
                    final double y = plotted(dataset.getYValue(s, i), logScale);
                    minY = Math.min(minY, y);
                    maxY = Math.max(maxY, y);
                }
            }
            return new Bounds(dataset.getDomainLowerBound(false), dataset.getDomainUpperBound(false), minY, maxY);
        }

        double fractionX(final double x)
        {
            return maxX > minX ? (maxX - x) / (maxX - minX) : 0.5;
        }

        double fractionY(final double y)
        {
            return maxY > minY ? (y - minY) / (maxY - minY) : 0.5;
        }
    }

    /**
     * The one-standard-deviation ellipse of the points: the covariance matrix's eigenvectors give its axes and the
     * square roots of its eigenvalues their half-lengths. Null when the points lie on one line or on one spot.
     */
    static double[] ellipse(
        final double[] x, final double[] y, final double meanX, final double meanY, final boolean logScale)
    {
        final int n = x.length;
        double sxx = 0;
        double syy = 0;
        double sxy = 0;
        for (int i = 0; i < n; i++)
        {
            sxx += (x[i] - meanX) * (x[i] - meanX) / (n - 1);
            syy += (y[i] - meanY) * (y[i] - meanY) / (n - 1);
            sxy += (x[i] - meanX) * (y[i] - meanY) / (n - 1);
        }
        final double trace = sxx + syy;
        final double root = Math.sqrt(Math.max(0, (sxx - syy) * (sxx - syy) / 4 + sxy * sxy));
        final double major = trace / 2 + root;
        final double minor = trace / 2 - root;
        if (!(major > 0))
        {
            return null;
        }
        final double angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
        final double a = Math.sqrt(major);
        final double b = Math.sqrt(Math.max(0, minor));
        final double[] polygon = new double[2 * ELLIPSE_VERTICES];
        for (int i = 0; i < ELLIPSE_VERTICES; i++)
        {
            final double t = 2 * Math.PI * i / ELLIPSE_VERTICES;
            final double dx = a * Math.cos(t) * Math.cos(angle) - b * Math.sin(t) * Math.sin(angle);
            final double dy = a * Math.cos(t) * Math.sin(angle) + b * Math.sin(t) * Math.cos(angle);
            polygon[2 * i] = meanX + dx;
            polygon[2 * i + 1] = data(meanY + dy, logScale);
        }
        return polygon;
    }

    private static double maxDelay(final XYSeriesCollection dataset)
    {
        final double max = dataset.getDomainUpperBound(false);
        return Double.isNaN(max) ? 0 : max;
    }

    private static double plotted(final double throughput, final boolean logScale)
    {
        return logScale ? Math.log10(Math.max(throughput, 1e-4)) : throughput;
    }

    private static double data(final double plotted, final boolean logScale)
    {
        return logScale ? Math.pow(10, plotted) : plotted;
    }
}
