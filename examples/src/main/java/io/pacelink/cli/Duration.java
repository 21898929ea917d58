package io.pacelink.cli;

import java.util.Locale;

/**
 * A duration given on the command line: a number with a unit — ns, us, ms, s, m (minutes), h.
 *
 * @param nanos the duration in nanoseconds.
 */
public record Duration(long nanos)
{
    /**
     * @param text e.g. {@code 10s}, {@code 500ms}, {@code 2m}.
     * @return the duration.
     * @throws IllegalArgumentException saying what is accepted.
     */
    public static Duration parse(final String text)
    {
        final String trimmed = text.trim().toLowerCase(Locale.ROOT);
        int split = 0;
        while (split < trimmed.length() && (Character.isDigit(trimmed.charAt(split)) || '.' == trimmed.charAt(split)))
        {
            split++;
        }
        if (0 == split)
        {
            throw invalid(text);
        }

        final double number;
        try
        {
            number = Double.parseDouble(trimmed.substring(0, split));
        }
        catch (final NumberFormatException ex)
        {
            throw invalid(text);
        }

        final double nanosPerUnit = switch (trimmed.substring(split))
        {
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m", "min" -> 60e9;
            case "h" -> 3600e9;
            default -> throw invalid(text);
        };
        return new Duration((long)(number * nanosPerUnit));
    }

    private static IllegalArgumentException invalid(final String text)
    {
        return new IllegalArgumentException("'" + text + "' is not a duration; use e.g. 10s, 500ms, 2m");
    }

    /**
     * @return the duration in seconds.
     */
    public double seconds()
    {
        return nanos / 1e9;
    }
}
