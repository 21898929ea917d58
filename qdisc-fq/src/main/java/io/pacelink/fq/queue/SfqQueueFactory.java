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
        return new FairQueue(
            new HashedFlowClassifier(config.flowBuckets(), config.seed()),
            FairQueue.Mode.STOCHASTIC,
            config.quantumBytes(),
            config.limitPackets(),
            config.limitBytes(),
            config.limitPackets(),
            FairQueue.ONE_PACKET_PER_OVERFLOW,
            null,
            dropListener);
    }
}
