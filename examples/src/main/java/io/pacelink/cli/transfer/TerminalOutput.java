package io.pacelink.cli.transfer;

import me.tongfei.progressbar.InteractiveConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Output for a person at a terminal: two progress bars (me.tongfei:progressbar) redrawn in place, the whole
 * transfer (bytes, rate, ETA from the last few seconds' rate, entries, retransmits) and the current file. Lines
 * printed under live bars would scramble them, so the per-entry lines are kept and printed when the bars close,
 * before the summary; failures are few and matter most, so they come last.
 */
final class TerminalOutput extends TextOutput
{
    private static final long MEBIBYTE = 1L << 20;

    private final List<String> lines = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private ProgressBar total;
    private ProgressBar current;
    private volatile long etaSeconds = -1;

    TerminalOutput(final PrintStream out, final String verb)
    {
        super(out, verb);
    }

    public synchronized void progress(final ProgressSnapshot progress)
    {
        if (null == total)
        {
            total = bar("total");
            current = bar("file");
        }
        etaSeconds = progress.etaSeconds();
        total.maxHint(Math.max(1, progress.bytesTotal()));
        total.stepTo(progress.bytesDone());
        total.setExtraMessage(String.format(" %d/%d entries", progress.entriesDone(), progress.entriesTotal()) +
            (ProgressSnapshot.NOT_SENDING == progress.retransmits() ? "" : ", retr " + progress.retransmits()));
        current.maxHint(Math.max(1, progress.currentSize()));
        current.stepTo(progress.currentDone());
        current.setExtraMessage(null == progress.currentPath() ? "" : " " + progress.currentPath());
    }

    public synchronized void file(final FileOutcome outcome)
    {
        (outcome.status().isSuccess() ? lines : failures).add(TextLines.file(outcome));
    }

    public synchronized void warning(final String text)
    {
        failures.add("warning: " + text);
    }

    public synchronized void summary(final TransferSummary summary)
    {
        closeBars();
        lines.forEach(out::println);
        failures.forEach(out::println);
        lines.clear();
        failures.clear();
        out.println(TextLines.summary(summary, verb));
    }

    public synchronized void close()
    {
        closeBars();
        out.flush();
    }

    private ProgressBar bar(final String task)
    {
        return new ProgressBarBuilder()
            .setTaskName(task)
            .setInitialMax(1)
            .setStyle(ProgressBarStyle.ASCII)
            .setUnit("MiB", MEBIBYTE)
            .showSpeed()
            .setUpdateIntervalMillis(200)
            .setEtaFunction((state) -> etaSeconds < 0 ? Optional.empty() : Optional.of(Duration.ofSeconds(etaSeconds)))
            .setConsumer(new InteractiveConsoleProgressBarConsumer(out))
            .build();
    }

    private void closeBars()
    {
        if (null != total)
        {
            total.close();
            current.close();
            total = null;
            current = null;
        }
    }
}
