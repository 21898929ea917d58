package io.pacelink.fq.queue;

import io.pacelink.link.BottleneckQueue;
import io.pacelink.link.BottleneckQueueFactory;
import io.pacelink.link.PacketDropListener;
import io.pacelink.link.QueueConfig;

/**
 * {@code qdisc=sfq} (Linux sch_sfq): flow keys hashed into {@code flows=} buckets with a perturbation seeded from the
 * scenario's seed (same seed, same buckets), one round-robin ring served by deficit round robin with the configured
 * quantum, and when the queue is full the newest packet of the bucket holding the most packets is dropped. The
 * perturbation is fixed for the queue's life (Linux's {@code perturb} period 0, its default).
 */
public final class SfqQueueFactory implements BottleneckQueueFactory
{
    /**
     * The discipline's name in the path spec.
     */
    public static final String NAME = "sfq";

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
        return newSfq(config, new HashedFlowClassifier(config.flowBuckets(), config.seed()), null, dropListener);
    }

    /**
     * @param config       limits and quantum.
     * @param classifier   the seeded hash into buckets.
     * @param flowRed      RED per bucket (SFQ-RED), or null for plain SFQ.
     * @param dropListener where packets dropped beyond the one enqueue returns go.
     * @return an SFQ: one round-robin ring, the per-flow limit the queue's packet limit, one packet per overflow.
     */
    static FairQueue newSfq(
        final QueueConfig config,
        final HashedFlowClassifier classifier,
        final FlowRed flowRed,
        final PacketDropListener dropListener)
    {
        return new FairQueue(
            classifier,
            FairQueue.Mode.STOCHASTIC,
            config.quantumBytes(),
            config.limitPackets(),
            config.limitBytes(),
            config.limitPackets(),
            FairQueue.ONE_PACKET_PER_OVERFLOW,
            null,
            flowRed,
            dropListener);
    }
}
