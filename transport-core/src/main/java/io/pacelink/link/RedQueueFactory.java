package io.pacelink.link;

import java.util.Set;

/**
 * {@code qdisc=red}: {@link RedQueue}, with tc's keys {@code min=}, {@code max=}, {@code probability=},
 * {@code avpkt=}, {@code ecn=} (off by default, as tc's {@code red} without {@code ecn}) and {@code harddrop=}. The
 * thresholds derive from the queue's byte limit ({@code queue=64kb}; a limit in packets counts {@code avpkt} bytes a
 * packet).
 */
public final class RedQueueFactory implements BottleneckQueueFactory
{
    /**
     * The discipline's name in a path spec.
     */
    public static final String NAME = "red";

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
        return AqmSpec.RED_KEYS;
    }

    /**
     * {@inheritDoc}
     */
    public BottleneckQueue newQueue(final QueueConfig config, final PacketDropListener dropListener)
    {
        final AqmSpec aqm = config.aqm();
        return new RedQueue(
            config.limitPackets(),
            config.limitBytes(),
            RedParameters.from(aqm, config.limitBytesCountingPacketsAs(aqm.avpktBytes()), config.rateBitsPerSecond()),
            aqm.ecn().isOn(false),
            aqm.hardDrop(),
            config.seed());
    }
}
