package io.pacelink.cli;

import io.pacelink.sim.RunWatcher;

/**
 * Times a simulation run against the wall clock and tells its set-up (the hosts and endpoints built) from its events,
 * and never stops it: for a run no one watches otherwise ({@code pacelink sim --seeds}), and inside
 * {@link SimProgress}. The command line reads the clock here, the simulator never does.
 */
final class SetupTimer implements RunWatcher
{
    private final long startWallNs = System.nanoTime();
    private long setupWallNs;

    /**
     * @return when this timer was made, on {@link System#nanoTime()}'s clock.
     */
    long startWallNs()
    {
        return startWallNs;
    }

    /**
     * @return how long the run has taken since this timer was made, in wall-clock nanoseconds.
     */
    long elapsedWallNs()
    {
        return System.nanoTime() - startWallNs;
    }

    /**
     * @return how long its set-up took: from this timer's making to the run's first event (0 before it).
     */
    long setupWallNs()
    {
        return setupWallNs;
    }

    public void beforeFirstEvent()
    {
        setupWallNs = System.nanoTime() - startWallNs;
    }

    public boolean keepRunning(final long nowNs, final long eventsFired)
    {
        return true;
    }
}
