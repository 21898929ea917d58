package io.pacelink.perf.cc;

import io.pacelink.transport.cc.RttStats;

/**
 * The RTT statistics a replayed controller reads: the snapshot recorded with the event being replayed. Before the
 * first event it reports the initial RTT and no sample, as a fresh estimator does.
 */
final class ReplayRttStats implements RttStats
{
    private final long initialRttNs;
    private RttSnapshot current;

    ReplayRttStats(final long initialRttNs)
    {
        this.initialRttNs = initialRttNs;
        this.current = new RttSnapshot(false, initialRttNs, initialRttNs, initialRttNs / 2, initialRttNs);
    }

    void show(final RttSnapshot snapshot)
    {
        current = snapshot;
    }

    public boolean hasSample()
    {
        return current.hasSample();
    }

    public long minRttNs()
    {
        return current.minRttNs();
    }

    public long smoothedRttNs()
    {
        return current.smoothedRttNs();
    }

    public long rttVarianceNs()
    {
        return current.rttVarianceNs();
    }

    public long latestRttNs()
    {
        return current.latestRttNs();
    }

    public long initialRttNs()
    {
        return initialRttNs;
    }
}
