package io.pacelink.cli;

import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stats.CountersFileReader;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * The human output of {@code pacelink stat}: per process a header line, its endpoint-wide, scheduler or relay
 * counters as {@code name value} pairs, and one row per connection with the quantities {@code ss -i} shows.
 */
final class StatTable
{
    private static final String ROW_FORMAT =
        "  %-44s %-10s %-23s %9s %10s %10s %9s %9s %9s %8s %8s %6s %8s %8s %8s %8s%n";

    private static final int LINE_WIDTH = 120;

    private StatTable()
    {
    }

    /**
     * @param out       where.
     * @param nowMs     the refresh's time, epoch ms.
     * @param directory the counters directory (named when it holds nothing).
     * @param pid       the pid asked for, or null.
     * @param processes what was read.
     */
    static void print(
        final PrintStream out,
        final long nowMs,
        final Path directory,
        final Long pid,
        final Iterable<ProcessCounters> processes)
    {
        out.println("--- " + Instant.ofEpochMilli(nowMs));
        boolean any = false;
        for (final ProcessCounters process : processes)
        {
            any = true;
            printProcess(out, process);
        }
        if (!any)
        {
            out.println("no Pacelink process" + (null == pid ? "" : " with pid " + pid) + " has counters in " +
                directory + " (a real endpoint creates its file there unless PacelinkContext.countersFile(false))");
        }
        out.flush();
    }

    private static void printProcess(final PrintStream out, final ProcessCounters process)
    {
        out.printf(Locale.ROOT, "%s  pid %d  %s  [%s]%n",
            process.description(), process.pid(), liveness(process), process.path().getFileName());
        printPairs(out, "endpoint", process.endpoint());
        printPairs(out, process.schedulerLabel(), process.scheduler());
        printPairs(out, "relay", process.relay());
        if (process.connections().isEmpty())
        {
            if (process.relay().isEmpty())
            {
                out.println("  no connections");
            }
            return;
        }

        out.printf(Locale.ROOT, ROW_FORMAT, "CONNECTION", "STATE", "CC-STATE", "CWND", "PACING", "DELIVERY",
            "MIN-RTT", "SRTT", "INFLIGHT", "RETX", "LOST", "SPUR", "CWND-LTD", "PACE-LTD", "FC-LTD", "APP-LTD");
        for (final ProcessCounters.Connection connection : process.connections())
        {
            out.printf(Locale.ROOT, ROW_FORMAT,
                connection.description(),
                connection.state(),
                connection.controllerState(),
                bytes(connection.value(ConnectionCounters.name(ConnectionCounters.CWND_BYTES))),
                bitsPerSecond(connection.value(ConnectionCounters.name(ConnectionCounters.PACING_RATE_BYTES_PER_SECOND))),
                bitsPerSecond(
                    connection.value(ConnectionCounters.name(ConnectionCounters.DELIVERY_RATE_BYTES_PER_SECOND))),
                millis(connection.value(ConnectionCounters.name(ConnectionCounters.MIN_RTT_NS))),
                millis(connection.value(ConnectionCounters.name(ConnectionCounters.SMOOTHED_RTT_NS))),
                bytes(connection.value(ConnectionCounters.name(ConnectionCounters.BYTES_IN_FLIGHT))),
                connection.value(ConnectionCounters.name(ConnectionCounters.PACKETS_RETRANSMITTED)),
                connection.value(ConnectionCounters.name(ConnectionCounters.PACKETS_LOST)),
                connection.value(ConnectionCounters.name(ConnectionCounters.SPURIOUS_LOSSES)),
                connection.value(ConnectionCounters.name(ConnectionCounters.CWND_LIMITED)),
                connection.value(ConnectionCounters.name(ConnectionCounters.PACING_LIMITED)),
                connection.value(ConnectionCounters.name(ConnectionCounters.FLOW_CONTROL_LIMITED)),
                connection.value(ConnectionCounters.name(ConnectionCounters.APP_LIMITED)));
        }
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
     * {@code title: name value name value ...}, wrapped at {@link #LINE_WIDTH} with continuation lines indented.
     */
    private static void printPairs(final PrintStream out, final String title, final Map<String, Long> counters)
    {
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
     * @return e.g. {@code 1.5M}, {@code 64.0K}, {@code 1200}: binary prefixes, as {@code ss} prints sizes.
     */
    static String bytes(final long bytes)
    {
        if (bytes >= 1L << 30)
        {
            return String.format(Locale.ROOT, "%.1fG", bytes / (double)(1L << 30));
        }
        if (bytes >= 1L << 20)
        {
            return String.format(Locale.ROOT, "%.1fM", bytes / (double)(1L << 20));
        }
        if (bytes >= 1L << 10)
        {
            return String.format(Locale.ROOT, "%.1fK", bytes / (double)(1L << 10));
        }
        return Long.toString(bytes);
    }

    /**
     * @return a rate given in bytes per second as bits per second with a decimal prefix, e.g. {@code 98.2Mbps};
     * {@code -} for "not paced" (0 or {@code Long.MAX_VALUE}).
     */
    static String bitsPerSecond(final long bytesPerSecond)
    {
        if (bytesPerSecond <= 0 || bytesPerSecond == Long.MAX_VALUE)
        {
            return "-";
        }
        final double bits = bytesPerSecond * 8.0;
        if (bits >= 1e9)
        {
            return String.format(Locale.ROOT, "%.2fGbps", bits / 1e9);
        }
        if (bits >= 1e6)
        {
            return String.format(Locale.ROOT, "%.1fMbps", bits / 1e6);
        }
        if (bits >= 1e3)
        {
            return String.format(Locale.ROOT, "%.1fKbps", bits / 1e3);
        }
        return String.format(Locale.ROOT, "%.0fbps", bits);
    }

    /**
     * @return e.g. {@code 150.12ms}; {@code -} before the first sample.
     */
    static String millis(final long ns)
    {
        return ns <= 0 || ns == Long.MAX_VALUE ? "-" : String.format(Locale.ROOT, "%.2fms", ns / 1e6);
    }
}
