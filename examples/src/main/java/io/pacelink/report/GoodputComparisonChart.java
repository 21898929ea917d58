package io.pacelink.report;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.util.List;

/**
 * The controllers of a one-flow scenario side by side: each one's goodput over time in one plot, one line per
 * controller (the same run each {@link TimeSeriesChart} shows in its top panel). When the controllers' mean goodputs
 * span more than {@link ThroughputDelayChart#LOG_SCALE_SPREAD} times, as on a lossy path where BBRv1 gets two hundred
 * times NewReno's, the goodput axis is logarithmic, so the loss-limited lines do not lie on the time axis.
 */
public final class GoodputComparisonChart
{
    private GoodputComparisonChart()
    {
    }

    /**
     * @param title   the chart's title.
     * @param flows   one flow's series per controller, in legend order.
     * @param palette the report's colours by controller.
     * @return the chart.
     */
    public static JFreeChart create(final String title, final List<FlowSeries> flows, final Palette palette)
    {
        double lowestMeanMbps = Double.MAX_VALUE;
        double highestMeanMbps = 0;
        double lowestPositiveMbps = Double.MAX_VALUE;
        for (final FlowSeries flow : flows)
        {
            double sumMbps = 0;
            for (int row = 0; row < flow.size(); row++)
            {
                final double goodputMbps = flow.value(row, FlowSeries.Quantity.GOODPUT);
                sumMbps += goodputMbps;
                lowestPositiveMbps = goodputMbps > 0 ? Math.min(lowestPositiveMbps, goodputMbps) : lowestPositiveMbps;
            }
            final double meanMbps = sumMbps / Math.max(1, flow.size());
            lowestMeanMbps = Math.min(lowestMeanMbps, meanMbps);
            highestMeanMbps = Math.max(highestMeanMbps, meanMbps);
        }
        final boolean logarithmic = lowestMeanMbps > 0 &&
            highestMeanMbps / lowestMeanMbps > ThroughputDelayChart.LOG_SCALE_SPREAD;

        final XYSeriesCollection dataset = new XYSeriesCollection();
        for (final FlowSeries flow : flows)
        {
            final XYSeries series = new XYSeries(flow.congestionControl(), false, true);
            for (int row = 0; row < flow.size(); row++)
            {
                final double goodputMbps = flow.value(row, FlowSeries.Quantity.GOODPUT);
                // A logarithmic axis has no place for zero: leave a gap, as before the first delivery.
                series.add(flow.timeSeconds(row), logarithmic && goodputMbps <= 0 ? null : goodputMbps);
            }
            dataset.addSeries(series);
        }

        final ValueAxis goodputAxis;
        if (logarithmic)
        {
            goodputAxis = ChartStyle.logAxis("goodput (Mbit/s, log scale)", lowestPositiveMbps);
        }
        else
        {
            final NumberAxis axis = new NumberAxis(FlowSeries.Quantity.GOODPUT.axisLabel());
            axis.setAutoRangeIncludesZero(true);
            goodputAxis = axis;
        }
        final NumberAxis timeAxis = new NumberAxis("time (s)");
        timeAxis.setAutoRangeIncludesZero(true);

        final XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        renderer.setDrawSeriesLineAsPath(true);
        final JFreeChart chart = ChartStyle.apply(new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT,
            new XYPlot(dataset, timeAxis, goodputAxis, renderer), true));
        for (int i = 0; i < flows.size(); i++)
        {
            Palette.styleLine(renderer, i, palette.indexOf(flows.get(i).congestionControl()));
        }
        return ChartStyle.legendOnTop(chart);
    }
}
