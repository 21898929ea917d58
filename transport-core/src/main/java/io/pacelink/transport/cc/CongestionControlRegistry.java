package io.pacelink.transport.cc;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;

/**
 * Controllers available on the class path, by name. A controller module on the class path is available; nothing
 * else is configured.
 */
public final class CongestionControlRegistry
{
    private final Map<String, CongestionControllerFactory> factoriesByName;

    private CongestionControlRegistry(final Map<String, CongestionControllerFactory> factoriesByName)
    {
        this.factoriesByName = factoriesByName;
    }

    /**
     * @return the controllers found by {@link ServiceLoader} with this class's class loader.
     * @throws IllegalStateException if two factories claim the same name.
     */
    public static CongestionControlRegistry load()
    {
        final Map<String, CongestionControllerFactory> byName = new TreeMap<>();
        for (final CongestionControllerFactory factory :
            ServiceLoader.load(CongestionControllerFactory.class, CongestionControlRegistry.class.getClassLoader()))
        {
            register(byName, factory);
        }
        return new CongestionControlRegistry(byName);
    }

    /**
     * @param factories the controllers to offer, e.g. a test's own.
     * @return a registry of exactly these factories.
     * @throws IllegalStateException if two factories claim the same name.
     */
    public static CongestionControlRegistry of(final CongestionControllerFactory... factories)
    {
        final Map<String, CongestionControllerFactory> byName = new TreeMap<>();
        for (final CongestionControllerFactory factory : factories)
        {
            register(byName, factory);
        }
        return new CongestionControlRegistry(byName);
    }

    private static void register(
        final Map<String, CongestionControllerFactory> byName, final CongestionControllerFactory factory)
    {
        final CongestionControllerFactory previous = byName.put(factory.name(), factory);
        if (null != previous)
        {
            throw new IllegalStateException("two congestion controllers are named '" + factory.name() + "': " +
                previous.getClass().getName() + " and " + factory.getClass().getName());
        }
    }

    /**
     * @return the names of the available controllers, sorted.
     */
    public Set<String> names()
    {
        return factoriesByName.keySet();
    }

    /**
     * @param name controller name.
     * @return the factory.
     * @throws IllegalArgumentException naming the available controllers if none has that name.
     */
    public CongestionControllerFactory factory(final String name)
    {
        final CongestionControllerFactory factory = factoriesByName.get(name);
        if (null == factory)
        {
            throw new IllegalArgumentException("no congestion controller named '" + name + "'; available: " +
                factoriesByName.keySet() + " (a controller is available when its module is on the class path)");
        }
        return factory;
    }
}
