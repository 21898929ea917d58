package io.pacelink.cli.perf;

import io.pacelink.cli.net.TransportWaits;

/**
 * The seconds at the start of a test that its totals leave out ({@code --omit}, iperf3's {@code -O}): the data moves
 * from the start, but the JVM compiles its hot code during the first seconds (most of a short test's CPU at low rates,
 * perf/FINDINGS.md), so figures that begin after them measure the steady state. Each end keeps its own, from its own
 * start of the test.
 */
final class OmittedSeconds
{
    private final long endNs;
    private boolean isOver;

    /**
     * @param startNs the test's start at this end.
     * @param omitNs  how long to omit, 0 for nothing.
     */
    OmittedSeconds(final long startNs, final long omitNs)
    {
        this.endNs = startNs + omitNs;
        this.isOver = 0 == omitNs;
    }

    /**
     * @param deadlineNs a time.
     * @return the earlier of it and the omitted seconds' end (it, once they are over or if nothing is omitted).
     */
    long earlierDeadlineNs(final long deadlineNs)
    {
        return isOver ? deadlineNs : TransportWaits.earlier(endNs, deadlineNs);
    }

    /**
     * @param nowNs the time now.
     * @return true exactly once, at the first call at or after the omitted seconds' end (never when nothing is
     * omitted): then the caller restarts its CPU figure and calls {@link PerfReport#endOmitted}.
     */
    boolean endsBy(final long nowNs)
    {
        if (isOver || nowNs - endNs < 0)
        {
            return false;
        }
        isOver = true;
        return true;
    }
}
