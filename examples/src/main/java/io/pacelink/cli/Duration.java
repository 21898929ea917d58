package io.pacelink.cli;

/**
 * A duration given on the command line: a number with a unit — ns, us, ms, s, m (minutes), h.
 *
 * @param nanos the duration in nanoseconds.
 */
public record Duration(long nanos)
{
    private static final String EXAMPLES = "a duration; use e.g. 10s, 500ms, 2m";

    /**
     * @param text e.g. {@code 10s}, {@code 500ms}, {@code 2m}.
     * @return the duration.
     * @throws IllegalArgumentException saying what is accepted.
     */
    public static Duration parse(final String text)
    {
        final NumberWithUnit value = NumberWithUnit.parse(text, EXAMPLES);
        final double nanosPerUnit = switch (value.unit())
        {
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m", "min" -> 60e9;
            case "h" -> 3600e9;
            default -> throw NumberWithUnit.invalid(text, EXAMPLES);
        };
        return new Duration((long)(value.number() * nanosPerUnit));
    }

    /**
     * A time as iperf and ping take it: a bare number is seconds ({@code -t 30}, {@code -i 0.2}); a number with a
     * unit ({@code 500ms}) is taken as given.
     *
     * @param option the option, for the message.
     * @param text   the value.
     * @return the duration, not negative.
     * @throws IllegalArgumentException naming the option and what is accepted.
     */
    public static Duration parseSeconds(final String option, final String text)
    {
        final Duration duration;
        try
        {
            duration = text.trim().matches("[0-9.]+") ? parse(text.trim() + "s") : parse(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(option + ": " + ex.getMessage(), ex);
        }
        return duration;
    }

    /**
     * @return the duration in seconds.
     */
    public double seconds()
    {
        return nanos / 1e9;
    }
}
