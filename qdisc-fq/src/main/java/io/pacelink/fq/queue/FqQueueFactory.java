package io.pacelink.fq.queue;

import io.pacelink.link.BottleneckQueue;
import io.pacelink.link.BottleneckQueueFactory;
import io.pacelink.link.PacketDropListener;
import io.pacelink.link.QueueConfig;

/**
 * {@code qdisc=fq}: one queue per flow key (as sch_fq keeps one per socket), deficit round robin with the configured
 * quantum, new flows before old flows, and when the queue is full the head packet of the flow holding the most bytes
 * is dropped, one per overflow (fq_codel's victim without its batch of 64: with no AQM there is no drop count to pass
 * the signal on to). No AQM.
 * <p>
 * The per-flow limit is the queue's packet limit: {@link QueueConfig} has no separate per-flow limit yet, and
 * sch_fq's 100 packets would silently shrink a one-flow bottleneck to 100 packets.
 */
public final class FqQueueFactory implements BottleneckQueueFactory
{
    /**
     * The discipline's name in the path spec.
     */
    public static final String NAME = "fq";

    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return NAME;
    }

    /**
     * {@inheritDoc}
     */
    public BottleneckQueue newQueue(final QueueConfig config, final PacketDropListener dropListener)
    {
        return new FairQueue(
            new ExactFlowClassifier(config.flowBuckets()),
            FairQueue.Mode.FLOW_QUEUE,
            config.quantumBytes(),
            config.limitPackets(),
            config.limitBytes(),
            config.limitPackets(),
            FairQueue.ONE_PACKET_PER_OVERFLOW,
            null,
            dropListener);
    }
}
