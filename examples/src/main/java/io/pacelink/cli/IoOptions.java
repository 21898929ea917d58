package io.pacelink.cli;

import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.port.PortType;
import picocli.CommandLine.Option;

import java.util.Locale;

/**
 * The datagram-port options of every tool that opens endpoints (docs/io.md, docs/ecn.md): {@code --io
 * auto|nio|batched}, {@code --gso on|off} and {@code --ecn on|off}, checked before anything runs and applied to each
 * endpoint's context.
 */
public final class IoOptions
{
    @Option(names = "--io", paramLabel = "auto|nio|batched", defaultValue = "auto",
        description = "Datagram port: batched (sendmmsg/recvmmsg, UDP GSO/GRO; Linux), nio (one system call per " +
            "datagram), or auto: batched where it works, else nio with the reason logged (default ${DEFAULT-VALUE}).")
    private String io;

    @Option(names = "--gso", paramLabel = "on|off", defaultValue = "on",
        description = "On the batched port, send each run of equal-sized datagrams as one UDP GSO message " +
            "(default ${DEFAULT-VALUE}).")
    private String gso;

    @Option(names = "--ecn", paramLabel = "on|off", defaultValue = "on",
        description = "Mark packets ECN-capable and answer the path's congestion marks (RFC 9000 section 13.4; needs " +
            "the batched port to read arriving marks; default ${DEFAULT-VALUE}).")
    private String ecn;

    /**
     * @return the port type asked for.
     * @throws IllegalArgumentException naming what is accepted.
     */
    public PortType portType()
    {
        try
        {
            return PortType.parse(io);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--io must be auto, nio or batched, got '" + io + "'", ex);
        }
    }

    /**
     * @return whether GSO is on.
     * @throws IllegalArgumentException naming what is accepted.
     */
    public boolean gso()
    {
        return onOff("--gso", gso);
    }

    /**
     * @return whether ECN is on.
     * @throws IllegalArgumentException naming what is accepted.
     */
    public boolean ecn()
    {
        return onOff("--ecn", ecn);
    }

    /**
     * @param option the option's name, for the message.
     * @param value  what was given.
     * @return true for {@code on}, false for {@code off} (any case, surrounding blanks ignored).
     * @throws IllegalArgumentException naming the option and what is accepted.
     */
    static boolean onOff(final String option, final String value)
    {
        switch (null == value ? "" : value.trim().toLowerCase(Locale.ROOT))
        {
            case "on":
                return true;
            case "off":
                return false;
            default:
                throw new IllegalArgumentException(option + " must be on or off, got '" + value + "'");
        }
    }

    /**
     * Check every option (fail fast, before anything runs).
     */
    public void validate()
    {
        portType();
        gso();
        ecn();
    }

    /**
     * @return true if any option was given a value other than its default.
     */
    public boolean isCustomised()
    {
        return PortType.AUTO != portType() || !gso() || !ecn();
    }

    /**
     * @param context an endpoint's context.
     * @return the context, with the port, GSO and ECN set.
     */
    public PacelinkContext apply(final PacelinkContext context)
    {
        return context.port(portType()).gso(gso()).ecn(ecn());
    }
}
