package io.pacelink.report;

import org.jfree.chart.renderer.xy.XYItemRenderer;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Stroke;
import java.util.ArrayList;
import java.util.List;

/**
 * The Okabe–Ito palette (Okabe and Ito, "Color Universal Design", 2008): eight colours told apart with every common
 * form of colour blindness. Yellow is last, as it is faint on white; past eight series the colours repeat with a
 * dashed line.
 */
public final class Palette
{
    private static final Color[] OKABE_ITO = {
        new Color(0x0072B2), // blue
        new Color(0xD55E00), // vermillion
        new Color(0x009E73), // bluish green
        new Color(0xCC79A7), // reddish purple
        new Color(0xE69F00), // orange
        new Color(0x56B4E9), // sky blue
        new Color(0x000000), // black
        new Color(0xF0E442), // yellow
    };

    private static final float LINE_WIDTH = 1.6f;

    private final List<String> keys = new ArrayList<>();

    /**
     * @param index a series number.
     * @return its colour.
     */
    public static Color color(final int index)
    {
        return OKABE_ITO[index % OKABE_ITO.length];
    }

    /**
     * @param index a series number.
     * @return its line: solid for the first eight, dashed for the next eight, and so on.
     */
    public static Stroke line(final int index)
    {
        return index / OKABE_ITO.length % 2 == 0 ?
            new BasicStroke(LINE_WIDTH, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND) :
            new BasicStroke(LINE_WIDTH, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, new float[] { 6f, 4f }, 0f);
    }

    /**
     * Draw a series of a line chart in a colour's line ({@link #color}, {@link #line}).
     *
     * @param renderer the chart's renderer.
     * @param series   the series' index in the renderer's dataset.
     * @param index    the colour's number.
     */
    public static void styleLine(final XYItemRenderer renderer, final int series, final int index)
    {
        renderer.setSeriesPaint(series, color(index));
        renderer.setSeriesStroke(series, line(index));
    }

    /**
     * @return how many names have a colour so far.
     */
    public synchronized int size()
    {
        return keys.size();
    }

    /**
     * @param key a name, e.g. a controller.
     * @return its index: the same name always gets the same colour in one report.
     */
    public synchronized int indexOf(final String key)
    {
        int index = keys.indexOf(key);
        if (index < 0)
        {
            keys.add(key);
            index = keys.size() - 1;
        }
        return index;
    }
}
