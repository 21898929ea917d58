package io.pacelink.cli;

/**
 * A rate given on the command line, in bits per second as tc and iperf write it: a bare number, or one with
 * {@code bit}, {@code kbit}, {@code mbit}, {@code gbit} (powers of 1000), or {@code k}, {@code m}, {@code g} alone
 * ({@code iperf3 -b 100M}).
 *
 * @param bitsPerSecond the rate; 0 where the option allows it to mean "no limit".
 */
public record BitRate(long bitsPerSecond)
{
    private static final String EXAMPLES = "a rate in bits per second; use e.g. 100mbit, 100M, 1gbit, 500kbit";

    /**
     * @param text e.g. {@code 100mbit}, {@code 100M}, {@code 0}.
     * @return the rate.
     * @throws IllegalArgumentException saying what is accepted (a byte rate such as {@code 10MB/s} is refused, not
     *                                  guessed at).
     */
    public static BitRate parse(final String text)
    {
        final NumberWithUnit value = NumberWithUnit.parse(text, EXAMPLES);
        final double multiplier = switch (value.unit())
        {
            case "", "bit" -> 1;
            case "k", "kbit" -> 1e3;
            case "m", "mbit" -> 1e6;
            case "g", "gbit" -> 1e9;
            default -> throw NumberWithUnit.invalid(text, EXAMPLES);
        };
        final double bitsPerSecond = value.number() * multiplier;
        if (bitsPerSecond > Long.MAX_VALUE || (bitsPerSecond > 0 && bitsPerSecond < 8))
        {
            throw new IllegalArgumentException("'" + text + "' is out of range; give 0 or at least 8bit, e.g. 100mbit");
        }
        return new BitRate((long)bitsPerSecond);
    }
}
