package io.pacelink.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Human-readable sizes and rates for the command line's output.
 */
public final class Units
{
    private Units()
    {
    }

    /**
     * @param bytes a size.
     * @return e.g. {@code 118 MBytes}, with binary prefixes as iperf prints them.
     */
    public static String bytes(final long bytes)
    {
        if (bytes >= 1L << 30)
        {
            return String.format(Locale.ROOT, "%.2f GBytes", bytes / (double)(1L << 30));
        }
        if (bytes >= 1L << 20)
        {
            return String.format(Locale.ROOT, "%.1f MBytes", bytes / (double)(1L << 20));
        }
        if (bytes >= 1L << 10)
        {
            return String.format(Locale.ROOT, "%.1f KBytes", bytes / (double)(1L << 10));
        }
        return bytes + " Bytes";
    }

    /**
     * @param bitsPerSecond a rate.
     * @return e.g. {@code 941 Mbits/sec}, with decimal prefixes as iperf prints them.
     */
    public static String bitsPerSecond(final double bitsPerSecond)
    {
        if (bitsPerSecond >= 1e9)
        {
            return String.format(Locale.ROOT, "%.2f Gbits/sec", bitsPerSecond / 1e9);
        }
        if (bitsPerSecond >= 1e6)
        {
            return String.format(Locale.ROOT, "%.1f Mbits/sec", bitsPerSecond / 1e6);
        }
        if (bitsPerSecond >= 1e3)
        {
            return String.format(Locale.ROOT, "%.1f Kbits/sec", bitsPerSecond / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f bits/sec", bitsPerSecond);
    }

    /**
     * @param ns a time.
     * @return e.g. {@code 12.5 s}, {@code 60 s}.
     */
    public static String seconds(final long ns)
    {
        return BigDecimal.valueOf(ns).movePointLeft(9).setScale(3, RoundingMode.HALF_UP).stripTrailingZeros()
            .toPlainString() + " s";
    }

    /**
     * @param ns a time.
     * @return milliseconds with two decimals, e.g. {@code 40.08}.
     */
    public static String millis(final long ns)
    {
        return String.format(Locale.ROOT, "%.2f", ns / 1e6);
    }
}
