package io.pacelink.cli.transfer;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * Output for a log or a pipe (stdout is not a terminal): a progress line every second, a line per entry as its
 * verdict arrives, and the summary.
 */
final class PlainOutput extends TextOutput
{
    private static final long PROGRESS_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private long nextProgressNs = PROGRESS_INTERVAL_NS;

    PlainOutput(final PrintStream out, final String verb)
    {
        super(out, verb);
    }

    public synchronized void progress(final ProgressSnapshot progress)
    {
        if (progress.elapsedNs() >= nextProgressNs)
        {
            out.println(TextLines.progress(progress));
            nextProgressNs = progress.elapsedNs() + PROGRESS_INTERVAL_NS;
        }
    }

    public synchronized void file(final FileOutcome outcome)
    {
        out.println(TextLines.file(outcome));
    }

    public synchronized void warning(final String text)
    {
        out.println("warning: " + text);
    }

    public synchronized void summary(final TransferSummary summary)
    {
        out.println(TextLines.summary(summary, verb));
    }

    public synchronized void close()
    {
        out.flush();
    }
}
