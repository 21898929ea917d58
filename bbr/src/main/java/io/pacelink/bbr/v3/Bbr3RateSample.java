package io.pacelink.bbr.v3;

import io.pacelink.transport.cc.AckEvent;

/**
 * The rate sample of the ACK being processed (the draft's {@code RS}, "Delivery Rate Samples"; Linux
 * {@code struct rate_sample}), read once per ACK so that the model and every phase see the same values. Fields without
 * a valid sample read 0 (and not application-limited), as Linux leaves an invalid sample.
 */
final class Bbr3RateSample
{
    private boolean isValid;
    private long deliveryRateBytesPerSecond;
    private long deliveredBytes;
    private long priorDeliveredBytes;
    private long txInFlightBytes;
    private long lostBytes;
    private boolean isAppLimited;
    private long newlyAckedBytes;
    private long newlyLostBytes;
    private long priorInflightBytes;
    private long rttNs;

    /**
     * @param ack       the ACK being processed.
     * @param probeRtt  ProbeRTT, whose application-limited mark the transport cannot set (draft
     *                  {@code MarkConnectionAppLimited}): samples of packets sent under it count as app-limited.
     */
    void read(final AckEvent ack, final Bbr3ProbeRtt probeRtt)
    {
        newlyAckedBytes = ack.newlyAckedBytes();
        newlyLostBytes = ack.newlyLostBytes();
        priorInflightBytes = ack.priorBytesInFlightBytes();
        rttNs = ack.latestRttNs();
        isValid = ack.hasRateSample();
        if (isValid)
        {
            deliveryRateBytesPerSecond = ack.deliveryRateBytesPerSecond();
            deliveredBytes = ack.sampleDeliveredBytes();
            priorDeliveredBytes = ack.samplePriorDeliveredBytes();
            txInFlightBytes = ack.sampleTxInFlightBytes();
            lostBytes = ack.sampleLostBytes();
            isAppLimited = ack.isSampleAppLimited() || probeRtt.isMarkedAppLimited(priorDeliveredBytes);
        }
        else
        {
            deliveryRateBytesPerSecond = 0;
            deliveredBytes = 0;
            priorDeliveredBytes = 0;
            txInFlightBytes = 0;
            lostBytes = 0;
            isAppLimited = false;
        }
    }

    boolean isValid()
    {
        return isValid;
    }

    long deliveryRateBytesPerSecond()
    {
        return deliveryRateBytesPerSecond;
    }

    long deliveredBytes()
    {
        return deliveredBytes;
    }

    long priorDeliveredBytes()
    {
        return priorDeliveredBytes;
    }

    long txInFlightBytes()
    {
        return txInFlightBytes;
    }

    long lostBytes()
    {
        return lostBytes;
    }

    boolean isAppLimited()
    {
        return isAppLimited;
    }

    long newlyAckedBytes()
    {
        return newlyAckedBytes;
    }

    long newlyLostBytes()
    {
        return newlyLostBytes;
    }

    long priorInflightBytes()
    {
        return priorInflightBytes;
    }

    long rttNs()
    {
        return rttNs;
    }
}
