package io.pacelink.link;

/**
 * Told about packets an AQM drops while dequeuing; it counts and recycles them.
 */
@FunctionalInterface
public interface PacketDropListener
{
    /**
     * @param packet the dropped packet, no longer referenced by the queue.
     * @param nowNs  drop time.
     */
    void onDrop(LinkPacket packet, long nowNs);
}
