package io.pacelink.cli.transfer;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps what a session reported, for assertions.
 */
final class RecordingOutput implements TransferOutput
{
    final List<FileOutcome> files = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
    final List<TransferSummary> summaries = new ArrayList<>();

    public void listening(final String address, final String directory)
    {
    }

    public void session(final String description)
    {
    }

    public void progress(final ProgressSnapshot progress)
    {
    }

    public synchronized void file(final FileOutcome outcome)
    {
        files.add(outcome);
    }

    public synchronized void warning(final String text)
    {
        warnings.add(text);
    }

    public synchronized void summary(final TransferSummary summary)
    {
        summaries.add(summary);
    }

    public void close()
    {
    }

    synchronized FileOutcome file(final String path)
    {
        for (final FileOutcome outcome : files)
        {
            if (outcome.path().equals(path))
            {
                return outcome;
            }
        }
        throw new AssertionError("no outcome for " + path + " in " + files);
    }
}
