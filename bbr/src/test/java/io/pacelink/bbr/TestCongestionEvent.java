package io.pacelink.bbr;

import io.pacelink.transport.cc.CongestionEvent;

/**
 * A mutable {@link CongestionEvent} for tests and {@link FluidPath}.
 */
public final class TestCongestionEvent implements CongestionEvent
{
    public long nowNs;
    public long newestLostSentTimeNs;
    public long lostBytes;
    public long bytesInFlight;
    public boolean isPersistentCongestion;
    public boolean isEcnCe;

    public long nowNs()
    {
        return nowNs;
    }

    public long newestLostSentTimeNs()
    {
        return newestLostSentTimeNs;
    }

    public long lostBytes()
    {
        return lostBytes;
    }

    public long bytesInFlightBytes()
    {
        return bytesInFlight;
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
