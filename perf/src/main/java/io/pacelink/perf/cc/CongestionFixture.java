package io.pacelink.perf.cc;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionEvent;

/**
 * A recorded {@link CongestionController#onCongestionEvent} call, replayed by the {@link LostFixture} that closes
 * its batch.
 */
final class CongestionFixture implements CongestionEvent
{
    private final ReplayAdjuster adjuster;
    private final long nowNs;
    private final long newestLostSentTimeNs;
    private final long lostBytes;
    private final long bytesInFlight;
    private final boolean startsRecovery;
    private final boolean isPersistentCongestion;
    private final boolean isEcnCe;

    CongestionFixture(final ReplayAdjuster adjuster, final CongestionEvent event)
    {
        this.adjuster = adjuster;
        nowNs = event.nowNs();
        newestLostSentTimeNs = event.newestLostSentTimeNs();
        lostBytes = event.lostBytes();
        bytesInFlight = event.bytesInFlight();
        startsRecovery = event.startsRecovery();
        isPersistentCongestion = event.isPersistentCongestion();
        isEcnCe = event.isEcnCe();
    }

    public long nowNs()
    {
        return adjuster.timeNs(nowNs);
    }

    public long newestLostSentTimeNs()
    {
        return adjuster.timeNs(newestLostSentTimeNs);
    }

    public long lostBytes()
    {
        return lostBytes;
    }

    public long bytesInFlight()
    {
        return adjuster.inFlightBytes(bytesInFlight);
    }

    public boolean startsRecovery()
    {
        return startsRecovery;
    }

    public boolean isPersistentCongestion()
    {
        return isPersistentCongestion;
    }

    public boolean isEcnCe()
    {
        return isEcnCe;
    }
}
