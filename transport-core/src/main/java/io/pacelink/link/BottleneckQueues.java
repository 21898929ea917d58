package io.pacelink.link;

import java.util.ServiceLoader;
import java.util.StringJoiner;
import java.util.TreeSet;

/**
 * Finds bottleneck queue disciplines by name among the {@link BottleneckQueueFactory} services on the class path
 * ({@code fifo} in core; {@code fq}, {@code fq_codel}, {@code sfq} when {@code qdisc-fq} is present). Used when a
 * path spec is parsed or a link is built, never per packet.
 */
public final class BottleneckQueues
{
    private BottleneckQueues()
    {
    }

    /**
     * @param name a discipline's name, e.g. {@code fifo}.
     * @return its factory.
     * @throws IllegalArgumentException naming the disciplines that are available.
     */
    public static BottleneckQueueFactory factory(final String name)
    {
        for (final BottleneckQueueFactory factory : ServiceLoader.load(BottleneckQueueFactory.class))
        {
            if (factory.name().equals(name))
            {
                return factory;
            }
        }
        final StringJoiner available = new StringJoiner(", ");
        for (final String known : names())
        {
            available.add(known);
        }
        throw new IllegalArgumentException("unknown queue discipline \"" + name + "\"; available: " + available +
            " (fq, fq_codel, sfq and sfqred need the qdisc-fq module on the class path)");
    }

    /**
     * @param aqmKey an {@link AqmSpec} path-spec key.
     * @return the disciplines on the class path that read it, e.g. {@code "qdisc=red or qdisc=sfqred"}.
     */
    public static String disciplinesReading(final String aqmKey)
    {
        final TreeSet<String> names = new TreeSet<>();
        for (final BottleneckQueueFactory factory : ServiceLoader.load(BottleneckQueueFactory.class))
        {
            if (factory.aqmKeys().contains(aqmKey))
            {
                names.add("qdisc=" + factory.name());
            }
        }
        return names.isEmpty() ? "no discipline on the class path" : String.join(" or ", names);
    }

    /**
     * @return the names of the disciplines on the class path, sorted.
     */
    public static TreeSet<String> names()
    {
        final TreeSet<String> names = new TreeSet<>();
        for (final BottleneckQueueFactory factory : ServiceLoader.load(BottleneckQueueFactory.class))
        {
            names.add(factory.name());
        }
        return names;
    }

    /**
     * @param spec         the link direction's spec (discipline, limits, parameters).
     * @param baseRttNs    the path's base RTT, for a {@code queue=Nbdp} limit.
     * @param seed         the queue's seed.
     * @param dropListener where packets dropped while dequeuing go.
     * @return a new, empty queue.
     */
    public static BottleneckQueue newQueue(
        final PathSpec spec, final long baseRttNs, final long seed, final PacketDropListener dropListener)
    {
        return factory(spec.qdisc()).newQueue(spec.queueConfig(baseRttNs, seed), dropListener);
    }
}
