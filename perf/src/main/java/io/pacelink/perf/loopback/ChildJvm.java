package io.pacelink.perf.loopback;

import io.pacelink.perf.BenchmarkJvm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A harness process: {@code java} with this JVM's Agrona flags, a class path and a main class, its output (after a
 * first line holding the command) in a log file that the harness reads while it runs.
 */
public final class ChildJvm
{
    private static final long POLL_MS = 20;

    private ChildJvm()
    {
    }

    /**
     * @param classPath the child's class path.
     * @param jvmArgs   extra JVM options (e.g. a flight recording).
     * @param args      the main class and its arguments.
     * @param log       where the command line and then the child's output and errors go.
     * @return the running child.
     */
    public static Process start(final String classPath, final List<String> jvmArgs, final List<String> args,
        final Path log) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(BenchmarkJvm.ADD_EXPORTS_MISC);
        command.add(BenchmarkJvm.ADD_OPENS_MISC);
        command.add("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(classPath);
        command.addAll(args);
        Files.writeString(log, String.join(" ", command) + System.lineSeparator(), StandardCharsets.UTF_8);
        return new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    }

    /**
     * @param process   the child.
     * @param log       its log.
     * @param marker    text a line must contain.
     * @param timeoutNs longest wait.
     * @return the first line holding the marker, or null if the child ended or the time ran out first.
     */
    public static String awaitLine(final Process process, final Path log, final String marker, final long timeoutNs)
        throws IOException, InterruptedException
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (System.nanoTime() - deadlineNs < 0)
        {
            for (final String line : Files.readAllLines(log, StandardCharsets.UTF_8))
            {
                if (line.contains(marker))
                {
                    return line;
                }
            }
            if (!process.isAlive())
            {
                return null;
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
        }
        return null;
    }

    /**
     * @return the machine's load averages over 1, 5 and 15 minutes, or {@code ?}.
     */
    public static String loadAverage()
    {
        try
        {
            final String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        }
        catch (final IOException ex)
        {
            return "?";
        }
    }
}
