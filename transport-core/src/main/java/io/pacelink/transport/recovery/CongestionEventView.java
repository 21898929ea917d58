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
    private long bytesInFlight;
    private boolean startsRecovery;
    private boolean isPersistentCongestion;
    private boolean isEcnCe;

    CongestionEventView wrap(
        final long nowNs,
        final long newestLostSentTimeNs,
        final long lostBytes,
        final long bytesInFlight,
        final boolean startsRecovery,
        final boolean isPersistentCongestion,
        final boolean isEcnCe)
    {
        this.nowNs = nowNs;
        this.newestLostSentTimeNs = newestLostSentTimeNs;
        this.lostBytes = lostBytes;
        this.bytesInFlight = bytesInFlight;
        this.startsRecovery = startsRecovery;
        this.isPersistentCongestion = isPersistentCongestion;
        this.isEcnCe = isEcnCe;
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

    public long bytesInFlight()
    {
        return bytesInFlight;
    }

    public boolean startsRecovery()
    {
        return startsRecovery;
    }

    public boolean isPersistentCongestion()
    {
        return isPersistentCongestion;
    }

    /**
     * The wire format carries no ECN feedback yet, so the transport reports only losses; the controller test kit
     * scripts ECN-CE marks.
     */
    public boolean isEcnCe()
    {
        return isEcnCe;
    }
}
