package io.pacelink.sim;

import io.pacelink.link.LinkPacket;

/**
 * Where a simulated packet goes next: a link, a router or a host. The sink owns the packet from then on.
 */
public interface PacketSink
{
    /**
     * @param packet the packet, from the simulator's pool.
     * @param nowNs  the virtual time.
     */
    void accept(LinkPacket packet, long nowNs);
}
