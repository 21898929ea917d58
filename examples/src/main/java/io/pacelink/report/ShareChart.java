package io.pacelink.report;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;

import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Who got which share: for each configuration a bar split into its flows' shares of their summed goodput (the mean
 * over the seeds), labelled with Jain's fairness index. Equal segments are a fair share.
 */
public final class ShareChart
{
    private ShareChart()
    {
    }

    /**
     * @param title   the chart's title.
     * @param bars    one bar per configuration.
     * @param colorOf each flow's colour index (by flow index).
     * @param basis   what each bar shows, for the subtitle: {@code mean over seeds} (a report's), {@code one run}
     *                ({@code sim --plot}).
     * @return the chart.
     */
    public static JFreeChart create(
        final String title, final List<ShareBar> bars, final IntUnaryOperator colorOf, final String basis)
    {
        final DefaultCategoryDataset dataset = new DefaultCategoryDataset();
        int maxFlows = 0;
        for (final ShareBar bar : bars)
        {
            for (int flow = 0; flow < bar.sharePercent().length; flow++)
            {
                dataset.addValue(bar.sharePercent()[flow], bar.flowLabels().get(flow), bar.category());
            }
            maxFlows = Math.max(maxFlows, bar.sharePercent().length);
        }
        final NumberAxis shareAxis = new NumberAxis("share of the flows' summed goodput (%)");
        shareAxis.setRange(0, 100);
        final StackedBarRenderer renderer = new StackedBarRenderer();
        renderer.setDrawBarOutline(true);
        renderer.setMaximumBarWidth(0.6);
        final CategoryPlot plot = new CategoryPlot(dataset, new CategoryAxis(null), shareAxis, renderer);
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        final JFreeChart chart = ChartStyle.apply(new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot,
            maxFlows <= 12));
        chart.addSubtitle(new TextTitle(basis + "; J = Jain's fairness index (1 = equal shares)"));
        for (int row = 0; row < dataset.getRowCount(); row++)
        {
            final int color = colorOf.applyAsInt(flowIndexOf(bars, (String)dataset.getRowKey(row)));
            renderer.setSeriesPaint(row, Palette.color(color));
            renderer.setSeriesOutlinePaint(row, java.awt.Color.WHITE);
        }
        return chart;
    }

    private static int flowIndexOf(final List<ShareBar> bars, final String flowLabel)
    {
        for (final ShareBar bar : bars)
        {
            final int index = bar.flowLabels().indexOf(flowLabel);
            if (index >= 0)
            {
                return index;
            }
        }
        return 0;
    }

    /**
     * One bar of the chart.
     *
     * @param category     the bar's label, e.g. {@code bbr  J = 0.998}.
     * @param flowLabels   the flows' labels, in flow order.
     * @param sharePercent each flow's share of the summed goodput, in per cent.
     */
    public record ShareBar(String category, List<String> flowLabels, double[] sharePercent)
    {
    }
}
