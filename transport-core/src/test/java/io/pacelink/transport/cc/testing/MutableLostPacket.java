package io.pacelink.transport.cc.testing;

import io.pacelink.transport.cc.LostPacket;

/**
 * A mutable {@link LostPacket} for tests and {@link ScriptedPath}: set the fields, pass it to {@code onPacketLost}.
 */
public final class MutableLostPacket implements LostPacket
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
    public long bytesInFlightBytes;

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
        return bytesInFlightBytes;
    }
}
