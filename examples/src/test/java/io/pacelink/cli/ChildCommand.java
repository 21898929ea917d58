package io.pacelink.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code pacelink} command running in a JVM of its own ({@link ChildJvm}), its standard output and error collected
 * as it runs, for tests of commands that talk to each other across processes.
 */
final class ChildCommand implements AutoCloseable
{
    private final Process process;
    private final StringBuffer out = new StringBuffer();
    private final StringBuffer err = new StringBuffer();
    private final List<Thread> readers = new ArrayList<>();
    private volatile long lastOutputNs;
    private volatile long exitNs;
    private final CompletableFuture<Void> exited;

    private ChildCommand(final Process process)
    {
        this.process = process;
        exited = process.onExit().thenRun(() -> exitNs = System.nanoTime());
        readers.add(drain(process.getInputStream(), out));
        readers.add(drain(process.getErrorStream(), err));
    }

    /**
     * @param args the command line after {@code pacelink}.
     * @return the running command.
     * @throws IOException if the JVM cannot be started.
     */
    static ChildCommand start(final String... args) throws IOException
    {
        return new ChildCommand(new ProcessBuilder(ChildJvm.command(PacelinkCommand.class, args)).start());
    }

    /**
     * @param configDirectory its configuration directory (host key, known hosts) instead of the build's.
     * @param args            the command line after {@code pacelink}.
     * @return the running command.
     * @throws IOException if the JVM cannot be started.
     */
    static ChildCommand start(final Path configDirectory, final String... args) throws IOException
    {
        return new ChildCommand(
            new ProcessBuilder(ChildJvm.command(configDirectory, PacelinkCommand.class, args)).start());
    }

    /**
     * @param jvmOptions options for the child JVM, e.g. a {@code -D} system property.
     * @param args       the command line after {@code pacelink}.
     * @return the running command.
     * @throws IOException if the JVM cannot be started.
     */
    static ChildCommand startWith(final List<String> jvmOptions, final String... args) throws IOException
    {
        final List<String> command = ChildJvm.command(PacelinkCommand.class, args);
        command.addAll(1, jvmOptions);
        return new ChildCommand(new ProcessBuilder(command).start());
    }

    /**
     * @param builder a command line of its own, e.g. {@code bin/pacelink} with its environment.
     * @return the running command.
     * @throws IOException if it cannot be started.
     */
    static ChildCommand startProcess(final ProcessBuilder builder) throws IOException
    {
        return new ChildCommand(builder.start());
    }

    /**
     * @param environment variables set in the child's environment, beside the inherited ones.
     * @param args        the command line after {@code pacelink}.
     * @return the running command.
     * @throws IOException if the JVM cannot be started.
     */
    static ChildCommand startWithEnvironment(final Map<String, String> environment, final String... args)
        throws IOException
    {
        final ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(PacelinkCommand.class, args));
        builder.environment().putAll(environment);
        return new ChildCommand(builder.start());
    }

    /**
     * @param pattern   a regular expression with one group.
     * @param timeoutMs how long to wait for it.
     * @return the group's text in the first match in standard output or error.
     * @throws AssertionError if it does not appear in time, with what was printed.
     */
    String await(final String pattern, final long timeoutMs) throws InterruptedException
    {
        final Pattern compiled = Pattern.compile(pattern);
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        boolean ended = false;
        while (System.nanoTime() < deadlineNs)
        {
            for (final StringBuffer text : List.of(out, err))
            {
                final Matcher matcher = compiled.matcher(text);
                if (matcher.find())
                {
                    return matcher.group(1);
                }
            }
            if (ended)
            {
                break;
            }
            if (!process.isAlive())
            {
                // One more look once everything it printed has been read.
                for (final Thread reader : readers)
                {
                    reader.join(TimeUnit.SECONDS.toMillis(5));
                }
                ended = true;
                continue;
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        throw new AssertionError("'" + pattern + "' did not appear; out: " + out + " err: " + err);
    }

    /**
     * @param timeoutSeconds how long the command may still take.
     * @return its exit status.
     * @throws AssertionError if it does not end in time.
     */
    int waitFor(final long timeoutSeconds) throws InterruptedException
    {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError("still running after " + timeoutSeconds + " s; out: " + out + " err: " + err);
        }
        for (final Thread reader : readers)
        {
            reader.join(TimeUnit.SECONDS.toMillis(5));
        }
        return process.exitValue();
    }

    /**
     * Ask the command to stop as Ctrl-C would (its shutdown hooks run) and wait for it.
     *
     * @param timeoutSeconds how long it may take.
     * @return its exit status.
     */
    int terminate(final long timeoutSeconds) throws InterruptedException
    {
        process.destroy();
        return waitFor(timeoutSeconds);
    }

    /**
     * @return milliseconds from the last output the command printed to its exit (call after {@link #waitFor}): how
     * long it lingered after its last line.
     */
    long msFromLastOutputToExit()
    {
        exited.join();
        return TimeUnit.NANOSECONDS.toMillis(exitNs - lastOutputNs);
    }

    /**
     * @return standard output so far.
     */
    String out()
    {
        return out.toString();
    }

    /**
     * @return standard error so far.
     */
    String err()
    {
        return err.toString();
    }

    /**
     * Stop the command if it still runs.
     */
    public void close()
    {
        process.destroyForcibly();
    }

    private Thread drain(final InputStream stream, final StringBuffer into)
    {
        final Thread reader = new Thread(() ->
        {
            final byte[] chunk = new byte[8192];
            int read;
            try
            {
                while ((read = stream.read(chunk)) >= 0)
                {
                    lastOutputNs = System.nanoTime();
                    into.append(new String(chunk, 0, read, StandardCharsets.UTF_8));
                }
            }
            catch (final IOException ignore)
            {
                // The process ended.
            }
        }, "child-output");
        reader.setDaemon(true);
        reader.start();
        return reader;
    }
}
