package io.pacelink.link;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers with units in netem vocabulary ({@code tc(8)}): rates in bits per second, times, percentages and sizes.
 * Parsing is exact (decimal arithmetic), so {@code 7.5ms} is 7 500 000 ns; formatting picks the largest unit that
 * keeps the value exact, so a spec survives {@code parse(format(x))}.
 */
final class SpecUnits
{
    static final String RATE_FORM = "a number with bit, kbit, mbit, gbit or tbit, e.g. 100mbit";
    static final String TIME_FORM = "a number with ns, us, ms or s, e.g. 7.5ms";
    static final String PERCENT_FORM = "a percentage from 0% to 100%, e.g. 0.5%";
    static final String SIZE_FORM = "a number with b, kb or mb (bytes; k and m are 1024 and 1024\u00b2 like tc), " +
        "e.g. 100kb";

    private static final Pattern NUMBER_WITH_UNIT = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)([a-zA-Z%]*)");
    private static final MathContext FORMAT_PRECISION = new MathContext(12, RoundingMode.HALF_EVEN);
    private static final long[] RATE_UNITS = { 1_000_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L };
    private static final String[] RATE_UNIT_NAMES = { "tbit", "gbit", "mbit", "kbit", "bit" };

    private SpecUnits()
    {
    }

    /**
     * @param text e.g. {@code 100mbit}.
     * @return bits per second.
     * @throws IllegalArgumentException saying what is wrong.
     */
    static long parseRate(final String text)
    {
        final Matcher matcher = match(text, RATE_FORM);
        final String unit = matcher.group(2).toLowerCase(Locale.ROOT);
        final long multiplier = switch (unit)
        {
            case "bit" -> 1L;
            case "kbit" -> 1_000L;
            case "mbit" -> 1_000_000L;
            case "gbit" -> 1_000_000_000L;
            case "tbit" -> 1_000_000_000_000L;
            case "bps", "kbps", "mbps", "gbps", "tbps" -> throw new IllegalArgumentException("\"" + text +
                "\" is ambiguous (tc reads " + unit + " as bytes per second); write bits, e.g. " +
                matcher.group(1) + unit.replace("bps", "bit") + " for bits per second");
            case "" -> throw new IllegalArgumentException("\"" + text + "\" has no unit; expected " + RATE_FORM);
            default -> throw new IllegalArgumentException("\"" + text + "\" has an unknown rate unit \"" +
                matcher.group(2) + "\"; expected " + RATE_FORM);
        };
        return exactLong(new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(multiplier)), text);
    }

    /**
     * @param text e.g. {@code 75ms}.
     * @return nanoseconds.
     * @throws IllegalArgumentException saying what is wrong.
     */
    static long parseTime(final String text)
    {
        final Matcher matcher = match(text, TIME_FORM);
        final String unit = matcher.group(2).toLowerCase(Locale.ROOT);
        final long multiplier = switch (unit)
        {
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "" -> throw new IllegalArgumentException("\"" + text + "\" has no unit; expected " + TIME_FORM);
            default -> throw new IllegalArgumentException("\"" + text + "\" has an unknown time unit \"" +
                matcher.group(2) + "\"; expected " + TIME_FORM);
        };
        return exactLong(new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(multiplier)), text);
    }

    /**
     * @param text e.g. {@code 8%}.
     * @return the probability in [0, 1].
     * @throws IllegalArgumentException saying what is wrong.
     */
    static double parsePercent(final String text)
    {
        final Matcher matcher = match(text, PERCENT_FORM);
        if (!"%".equals(matcher.group(2)))
        {
            throw new IllegalArgumentException("\"" + text + "\" is not a percentage; expected " + PERCENT_FORM);
        }
        final BigDecimal percent = new BigDecimal(matcher.group(1));
        if (percent.compareTo(BigDecimal.valueOf(100)) > 0)
        {
            throw new IllegalArgumentException("\"" + text + "\" is above 100%");
        }
        return percent.movePointLeft(2).doubleValue();
    }

    /**
     * @param text e.g. {@code 100kb}.
     * @return bytes.
     * @throws IllegalArgumentException saying what is wrong.
     */
    static long parseBytes(final String text)
    {
        final Matcher matcher = match(text, SIZE_FORM);
        final String unit = matcher.group(2).toLowerCase(Locale.ROOT);
        final long multiplier = sizeMultiplier(unit);
        if (multiplier == 0)
        {
            throw new IllegalArgumentException("\"" + text + "\" " + (unit.isEmpty() ? "has no unit" :
                "has an unknown size unit \"" + matcher.group(2) + "\"") + "; expected " + SIZE_FORM);
        }
        final BigDecimal bytes = new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(multiplier));
        if (bytes.stripTrailingZeros().scale() > 0)
        {
            throw new IllegalArgumentException("\"" + text + "\" is not a whole number of bytes");
        }
        return exactLong(bytes, text);
    }

    /**
     * @param unit a size unit, lower case.
     * @return bytes per unit ({@code b}, {@code kb}, {@code mb}), 0 if it is not one.
     */
    static long sizeMultiplier(final String unit)
    {
        return switch (unit)
        {
            case "b" -> 1L;
            case "kb" -> 1024L;
            case "mb" -> 1024L * 1024;
            default -> 0L;
        };
    }

    /**
     * @param text a non-negative decimal number without unit.
     * @param form the accepted form, for the error message.
     * @return the number and its unit suffix as matched.
     */
    static Matcher match(final String text, final String form)
    {
        final Matcher matcher = NUMBER_WITH_UNIT.matcher(text);
        if (text.startsWith("-") && NUMBER_WITH_UNIT.matcher(text.substring(1)).matches())
        {
            throw new IllegalArgumentException("\"" + text + "\" is negative; expected " + form);
        }
        if (!matcher.matches())
        {
            throw new IllegalArgumentException("\"" + text + "\" is not " + form);
        }
        return matcher;
    }

    /**
     * @param value a non-negative decimal.
     * @param text  the text it came from, for the error message.
     * @return the value rounded to a whole number.
     */
    static long exactLong(final BigDecimal value, final String text)
    {
        try
        {
            return value.setScale(0, RoundingMode.HALF_UP).longValueExact();
        }
        catch (final ArithmeticException ex)
        {
            throw new IllegalArgumentException("\"" + text + "\" is too large", ex);
        }
    }

    static String formatRate(final long bitsPerSecond)
    {
        for (int i = 0; i < RATE_UNITS.length; i++)
        {
            if (bitsPerSecond % RATE_UNITS[i] == 0 && bitsPerSecond >= RATE_UNITS[i])
            {
                return (bitsPerSecond / RATE_UNITS[i]) + RATE_UNIT_NAMES[i];
            }
        }
        return bitsPerSecond + "bit";
    }

    static String formatBytes(final long bytes)
    {
        if (bytes % (1024 * 1024) == 0)
        {
            return bytes / (1024 * 1024) + "mb";
        }
        if (bytes % 1024 == 0)
        {
            return bytes / 1024 + "kb";
        }
        return bytes + "b";
    }

    static String formatTime(final long ns)
    {
        if (ns == 0)
        {
            return "0ms";
        }
        if (ns >= 1_000_000_000L)
        {
            return BigDecimal.valueOf(ns).movePointLeft(9).stripTrailingZeros().toPlainString() + "s";
        }
        if (ns >= 1_000_000L)
        {
            return BigDecimal.valueOf(ns).movePointLeft(6).stripTrailingZeros().toPlainString() + "ms";
        }
        if (ns >= 1_000L)
        {
            return BigDecimal.valueOf(ns).movePointLeft(3).stripTrailingZeros().toPlainString() + "us";
        }
        return ns + "ns";
    }

    static String formatPercent(final double probability)
    {
        return new BigDecimal(probability * 100).round(FORMAT_PRECISION).stripTrailingZeros().toPlainString() + "%";
    }
}
