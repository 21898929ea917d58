package io.pacelink.cli;

/**
 * A size given on the command line: a number with an optional unit — B, KB/MB/GB (powers of 1000), KiB/MiB/GiB
 * (powers of 1024); K/M/G alone mean the binary units, as in iperf.
 *
 * @param bytes the size in bytes.
 */
public record ByteSize(long bytes)
{
    private static final String EXAMPLES = "a size; use e.g. 1472, 64KiB, 256MiB, 1GB";

    /**
     * @param text e.g. {@code 256MiB}, {@code 1472}, {@code 64K}.
     * @return the size.
     * @throws IllegalArgumentException saying what is accepted.
     */
    public static ByteSize parse(final String text)
    {
        final NumberWithUnit value = NumberWithUnit.parse(text, EXAMPLES);
        final long multiplier = switch (value.unit())
        {
            case "", "b" -> 1L;
            case "kb" -> 1_000L;
            case "mb" -> 1_000_000L;
            case "gb" -> 1_000_000_000L;
            case "k", "kib" -> 1L << 10;
            case "m", "mib" -> 1L << 20;
            case "g", "gib" -> 1L << 30;
            default -> throw NumberWithUnit.invalid(text, EXAMPLES);
        };
        final double bytes = value.number() * multiplier;
        if (bytes > Long.MAX_VALUE)
        {
            throw NumberWithUnit.invalid(text, EXAMPLES);
        }
        return new ByteSize((long)bytes);
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
