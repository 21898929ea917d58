package io.pacelink.transport.port;

import java.util.Locale;

/**
 * Which {@link DatagramPort} an endpoint opens on its own socket (docs/io.md).
 */
public enum PortType
{
    /**
     * The batched port where it works (Linux with the native library; probed once per JVM), else the NIO port, with
     * the reason logged once and shown in the endpoint's counters.
     */
    AUTO,

    /**
     * {@link NioDatagramPort}: one system call per datagram, runs everywhere Java does.
     */
    NIO,

    /**
     * {@link BatchedDatagramPort}: {@code sendmmsg}/{@code recvmmsg}, UDP GSO and GRO, ECN; an endpoint that asks for
     * it where it is unavailable fails to launch, saying why.
     */
    BATCHED;

    /**
     * @param text {@code auto}, {@code nio} or {@code batched} (any case).
     * @return the port type.
     * @throws IllegalArgumentException naming what is accepted.
     */
    public static PortType parse(final String text)
    {
        if (null != text)
        {
            for (final PortType type : values())
            {
                if (type.name().equals(text.trim().toUpperCase(Locale.ROOT)))
                {
                    return type;
                }
            }
        }
        throw new IllegalArgumentException("unknown port type '" + text + "': expected auto, nio or batched");
    }

    /**
     * @return the name as the command line spells it: {@code auto}, {@code nio}, {@code batched}.
     */
    public String label()
    {
        return name().toLowerCase(Locale.ROOT);
    }
}
