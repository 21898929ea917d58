package io.pacelink.transport.recovery;

import io.pacelink.transport.cc.CongestionEvent;

/**
 * The reused {@link CongestionEvent} handed to the controller once per batch of losses.
 */
final class CongestionEventView implements CongestionEvent
{
    private long nowNs;
    private long newestLostSentTimeNs;
    private long lostBytes;
    private long bytesInFlightBytes;
    private boolean isPersistentCongestion;

    CongestionEventView wrap(
        final long nowNs,
        final long newestLostSentTimeNs,
        final long lostBytes,
        final long bytesInFlightBytes,
        final boolean isPersistentCongestion)
    {
        this.nowNs = nowNs;
        this.newestLostSentTimeNs = newestLostSentTimeNs;
        this.lostBytes = lostBytes;
        this.bytesInFlightBytes = bytesInFlightBytes;
        this.isPersistentCongestion = isPersistentCongestion;
        return this;
    }

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

    /**
     * The wire format carries no ECN feedback yet, so every event is a loss.
     */
    public boolean isEcnCe()
    {
        return false;
    }
}
