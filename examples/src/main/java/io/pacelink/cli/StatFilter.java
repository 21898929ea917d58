package io.pacelink.cli;

import io.pacelink.transport.stats.CountersFileReader;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * What {@code pacelink stat} shows: the processes and connections its filters select ({@code --pid}, {@code --peer},
 * {@code --port}), and whether the files of processes that are gone are listed ({@code --all}) or hidden.
 */
final class StatFilter
{
    private final Long pid;
    private final String peerHost;
    private final int peerPort;
    private final int port;
    private final boolean showStale;

    /**
     * @param pid       only this process, or null.
     * @param peer      only connections to this peer: {@code HOST} or {@code HOST:PORT}, or null.
     * @param port      only connections with this local or peer port, or -1.
     * @param showStale list the files of processes that are gone too.
     * @throws IllegalArgumentException if the peer's host is unknown or its port is not a port.
     */
    StatFilter(final Long pid, final String peer, final int port, final boolean showStale)
    {
        if (port < -1 || port > 65_535)
        {
            throw new IllegalArgumentException("--port must be 0-65535, got " + port);
        }
        this.pid = pid;
        this.port = port;
        this.showStale = showStale;
        if (null == peer)
        {
            peerHost = null;
            peerPort = -1;
        }
        else
        {
            final int colon = peer.lastIndexOf(':');
            final boolean hasPort = colon > 0 && peer.indexOf(':') == colon || peer.startsWith("[") && colon > 0 &&
                peer.charAt(colon - 1) == ']';
            final String host = hasPort ? peer.substring(0, colon).replace("[", "").replace("]", "") : peer;
            peerPort = hasPort ? parsePort(peer.substring(colon + 1), peer) : -1;
            try
            {
                peerHost = InetAddress.getByName(host).getHostAddress();
            }
            catch (final UnknownHostException ex)
            {
                throw new IllegalArgumentException("--peer: unknown host '" + host + "' (give HOST or HOST:PORT, " +
                    "e.g. 192.0.2.7 or 192.0.2.7:5201)");
            }
        }
    }

    /**
     * @return the pid asked for, or null.
     */
    Long pid()
    {
        return pid;
    }

    /**
     * @return true if a connection filter ({@code --peer}, {@code --port}) is given.
     */
    boolean filtersConnections()
    {
        return null != peerHost || port >= 0;
    }

    /**
     * @param pid a counters file's owner.
     * @return true if its file is to be read at all.
     */
    boolean selectsPid(final long pid)
    {
        return null == this.pid || this.pid == pid;
    }

    /**
     * @param process a process's counters.
     * @return true if it is shown: its pid is selected, and it is alive unless stale files are shown.
     */
    boolean selects(final ProcessCounters process)
    {
        return selectsPid(process.pid()) &&
            (showStale || CountersFileReader.Liveness.DEAD != process.liveness());
    }

    /**
     * @param process    the connection's process.
     * @param connection one of its connections.
     * @return true if the connection passes {@code --peer} and {@code --port}.
     */
    boolean selects(final ProcessCounters process, final ProcessCounters.Connection connection)
    {
        final String peer = connection.peer();
        final int remotePort = ProcessCounters.port(peer);
        if (null != peerHost)
        {
            final String host = peer.substring(0, Math.max(0, peer.lastIndexOf(':')));
            if (!peerHost.equals(host) || peerPort >= 0 && peerPort != remotePort)
            {
                return false;
            }
        }
        return port < 0 || port == remotePort || port == ProcessCounters.port(process.localAddress());
    }

    /**
     * @param process a relay's counters.
     * @return true if the relay passes the connection filters: none given, or {@code --port} is its listening port.
     */
    boolean selectsRelay(final ProcessCounters process)
    {
        return null == peerHost && (port < 0 || port == ProcessCounters.port(process.localAddress()));
    }

    private static int parsePort(final String text, final String peer)
    {
        try
        {
            final int value = Integer.parseInt(text);
            if (value >= 0 && value <= 65_535)
            {
                return value;
            }
        }
        catch (final NumberFormatException ex)
        {
            // Said below.
        }
        throw new IllegalArgumentException("--peer: '" + peer + "' has no valid port (give HOST or HOST:PORT, e.g. " +
            "192.0.2.7:5201)");
    }
}
