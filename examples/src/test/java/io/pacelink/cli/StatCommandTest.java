package io.pacelink.cli;

import io.pacelink.transport.stats.CountersFileReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pacelink stat} reading the live counters of endpoints that run in another JVM (a child process started with
 * this JVM's class path and Agrona flags), then their removal on close, and a killed process's stale files.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StatCommandTest
{
    private static final long START_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final Set<String> BBR_STATES = Set.of("STARTUP", "DRAIN", "PROBE_BW", "PROBE_RTT");

    @TempDir
    Path directory;

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
            assertTrue(MiniJson.object(last.get("controller")).containsKey("bbr-max-bw-bytes-per-second"));

            final CommandRun table = CommandRun.of("stat", "--dir", directory.toString(), "--count", "1");
            assertEquals(0, table.exitCode(), table.err());
            assertTrue(table.out().contains("pid " + child.pid() + "  alive"), table.out());
            assertTrue(table.out().contains("CC-STATE"), table.out());
            assertTrue(table.out().contains("scheduler fq: flows 1"), table.out());

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
    void listsTheFilesOfAKilledProcessAsStaleAndCleanRemovesThem() throws Exception
    {
        final Process child = startTarget("cubic");
        child.destroyForcibly();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, CountersFileReader.list(directory).size(), "a killed process cannot delete its files");

        final CommandRun json = CommandRun.of("stat", "--dir", directory.toString(), "--json", "--count", "1");
        assertEquals(0, json.exitCode(), json.err());
        final List<Object> processes = MiniJson.list(MiniJson.object(MiniJson.parse(json.out().trim()))
            .get("processes"));
        assertEquals(2, processes.size());
        for (final Object process : processes)
        {
            assertEquals("stale", MiniJson.object(process).get("status"));
        }
        final CommandRun table = CommandRun.of("stat", "--dir", directory.toString(), "--count", "1");
        assertTrue(table.out().contains("STALE (process gone"), table.out());
        final CommandRun otherPid = CommandRun.of(
            "stat", "--dir", directory.toString(), "--count", "1", "--pid", Long.toString(child.pid() + 1));
        assertTrue(otherPid.out().contains("no Pacelink process with pid " + (child.pid() + 1)), otherPid.out());

        final CommandRun clean = CommandRun.of("stat", "--dir", directory.toString(), "--clean");
        assertEquals(0, clean.exitCode(), clean.err());
        assertTrue(clean.out().contains("2 stale counters files removed"), clean.out());
        assertEquals(List.of(), CountersFileReader.list(directory));
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
        while (output.indexOf("connected") < 0 && (c = child.getInputStream().read()) >= 0)
        {
            output.append((char)c);
            if (System.nanoTime() > deadlineNs)
            {
                break;
            }
        }
        if (output.indexOf("connected") < 0)
        {
            child.destroyForcibly();
            throw new AssertionError("the target did not start: " + output);
        }
        TimeUnit.MILLISECONDS.sleep(300);
        return child;
    }
}
