package io.pacelink.cli;

import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stats.CountersFileReader;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The human output of {@code pacelink stat}. By default, as {@code ss -ti} shows TCP sockets: one line per live
 * connection with the quantities {@code ss -i} shows for TCP (peer, controller, state, cwnd, pacing and delivery
 * rates, RTT, in flight, retransmits, losses). With {@code --all}: per process a header line, its endpoint-wide,
 * scheduler or relay counters as {@code name value} pairs (those that are not zero, unless asked), and its connections
 * with every send limit.
 */
final class StatTable
{
    /**
     * The columns both views show, as {@code ss -ti} does: peer, controller, state, cwnd, rates, RTT, in flight,
     * retransmits, losses ({@link #ssColumns}).
     */
    private static final String SS_FORMAT = "%-22s %-8s %-10s %-12s %12s %15s %15s %17s %12s %7s %7s";

    private static final Object[] SS_HEADERS = {
        "PEER", "CC", "STATE", "CC-STATE", "CWND", "PACING", "DELIVERY", "RTT MIN/SRTT ms", "INFLIGHT", "RETX", "LOST"
    };

    private static final String CONNECTION_FORMAT = "%-8s %-22s " + SS_FORMAT + "%n";

    private static final String ROW_FORMAT = "  %-21s " + SS_FORMAT + " %5s %8s %8s %7s %7s%n";

    private static final int LINE_WIDTH = 120;

    private StatTable()
    {
    }

    /**
     * The default view: one line per live connection.
     *
     * @param out       where.
     * @param nowMs     the refresh's time, epoch ms.
     * @param directory the counters directory (named when it holds nothing).
     * @param filter    what to show.
     * @param processes what was read (every file of the selected pids).
     */
    static void printConnections(
        final PrintStream out,
        final long nowMs,
        final Path directory,
        final StatFilter filter,
        final List<ProcessCounters> processes)
    {
        out.println("--- " + Instant.ofEpochMilli(nowMs));
        int rows = 0;
        for (final ProcessCounters process : processes)
        {
            if (!filter.selects(process))
            {
                continue;
            }
            for (final ProcessCounters.Connection c : process.connections())
            {
                if (!filter.selects(process, c))
                {
                    continue;
                }
                if (0 == rows++)
                {
                    out.printf(Locale.ROOT, CONNECTION_FORMAT, row(new Object[]{ "PID", "LOCAL" }, SS_HEADERS));
                }
                out.printf(Locale.ROOT, CONNECTION_FORMAT,
                    row(new Object[]{ process.pid(), process.localAddress() }, ssColumns(c)));
            }
        }
        if (0 == rows)
        {
            out.println(nothingToShow(directory, filter, processes, "live Pacelink connection"));
        }
        staleNote(out, filter, processes);
        out.flush();
    }

    /**
     * The {@code --all} view: every selected process with its counters.
     *
     * @param out       where.
     * @param nowMs     the refresh's time, epoch ms.
     * @param directory the counters directory (named when it holds nothing).
     * @param filter    what to show.
     * @param zeros     show counters that are 0 too.
     * @param processes what was read.
     */
    static void printAll(
        final PrintStream out,
        final long nowMs,
        final Path directory,
        final StatFilter filter,
        final boolean zeros,
        final List<ProcessCounters> processes)
    {
        out.println("--- " + Instant.ofEpochMilli(nowMs));
        boolean any = false;
        for (final ProcessCounters process : processes)
        {
            if (!filter.selects(process))
            {
                continue;
            }
            final List<ProcessCounters.Connection> connections = new ArrayList<>();
            for (final ProcessCounters.Connection c : process.connections())
            {
                if (filter.selects(process, c))
                {
                    connections.add(c);
                }
            }
            if (filter.filtersConnections() && connections.isEmpty() &&
                !(process.isRelay() && filter.selectsRelay(process)))
            {
                continue;
            }
            any = true;
            printProcess(out, process, connections, zeros);
        }
        if (!any)
        {
            out.println(nothingToShow(directory, filter, processes, "Pacelink process"));
        }
        out.flush();
    }

    private static String nothingToShow(
        final Path directory, final StatFilter filter, final List<ProcessCounters> processes, final String what)
    {
        if (processes.isEmpty())
        {
            return "no Pacelink process" + (null == filter.pid() ? "" : " with pid " + filter.pid()) +
                " has counters in " + directory + " (a real endpoint creates its file there unless " +
                "PacelinkContext.countersFile(false))";
        }
        return "no " + what + (filter.filtersConnections() || null != filter.pid() ? " matches the filters" : "") +
            " in " + directory + " (pacelink stat --all shows every endpoint and relay)";
    }

    private static void staleNote(final PrintStream out, final StatFilter filter, final List<ProcessCounters> processes)
    {
        int stale = 0;
        for (final ProcessCounters process : processes)
        {
            if (filter.selectsPid(process.pid()) && !filter.selects(process))
            {
                stale++;
            }
        }
        if (stale > 0)
        {
            out.println("(" + stale + " counters file" + (1 == stale ? "" : "s") + " of processes that are gone " +
                "hidden: pacelink stat --keep-dead --all lists them, pacelink stat --clean removes them)");
        }
    }

    private static void printProcess(
        final PrintStream out,
        final ProcessCounters process,
        final List<ProcessCounters.Connection> connections,
        final boolean zeros)
    {
        // The endpoint's cc= is the default for connections it opens without naming one; each connection's own
        // controller is in its row.
        out.printf(Locale.ROOT, "%s  pid %d  %s  [%s]%n",
            process.description().replace(" cc=", " default-cc="), process.pid(), liveness(process),
            process.path().getFileName());
        printPairs(out, "endpoint", process.endpoint(), zeros);
        printPairs(out, process.schedulerLabel(), process.scheduler(), zeros);
        printPairs(out, process.portLabel(), process.port(), zeros);
        printPairs(out, "relay", process.relay(), zeros);
        if (connections.isEmpty())
        {
            if (process.relay().isEmpty())
            {
                out.println("  no connections");
            }
            return;
        }

        out.printf(Locale.ROOT, ROW_FORMAT, row(new Object[]{ "CONNECTION" }, SS_HEADERS,
            new Object[]{ "SPUR", "CWND-LTD", "PACE-LTD", "FC-LTD", "APP-LTD" }));
        for (final ProcessCounters.Connection c : connections)
        {
            out.printf(Locale.ROOT, ROW_FORMAT, row(new Object[]{ "conn " + Long.toHexString(c.connectionId()) },
                ssColumns(c), new Object[]{
                    value(c, ConnectionCounters.SPURIOUS_LOSSES),
                    value(c, ConnectionCounters.CWND_LIMITED),
                    value(c, ConnectionCounters.PACING_LIMITED),
                    value(c, ConnectionCounters.FLOW_CONTROL_LIMITED),
                    value(c, ConnectionCounters.APP_LIMITED) }));
            final Map<String, Long> controller = zeros ? c.controller() : nonZero(c.controller());
            if (!controller.isEmpty())
            {
                printPairs(out, "  " + c.congestionControl(), controller, true);
            }
        }
    }

    private static Map<String, Long> nonZero(final Map<String, Long> counters)
    {
        final Map<String, Long> nonZero = new LinkedHashMap<>();
        counters.forEach((name, value) ->
        {
            if (0 != value)
            {
                nonZero.put(name, value);
            }
        });
        return nonZero;
    }

    /**
     * @return the values of {@link #SS_FORMAT}'s columns for a connection.
     */
    private static Object[] ssColumns(final ProcessCounters.Connection c)
    {
        return new Object[]{
            c.peer(),
            c.congestionControl(),
            c.state(),
            c.controllerState(),
            Units.bytes(value(c, ConnectionCounters.CWND_BYTES)),
            bitsPerSecond(value(c, ConnectionCounters.PACING_RATE_BYTES_PER_SECOND)),
            bitsPerSecond(value(c, ConnectionCounters.DELIVERY_RATE_BYTES_PER_SECOND)),
            millis(value(c, ConnectionCounters.MIN_RTT_NS)) + "/" +
                millis(value(c, ConnectionCounters.SMOOTHED_RTT_NS)),
            Units.bytes(value(c, ConnectionCounters.BYTES_IN_FLIGHT)),
            value(c, ConnectionCounters.PACKETS_RETRANSMITTED),
            value(c, ConnectionCounters.PACKETS_LOST) };
    }

    private static Object[] row(final Object[]... parts)
    {
        final List<Object> values = new ArrayList<>();
        for (final Object[] part : parts)
        {
            values.addAll(List.of(part));
        }
        return values.toArray();
    }

    private static long value(final ProcessCounters.Connection connection, final int index)
    {
        return connection.value(ConnectionCounters.name(index));
    }

    private static String liveness(final ProcessCounters process)
    {
        if (CountersFileReader.Liveness.DEAD == process.liveness())
        {
            return "STALE (process gone; pacelink stat --clean removes the file)";
        }
        if (CountersFileReader.Liveness.NOT_RESPONDING == process.liveness())
        {
            return String.format(Locale.ROOT, "NOT RESPONDING (heartbeat %.1f s old)", process.heartbeatAgeMs() / 1e3);
        }
        return "alive";
    }

    /**
     * {@code title: name value name value ...}, wrapped at {@link #LINE_WIDTH} with continuation lines indented; only
     * the counters that are not 0 unless {@code zeros}.
     */
    private static void printPairs(
        final PrintStream out, final String title, final Map<String, Long> all, final boolean zeros)
    {
        final Map<String, Long> counters = zeros ? all : nonZero(all);
        if (counters.isEmpty())
        {
            return;
        }
        final StringBuilder line = new StringBuilder("  ").append(title).append(':');
        final int indent = line.length();
        for (final Map.Entry<String, Long> counter : counters.entrySet())
        {
            final String pair = " " + counter.getKey() + " " + counter.getValue();
            if (line.length() + pair.length() > LINE_WIDTH && line.length() > indent)
            {
                out.println(line);
                line.setLength(0);
                line.append(" ".repeat(indent));
            }
            line.append(pair);
        }
        out.println(line);
    }

    /**
     * @return a rate given in bytes per second as iperf prints bits per second; {@code -} when not paced or not
     * measured (0 or {@code Long.MAX_VALUE}).
     */
    private static String bitsPerSecond(final long bytesPerSecond)
    {
        return bytesPerSecond <= 0 || bytesPerSecond == Long.MAX_VALUE ?
            "-" : Units.bitsPerSecond(bytesPerSecond * 8.0);
    }

    /**
     * @return milliseconds with two decimals; {@code -} before the first sample.
     */
    private static String millis(final long ns)
    {
        return ns <= 0 || ns == Long.MAX_VALUE ? "-" : Units.millis(ns);
    }
}
