package io.pacelink.report;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.StandardChartTheme;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.text.TextUtils;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.ViewBox;

import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.text.DecimalFormat;

/**
 * How every chart of a report looks, and how it becomes SVG: fonts sized for a chart shown about as wide as it is
 * drawn (1200 or 600 SVG units on a 1280-pixel page), white background, light grid, no shadows; SVG with one decimal
 * of geometry and ids unique within the page.
 */
public final class ChartStyle
{
    private static final String FONT = Font.SANS_SERIF;
    private static final Color GRID = new Color(0xD9D9D9);
    private static final Color TEXT = new Color(0x222222);

    private static final StandardChartTheme THEME = theme();

    static
    {
        // JFreeChart draws rotated text (vertical axis labels) as glyph outlines by default, a workaround for old
        // JDKs; as SVG text it stays text: selectable, searchable and read by screen readers.
        TextUtils.setUseDrawRotatedStringWorkaround(false);
    }

    private ChartStyle()
    {
    }

    private static StandardChartTheme theme()
    {
        final StandardChartTheme theme = new StandardChartTheme("pacelink-report");
        theme.setExtraLargeFont(new Font(FONT, Font.BOLD, 18));
        theme.setLargeFont(new Font(FONT, Font.PLAIN, 15));
        theme.setRegularFont(new Font(FONT, Font.PLAIN, 14));
        theme.setSmallFont(new Font(FONT, Font.PLAIN, 12));
        theme.setTitlePaint(TEXT);
        theme.setSubtitlePaint(TEXT);
        theme.setAxisLabelPaint(TEXT);
        theme.setTickLabelPaint(TEXT);
        theme.setLegendItemPaint(TEXT);
        theme.setChartBackgroundPaint(Color.WHITE);
        theme.setLegendBackgroundPaint(Color.WHITE);
        theme.setPlotBackgroundPaint(Color.WHITE);
        theme.setPlotOutlinePaint(GRID);
        theme.setDomainGridlinePaint(GRID);
        theme.setRangeGridlinePaint(GRID);
        theme.setAxisOffset(RectangleInsets.ZERO_INSETS);
        theme.setShadowVisible(false);
        theme.setBarPainter(new StandardBarPainter());
        theme.setXYBarPainter(new StandardXYBarPainter());
        return theme;
    }

    /**
     * Apply the report's look; call before setting series colours, which the theme would reset.
     *
     * @param chart a chart.
     * @return the chart.
     */
    public static JFreeChart apply(final JFreeChart chart)
    {
        THEME.apply(chart);
        chart.setAntiAlias(true);
        chart.setPadding(new RectangleInsets(4, 4, 4, 12));
        return chart;
    }

    /**
     * @param chart a chart with a legend.
     * @return the chart, its legend above the plot.
     */
    public static JFreeChart legendOnTop(final JFreeChart chart)
    {
        chart.getLegend().setPosition(RectangleEdge.TOP);
        return chart;
    }

    /**
     * @param label         the axis label.
     * @param smallestValue the smallest value plotted, above zero.
     * @return a base-10 logarithmic axis with a labelled tick at each power of ten, nine minor ticks between, and
     * room below the smallest value.
     */
    public static LogAxis logAxis(final String label, final double smallestValue)
    {
        final LogAxis axis = new LogAxis(label);
        axis.setSmallestValue(Math.max(1e-4, smallestValue / 2));
        axis.setNumberFormatOverride(new DecimalFormat("0.####"));
        axis.setTickUnit(new NumberTickUnit(1), false, true);
        axis.setMinorTickCount(9);
        axis.setMinorTickMarksVisible(true);
        return axis;
    }

    /**
     * @param chart  a chart.
     * @param width  its width in SVG units.
     * @param height its height.
     * @param id     the SVG element's id, unique within the page; it also prefixes the ids of clip paths.
     * @param label  what the chart shows, for screen readers.
     * @return an {@code <svg>} element that scales to the width of its container.
     */
    public static String svg(final JFreeChart chart, final int width, final int height, final String id,
        final String label)
    {
        final SVGGraphics2D g2 = canvas(width, height, id);
        chart.draw(g2, new Rectangle(0, 0, width, height));
        return svg(g2, width, height, id, label);
    }

    /**
     * @param g2     a finished drawing.
     * @param width  its width in SVG units.
     * @param height its height.
     * @param id     the SVG element's id.
     * @param label  what it shows, for screen readers.
     * @return an {@code <svg>} element that scales to the width of its container.
     */
    public static String svg(final SVGGraphics2D g2, final int width, final int height, final String id,
        final String label)
    {
        final String element = g2.getSVGElement(id, false, new ViewBox(0, 0, width, height), null, null);
        return element.replaceFirst("<svg ", "<svg role=\"img\" aria-label=\"" + Html.escape(label) + "\" ");
    }

    /**
     * @param width  drawing width.
     * @param height drawing height.
     * @param id     prefix of the drawing's ids.
     * @return an SVG canvas set up as {@link #svg(JFreeChart, int, int, String, String)} sets it up.
     */
    public static SVGGraphics2D canvas(final int width, final int height, final String id)
    {
        final SVGGraphics2D g2 = new SVGGraphics2D(width, height);
        g2.setDefsKeyPrefix(id + "-");
        g2.setGeomDoubleConverter(ChartStyle::oneDecimal);
        g2.setTransformDoubleConverter(ChartStyle::oneDecimal);
        return g2;
    }

    /**
     * Screen coordinates need no more than a tenth of a unit; fewer digits keep a page of many charts small.
     */
    static String oneDecimal(final double value)
    {
        if (Double.isNaN(value) || Double.isInfinite(value) || Math.abs(value) > 1e15)
        {
            return Double.toString(value);
        }
        final long tenths = Math.round(value * 10);
        final long whole = tenths / 10;
        final long fraction = Math.abs(tenths % 10);
        final String sign = tenths < 0 && whole == 0 ? "-" : "";
        return fraction == 0 ? sign + whole : sign + whole + "." + fraction;
    }
}
