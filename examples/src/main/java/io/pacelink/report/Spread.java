package io.pacelink.report;

/**
 * Mean, smallest and largest of a figure over a configuration's runs (NaN values left out; all NaN if none is left).
 *
 * @param mean the mean.
 * @param min  the smallest.
 * @param max  the largest.
 */
public record Spread(double mean, double min, double max)
{
    /**
     * @param values the runs' values.
     * @return their spread.
     */
    public static Spread of(final double... values)
    {
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        int count = 0;
        for (final double value : values)
        {
            if (!Double.isNaN(value))
            {
                sum += value;
                min = Math.min(min, value);
                max = Math.max(max, value);
                count++;
            }
        }
        return count == 0 ? new Spread(Double.NaN, Double.NaN, Double.NaN) : new Spread(sum / count, min, max);
    }
}
