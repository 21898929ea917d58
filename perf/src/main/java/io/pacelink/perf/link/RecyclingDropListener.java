package io.pacelink.perf.link;

import io.pacelink.link.LinkPacket;
import io.pacelink.link.LinkPacketPool;
import io.pacelink.link.PacketDropListener;

/**
 * Returns packets an AQM drops to their pool, as the simulator's link does, and counts them.
 */
public final class RecyclingDropListener implements PacketDropListener
{
    private final LinkPacketPool pool;
    private long droppedPackets;

    /**
     * @param pool where dropped packets go back to.
     */
    public RecyclingDropListener(final LinkPacketPool pool)
    {
        this.pool = pool;
    }

    public void onDrop(final LinkPacket packet, final long nowNs)
    {
        droppedPackets++;
        pool.release(packet);
    }

    /**
     * @return packets dropped so far.
     */
    public long droppedPackets()
    {
        return droppedPackets;
    }
}
