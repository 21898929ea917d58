package io.pacelink.report;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Tells how far a report's runs have got: one line per finished run with the count, the share done, the time so far
 * and an estimate of the time left (the mean wall time per finished run so far, times the runs left, divided over
 * the parallel jobs as they were).
 */
public final class ProgressMeter
{
    private final PrintWriter out;
    private final int total;
    private final LongSupplier clockNs;
    private final long startNs;
    private int done;

    /**
     * @param out     where the lines go (standard error on the command line).
     * @param total   runs in all.
     * @param clockNs the wall clock, in ns.
     */
    public ProgressMeter(final PrintWriter out, final int total, final LongSupplier clockNs)
    {
        this.out = out;
        this.total = total;
        this.clockNs = clockNs;
        this.startNs = clockNs.getAsLong();
    }

    /**
     * @param run    the run that finished.
     * @param wallNs how long it took.
     */
    public synchronized void onRunDone(final RunSpec run, final long wallNs)
    {
        done++;
        final long elapsedNs = clockNs.getAsLong() - startNs;
        final long etaNs = (long)((double)elapsedNs / done * (total - done));
        final int width = Integer.toString(total).length();
        out.printf(Locale.ROOT, "[%" + width + "d/%d] %3d%%  %s elapsed, ETA %s  %s (%.1f s)%n",
            done, total, done * 100 / total, clock(elapsedNs), done == total ? "0:00" : clock(etaNs),
            run.describe(), wallNs / 1e9);
        out.flush();
    }

    /**
     * @return runs finished so far.
     */
    public synchronized int done()
    {
        return done;
    }

    /**
     * @param ns a duration.
     * @return it as {@code m:ss} (or {@code h:mm:ss}).
     */
    static String clock(final long ns)
    {
        final long seconds = Math.round(ns / 1e9);
        final long hours = seconds / 3600;
        return hours > 0 ?
            String.format(Locale.ROOT, "%d:%02d:%02d", hours, seconds / 60 % 60, seconds % 60) :
            String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }
}
