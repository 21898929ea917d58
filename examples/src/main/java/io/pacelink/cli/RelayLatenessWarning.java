package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import io.pacelink.link.relay.RelayReporter;
import io.pacelink.link.relay.RelayStats;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Warns when the relay itself distorts the path it emulates: a packet it releases late arrives that much later than
 * the path says, so when the 99th percentile of its release lateness is a sizeable share of the path's one-way delay
 * (a descheduled relay thread on a busy machine: 36 ms late on a 40 ms path has been seen), the emulated delay and
 * jitter, and what a transport measures over them, are the machine's as much as the path's. Said once, on standard
 * error, when it first happens, and again in the summary (unless it was said already and the summary is not asked
 * to repeat it); the reports go on as before.
 */
final class RelayLatenessWarning implements RelayReporter
{
    /**
     * Lateness below this is never worth a warning: a millisecond is within what any real path's jitter adds.
     */
    static final long MIN_THRESHOLD_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * Share of the smallest one-way delay that the 99th percentile of lateness may reach before the relay warns.
     */
    static final double SHARE_OF_DELAY = 0.1;

    private final RelayReporter delegate;
    private final PrintStream err;
    private final String command;
    private final boolean repeatInSummary;
    private final long thresholdNs;
    private final long delayNs;
    private boolean warned;

    /**
     * For {@code pacelink netem}: warns when it happens and again in the summary.
     *
     * @param delegate the reporter that prints the reports.
     * @param err      where the warning goes.
     * @param path     the emulated path.
     */
    RelayLatenessWarning(final RelayReporter delegate, final PrintStream err, final PathSpec.Pair path)
    {
        this(delegate, err, path, "netem", true);
    }

    /**
     * @param delegate        the reporter that prints the reports.
     * @param err             where the warning goes.
     * @param path            the emulated path.
     * @param command         the command whose relay it is, for the warning, e.g. {@code demo}.
     * @param repeatInSummary whether the summary says it again when it was said during the run.
     */
    RelayLatenessWarning(
        final RelayReporter delegate,
        final PrintStream err,
        final PathSpec.Pair path,
        final String command,
        final boolean repeatInSummary)
    {
        this.delegate = delegate;
        this.err = err;
        this.command = command;
        this.repeatInSummary = repeatInSummary;
        final long forwardNs = path.forward().delayNs();
        final long reverseNs = path.reverse().delayNs();
        delayNs = 0 == forwardNs ? reverseNs : 0 == reverseNs ? forwardNs : Math.min(forwardNs, reverseNs);
        thresholdNs = thresholdNs(delayNs);
    }

    /**
     * For a relay inside another command (the demo's): the warning alone, said once per relay, no reports.
     *
     * @param err     where the warning goes.
     * @param path    the emulated path.
     * @param command the command whose relay it is, e.g. {@code demo}.
     * @return the reporter.
     */
    static RelayLatenessWarning withoutReports(final PrintStream err, final PathSpec.Pair path, final String command)
    {
        return new RelayLatenessWarning(new RelayReporter()
        {
            public void onInterval(final RelayStats previous, final RelayStats current)
            {
            }

            public void onClose(final RelayStats total)
            {
            }
        }, err, path, command, false);
    }

    /**
     * @param oneWayDelayNs the path's smallest nonzero one-way delay, or 0.
     * @return the 99th percentile of lateness above which the relay warns.
     */
    static long thresholdNs(final long oneWayDelayNs)
    {
        return Math.max(MIN_THRESHOLD_NS, (long)(SHARE_OF_DELAY * oneWayDelayNs));
    }

    public void onInterval(final RelayStats previous, final RelayStats current)
    {
        delegate.onInterval(previous, current);
        if (!warned && current.releaseLateP99Ns() > thresholdNs)
        {
            warned = true;
            err.println(warning(current));
        }
    }

    public void onClose(final RelayStats total)
    {
        delegate.onClose(total);
        if (total.releaseLateP99Ns() > thresholdNs && (repeatInSummary || !warned))
        {
            warned = true;
            err.println(warning(total));
        }
    }

    public void onRebinding(final int clients)
    {
        delegate.onRebinding(clients);
    }

    public void onRealtimePriority(final int priority, final String refusal)
    {
        delegate.onRealtimePriority(priority, refusal);
        if (null != refusal)
        {
            err.println("pacelink " + command + ": warning: --rt " + priority + " not applied, the relay's thread " +
                "runs at a normal priority: " + refusal);
        }
    }

    private String warning(final RelayStats stats)
    {
        return String.format(Locale.ROOT, "pacelink %s: warning: the relay released packets late by %.1f ms at " +
            "the 99th percentile (%.1f ms at most)%s: the path it emulates is distorted by that much. The relay's " +
            "thread was kept from running on time: a busy machine, or too few cores for the relay and both ends",
            command, stats.releaseLateP99Ns() / 1e6, stats.releaseLateMaxNs() / 1e6,
            delayNs > 0 ? String.format(Locale.ROOT, ", on a path of %.1f ms one way", delayNs / 1e6) : "");
    }
}
