package io.pacelink.transport.recovery;

import io.pacelink.transport.cc.LostPacket;

/**
 * The reused {@link LostPacket} handed to the controller: reads the packet's fields straight from its ring slot.
 */
final class LostPacketView implements LostPacket
{
    private final SentPacketRing ring;
    private int slot;
    private long nowNs;
    private long totalLostBytes;
    private long totalDeliveredBytes;
    private long bytesInFlight;

    LostPacketView(final SentPacketRing ring)
    {
        this.ring = ring;
    }

    LostPacketView wrap(
        final int slot,
        final long nowNs,
        final long totalLostBytes,
        final long totalDeliveredBytes,
        final long bytesInFlight)
    {
        this.slot = slot;
        this.nowNs = nowNs;
        this.totalLostBytes = totalLostBytes;
        this.totalDeliveredBytes = totalDeliveredBytes;
        this.bytesInFlight = bytesInFlight;
        return this;
    }

    public long nowNs()
    {
        return nowNs;
    }

    public long packetNumber()
    {
        return ring.packetNumber(slot);
    }

    public int sizeBytes()
    {
        return ring.sizeBytes(slot);
    }

    public long sentTimeNs()
    {
        return ring.sentTimeNs(slot);
    }

    public long deliveredAtSendBytes()
    {
        return ring.deliveredAtSendBytes(slot);
    }

    public long txInFlightBytes()
    {
        return ring.txInFlightBytes(slot);
    }

    public long lostAtSendBytes()
    {
        return ring.lostAtSendBytes(slot);
    }

    public boolean isAppLimited()
    {
        return ring.isAppLimitedAtSend(slot);
    }

    public long totalLostBytes()
    {
        return totalLostBytes;
    }

    public long totalDeliveredBytes()
    {
        return totalDeliveredBytes;
    }

    public long bytesInFlight()
    {
        return bytesInFlight;
    }
}
