package io.pacelink.examples;

import java.net.InetSocketAddress;

/**
 * Command-line values of the examples: a usage error says what was wrong and exits with status 2.
 */
final class ExampleArguments
{
    /**
     * Exit status of a usage error.
     */
    static final int USAGE = 2;

    private final String usage;
    private final String[] args;

    /**
     * @param usage the example's usage line.
     * @param args  its command line.
     */
    ExampleArguments(final String usage, final String[] args)
    {
        this.usage = usage;
        this.args = args;
    }

    /**
     * @param index        position of the argument.
     * @param defaultValue when it is absent, or null if it is required.
     * @return {@code host:port} as an address.
     */
    InetSocketAddress address(final int index, final String defaultValue)
    {
        final String text = text(index, defaultValue);
        final int colon = text.lastIndexOf(':');
        if (colon < 0)
        {
            throw fail("expected host:port, got '" + text + "'");
        }
        final int port = (int)number(text.substring(colon + 1), 0, 65_535);
        final String host = text.substring(0, colon);
        final InetSocketAddress address =
            host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
        if (address.isUnresolved())
        {
            throw fail("cannot resolve host '" + host + "'");
        }
        return address;
    }

    /**
     * @param index        position of the argument.
     * @param defaultValue when it is absent.
     * @param min          smallest value allowed.
     * @param max          largest value allowed.
     * @return the number, which may end in k, m or g (powers of 1024).
     */
    long number(final int index, final long defaultValue, final long min, final long max)
    {
        return index < args.length ? number(args[index], min, max) : defaultValue;
    }

    private String text(final int index, final String defaultValue)
    {
        if (index < args.length)
        {
            return args[index];
        }
        if (null == defaultValue)
        {
            throw fail("missing argument " + (index + 1));
        }
        return defaultValue;
    }

    private long number(final String text, final long min, final long max)
    {
        final String lower = text.toLowerCase();
        final int shift = lower.endsWith("k") ? 10 : lower.endsWith("m") ? 20 : lower.endsWith("g") ? 30 : 0;
        final String digits = 0 == shift ? lower : lower.substring(0, lower.length() - 1);
        final long value;
        try
        {
            value = Long.parseLong(digits) << shift;
        }
        catch (final NumberFormatException ex)
        {
            throw fail("'" + text + "' is not a number");
        }
        if (value < min || value > max)
        {
            throw fail(text + " is out of range " + min + ".." + max);
        }
        return value;
    }

    private UsageException fail(final String problem)
    {
        return new UsageException(problem + "\nusage: " + usage);
    }

    /**
     * A bad command line: print the message and exit with {@link #USAGE}.
     */
    static final class UsageException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        UsageException(final String message)
        {
            super(message);
        }
    }
}
