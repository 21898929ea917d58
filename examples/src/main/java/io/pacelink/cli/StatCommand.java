package io.pacelink.cli;

import io.pacelink.transport.stats.CountersFile;
import io.pacelink.transport.stats.CountersFileReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code pacelink stat}: watch running Pacelink processes from outside, like {@code ss -ti} or AeronStat. Every
 * endpoint (and every {@code pacelink netem} relay) keeps its counters in a memory-mapped file in the counters
 * directory; this command maps those files read-only and prints, every interval, one line per live connection (as
 * {@code ss -ti} does for TCP), every endpoint's, scheduler's and relay's counters with {@code --all}, or one JSON
 * object per refresh. Files of processes that are gone are hidden (listed by {@code --all}) and removed by
 * {@code --clean}, which touches only this user's files.
 */
@Command(
    name = "stat",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Show the live connections of running Pacelink endpoints, one line each as ss -ti shows TCP sockets: peer, " +
            "controller, state, cwnd, pacing rate, delivery rate, RTT min/smoothed, in flight, retransmits, losses; " +
            "refreshed every interval. --all adds every endpoint, scheduler and netem relay counter.",
        "Example: pacelink stat --count 1   or   pacelink stat --peer 192.0.2.7 -i 1s   or   pacelink stat --all " +
            "--json --count 1%n"
    })
public final class StatCommand implements Callable<Integer>
{
    @Option(names = "--dir", paramLabel = "DIR",
        description = "Counters directory (default: ${DEFAULT-VALUE}; PacelinkContext.countersDirectory).")
    private Path directory = CountersFile.defaultDirectory();

    @Option(names = "--pid", paramLabel = "PID", description = "Only the process with this id.")
    private Long pid;

    @Option(names = "--peer", paramLabel = "HOST[:PORT]", description = "Only connections to this peer.")
    private String peer;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "-1",
        description = "Only connections whose local or peer port is PORT.")
    private int port;

    @Option(names = { "-a", "--all" }, description = "Every endpoint's, scheduler's and relay's counters, each " +
        "connection's send limits and controller counters, and the files of processes that are gone.")
    private boolean all;

    @Option(names = "--zeros", description = "With --all: also the counters that are 0 (left out by default).")
    private boolean zeros;

    @Option(names = { "-i", "--interval" }, defaultValue = "1s", paramLabel = "TIME",
        description = "Time between refreshes (default ${DEFAULT-VALUE}).")
    private Duration interval;

    @Option(names = "--count", defaultValue = "0", paramLabel = "N",
        description = "Stop after N refreshes; 0 runs until Ctrl-C (default ${DEFAULT-VALUE}).")
    private int count;

    @Option(names = "--json", description = "One JSON object per refresh, one per line, with every counter.")
    private boolean json;

    @Option(names = "--clean",
        description = "Remove this user's counters files of processes that are gone, say which, and exit.")
    private boolean clean;

    private final Map<Path, CountersFileReader> openFiles = new HashMap<>();

    public Integer call() throws IOException, InterruptedException
    {
        if (interval.nanos() <= 0)
        {
            throw new IllegalArgumentException("--interval must be positive, e.g. 1s or 200ms");
        }
        if (count < 0)
        {
            throw new IllegalArgumentException("--count must be 0 (until Ctrl-C) or more, got " + count);
        }

        if (zeros && !all && !json)
        {
            throw new IllegalArgumentException("--zeros goes with --all (the default view prints no zero counters " +
                "to leave out)");
        }
        final StatFilter filter = new StatFilter(pid, peer, port, all);
        final PrintStream out = System.out;
        if (clean)
        {
            return clean(out);
        }

        final StatJson jsonWriter = json ? new StatJson(out, filter) : null;
        try
        {
            for (int refresh = 1; 0 == count || refresh <= count; refresh++)
            {
                if (refresh > 1)
                {
                    TimeUnit.NANOSECONDS.sleep(interval.nanos());
                }
                final long nowMs = System.currentTimeMillis();
                final List<ProcessCounters> processes = readAll(nowMs);
                if (null != jsonWriter)
                {
                    jsonWriter.write(nowMs, directory, processes);
                }
                else if (all)
                {
                    StatTable.printAll(out, nowMs, directory, filter, zeros, processes);
                }
                else
                {
                    StatTable.printConnections(out, nowMs, directory, filter, processes);
                }
            }
        }
        finally
        {
            openFiles.values().forEach(CountersFileReader::close);
            openFiles.clear();
        }
        return 0;
    }

    private List<ProcessCounters> readAll(final long nowMs)
    {
        final List<ProcessCounters> processes = new ArrayList<>();
        for (final Path path : CountersFileReader.list(directory))
        {
            final CountersFileReader file = open(path);
            if (null != file && (null == pid || file.pid() == pid))
            {
                processes.add(ProcessCounters.read(file, nowMs, CountersFileReader.DEFAULT_HEARTBEAT_TIMEOUT_MS));
            }
        }
        // Files deleted since the last refresh (their owners closed): let go of the mappings.
        for (final Iterator<CountersFileReader> it = openFiles.values().iterator(); it.hasNext(); )
        {
            final CountersFileReader file = it.next();
            if (!file.exists())
            {
                file.close();
                it.remove();
            }
        }
        return processes;
    }

    /**
     * @return the file mapped, or null if it is gone, not yet ready, or unreadable (said on stderr).
     */
    private CountersFileReader open(final Path path)
    {
        CountersFileReader file = openFiles.get(path);
        if (null == file)
        {
            try
            {
                final Optional<CountersFileReader> opened = CountersFileReader.open(path);
                if (opened.isEmpty())
                {
                    return null;
                }
                file = opened.get();
                openFiles.put(path, file);
            }
            catch (final RuntimeException ex)
            {
                System.err.println("pacelink stat: skipping " + path + ": " + ex.getMessage());
                return null;
            }
        }
        return file;
    }

    /**
     * Remove the files whose owner process is gone: only this user's (the default directory is this user's, but
     * {@code --dir} may name a shared one), never a live process's, however old its heartbeat.
     */
    private int clean(final PrintStream out) throws IOException
    {
        int removed = 0;
        int othersStale = 0;
        final String user = System.getProperty("user.name");
        final long nowMs = System.currentTimeMillis();
        for (final Path path : CountersFileReader.list(directory))
        {
            final Optional<CountersFileReader> opened = CountersFileReader.open(path);
            if (opened.isEmpty())
            {
                continue;
            }
            final CountersFileReader file = opened.get();
            final long ownerPid = file.pid();
            final boolean isStale = (null == pid || ownerPid == pid) && CountersFileReader.Liveness.DEAD ==
                file.liveness(nowMs, CountersFileReader.DEFAULT_HEARTBEAT_TIMEOUT_MS);
            final String description = file.description();
            file.close();
            if (!isStale)
            {
                continue;
            }
            final String owner = Files.getOwner(path).getName();
            if (!owner.equals(user))
            {
                othersStale++;
                out.println("kept " + path + " (pid " + ownerPid + " is gone, but the file is " + owner + "'s, not " +
                    user + "'s)");
            }
            else if (Files.deleteIfExists(path))
            {
                removed++;
                out.println("removed " + path + " (pid " + ownerPid + " is gone: " + description + ")");
            }
        }
        out.println(removed + " stale counters file" + (1 == removed ? "" : "s") + " removed from " + directory +
            (othersStale > 0 ? "; " + othersStale + " of other users kept" : ""));
        return 0;
    }
}
