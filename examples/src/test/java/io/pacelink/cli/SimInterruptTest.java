package io.pacelink.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pacelink sim} in a JVM of its own, interrupted as Ctrl-C interrupts it: a SIGINT once its first progress
 * line is out. It must print the results so far and exit with status 130. Linux and macOS only (it sends the signal
 * with {@code kill}). Where the build itself ignores SIGINT (started in the background by a script), the test
 * falls back to SIGTERM, which runs the same shutdown hook.
 */
@Timeout(120)
class SimInterruptTest
{
    private static final int SIGTERM_EXIT_STATUS = 128 + 15;
    private static final long SIGINT_WAIT_SECONDS = 10;

    @Test
    void ctrlCStopsALongRunAndPrintsThePartialResult() throws Exception
    {
        final Process sim = new ProcessBuilder(ChildJvm.command(PacelinkCommand.class, "sim", "--cc", "cubic",
            "--path", "rate=1gbit delay=10ms queue=1bdp", "--duration", "1h")).start();
        try
        {
            final CompletableFuture<String> out = readAll(sim.getInputStream());
            final BufferedReader err =
                new BufferedReader(new InputStreamReader(sim.getErrorStream(), StandardCharsets.UTF_8));
            final String progress = err.readLine();
            assertTrue(null != progress && progress.matches(
                "sim: [0-9.]+ s of 3600 s simulated \\([0-9]+ %\\), [0-9.]+ M events/s, [0-9.]+x real time"),
                "progress line: " + progress);

            signal(sim, "INT");
            int expectedExitStatus = SimCommand.INTERRUPTED_EXIT_STATUS;
            if (!sim.waitFor(SIGINT_WAIT_SECONDS, TimeUnit.SECONDS))
            {
                // A build started in the background by a non-interactive shell ignores SIGINT, and so do the JVMs it
                // starts: SIGTERM runs the same shutdown hook.
                signal(sim, "TERM");
                expectedExitStatus = SIGTERM_EXIT_STATUS;
            }
            assertTrue(sim.waitFor(60, TimeUnit.SECONDS), "the run stopped");

            final String table = out.get(10, TimeUnit.SECONDS);
            assertEquals(expectedExitStatus, sim.exitValue(), table);
            assertTrue(table.contains("(interrupted: the figures cover the simulated time run so far)"), table);
            assertTrue(table.matches("(?s).*\n   0 cubic    0-[0-9.]+ s .*"), table);
            assertTrue(table.contains("link utilisation"), table);
        }
        finally
        {
            sim.destroyForcibly();
        }
    }

    @Test
    void noCommandAtAllIsAUsageError()
    {
        final CommandRun run = CommandRun.of();
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains(
            "pacelink: give a command: demo, sim, report, netem, stat, send, receive, perf, ping, keygen or help"),
            run.err());
        assertTrue(run.err().contains("Usage: pacelink"), run.err());
    }

    private static void signal(final Process process, final String signal) throws Exception
    {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
        assertEquals(0, kill.waitFor(), "kill -" + signal);
    }

    private static CompletableFuture<String> readAll(final InputStream in)
    {
        return CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException(ex);
            }
        });
    }
}
