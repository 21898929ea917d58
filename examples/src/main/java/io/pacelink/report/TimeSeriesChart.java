package io.pacelink.report;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * One run over time: goodput, congestion window, pacing rate, smoothed RTT and bottleneck queueing delay, one panel
 * each on a shared time axis, one line per flow. A gap in a line is a time without a value (no packet at the
 * bottleneck, no RTT sample yet, an unpaced sender).
 */
public final class TimeSeriesChart
{
    private TimeSeriesChart()
    {
    }

    /**
     * @param title     the chart's title.
     * @param flows     the run's flows' series.
     * @param colorOf   each flow's colour index (by flow index).
     * @return the chart.
     */
    public static JFreeChart create(final String title, final List<FlowSeries> flows, final IntUnaryOperator colorOf)
    {
        return create(title, flows, colorOf, List.of(FlowSeries.Quantity.values()));
    }

    /**
     * @param title      the chart's title.
     * @param flows      the flows' series.
     * @param colorOf    each flow's colour index (by flow index).
     * @param quantities the panels to draw, top to bottom (a run without a bottleneck model has no queueing delay).
     * @return the chart.
     */
    public static JFreeChart create(
        final String title,
        final List<FlowSeries> flows,
        final IntUnaryOperator colorOf,
        final List<FlowSeries.Quantity> quantities)
    {
        final NumberAxis timeAxis = new NumberAxis("time (s)");
        timeAxis.setAutoRangeIncludesZero(true);
        final CombinedDomainXYPlot combined = new CombinedDomainXYPlot(timeAxis);
        combined.setGap(12);

        boolean first = true;
        for (final FlowSeries.Quantity quantity : quantities)
        {
            final XYSeriesCollection dataset = new XYSeriesCollection();
            for (final FlowSeries flow : flows)
            {
                final XYSeries series = new XYSeries(flow.label(), false, true);
                for (int row = 0; row < flow.size(); row++)
                {
                    final double value = flow.value(row, quantity);
                    series.add(flow.timeSeconds(row), Double.isNaN(value) ? null : value);
                }
                dataset.addSeries(series);
            }
            final NumberAxis valueAxis = new NumberAxis(quantity.axisLabel());
            valueAxis.setAutoRangeIncludesZero(true);
            final XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
            renderer.setDrawSeriesLineAsPath(true);
            // The panels share their flows: list each flow once in the legend.
            renderer.setDefaultSeriesVisibleInLegend(first);
            first = false;
            combined.add(new XYPlot(dataset, null, valueAxis, renderer), 1);
        }

        final JFreeChart chart = ChartStyle.apply(new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, combined, true));
        for (final Object plot : combined.getSubplots())
        {
            final XYLineAndShapeRenderer renderer = (XYLineAndShapeRenderer)((XYPlot)plot).getRenderer();
            for (int i = 0; i < flows.size(); i++)
            {
                Palette.styleLine(renderer, i, colorOf.applyAsInt(flows.get(i).flowIndex()));
            }
        }
        return ChartStyle.legendOnTop(chart);
    }
}
