package io.pacelink.transport.cc.testing;

import io.pacelink.transport.cc.AckEvent;

/**
 * A mutable {@link AckEvent} for tests and {@link ScriptedPath}: set the fields, pass it to {@code onAck}.
 */
public final class MutableAckEvent implements AckEvent
{
    public long nowNs;
    public long newlyAckedBytes;
    public long newlyLostBytes;
    public long priorBytesInFlightBytes;
    public long bytesInFlightBytes;
    public long largestAckedSentTimeNs;
    public long largestAckedPacketNumber = -1;
    public long latestRttNs;
    public boolean isCwndLimited;
    public long totalDeliveredBytes;
    public long totalLostBytes;
    public boolean hasRateSample;
    public long deliveryRateBytesPerSecond;
    public long sampleDeliveredBytes;
    public long sampleIntervalNs;
    public long samplePriorDeliveredBytes;
    public long sampleTxInFlightBytes;
    public long sampleLostBytes;
    public boolean isSampleAppLimited;

    public long nowNs()
    {
        return nowNs;
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
        return largestAckedSentTimeNs;
    }

    public long largestAckedPacketNumber()
    {
        return largestAckedPacketNumber;
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
        return totalDeliveredBytes;
    }

    public long totalLostBytes()
    {
        return totalLostBytes;
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
        return samplePriorDeliveredBytes;
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
