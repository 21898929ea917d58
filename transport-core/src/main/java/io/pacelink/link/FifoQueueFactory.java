package io.pacelink.link;

/**
 * The drop-tail {@link FifoQueue}, named {@code fifo}: the default bottleneck queue.
 */
public final class FifoQueueFactory implements BottleneckQueueFactory
{
    /**
     * The discipline's name in a path spec.
     */
    public static final String NAME = "fifo";

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
        return new FifoQueue(config.limitPackets(), config.limitBytes());
    }
}
