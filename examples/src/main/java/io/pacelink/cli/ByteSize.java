package io.pacelink.cli;

import java.util.Locale;

/**
 * A size given on the command line: a number with an optional unit — B, KB/MB/GB (powers of 1000), KiB/MiB/GiB
 * (powers of 1024); K/M/G alone mean the binary units, as in iperf.
 *
 * @param bytes the size in bytes.
 */
public record ByteSize(long bytes)
{
    /**
     * @param text e.g. {@code 256MiB}, {@code 1472}, {@code 64K}.
     * @return the size.
     * @throws IllegalArgumentException saying what is accepted.
     */
    public static ByteSize parse(final String text)
    {
        final String trimmed = text.trim();
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

        final long multiplier = switch (trimmed.substring(split).trim().toLowerCase(Locale.ROOT))
        {
            case "", "b" -> 1L;
            case "kb" -> 1_000L;
            case "mb" -> 1_000_000L;
            case "gb" -> 1_000_000_000L;
            case "k", "kib" -> 1L << 10;
            case "m", "mib" -> 1L << 20;
            case "g", "gib" -> 1L << 30;
            default -> throw invalid(text);
        };
        final double bytes = number * multiplier;
        if (bytes > Long.MAX_VALUE || bytes < 0)
        {
            throw invalid(text);
        }
        return new ByteSize((long)bytes);
    }

    private static IllegalArgumentException invalid(final String text)
    {
        return new IllegalArgumentException("'" + text + "' is not a size; use e.g. 1472, 64KiB, 256MiB, 1GB");
    }

    /**
     * @return the size as an int.
     * @throws IllegalArgumentException if it does not fit.
     */
    public int intBytes()
    {
        if (bytes > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException(bytes + " bytes is too large here; the limit is " + Integer.MAX_VALUE);
        }
        return (int)bytes;
    }
}
