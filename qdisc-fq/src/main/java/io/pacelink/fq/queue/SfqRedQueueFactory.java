package io.pacelink.fq.queue;

import io.pacelink.link.AqmSpec;
import io.pacelink.link.BottleneckQueue;
import io.pacelink.link.BottleneckQueueFactory;
import io.pacelink.link.PacketDropListener;
import io.pacelink.link.QueueConfig;
import io.pacelink.link.Red;
import io.pacelink.link.RedParameters;

import java.util.Set;

/**
 * {@code qdisc=sfqred}: {@code sfq} (see {@link SfqQueueFactory}) with RED on each bucket, as Linux's
 * {@code tc qdisc ... sfq redflowlimit BYTES [min] [max] [probability] [avpkt] [ecn] [harddrop] [headdrop]} sets it
 * up: the thresholds derive from {@code redflowlimit=} (default: the queue's limit, a limit in packets counting
 * {@code avpkt} bytes each) as tc derives them ({@link RedParameters}), and ECN marking is on unless {@code ecn=off}
 * (the name says SFQ with RED and ECN; tc needs the {@code ecn} flag spelled out).
 */
public final class SfqRedQueueFactory implements BottleneckQueueFactory
{
    /**
     * The discipline's name in the path spec.
     */
    public static final String NAME = "sfqred";

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
        return Set.of(AqmSpec.ECN, AqmSpec.MIN, AqmSpec.MAX, AqmSpec.PROBABILITY, AqmSpec.AVPKT,
            AqmSpec.REDFLOWLIMIT, AqmSpec.HARDDROP, AqmSpec.HEADDROP);
    }

    /**
     * {@inheritDoc}
     */
    public BottleneckQueue newQueue(final QueueConfig config, final PacketDropListener dropListener)
    {
        final AqmSpec aqm = config.aqm();
        final long flowLimitBytes = 0 != aqm.flowLimitBytes() ? aqm.flowLimitBytes() :
            config.limitBytesCountingPacketsAs(aqm.avpktBytes());
        final HashedFlowClassifier classifier = new HashedFlowClassifier(config.flowBuckets(), config.seed());
        final Red red = new Red(
            RedParameters.from(aqm, flowLimitBytes, config.rateBitsPerSecond()), classifier.flowCapacity(),
            ~config.seed());
        return SfqQueueFactory.newSfq(
            config, classifier, new FlowRed(red, aqm.ecn().isOn(true), aqm.hardDrop(), aqm.headDrop()), dropListener);
    }
}
