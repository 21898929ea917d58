package io.pacelink.cli.perf;

/**
 * Rates from byte counts, guarded against empty intervals.
 */
final class Rates
{
    private Rates()
    {
    }

    /**
     * @param bytes   moved.
     * @param seconds over this long.
     * @return bits per second, 0 for an empty interval.
     */
    static double bitsPerSecond(final long bytes, final double seconds)
    {
        return seconds > 0 ? bytes * 8 / seconds : 0;
    }
}
