package io.pacelink.perf.loopback;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The median and the range of a few repetitions' figures, as the loopback tables print them:
 * {@code median (min–max)}.
 *
 * @param median the middle value (the mean of the two middle ones for an even count).
 * @param min    the smallest.
 * @param max    the largest.
 * @param count  how many values.
 */
public record Spread(double median, double min, double max, int count)
{
    /**
     * @param values the figures; NaN values are left out.
     * @return their spread, or null if there are none.
     */
    public static Spread of(final List<Double> values)
    {
        final double[] sorted = values.stream().mapToDouble(Double::doubleValue).filter((v) -> !Double.isNaN(v))
            .sorted().toArray();
        if (0 == sorted.length)
        {
            return null;
        }
        final int middle = sorted.length / 2;
        final double median = 0 == sorted.length % 2 ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle];
        return new Spread(median, sorted[0], sorted[sorted.length - 1], sorted.length);
    }

    /**
     * @param spread a spread, or null.
     * @param scale  divides every value (e.g. 1e9 for Gbit/s).
     * @param format e.g. {@code %.2f}.
     * @return {@code median (min–max)}, or {@code -} for null.
     */
    public static String format(final Spread spread, final double scale, final String format)
    {
        if (null == spread)
        {
            return "-";
        }
        final String[] parts = Arrays.stream(new double[] { spread.median, spread.min, spread.max })
            .mapToObj((v) -> String.format(Locale.ROOT, format, v / scale)).toArray(String[]::new);
        return 1 == spread.count ? parts[0] : parts[0] + " (" + parts[1] + "–" + parts[2] + ")";
    }
}
