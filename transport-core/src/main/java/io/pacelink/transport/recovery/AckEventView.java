package io.pacelink.transport.recovery;

import io.pacelink.transport.cc.AckEvent;

/**
 * The reused {@link AckEvent} handed to the controller once per ACK frame: the frame's own numbers plus the rate
 * sample, read from the {@link RateSampler}. When the frame had a source packet but its interval was rejected,
 * {@link #hasRateSample()} is false while the prior-delivered, tx-in-flight and lost fields still describe the source
 * (Linux fills them the same way).
 */
final class AckEventView implements AckEvent
{
    private final RateSampler rateSampler;
    private long nowNs;
    private long newlyAckedBytes;
    private long newlyLostBytes;
    private long priorBytesInFlightBytes;
    private long bytesInFlight;
    private long largestAckedPacketNumber;
    private long latestRttNs;
    private boolean isCwndLimited;
    private boolean endsRecovery;
    private boolean acknowledgesOldestInFlight;
    private boolean isEcnCapable;
    private long newlyEcnCePackets;
    private long newlyEcnCeBytes;

    AckEventView(final RateSampler rateSampler)
    {
        this.rateSampler = rateSampler;
    }

    AckEventView wrap(
        final long nowNs,
        final long newlyAckedBytes,
        final long newlyLostBytes,
        final long priorBytesInFlightBytes,
        final long bytesInFlight,
        final long largestAckedPacketNumber,
        final long latestRttNs,
        final boolean isCwndLimited,
        final boolean endsRecovery,
        final boolean acknowledgesOldestInFlight)
    {
        this.nowNs = nowNs;
        this.newlyAckedBytes = newlyAckedBytes;
        this.newlyLostBytes = newlyLostBytes;
        this.priorBytesInFlightBytes = priorBytesInFlightBytes;
        this.bytesInFlight = bytesInFlight;
        this.largestAckedPacketNumber = largestAckedPacketNumber;
        this.latestRttNs = latestRttNs;
        this.isCwndLimited = isCwndLimited;
        this.endsRecovery = endsRecovery;
        this.acknowledgesOldestInFlight = acknowledgesOldestInFlight;
        return this;
    }

    AckEventView ecn(final boolean isEcnCapable, final long newlyEcnCePackets, final long newlyEcnCeBytes)
    {
        this.isEcnCapable = isEcnCapable;
        this.newlyEcnCePackets = newlyEcnCePackets;
        this.newlyEcnCeBytes = newlyEcnCeBytes;
        return this;
    }

    public boolean acknowledgesOldestInFlight()
    {
        return acknowledgesOldestInFlight;
    }

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

    public long bytesInFlight()
    {
        return bytesInFlight;
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

    public boolean endsRecovery()
    {
        return endsRecovery;
    }

    public long totalDeliveredBytes()
    {
        return rateSampler.deliveredBytes();
    }

    public long totalLostBytes()
    {
        return rateSampler.lostBytes();
    }

    public boolean hasRateSample()
    {
        return rateSampler.hasSample();
    }

    public long deliveryRateBytesPerSecond()
    {
        return rateSampler.deliveryRateBytesPerSecond();
    }

    public long sampleDeliveredBytes()
    {
        return rateSampler.sampleDeliveredBytes();
    }

    public long sampleIntervalNs()
    {
        return rateSampler.sampleIntervalNs();
    }

    public long samplePriorDeliveredBytes()
    {
        return rateSampler.samplePriorDeliveredBytes();
    }

    public long sampleTxInFlightBytes()
    {
        return rateSampler.sampleTxInFlightBytes();
    }

    public long sampleLostBytes()
    {
        return rateSampler.sampleLostBytes();
    }

    public boolean isSampleAppLimited()
    {
        return rateSampler.isSampleAppLimited();
    }

    public boolean isEcnCapable()
    {
        return isEcnCapable;
    }

    public long newlyEcnCePackets()
    {
        return newlyEcnCePackets;
    }

    public long newlyEcnCeBytes()
    {
        return newlyEcnCeBytes;
    }

    public long totalDeliveredCeBytes()
    {
        return rateSampler.deliveredCeBytes();
    }

    public long sampleDeliveredCeBytes()
    {
        return rateSampler.sampleDeliveredCeBytes();
    }
}
