package io.pacelink.bbr;

import io.pacelink.transport.cc.LostPacket;

/**
 * A mutable {@link LostPacket} for tests and {@link FluidPath}.
 */
public final class TestLostPacket implements LostPacket
{
    public long nowNs;
    public long packetNumber;
    public int sizeBytes;
    public long sentTimeNs;
    public long deliveredAtSendBytes;
    public long txInFlightBytes;
    public long lostAtSendBytes;
    public boolean isAppLimited;
    public long totalLostBytes;
    public long totalDeliveredBytes;
    public long bytesInFlight;

    public long nowNs()
    {
        return nowNs;
    }

    public long packetNumber()
    {
        return packetNumber;
    }

    public int sizeBytes()
    {
        return sizeBytes;
    }

    public long sentTimeNs()
    {
        return sentTimeNs;
    }

    public long deliveredAtSendBytes()
    {
        return deliveredAtSendBytes;
    }

    public long txInFlightBytes()
    {
        return txInFlightBytes;
    }

    public long lostAtSendBytes()
    {
        return lostAtSendBytes;
    }

    public boolean isAppLimited()
    {
        return isAppLimited;
    }

    public long totalLostBytes()
    {
        return totalLostBytes;
    }

    public long totalDeliveredBytes()
    {
        return totalDeliveredBytes;
    }

    public long bytesInFlightBytes()
    {
        return bytesInFlight;
    }
}
