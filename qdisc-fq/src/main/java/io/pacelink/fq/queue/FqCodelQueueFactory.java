package io.pacelink.fq.queue;

import io.pacelink.link.BottleneckQueue;
import io.pacelink.link.BottleneckQueueFactory;
import io.pacelink.link.PacketDropListener;
import io.pacelink.link.QueueConfig;

/**
 * {@code qdisc=fq_codel} (RFC 8290): flow keys hashed into {@code flows=} buckets (default 1024) with the scenario's
 * seed, deficit round robin with the configured quantum (default 1514), new flows before old flows, CoDel on each
 * bucket with the configured target and interval (default 5 ms / 100 ms, ECN off so it drops), and when the queue
 * is full the head packet of the bucket holding the most bytes is dropped.
 */
public final class FqCodelQueueFactory implements BottleneckQueueFactory
{
    /**
     * The discipline's name in the path spec.
     */
    public static final String NAME = "fq_codel";

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
        final HashedFlowClassifier classifier = new HashedFlowClassifier(config.flowBuckets(), config.seed());
        return new FairQueue(
            classifier,
            FairQueue.Mode.FLOW_QUEUE,
            config.quantumBytes(),
            config.limitPackets(),
            config.limitBytes(),
            config.limitPackets(),
            new CoDel(config.codelTargetNs(), config.codelIntervalNs(), classifier.flowCapacity(), dropListener),
            dropListener);
    }
}
