package io.pacelink.cli;

import io.pacelink.sim.RunWatcher;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Watches a {@code pacelink sim} run against the wall clock: once it has run for {@value #REPORT_INTERVAL_SECONDS}
 * seconds, and every {@value #REPORT_INTERVAL_SECONDS} seconds after, it prints a line with the simulated time and
 * the events per wall second to stderr; and it stops the run when asked to (Ctrl-C), so that the results so far can
 * be printed. The command line reads the clock here, the simulator never does.
 */
final class SimProgress implements RunWatcher
{
    /**
     * Wall-clock seconds between progress lines, and before the first.
     */
    static final int REPORT_INTERVAL_SECONDS = 3;

    private static final long REPORT_INTERVAL_NS = REPORT_INTERVAL_SECONDS * 1_000_000_000L;

    private final PrintStream err;
    private final long durationNs;
    private final SetupTimer timer = new SetupTimer();
    private final long startWallNs = timer.startWallNs();
    private volatile boolean isStopRequested;
    private long nextReportWallNs;
    private long lastReportWallNs;
    private long lastReportEvents;

    /**
     * @param err        where progress lines go.
     * @param durationNs the run's simulated length.
     */
    SimProgress(final PrintStream err, final long durationNs)
    {
        this.err = err;
        this.durationNs = durationNs;
        this.lastReportWallNs = startWallNs;
        this.nextReportWallNs = startWallNs + REPORT_INTERVAL_NS;
    }

    /**
     * Stop the run at the next look (from any thread, e.g. a shutdown hook).
     */
    void requestStop()
    {
        isStopRequested = true;
    }

    /**
     * @return the run's wall-clock timer, from this watcher's making.
     */
    SetupTimer timer()
    {
        return timer;
    }

    public void beforeFirstEvent()
    {
        timer.beforeFirstEvent();
    }

    public boolean keepRunning(final long nowNs, final long eventsFired)
    {
        if (isStopRequested)
        {
            return false;
        }
        final long wallNs = System.nanoTime();
        if (wallNs >= nextReportWallNs)
        {
            final double intervalSeconds = (wallNs - lastReportWallNs) / 1e9;
            err.printf(Locale.ROOT, "sim: %s of %s simulated (%.0f %%), %.2f M events/s, %.1fx real time%n",
                Units.seconds(nowNs), Units.seconds(durationNs), 100.0 * nowNs / durationNs,
                (eventsFired - lastReportEvents) / intervalSeconds / 1e6, nowNs / ((wallNs - startWallNs) / 1e9) / 1e9);
            lastReportWallNs = wallNs;
            lastReportEvents = eventsFired;
            nextReportWallNs = wallNs + REPORT_INTERVAL_NS;
        }
        return true;
    }
}
