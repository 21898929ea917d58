package io.pacelink.cli.perf;

import io.pacelink.cli.ServerHeap;
import io.pacelink.cli.ShutdownHooks;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs a perf server or client for the command line: output where asked, and Ctrl-C ending a client's test early
 * (with its summary) or stopping a server (after its tests in progress are told).
 */
public final class PerfRun
{
    /**
     * Longest the JVM waits, once Ctrl-C was pressed, for the run to wrap up: the end of a client's test can take
     * {@link PerfClient#END_TIMEOUT_NS}.
     */
    private static final long MAX_WRAP_UP_SECONDS = 60;

    private PerfRun()
    {
    }

    /**
     * @param options what to serve.
     * @param out     standard output: each test's report, and the server's own lines in text mode.
     * @param err     standard error: the server's own lines in JSON mode.
     * @return the server's exit status.
     */
    public static int serve(final PerfServer.Options options, final PrintStream out, final PrintStream err)
    {
        final PrintStream log = options.json() ? err : out;
        ServerHeap.returnMemoryWhenIdle();
        return ShutdownHooks.runStoppable("pacelink-perf-shutdown", MAX_WRAP_UP_SECONDS, (stop) ->
            new PerfServer(options, out::println, log::println, stop).run());
    }

    /**
     * @param options what to run.
     * @param json    print one JSON document instead of text.
     * @param plot    where to draw the interval series, or null.
     * @param out     where the report goes.
     * @return why the test failed, or null if it succeeded.
     */
    public static String runClient(
        final PerfClient.Options options, final boolean json, final Path plot, final PrintStream out)
    {
        final String[] error = new String[1];
        ShutdownHooks.runStoppable("pacelink-perf-shutdown", MAX_WRAP_UP_SECONDS, (stop) ->
        {
            final PerfClient client = new PerfClient(options, json ? null : new PerfText(out::println), stop);
            final PerfReport report = client.run();
            if (json)
            {
                out.println(PerfJson.write(report, true));
            }
            if (null != plot && !report.intervals.isEmpty())
            {
                PerfPlot.write(plot, report);
            }
            out.flush();
            error[0] = report.error;
            return 0;
        });
        return error[0];
    }

    /**
     * @param plot where {@code --plot} will write, or null.
     * @throws IllegalArgumentException if its folder does not exist (checked before the test, not after).
     */
    public static void checkPlotFolder(final Path plot)
    {
        if (null == plot)
        {
            return;
        }
        final Path folder = plot.toAbsolutePath().getParent();
        if (null == folder || !Files.isDirectory(folder))
        {
            throw new IllegalArgumentException("--plot: the folder " + folder + " does not exist");
        }
    }
}
