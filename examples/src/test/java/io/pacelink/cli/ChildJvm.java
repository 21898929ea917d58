package io.pacelink.cli;

import io.pacelink.cli.trust.ConfigDirectory;
import io.pacelink.transport.PacelinkContext;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code pacelink} command, or any class's {@code main}, in its own JVM, started with this JVM's class path and
 * Agrona flags (the build's {@code agrona.jvm.args}) and configuration directory ({@link ConfigDirectory#PROPERTY}),
 * its standard output and error going to a log file the test reads while it runs.
 */
public final class ChildJvm
{
    private static final long WAIT_STEP_MS = 20;
    /**
     * The compiler option every child JVM of the suite starts with.
     */
    static final String CHILD_COMPILER = "-XX:TieredStopAtLevel=1";
    /**
     * The system property of the opt-in acceptance runs, whose children start with the default compilers.
     */
    static final String ACCEPTANCE = "pacelink.acceptance";
    /**
     * The priming option every child JVM of the suite starts with.
     */
    static final String NO_LAUNCH_PRIMING = "-D" + PacelinkContext.LAUNCH_PRIMING_PROPERTY + "=off";

    /**
     * The child process.
     */
    public final Process process;
    final Path log;

    private ChildJvm(final Process process, final Path log)
    {
        this.process = process;
        this.log = log;
    }

    /**
     * @param log       where its output goes.
     * @param arguments the {@code pacelink} command line.
     * @return the running process.
     */
    static ChildJvm start(final Path log, final String... arguments) throws IOException
    {
        return start(log, PacelinkCommand.class, arguments);
    }

    /**
     * @param log       where its output goes.
     * @param mainClass the class whose {@code main} runs.
     * @param arguments its arguments.
     * @return the running process.
     */
    public static ChildJvm start(final Path log, final Class<?> mainClass, final String... arguments)
        throws IOException
    {
        final Process process = new ProcessBuilder(command(mainClass, arguments))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
        return new ChildJvm(process, log);
    }

    /**
     * @param mainClass the class whose {@code main} runs.
     * @param arguments its arguments.
     * @return the whole command line, ready for a {@link ProcessBuilder}.
     */
    static List<String> command(final Class<?> mainClass, final String... arguments)
    {
        final List<String> command = javaCommand(mainClass);
        command.addAll(List.of(arguments));
        return command;
    }

    /**
     * @param configDirectory the configuration directory the command uses (its host key, its known hosts).
     * @param mainClass       the class whose {@code main} runs.
     * @param arguments       its arguments.
     * @return the whole command line, ready for a {@link ProcessBuilder}.
     */
    static List<String> command(final Path configDirectory, final Class<?> mainClass, final String... arguments)
    {
        final List<String> command = javaCommand(mainClass, configDirectory.toString());
        command.addAll(List.of(arguments));
        return command;
    }

    /**
     * @param mainClass the class to run.
     * @return {@code java} with this JVM's class path and the Agrona flags it was started with (the build's
     * {@code agrona.jvm.args}), and the class; append its arguments.
     */
    static List<String> javaCommand(final Class<?> mainClass)
    {
        return javaCommand(mainClass, System.getProperty(ConfigDirectory.PROPERTY));
    }

    private static List<String> javaCommand(final Class<?> mainClass, final String configDirectory)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (argument.startsWith("--add-exports") || argument.startsWith("--add-opens"))
            {
                command.add(argument);
            }
        }
        if (null != configDirectory)
        {
            command.add("-D" + ConfigDirectory.PROPERTY + "=" + configDirectory);
        }
        command.add("-Xmx512m");
        command.addAll(childJvmOptions());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        return command;
    }

    /**
     * @return the JVM options every child JVM of the suite starts with, the documents' commands too
     * ({@code PACELINK_JAVA_OPTS}): none in the opt-in acceptance runs.
     */
    public static List<String> childJvmOptions()
    {
        // C1 only, the option bin/pacelink offers small machines (PACELINK_JAVA_OPTS=-XX:TieredStopAtLevel=1): a
        // child lives for seconds, and C2's compilations of its start-up would take the cores from the other
        // processes of the test and from the other test JVMs. Nor the launch's priming (a server's handshake path,
        // a perf client's transfer): up to a second of a core per server and half a second per perf client, for a
        // JIT that the child's seconds of checks do not need; a test of the priming runs it in its own JVM, or
        // names it (--prime). The suite checks behaviour, never speed; the opt-in acceptance runs
        // (-Dpacelink.acceptance=true), which judge or print rates, start their children as bin/pacelink does.
        return Boolean.getBoolean(ACCEPTANCE) ? List.of() : List.of(CHILD_COMPILER, NO_LAUNCH_PRIMING);
    }

    /**
     * @return what it printed so far.
     */
    public String output() throws IOException
    {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /**
     * @param pattern   a regular expression.
     * @param timeoutMs how long to wait for it.
     * @return the first match in its output.
     */
    public Matcher await(final String pattern, final long timeoutMs) throws IOException, InterruptedException
    {
        final Pattern compiled = Pattern.compile(pattern);
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true)
        {
            final Matcher matcher = compiled.matcher(output());
            if (matcher.find())
            {
                return matcher;
            }
            if (System.nanoTime() - deadlineNs > 0 || !process.isAlive() && !compiled.matcher(output()).find())
            {
                throw new AssertionError("no /" + pattern + "/ in the output of a pacelink command" +
                    (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")") + ":\n" + output());
            }
            TimeUnit.MILLISECONDS.sleep(WAIT_STEP_MS);
        }
    }

    /**
     * @param timeoutMs how long to wait.
     * @return its exit status.
     */
    public int exitValue(final long timeoutMs) throws InterruptedException, IOException
    {
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError("a pacelink command did not exit within " + timeoutMs + " ms:\n" + output());
        }
        return process.exitValue();
    }

    /**
     * {@code kill -9} it, wait until it is gone, and remove the counters file it could not delete (what
     * {@code pacelink stat --clean} is for).
     *
     * @return its exit status.
     */
    int kill() throws InterruptedException, IOException
    {
        process.destroyForcibly();
        final int status = exitValue(30_000);
        final CommandRun clean = CommandRun.of("stat", "--clean", "--pid", Long.toString(process.pid()));
        if (0 != clean.exitCode())
        {
            throw new AssertionError("stat --clean failed: " + clean.err());
        }
        return status;
    }

    /**
     * @return the port in its "listening on HOST:PORT" or "relaying HOST:PORT" line.
     */
    public int port() throws IOException, InterruptedException
    {
        return Integer.parseInt(await("(?:listening on |relaying |\"address\":\")[^ ,\"]*?:(\\d+)", 20_000).group(1));
    }
}
