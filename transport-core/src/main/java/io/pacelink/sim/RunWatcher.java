package io.pacelink.sim;

/**
 * Looks at a running simulation from outside every {@link Simulator#WATCH_INTERVAL_EVENTS} events, e.g. to report
 * progress against the wall clock or to stop a run the user interrupted. It is no simulator event: watching changes
 * nothing the simulation does or hashes, only where a stopped run ends.
 */
@FunctionalInterface
public interface RunWatcher
{
    /**
     * Watches nothing and never stops a run.
     */
    RunWatcher NONE = (nowNs, eventsFired) -> true;

    /**
     * @param nowNs       the virtual time.
     * @param eventsFired events fired so far.
     * @return false to stop the run after the event just fired.
     */
    boolean keepRunning(long nowNs, long eventsFired);

    /**
     * Called once by a scenario's run when its set-up is done (every host and endpoint built) and its first event is
     * about to fire, so a watcher can tell the set-up's wall time from the events'. Nothing by default.
     */
    default void beforeFirstEvent()
    {
    }
}
