package io.pacelink.perf.cc;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.testing.RecordingController;

/**
 * A recorded {@link CongestionController#onAck} call: an immutable copy of the {@link AckEvent} view, whose absolute
 * times and counters move on with each lap and whose bytes in flight are bounded by the replayed window
 * ({@link ReplayAdjuster}).
 */
final class AckFixture extends TraceEvent implements AckEvent
{
    private final long nowNs;
    private final long newlyAckedBytes;
    private final long newlyLostBytes;
    private final long priorBytesInFlightBytes;
    private final long bytesInFlight;
    private final long largestAckedPacketNumber;
    private final long latestRttNs;
    private final boolean isCwndLimited;
    private final boolean endsRecovery;
    private final boolean acknowledgesOldestInFlight;
    private final long totalDeliveredBytes;
    private final long totalLostBytes;
    private final boolean hasRateSample;
    private final long deliveryRateBytesPerSecond;
    private final long sampleDeliveredBytes;
    private final long sampleIntervalNs;
    private final long samplePriorDeliveredBytes;
    private final long sampleTxInFlightBytes;
    private final long sampleLostBytes;
    private final boolean isSampleAppLimited;

    AckFixture(final RecordingController.Rtt rtt, final ReplayAdjuster adjuster, final AckEvent ack)
    {
        super(rtt, adjuster);
        nowNs = ack.nowNs();
        newlyAckedBytes = ack.newlyAckedBytes();
        newlyLostBytes = ack.newlyLostBytes();
        priorBytesInFlightBytes = ack.priorBytesInFlightBytes();
        bytesInFlight = ack.bytesInFlight();
        largestAckedPacketNumber = ack.largestAckedPacketNumber();
        latestRttNs = ack.latestRttNs();
        isCwndLimited = ack.isCwndLimited();
        endsRecovery = ack.endsRecovery();
        acknowledgesOldestInFlight = ack.acknowledgesOldestInFlight();
        totalDeliveredBytes = ack.totalDeliveredBytes();
        totalLostBytes = ack.totalLostBytes();
        hasRateSample = ack.hasRateSample();
        deliveryRateBytesPerSecond = ack.deliveryRateBytesPerSecond();
        sampleDeliveredBytes = ack.sampleDeliveredBytes();
        sampleIntervalNs = ack.sampleIntervalNs();
        samplePriorDeliveredBytes = ack.samplePriorDeliveredBytes();
        sampleTxInFlightBytes = ack.sampleTxInFlightBytes();
        sampleLostBytes = ack.sampleLostBytes();
        isSampleAppLimited = ack.isSampleAppLimited();
    }

    void replay(final CongestionController controller)
    {
        controller.onAck(this);
    }

    public long nowNs()
    {
        return adjuster.timeNs(nowNs);
    }

    public long newlyAckedBytes()
    {
        return newlyAckedBytes;
    }

    public long newlyLostBytes()
    {
        return newlyLostBytes;
    }

    public long priorBytesInFlightBytes()
    {
        return adjuster.inFlightBytes(priorBytesInFlightBytes);
    }

    public long bytesInFlight()
    {
        return adjuster.inFlightBytes(bytesInFlight);
    }

    public long largestAckedPacketNumber()
    {
        return largestAckedPacketNumber < 0 ? -1 : adjuster.packetNumber(largestAckedPacketNumber);
    }

    public long latestRttNs()
    {
        return latestRttNs;
    }

    public boolean isCwndLimited()
    {
        return isCwndLimited;
    }

    public boolean endsRecovery()
    {
        return endsRecovery;
    }

    public boolean acknowledgesOldestInFlight()
    {
        return acknowledgesOldestInFlight;
    }

    public long totalDeliveredBytes()
    {
        return adjuster.deliveredBytes(totalDeliveredBytes);
    }

    public long totalLostBytes()
    {
        return adjuster.lostBytes(totalLostBytes);
    }

    public boolean hasRateSample()
    {
        return hasRateSample;
    }

    public long deliveryRateBytesPerSecond()
    {
        return deliveryRateBytesPerSecond;
    }

    public long sampleDeliveredBytes()
    {
        return sampleDeliveredBytes;
    }

    public long sampleIntervalNs()
    {
        return sampleIntervalNs;
    }

    public long samplePriorDeliveredBytes()
    {
        return adjuster.deliveredBytes(samplePriorDeliveredBytes);
    }

    public long sampleTxInFlightBytes()
    {
        return sampleTxInFlightBytes;
    }

    public long sampleLostBytes()
    {
        return sampleLostBytes;
    }

    public boolean isSampleAppLimited()
    {
        return isSampleAppLimited;
    }
}
