package io.pacelink.link;

import java.util.Set;

/**
 * Creates bottleneck queues of one discipline, found with {@link java.util.ServiceLoader} and selected by
 * {@link #name()} through the path spec's {@code qdisc=} key ({@code fifo} in core; {@code fq}, {@code fq_codel},
 * {@code sfq} in {@code qdisc-fq}).
 */
public interface BottleneckQueueFactory
{
    /**
     * @return the discipline's name in the path spec, e.g. {@code "fifo"}, {@code "fq_codel"}.
     */
    String name();

    /**
     * @return the path-spec keys of {@link AqmSpec} this discipline reads ({@code ecn}, {@code min}, ...); the parser
     * refuses the others with this discipline. None by default.
     */
    default Set<String> aqmKeys()
    {
        return Set.of();
    }

    /**
     * @param config limits and parameters parsed from the path spec.
     * @param dropListener where packets dropped inside {@link BottleneckQueue#dequeue(long)} are handed back for
     *                     counting and recycling.
     * @return a new, empty queue.
     */
    BottleneckQueue newQueue(QueueConfig config, PacketDropListener dropListener);
}
