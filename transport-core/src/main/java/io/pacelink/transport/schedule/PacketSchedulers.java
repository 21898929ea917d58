package io.pacelink.transport.schedule;

import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.stats.CounterKey;
import io.pacelink.transport.stats.CounterType;
import org.agrona.concurrent.status.CountersManager;

import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Finds packet schedulers on the class path with {@link ServiceLoader}: by name, or the preferred one when no name is
 * given ({@code fq} when the qdisc-fq module is present, otherwise the core's {@code rr}).
 */
public final class PacketSchedulers
{
    private PacketSchedulers()
    {
    }

    /**
     * @return the scheduler factories on the class path by name.
     */
    public static Map<String, PacketSchedulerFactory> available()
    {
        return new TreeMap<>(Loaded.BY_NAME);
    }

    /**
     * @param name            the scheduler's name, or null for the preferred one.
     * @param parameters      its named parameters.
     * @param countersManager the endpoint's counters, where the scheduler's statistics are registered (type
     *                        {@link CounterType#SCHEDULER}, labelled {@code scheduler <name>: <statistic>}).
     * @param <F>             the endpoint's flows.
     * @return a new scheduler.
     * @throws IllegalArgumentException naming the available schedulers if none has that name.
     */
    public static <F extends SchedulableFlow> PacketScheduler<F> newScheduler(
        final String name, final ControllerParameters parameters, final CountersManager countersManager)
    {
        final PacketSchedulerFactory factory = factory(name);
        final String labelPrefix = "scheduler " + factory.name() + ": ";
        return factory.newScheduler(parameters, (counterName) -> CounterKey.newCounter(
            countersManager, CounterType.SCHEDULER, 0, counterName, labelPrefix + counterName));
    }

    /**
     * @param name a scheduler's name, or null for the preferred one.
     * @return the name of the scheduler that {@link #newScheduler} would create.
     * @throws IllegalArgumentException naming the available schedulers if none has that name.
     */
    public static String resolveName(final String name)
    {
        return factory(name).name();
    }

    private static PacketSchedulerFactory factory(final String name)
    {
        final Map<String, PacketSchedulerFactory> byName = Loaded.BY_NAME;
        PacketSchedulerFactory chosen = null;
        if (null == name)
        {
            for (final PacketSchedulerFactory factory : byName.values())
            {
                if (null == chosen || factory.defaultPriority() > chosen.defaultPriority())
                {
                    chosen = factory;
                }
            }
        }
        else
        {
            chosen = byName.get(name);
        }

        if (null == chosen)
        {
            throw new IllegalArgumentException("no packet scheduler named '" + name + "'; available: " +
                byName.keySet() + " (fq and fifo need the qdisc-fq module on the class path)");
        }
        return chosen;
    }

    /**
     * The factories, looked up once, when first needed: a class path does not change while the JVM runs, and a lookup
     * reads every jar's service file again (a simulation of 50 flows made 100 endpoints, each of which looked).
     */
    private static final class Loaded
    {
        static final Map<String, PacketSchedulerFactory> BY_NAME = load();

        private static Map<String, PacketSchedulerFactory> load()
        {
            final Map<String, PacketSchedulerFactory> byName = new TreeMap<>();
            for (final PacketSchedulerFactory factory :
                ServiceLoader.load(PacketSchedulerFactory.class, PacketSchedulers.class.getClassLoader()))
            {
                byName.put(factory.name(), factory);
            }
            return Collections.unmodifiableMap(byName);
        }
    }
}
