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
        "  %-44s %-10s %-23s %12s %15s %15s %8s %8s %12s %7s %7s %5s %8s %8s %7s %7s%n";

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
        printPairs(out, process.portLabel(), process.port());
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
            "MINRTT(ms)", "SRTT(ms)", "INFLIGHT", "RETX", "LOST", "SPUR", "CWND-LTD", "PACE-LTD", "FC-LTD", "APP-LTD");
        for (final ProcessCounters.Connection c : process.connections())
        {
            out.printf(Locale.ROOT, ROW_FORMAT,
                c.description(),
                c.state(),
                c.controllerState(),
                Units.bytes(value(c, ConnectionCounters.CWND_BYTES)),
                bitsPerSecond(value(c, ConnectionCounters.PACING_RATE_BYTES_PER_SECOND)),
                bitsPerSecond(value(c, ConnectionCounters.DELIVERY_RATE_BYTES_PER_SECOND)),
                millis(value(c, ConnectionCounters.MIN_RTT_NS)),
                millis(value(c, ConnectionCounters.SMOOTHED_RTT_NS)),
                Units.bytes(value(c, ConnectionCounters.BYTES_IN_FLIGHT)),
                value(c, ConnectionCounters.PACKETS_RETRANSMITTED),
                value(c, ConnectionCounters.PACKETS_LOST),
                value(c, ConnectionCounters.SPURIOUS_LOSSES),
                value(c, ConnectionCounters.CWND_LIMITED),
                value(c, ConnectionCounters.PACING_LIMITED),
                value(c, ConnectionCounters.FLOW_CONTROL_LIMITED),
                value(c, ConnectionCounters.APP_LIMITED));
        }
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
