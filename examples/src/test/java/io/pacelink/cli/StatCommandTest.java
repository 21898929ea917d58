package io.pacelink.cli;

import io.pacelink.transport.stats.CountersFile;
import io.pacelink.transport.stats.CountersFileReader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pacelink stat} reading the live counters of endpoints that run in another JVM (a child process started with
 * this JVM's class path and Agrona flags): one line per connection with its own controller, the filters, every
 * counter with {@code --all}; then their removal on close, a killed process's stale files (removed by the next
 * refresh, or kept with {@code --keep-dead}: hidden, listed with {@code --all}), and {@code --clean}; both remove only
 * this user's files of processes that are gone, never a live one's or one being created.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StatCommandTest
{
    private static final long START_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final Set<String> BBR_STATES = Set.of("STARTUP", "DRAIN", "PROBE_BW", "PROBE_RTT");

    @TempDir
    Path directory;

    private String clientPort;
    private String serverPort;

    @Test
    void readsTheLiveCountersOfEndpointsInAnotherProcess() throws Exception
    {
        final Process child = startTarget("bbr");
        try
        {
            final CommandRun run = CommandRun.of(
                "stat", "--dir", directory.toString(), "--json", "--count", "4", "-i", "300ms");
            assertEquals(0, run.exitCode(), run.err());
            final List<String> lines = run.out().lines().collect(Collectors.toList());
            assertEquals(4, lines.size(), run.out());

            final Map<String, Object> last = sender(MiniJson.object(MiniJson.parse(lines.get(3))), child, null);
            final Map<String, Object> first = sender(MiniJson.object(MiniJson.parse(lines.get(0))), child, last);
            final Map<String, Object> firstCounters = MiniJson.object(first.get("counters"));
            final Map<String, Object> lastCounters = MiniJson.object(last.get("counters"));
            for (final String name : List.of("cwnd-bytes", "pacing-rate-Bps", "delivery-rate-Bps", "min-rtt-ns",
                "srtt-ns", "bytes-in-flight", "packets-retransmitted", "packets-lost", "spurious-losses",
                "cwnd-limited", "pacing-limited", "flow-control-limited", "app-limited"))
            {
                assertTrue(lastCounters.containsKey(name), name + " in " + lastCounters);
            }
            assertTrue(number(lastCounters, "bytes-sent") > number(firstCounters, "bytes-sent"),
                "the counters move between refreshes: " + firstCounters + " then " + lastCounters);
            assertTrue(number(lastCounters, "cwnd-bytes") > 0);
            assertTrue(number(lastCounters, "srtt-ns") > 0);
            assertTrue(BBR_STATES.contains((String)last.get("cc_state")), "controller state " + last.get("cc_state"));
            assertEquals("CONNECTED", last.get("state"));
            assertEquals("bbr", last.get("cc"), "the connection's own controller, not its endpoint's default");
            assertTrue(MiniJson.object(last.get("controller")).containsKey("bbr-max-bw-bytes-per-second"));

            // The default view: one line per connection, as ss -ti, each with its own controller.
            final List<String> rows = rows(CommandRun.of("stat", "--dir", directory.toString(), "--count", "1"));
            assertEquals(2, rows.size(), "the client's and the server's connection: " + rows);
            for (final String row : rows)
            {
                final List<String> columns = List.of(row.trim().split("\\s+"));
                assertEquals(Long.toString(child.pid()), columns.get(0), row);
                assertEquals("bbr", columns.get(3), row);
                assertEquals("CONNECTED", columns.get(4), row);
                assertTrue(BBR_STATES.contains(columns.get(5)), row);
            }
            final List<String> toServer = rows(CommandRun.of("stat", "--dir", directory.toString(), "--count", "1",
                "--peer", "127.0.0.1:" + serverPort));
            assertEquals(1, toServer.size(), toServer.toString());
            assertTrue(toServer.get(0).contains(" 127.0.0.1:" + serverPort + " "), toServer.get(0));
            assertEquals(2, rows(CommandRun.of("stat", "--dir", directory.toString(), "--count", "1", "--port",
                serverPort)).size(), "the server's local port, and the client's peer port");
            final CommandRun noMatch = CommandRun.of("stat", "--dir", directory.toString(), "--count", "1",
                "--peer", "127.0.0.2");
            assertTrue(noMatch.out().contains("no live Pacelink connection matches the filters"), noMatch.out());

            // --all: every process's counters, only those that are not 0 unless --zeros.
            final CommandRun all = CommandRun.of("stat", "--dir", directory.toString(), "--count", "1", "--all");
            assertEquals(0, all.exitCode(), all.err());
            assertTrue(all.out().contains("pid " + child.pid() + "  alive"), all.out());
            assertTrue(all.out().contains("default-cc=reno"), all.out());
            assertTrue(all.out().contains("CC-STATE") && all.out().contains("CWND-LTD"), all.out());
            assertTrue(all.out().contains("scheduler fq: flows 1"), all.out());
            assertTrue(!all.out().contains("malformed-datagrams-dropped 0"), all.out());
            final CommandRun zeros = CommandRun.of("stat", "--dir", directory.toString(), "--count", "1", "--all",
                "--zeros");
            assertTrue(zeros.out().contains("malformed-datagrams-dropped 0"), zeros.out());

            child.getOutputStream().close();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the target stops when its input closes");
            assertEquals(0, child.exitValue());
            assertEquals(List.of(), CountersFileReader.list(directory), "closed endpoints delete their files");
        }
        finally
        {
            child.destroyForcibly();
        }
    }

    @Test
    void keepsTheFilesOfAKilledProcessForAPostMortemWhenAskedAndARefreshRemovesThem() throws Exception
    {
        final Process child = killedTarget();

        // With --keep-dead: hidden in the connections' view, in text and JSON; listed by --all.
        final CommandRun hidden = CommandRun.of("stat", "--dir", directory.toString(), "--count", "1",
            "--keep-dead");
        assertTrue(hidden.out().contains("no live Pacelink connection in " + directory), hidden.out());
        assertTrue(hidden.out().contains("(2 counters files of processes that are gone hidden"), hidden.out());
        assertEquals(List.of(), MiniJson.list(MiniJson.object(MiniJson.parse(CommandRun.of(
            "stat", "--dir", directory.toString(), "--json", "--count", "1", "--keep-dead").out().trim()))
            .get("processes")));
        final CommandRun json = CommandRun.of("stat", "--dir", directory.toString(), "--json", "--count", "1",
            "--all", "--keep-dead");
        assertEquals(0, json.exitCode(), json.err());
        final List<Object> processes = MiniJson.list(MiniJson.object(MiniJson.parse(json.out().trim()))
            .get("processes"));
        assertEquals(2, processes.size());
        for (final Object process : processes)
        {
            assertEquals("stale", MiniJson.object(process).get("status"));
        }
        final CommandRun table = CommandRun.of("stat", "--dir", directory.toString(), "--count", "1", "--all",
            "--keep-dead");
        assertTrue(table.out().contains("STALE (process gone"), table.out());
        final CommandRun otherPid = CommandRun.of(
            "stat", "--dir", directory.toString(), "--count", "1", "--pid", Long.toString(child.pid() + 1));
        assertTrue(otherPid.out().contains("no Pacelink process with pid " + (child.pid() + 1)), otherPid.out());
        assertEquals(2, CountersFileReader.list(directory).size(), "--keep-dead and another pid's view keep them");

        // Without it, the first refresh removes them (said once on standard error, not every refresh) and shows
        // nothing of them, in JSON even with --all.
        final CommandRun refresh = CommandRun.of("stat", "--dir", directory.toString(), "--json", "--all",
            "--count", "2", "-i", "100ms");
        assertEquals(0, refresh.exitCode(), refresh.err());
        for (final String line : refresh.out().lines().collect(Collectors.toList()))
        {
            assertEquals(List.of(), MiniJson.list(MiniJson.object(MiniJson.parse(line)).get("processes")), line);
        }
        assertTrue(refresh.err().contains("pacelink stat: 2 counters files of processes that are gone removed " +
            "from " + directory), refresh.err());
        assertEquals(1, refresh.err().split("pacelink stat: ", -1).length - 1, "said once: " + refresh.err());
        assertEquals(List.of(), CountersFileReader.list(directory));
    }

    @Test
    void cleanAndRefreshesRemoveOnlyThisUsersFilesOfProcessesThatAreGone() throws Exception
    {
        final Process killed = killedTarget();
        final List<Path> staleFiles = CountersFileReader.list(directory);
        // One stale file belongs to another user (as in a directory given with --dir that users share).
        if (!giveToNobody(staleFiles.get(0)))
        {
            Assumptions.abort("giving a file to another user needs root");
        }
        // A file being created: CountersFile.create maps a new sparse file, then writes its header, the layout
        // version last; until then the file is all zeros and names no owner.
        final Path beingCreated = directory.resolve("endpoint-" + killed.pid() + "-9.counters");
        try (RandomAccessFile file = new RandomAccessFile(beingCreated.toFile(), "rw"))
        {
            file.setLength(CountersFile.HEADER_LENGTH + 4096);
        }
        final Process live = startTarget("bbr");
        try
        {
            final CommandRun clean = CommandRun.of("stat", "--dir", directory.toString(), "--clean");
            assertEquals(0, clean.exitCode(), clean.err());
            assertTrue(clean.out().contains("1 stale counters file removed") &&
                clean.out().contains("1 of other users kept"), clean.out());
            assertTrue(clean.out().contains("kept " + staleFiles.get(0)), clean.out());
            final List<Path> left = CountersFileReader.list(directory);
            assertEquals(4, left.size(), "the live process's two files, the one being created and the other " +
                "user's: " + left);
            assertTrue(left.contains(staleFiles.get(0)) && !left.contains(staleFiles.get(1)), left.toString());
            assertTrue(left.contains(beingCreated), left.toString());

            // A refresh shows the live process only, skips the other user's file and keeps the one being created.
            final CommandRun refresh = CommandRun.of("stat", "--dir", directory.toString(), "--json", "--all",
                "--count", "2", "-i", "100ms");
            assertEquals(0, refresh.exitCode(), refresh.err());
            for (final String line : refresh.out().lines().collect(Collectors.toList()))
            {
                final List<Object> processes = MiniJson.list(MiniJson.object(MiniJson.parse(line)).get("processes"));
                assertEquals(2, processes.size(), "the live process's two endpoints: " + line);
                for (final Object process : processes)
                {
                    assertEquals((double)live.pid(), MiniJson.object(process).get("pid"), line);
                    assertEquals("alive", MiniJson.object(process).get("status"), line);
                }
            }
            assertEquals("", refresh.err(), "nothing of this user's to remove");
            assertEquals(left, CountersFileReader.list(directory));
        }
        finally
        {
            live.destroyForcibly();
            live.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * @return a target process, killed (kill -9) before it could close its two endpoints and delete their files.
     */
    private Process killedTarget() throws IOException, InterruptedException
    {
        final Process killed = startTarget("cubic");
        killed.destroyForcibly();
        assertTrue(killed.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, CountersFileReader.list(directory).size(), "a killed process cannot delete its files");
        return killed;
    }

    /**
     * @return true if the file now belongs to {@code nobody}, as in a directory given with --dir that users share;
     * false where that needs root and this is not.
     */
    private static boolean giveToNobody(final Path file)
    {
        try
        {
            Files.setOwner(file, file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
            return true;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    @Test
    void anEmptyDirectoryIsSaidSo()
    {
        final CommandRun run = CommandRun.of("stat", "--dir", directory.resolve("none").toString(), "--count", "1");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("no Pacelink process has counters in"), run.out());
    }

    @Test
    void badArgumentsFailFastWithStatusTwo()
    {
        final CommandRun interval = CommandRun.of("stat", "--dir", directory.toString(), "-i", "0s");
        assertEquals(2, interval.exitCode());
        assertTrue(interval.err().contains("--interval must be positive"), interval.err());

        final CommandRun count = CommandRun.of("stat", "--dir", directory.toString(), "--count", "-1");
        assertEquals(2, count.exitCode());
        assertTrue(count.err().contains("--count must be 0"), count.err());

        final CommandRun peer = CommandRun.of("stat", "--dir", directory.toString(), "--peer", "127.0.0.1:x");
        assertEquals(2, peer.exitCode());
        assertTrue(peer.err().contains("--peer: '127.0.0.1:x' has no valid port"), peer.err());

        final CommandRun port = CommandRun.of("stat", "--dir", directory.toString(), "--port", "70000");
        assertEquals(2, port.exitCode());
        assertTrue(port.err().contains("--port must be 0-65535"), port.err());

        final CommandRun zeros = CommandRun.of("stat", "--dir", directory.toString(), "--zeros");
        assertEquals(2, zeros.exitCode());
        assertTrue(zeros.err().contains("--zeros goes with --all"), zeros.err());

        final CommandRun both = CommandRun.of("stat", "--dir", directory.toString(), "--clean", "--keep-dead");
        assertEquals(2, both.exitCode());
        assertTrue(both.err().contains("--clean removes the files --keep-dead keeps"), both.err());
    }

    /**
     * @param refresh one JSON refresh.
     * @param child   the process whose endpoints it shows (and nothing else).
     * @param same    the connection to find again (same file and id), or null for the one that sent the most.
     * @return a connection of the child's endpoints, with its file added as {@code file}.
     */
    private static Map<String, Object> sender(
        final Map<String, Object> refresh, final Process child, final Map<String, Object> same)
    {
        Map<String, Object> sender = null;
        for (final Object processObject : MiniJson.list(refresh.get("processes")))
        {
            final Map<String, Object> process = MiniJson.object(processObject);
            assertEquals((double)child.pid(), process.get("pid"));
            assertEquals("alive", process.get("status"));
            for (final Object connection : MiniJson.list(process.get("connections")))
            {
                final Map<String, Object> candidate = new HashMap<>(MiniJson.object(connection));
                candidate.put("file", process.get("file"));
                final boolean isWanted = null == same ? null == sender || sentBytes(candidate) > sentBytes(sender) :
                    same.get("file").equals(candidate.get("file")) && same.get("id").equals(candidate.get("id"));
                if (isWanted)
                {
                    sender = candidate;
                }
            }
        }
        assertTrue(null != sender, "connection " + same + " in " + refresh);
        return sender;
    }

    /**
     * @return the connection lines of a default-view refresh (after its column header).
     */
    private static List<String> rows(final CommandRun run)
    {
        assertEquals(0, run.exitCode(), run.err());
        final List<String> lines = run.out().lines().collect(Collectors.toList());
        final int header = lines.indexOf(lines.stream().filter((line) -> line.startsWith("PID ")).findFirst()
            .orElse("none"));
        return header < 0 ? List.of() : lines.subList(header + 1, lines.size()).stream()
            .filter((line) -> !line.startsWith("(")).collect(Collectors.toList());
    }

    private static long sentBytes(final Map<String, Object> connection)
    {
        return number(MiniJson.object(connection.get("counters")), "bytes-sent");
    }

    private static long number(final Map<String, Object> counters, final String name)
    {
        return ((Double)counters.get(name)).longValue();
    }

    private Process startTarget(final String congestionControl) throws IOException, InterruptedException
    {
        final Process child = new ProcessBuilder(
            ChildJvm.command(StatTarget.class, directory.toString(), congestionControl))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.PIPE)
            .start();

        // "connected" means both endpoints (and so both files) exist and data is flowing.
        final long deadlineNs = System.nanoTime() + START_TIMEOUT_NS;
        final StringBuilder output = new StringBuilder();
        int c;
        final Pattern connected = Pattern.compile("connected (\\d+) (\\d+)\n");
        Matcher matcher = connected.matcher(output);
        while (!matcher.find() && (c = child.getInputStream().read()) >= 0)
        {
            output.append((char)c);
            matcher = connected.matcher(output);
            if (System.nanoTime() > deadlineNs)
            {
                break;
            }
        }
        if (!connected.matcher(output).find())
        {
            child.destroyForcibly();
            throw new AssertionError("the target did not start: " + output);
        }
        clientPort = matcher.group(1);
        serverPort = matcher.group(2);
        TimeUnit.MILLISECONDS.sleep(300);
        return child;
    }
}
