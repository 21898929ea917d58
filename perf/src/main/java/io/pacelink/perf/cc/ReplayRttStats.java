package io.pacelink.perf.cc;

import io.pacelink.transport.cc.RttStats;
import io.pacelink.transport.testing.RecordingController;

/**
 * The RTT statistics a replayed controller reads: the snapshot recorded with the event being replayed. Before the
 * first event it reports the initial RTT and no sample, as a fresh estimator does.
 */
final class ReplayRttStats implements RttStats
{
    private final long initialRttNs;
    private RecordingController.Rtt current;

    ReplayRttStats(final long initialRttNs)
    {
        this.initialRttNs = initialRttNs;
        this.current = new RecordingController.Rtt(
            false, initialRttNs, initialRttNs, initialRttNs / 2, initialRttNs, initialRttNs);
    }

    void show(final RecordingController.Rtt snapshot)
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
