package io.pacelink.fq.queue;

import io.pacelink.link.AqmSpec;
import io.pacelink.link.BottleneckQueue;
import io.pacelink.link.BottleneckQueueFactory;
import io.pacelink.link.PacketDropListener;
import io.pacelink.link.QueueConfig;

import java.util.Set;

/**
 * {@code qdisc=fq_codel} (RFC 8290, Linux sch_fq_codel): flow keys hashed into {@code flows=} buckets (default 1024)
 * with the scenario's seed, deficit round robin with the configured quantum (default 1514, at least 256 as Linux
 * enforces), new flows before old flows, CoDel on each bucket with the configured target and interval (default
 * 5 ms / 100 ms) marking ECN-capable packets CE instead of dropping them ({@code ecn=on}, Linux's default;
 * {@code ecn=off} drops), an optional step marking threshold ({@code ce_threshold=}), and when the queue is full a
 * batch of packets is dropped from the head of the bucket holding the most bytes (half its bytes, at most 64 packets,
 * ECN or not) and added to that bucket's CoDel count.
 * <p>
 * Every length is the datagram's length, the unit the link serializes: the quantum and CoDel's one-MTU floor
 * (1514 B) compare with datagrams as Linux compares them with frames, so a full-size datagram stands for a full-size
 * frame.
 */
public final class FqCodelQueueFactory implements BottleneckQueueFactory
{
    /**
     * The discipline's name in the path spec.
     */
    public static final String NAME = "fq_codel";

    /**
     * Linux {@code fq_codel_change}: {@code q->quantum = max(256U, quantum)}.
     */
    static final int MIN_QUANTUM_BYTES = 256;

    /**
     * Linux {@code fq_codel_init}: {@code drop_batch_size = 64}.
     */
    static final int DROP_BATCH_PACKETS = 64;

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
    public Set<String> aqmKeys()
    {
        return Set.of(AqmSpec.ECN, AqmSpec.CE_THRESHOLD);
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
            Math.max(MIN_QUANTUM_BYTES, config.quantumBytes()),
            config.limitPackets(),
            config.limitBytes(),
            config.limitPackets(),
            DROP_BATCH_PACKETS,
            new CoDel(config.codelTargetNs(), config.codelIntervalNs(), classifier.flowCapacity(), dropListener,
                config.aqm().ecn().isOn(true), config.aqm().ceThresholdNs()),
            dropListener);
    }
}
