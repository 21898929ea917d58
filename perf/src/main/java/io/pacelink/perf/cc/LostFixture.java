package io.pacelink.perf.cc;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.LostPacket;
import io.pacelink.transport.testing.RecordingController;

/**
 * A recorded {@link CongestionController#onPacketLost} call; the last lost packet of a batch also carries the
 * batch's {@link CongestionFixture}, replayed right after it as the transport does.
 */
final class LostFixture extends TraceEvent implements LostPacket
{
    private final long nowNs;
    private final long packetNumber;
    private final int sizeBytes;
    private final long sentTimeNs;
    private final long deliveredAtSendBytes;
    private final long txInFlightBytes;
    private final long lostAtSendBytes;
    private final boolean isAppLimited;
    private final long totalLostBytes;
    private final long totalDeliveredBytes;
    private final long bytesInFlight;
    private CongestionFixture batchEnd;

    LostFixture(final RecordingController.Rtt rtt, final ReplayAdjuster adjuster, final LostPacket lost)
    {
        super(rtt, adjuster);
        nowNs = lost.nowNs();
        packetNumber = lost.packetNumber();
        sizeBytes = lost.sizeBytes();
        sentTimeNs = lost.sentTimeNs();
        deliveredAtSendBytes = lost.deliveredAtSendBytes();
        txInFlightBytes = lost.txInFlightBytes();
        lostAtSendBytes = lost.lostAtSendBytes();
        isAppLimited = lost.isAppLimited();
        totalLostBytes = lost.totalLostBytes();
        totalDeliveredBytes = lost.totalDeliveredBytes();
        bytesInFlight = lost.bytesInFlight();
    }

    /**
     * @param event the congestion event that closed the batch this packet was the last of.
     */
    void batchEnd(final CongestionFixture event)
    {
        this.batchEnd = event;
    }

    /**
     * @return true if this packet closes its loss batch.
     */
    boolean isBatchEnd()
    {
        return null != batchEnd;
    }

    void replay(final CongestionController controller)
    {
        controller.onPacketLost(this);
        if (null != batchEnd)
        {
            controller.onCongestionEvent(batchEnd);
        }
    }

    public long nowNs()
    {
        return adjuster.timeNs(nowNs);
    }

    public long packetNumber()
    {
        return adjuster.packetNumber(packetNumber);
    }

    public int sizeBytes()
    {
        return sizeBytes;
    }

    public long sentTimeNs()
    {
        return adjuster.timeNs(sentTimeNs);
    }

    public long deliveredAtSendBytes()
    {
        return adjuster.deliveredBytes(deliveredAtSendBytes);
    }

    public long txInFlightBytes()
    {
        return txInFlightBytes;
    }

    public long lostAtSendBytes()
    {
        return adjuster.lostBytes(lostAtSendBytes);
    }

    public boolean isAppLimited()
    {
        return isAppLimited;
    }

    public long totalLostBytes()
    {
        return adjuster.lostBytes(totalLostBytes);
    }

    public long totalDeliveredBytes()
    {
        return adjuster.deliveredBytes(totalDeliveredBytes);
    }

    public long bytesInFlight()
    {
        return adjuster.inFlightBytes(bytesInFlight);
    }
}
