package io.pacelink.perf.cc;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;

/**
 * A recorded {@link CongestionController#onAck} call: an immutable copy of the {@link AckEvent} view, whose absolute
 * times and counters move with the trace's lap.
 */
final class AckFixture extends TraceEvent implements AckEvent
{
    private final long nowNs;
    private final long newlyAckedBytes;
    private final long newlyLostBytes;
    private final long priorBytesInFlightBytes;
    private final long bytesInFlightBytes;
    private final long largestAckedSentTimeNs;
    private final long latestRttNs;
    private final boolean isCwndLimited;
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

    AckFixture(final RttSnapshot rtt, final TraceLap lap, final AckEvent ack)
    {
        super(rtt, lap);
        nowNs = ack.nowNs();
        newlyAckedBytes = ack.newlyAckedBytes();
        newlyLostBytes = ack.newlyLostBytes();
        priorBytesInFlightBytes = ack.priorBytesInFlightBytes();
        bytesInFlightBytes = ack.bytesInFlightBytes();
        largestAckedSentTimeNs = ack.largestAckedSentTimeNs();
        latestRttNs = ack.latestRttNs();
        isCwndLimited = ack.isCwndLimited();
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
        return lap.timeNs(nowNs);
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
        return priorBytesInFlightBytes;
    }

    public long bytesInFlightBytes()
    {
        return bytesInFlightBytes;
    }

    public long largestAckedSentTimeNs()
    {
        return Long.MIN_VALUE == largestAckedSentTimeNs ? Long.MIN_VALUE : lap.timeNs(largestAckedSentTimeNs);
    }

    public long latestRttNs()
    {
        return latestRttNs;
    }

    public boolean isCwndLimited()
    {
        return isCwndLimited;
    }

    public long totalDeliveredBytes()
    {
        return lap.deliveredBytes(totalDeliveredBytes);
    }

    public long totalLostBytes()
    {
        return lap.lostBytes(totalLostBytes);
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
        return lap.deliveredBytes(samplePriorDeliveredBytes);
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
