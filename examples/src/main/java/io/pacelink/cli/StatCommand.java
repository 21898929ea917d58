package io.pacelink.cli;

import io.pacelink.transport.stats.CountersFile;
import io.pacelink.transport.stats.CountersFileReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
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
 * object per refresh.
 * <p>
 * The files of processes that are gone (killed, crashed: a process that closes its endpoints deletes them) are
 * removed as each refresh finds them, if they are this user's ({@link CountersFileReaper}: never a live process's,
 * never one being created), and are not read: a directory that collected hundreds of them (each test or tool run
 * that was killed leaves one per endpoint) cost every refresh a mapping and a walk of every counter of each. Another
 * user's are skipped. {@code --keep-dead} keeps and reads them instead, for a post-mortem (a killed process's last
 * counters: listed by {@code --all} and {@code --json}); {@code --clean} removes them and exits.
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
        "connection's send limits and controller counters (and, with --keep-dead, the files of processes that are " +
        "gone).")
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

    @Option(names = "--keep-dead", description = "Keep the counters files of processes that are gone and read " +
        "them (a killed process's last counters, shown as STALE with --all and --json) instead of removing this " +
        "user's as they are found.")
    private boolean keepDead;

    @Spec
    private CommandSpec spec;

    private final Map<Path, CountersFileReader> openFiles = new HashMap<>();
    /**
     * Other users' files of processes that are gone, by their file key (inode): never read again while the name
     * holds the same file.
     */
    private final Map<Path, Object> othersDead = new HashMap<>();
    private final CountersFileReaper reaper = new CountersFileReaper(System.getProperty("user.name"));

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
        if (clean && keepDead)
        {
            throw new IllegalArgumentException("--clean removes the files --keep-dead keeps: give one of them");
        }
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
        int removed = 0;
        int othersFound = 0;
        for (final Path path : CountersFileReader.list(directory))
        {
            if (isOthersDead(path))
            {
                continue;
            }
            final CountersFileReader file = open(path);
            if (null == file || null != pid && file.pid() != pid)
            {
                continue;
            }
            final CountersFileReader.Liveness liveness =
                file.liveness(nowMs, CountersFileReader.DEFAULT_HEARTBEAT_TIMEOUT_MS);
            if (CountersFileReader.Liveness.DEAD == liveness && !keepDead)
            {
                // Judged from the header alone; its counters are never read.
                openFiles.remove(path).close();
                final CountersFileReaper.Outcome outcome = reap(path, nowMs);
                if (CountersFileReaper.Outcome.REMOVED == outcome)
                {
                    removed++;
                }
                else if (CountersFileReaper.Outcome.OTHER_USERS == outcome)
                {
                    othersFound++;
                    othersDead.put(path, fileKey(path));
                }
                continue;
            }
            processes.add(ProcessCounters.read(file, liveness, nowMs));
        }
        if (removed > 0)
        {
            final PrintWriter err = spec.commandLine().getErr();
            err.println("pacelink stat: " + removed + " counters file" + (1 == removed ? "" : "s") +
                " of processes that are gone removed from " + directory +
                (othersFound > 0 ? ", " + othersFound + " of other users' skipped" : "") +
                " (--keep-dead keeps and shows them)");
            err.flush();
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
     * @return what became of a dead process's file; KEPT, said on stderr, if it could not be removed (the refresh
     * goes on).
     */
    private CountersFileReaper.Outcome reap(final Path path, final long nowMs)
    {
        try
        {
            return reaper.reap(path, nowMs);
        }
        catch (final IOException ex)
        {
            System.err.println("pacelink stat: cannot remove " + path + ": " + ex);
            return CountersFileReaper.Outcome.KEPT;
        }
    }

    private boolean isOthersDead(final Path path)
    {
        final Object key = othersDead.get(path);
        if (null == key)
        {
            return false;
        }
        if (key.equals(fileKey(path)))
        {
            return true;
        }
        othersDead.remove(path);
        return false;
    }

    /**
     * @return whose the file is, e.g. {@code nobody's}.
     */
    private static String ownerOf(final Path path)
    {
        try
        {
            return Files.getOwner(path).getName() + "'s";
        }
        catch (final IOException ex)
        {
            return "another user's";
        }
    }

    /**
     * @return the file's identity (device and inode), or a fresh object if it is gone.
     */
    private static Object fileKey(final Path path)
    {
        try
        {
            final Object key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
            return null == key ? new Object() : key;
        }
        catch (final IOException ex)
        {
            return new Object();
        }
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
            final long ownerPid;
            final String description;
            try (CountersFileReader file = opened.get())
            {
                ownerPid = file.pid();
                description = file.description();
            }
            if (null != pid && ownerPid != pid)
            {
                continue;
            }
            final CountersFileReaper.Outcome outcome = reaper.reap(path, nowMs);
            if (CountersFileReaper.Outcome.OTHER_USERS == outcome)
            {
                othersStale++;
                out.println("kept " + path + " (pid " + ownerPid + " is gone, but the file is " + ownerOf(path) +
                    ", not " + user + "'s)");
            }
            else if (CountersFileReaper.Outcome.REMOVED == outcome)
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
