package io.pacelink.cli;

import java.util.Locale;

/**
 * A command-line value such as {@code 256MiB} or {@code 500ms}: a non-negative decimal number followed by a unit. A
 * negative number is reported as such, not as something that is not a number.
 *
 * @param number the number.
 * @param unit   the unit, lower case, possibly empty.
 */
record NumberWithUnit(double number, String unit)
{
    /**
     * @param text     the value as typed.
     * @param examples what to suggest when the text is not a number with a unit.
     * @return the parts.
     * @throws IllegalArgumentException naming the text and the examples.
     */
    static NumberWithUnit parse(final String text, final String examples)
    {
        final String trimmed = text.trim();
        if (trimmed.startsWith("-") && trimmed.length() > 1 && Character.isDigit(trimmed.charAt(1)))
        {
            throw new IllegalArgumentException("'" + text + "' is negative; expected " + examples);
        }
        int split = 0;
        while (split < trimmed.length() && (Character.isDigit(trimmed.charAt(split)) || '.' == trimmed.charAt(split)))
        {
            split++;
        }
        if (0 == split)
        {
            throw invalid(text, examples);
        }
        try
        {
            return new NumberWithUnit(
                Double.parseDouble(trimmed.substring(0, split)),
                trimmed.substring(split).trim().toLowerCase(Locale.ROOT));
        }
        catch (final NumberFormatException ex)
        {
            throw invalid(text, examples);
        }
    }

    static IllegalArgumentException invalid(final String text, final String examples)
    {
        return new IllegalArgumentException("'" + text + "' is not " + examples);
    }
}
