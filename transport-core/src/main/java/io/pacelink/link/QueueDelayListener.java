package io.pacelink.link;

/**
 * Told how long each packet waited in a link direction's bottleneck queue, when the bottleneck starts serializing
 * it: a per-packet, per-flow view of the queueing delay that {@link LinkCounters#queueDelayNs()} sums up for the
 * whole link (with a fair queue, flows sharing a link wait very differently).
 */
@FunctionalInterface
public interface QueueDelayListener
{
    /**
     * @param packet       the packet leaving the queue; valid only during the call.
     * @param queueDelayNs how long it waited (its enqueue time to the start of its serialization).
     * @param nowNs        when its serialization starts.
     */
    void onDequeued(LinkPacket packet, long queueDelayNs, long nowNs);
}
