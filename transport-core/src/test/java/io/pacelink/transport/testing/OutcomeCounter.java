package io.pacelink.transport.testing;

import io.pacelink.transport.recovery.PacketOutcomeListener;

/**
 * The engine's side of loss recovery reduced to counting: what became of each packet. A scripted or benchmarked
 * sender is backlogged with fresh data, so lost frames need not be queued for retransmission.
 */
public final class OutcomeCounter implements PacketOutcomeListener
{
    private long ackedPackets;
    private long lostPackets;
    private long spuriouslyLostPackets;

    public void onPacketAcked(
        final long packetNumber, final long streamOffset, final int streamLength, final boolean fin, final int flags)
    {
        ackedPackets++;
    }

    public void onPacketLost(
        final long packetNumber, final long streamOffset, final int streamLength, final boolean fin, final int flags)
    {
        lostPackets++;
    }

    public void onPacketAckedAfterLoss(
        final long packetNumber, final long streamOffset, final int streamLength, final boolean fin, final int flags)
    {
        spuriouslyLostPackets++;
    }

    /**
     * @return packets acknowledged.
     */
    public long ackedPackets()
    {
        return ackedPackets;
    }

    /**
     * @return packets declared lost.
     */
    public long lostPackets()
    {
        return lostPackets;
    }

    /**
     * @return packets acknowledged after being declared lost.
     */
    public long spuriouslyLostPackets()
    {
        return spuriouslyLostPackets;
    }
}
