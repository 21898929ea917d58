package io.pacelink.sim;

import io.pacelink.link.LinkDirection;
import io.pacelink.link.LinkPacket;

/**
 * A {@link LinkDirection} placed in the simulator: packets accepted are offered to the link, and the link's one
 * event is kept at {@link LinkDirection#nextEventTimeNs()}; when it fires, every packet due goes to the next sink.
 */
public final class SimLink extends SimEvent implements PacketSink
{
    private final Simulator simulator;
    private final LinkDirection link;
    private final PacketSink next;

    /**
     * @param simulator the simulator.
     * @param link      the link model, using the simulator's pool.
     * @param next      where delivered packets go.
     */
    public SimLink(final Simulator simulator, final LinkDirection link, final PacketSink next)
    {
        super(simulator.nextEventId());
        this.simulator = simulator;
        this.link = link;
        this.next = next;
    }

    /**
     * @return the link model, for its counters and queue.
     */
    public LinkDirection link()
    {
        return link;
    }

    /**
     * {@inheritDoc}
     */
    public void accept(final LinkPacket packet, final long nowNs)
    {
        link.offer(packet, nowNs);
        final long nextEventNs = link.nextEventTimeNs();
        if (nextEventNs != Long.MAX_VALUE)
        {
            simulator.scheduleNoLaterThan(this, nextEventNs);
        }
    }

    void fire(final long nowNs)
    {
        LinkPacket packet;
        while (null != (packet = link.poll(nowNs)))
        {
            simulator.hash(packet.sequence(), packet.length());
            next.accept(packet, nowNs);
        }
        final long nextEventNs = link.nextEventTimeNs();
        if (nextEventNs != Long.MAX_VALUE)
        {
            simulator.scheduleNoLaterThan(this, nextEventNs);
        }
    }
}
