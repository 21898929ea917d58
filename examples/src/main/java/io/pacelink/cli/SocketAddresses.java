package io.pacelink.cli;

import java.net.InetSocketAddress;

/**
 * Socket addresses given on the command line as {@code HOST:PORT} (or just {@code PORT} where a host is implied).
 */
final class SocketAddresses
{
    private SocketAddresses()
    {
    }

    /**
     * @param option      the option's name, for the error message.
     * @param text        e.g. {@code 127.0.0.1:9000}, {@code localhost:9000}, or {@code 9000} if a default host is
     *                    given.
     * @param defaultHost the host when only a port is given, or null if a host is required.
     * @return the resolved address.
     * @throws IllegalArgumentException saying what is expected.
     */
    static InetSocketAddress parse(final String option, final String text, final String defaultHost)
    {
        final String form = null == defaultHost ? "HOST:PORT, e.g. 127.0.0.1:9001" :
            "[HOST:]PORT, e.g. 9000 or 127.0.0.1:9000";
        final int colon = text.lastIndexOf(':');
        if (colon < 0 && null == defaultHost)
        {
            throw new IllegalArgumentException(option + " '" + text + "' has no host; expected " + form);
        }
        final String host = colon < 0 ? defaultHost : text.substring(0, colon);
        final int port = parsePort(option, text.substring(colon + 1), text, form);
        if (host.isEmpty())
        {
            throw new IllegalArgumentException(option + " '" + text + "' has no host; expected " + form);
        }
        final InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved())
        {
            throw new IllegalArgumentException(option + " '" + text + "': unknown host '" + host + "'");
        }
        return address;
    }

    /**
     * @param address an address.
     * @return {@code HOST:PORT} as typed on the command line, e.g. {@code 127.0.0.1:9000}.
     */
    static String format(final InetSocketAddress address)
    {
        return address.getHostString() + ":" + address.getPort();
    }

    private static int parsePort(final String option, final String port, final String text, final String form)
    {
        try
        {
            final int value = Integer.parseInt(port);
            if (value >= 0 && value <= 65_535)
            {
                return value;
            }
        }
        catch (final NumberFormatException ignore)
        {
            // Reported below with the expected form.
        }
        throw new IllegalArgumentException(option + " '" + text + "' has no valid port (0-65535); expected " + form);
    }
}
