package io.pacelink.cli.transfer;

import io.pacelink.cli.Units;

import java.util.Locale;

/**
 * The human-readable lines of the file-transfer commands: a progress line, a line per entry with its SHA-256, and
 * the summary.
 */
final class TextLines
{
    private TextLines()
    {
    }

    /**
     * @param progress the progress now.
     * @return e.g. {@code [ 3.0 s]  45.0 MBytes of 256.0 MBytes  17.6%  112.3 Mbits/sec  ETA 0:00:15  retr 120  files
     * 2/10  big.bin 17%}.
     */
    static String progress(final ProgressSnapshot progress)
    {
        final StringBuilder line = new StringBuilder(160);
        line.append(String.format(Locale.ROOT, "[%6.1f s] %12s of %s %5.1f%% %16s  ETA %s",
            progress.elapsedNs() / 1e9,
            Units.bytes(progress.bytesDone()),
            Units.bytes(progress.bytesTotal()),
            percent(progress.bytesDone(), progress.bytesTotal()),
            Units.bitsPerSecond(progress.bitsPerSecond()),
            eta(progress.etaSeconds())));
        if (ProgressSnapshot.NOT_SENDING != progress.retransmits())
        {
            line.append("  retr ").append(progress.retransmits());
        }
        line.append("  files ").append(progress.entriesDone()).append('/').append(progress.entriesTotal());
        if (null != progress.currentPath())
        {
            line.append(String.format(Locale.ROOT, "  %s %.0f%%", progress.currentPath(),
                percent(progress.currentDone(), progress.currentSize())));
        }
        return line.toString();
    }

    /**
     * @param outcome an entry's verdict.
     * @return e.g. {@code ok         256.0 MBytes  sha256 4f6c...  big.bin}, or {@code REFUSED    x: why}.
     */
    static String file(final FileOutcome outcome)
    {
        final String status = outcome.status().name();
        if (!outcome.status().isSuccess())
        {
            return String.format(Locale.ROOT, "%-10s %s: %s", status, outcome.path(), outcome.reason());
        }
        if (outcome.directory())
        {
            return String.format(Locale.ROOT, "%-10s %12s  %-64s  %s/", status.toLowerCase(Locale.ROOT), "", "",
                outcome.path());
        }
        final StringBuilder line = new StringBuilder(160).append(String.format(Locale.ROOT, "%-10s %12s  %s  %s",
            status.toLowerCase(Locale.ROOT), Units.bytes(outcome.size()), outcome.sha256(), outcome.path()));
        if (outcome.resumedFrom() > 0)
        {
            line.append("  (resumed at ").append(Units.bytes(outcome.resumedFrom())).append(", ")
                .append(Units.bytes(outcome.resentBytes())).append(" sent again)");
        }
        if (null != outcome.reason() && FileStatus.OK == outcome.status())
        {
            line.append("  (").append(outcome.reason()).append(')');
        }
        return line.toString();
    }

    /**
     * @param summary the result.
     * @param verb    "sent" or "received".
     * @return two lines: the figures, then whether everything was confirmed.
     */
    static String summary(final TransferSummary summary, final String verb)
    {
        final String figures = String.format(Locale.ROOT,
            "%s %d of %d %s, %s in %s (%s); %s kept from earlier transfers, %s sent again; %s%d corrupted " +
                "packets dropped",
            verb,
            summary.entriesOk(),
            summary.entries(),
            1 == summary.entries() ? "entry" : "entries",
            Units.bytes(summary.bytesMoved()),
            Units.seconds(summary.elapsedNs()),
            Units.bitsPerSecond(summary.bitsPerSecond()),
            Units.bytes(summary.bytesResumed()),
            Units.bytes(summary.bytesResent()),
            ProgressSnapshot.NOT_SENDING == summary.retransmits() ? "" :
                summary.retransmits() + " packets retransmitted, ",
            summary.integrityFailures());
        final String verdict;
        if (summary.succeeded())
        {
            verdict = "OK: every entry arrived with a matching SHA-256 and is stored under its final name";
        }
        else if (null != summary.failure())
        {
            verdict = "FAILED: " + summary.failure() + (summary.entriesFailed() > 0 ? " (" +
                entries(summary.entriesFailed()) + " not confirmed)" : "");
        }
        else
        {
            verdict = "FAILED: " + entries(summary.entriesFailed()) + " did not arrive (see above)";
        }
        return figures + System.lineSeparator() + verdict;
    }

    /**
     * @param seconds time left, or -1 if unknown.
     * @return {@code h:mm:ss}, or {@code -:--:--}.
     */
    static String eta(final long seconds)
    {
        return seconds < 0 ? "-:--:--" :
            String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }

    private static double percent(final long done, final long total)
    {
        return total <= 0 ? 100.0 : done * 100.0 / total;
    }

    private static String entries(final int count)
    {
        return count + (1 == count ? " entry" : " entries");
    }
}
