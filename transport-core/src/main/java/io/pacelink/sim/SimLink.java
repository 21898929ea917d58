package io.pacelink.sim;

import io.pacelink.link.LinkDirection;
import io.pacelink.link.LinkPacket;

/**
 * A {@link LinkDirection} placed in the simulator: packets accepted are offered to the link, and the link's one
 * event is kept at its next delivery ({@link LinkDirection#nextDeliveryBoundNs()}); when it fires, every packet due
 * goes to the next sink. The serializations that complete in between are completed by the link when it is next
 * offered or polled, each at its own completion time, so they need no event of their own: a packet crossing a
 * bottleneck costs one event (its delivery) instead of two (its serialization's end, then its delivery), with the
 * same packets delivered at the same times.
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
     * The link model, for its counters and queue and for changes (rate, delay, loss): brought up to the current
     * virtual time first, so its queue and counters are as of now and a change applies to the packets that start
     * serializing from now on; and since a change of delay or rate moves the next delivery, the link's event comes
     * back no later than the next serialization completes, where the delivery is known again.
     *
     * @return the link model.
     */
    public LinkDirection link()
    {
        final long nowNs = simulator.nowNs();
        link.advance(nowNs);
        schedule(Math.max(nowNs, link.nextEventTimeNs()));
        return link;
    }

    /**
     * {@inheritDoc}
     */
    public void accept(final LinkPacket packet, final long nowNs)
    {
        link.offer(packet, nowNs);
        schedule(link.nextDeliveryBoundNs());
    }

    void fire(final long nowNs)
    {
        LinkPacket packet;
        while (null != (packet = link.poll(nowNs)))
        {
            simulator.hash(packet.sequence(), packet.length());
            next.accept(packet, nowNs);
        }
        schedule(link.nextDeliveryBoundNs());
    }

    private void schedule(final long timeNs)
    {
        if (timeNs != Long.MAX_VALUE)
        {
            simulator.scheduleNoLaterThan(this, timeNs);
        }
    }
}
