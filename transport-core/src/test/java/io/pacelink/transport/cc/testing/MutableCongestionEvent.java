package io.pacelink.transport.cc.testing;

import io.pacelink.transport.cc.CongestionEvent;

/**
 * A mutable {@link CongestionEvent} for tests and {@link ScriptedPath}: set the fields, pass it to
 * {@code onCongestionEvent}.
 */
public final class MutableCongestionEvent implements CongestionEvent
{
    public long nowNs;
    public long newestLostSentTimeNs;
    public long lostBytes;
    public long bytesInFlightBytes;
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
        return bytesInFlightBytes;
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
