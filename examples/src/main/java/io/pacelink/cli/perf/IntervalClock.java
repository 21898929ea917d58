package io.pacelink.cli.perf;

import io.pacelink.cli.net.TransportWaits;

/**
 * When a test's interval reports are due ({@code -i}): every interval from the test's start, without drift, and a
 * last, shorter one at the end if it is worth a line (at least a tenth of an interval, as iperf3 leaves out
 * slivers).
 */
final class IntervalClock
{
    private final long startNs;
    private final long intervalNs;
    private long intervalStartNs;
    private long nextNs;

    /**
     * @param startNs    the test's start.
     * @param intervalNs the reporting interval, 0 for none.
     */
    IntervalClock(final long startNs, final long intervalNs)
    {
        this.startNs = startNs;
        this.intervalNs = intervalNs;
        this.intervalStartNs = startNs;
        this.nextNs = startNs + intervalNs;
    }

    /**
     * @param nowNs the time now.
     * @return true if an interval report is due.
     */
    boolean isDue(final long nowNs)
    {
        return intervalNs > 0 && nowNs - nextNs >= 0;
    }

    /**
     * @param deadlineNs a time.
     * @return the earlier of it and the next interval report's due time (it, if there are no interval reports).
     */
    long earlierDeadlineNs(final long deadlineNs)
    {
        return intervalNs > 0 ? TransportWaits.earlier(nextNs, deadlineNs) : deadlineNs;
    }

    /**
     * @param nowNs the time now, at the end of the test.
     * @return true if the interval in progress deserves a report of its own.
     */
    boolean hasPartial(final long nowNs)
    {
        return intervalNs > 0 && (nowNs - intervalStartNs) * 10 >= intervalNs;
    }

    /**
     * @param nowNs the time now.
     * @return true if an interval is in progress and has begun before now: it must end here when the omitted
     * seconds end, even if short, so that no interval straddles them.
     */
    boolean isUnderway(final long nowNs)
    {
        return intervalNs > 0 && nowNs - intervalStartNs > 0;
    }

    /**
     * @return the current interval's start, in seconds from the test's start.
     */
    double startSeconds()
    {
        return (intervalStartNs - startNs) / 1e9;
    }

    /**
     * End the current interval now and start the next.
     *
     * @param nowNs the time now.
     * @return the ended interval's end, in seconds from the test's start.
     */
    double advance(final long nowNs)
    {
        intervalStartNs = nowNs;
        while (nowNs - nextNs >= 0)
        {
            nextNs += intervalNs;
        }
        return (nowNs - startNs) / 1e9;
    }
}
