package io.pacelink.transport.engine;

import java.util.function.LongPredicate;
import java.util.function.LongSupplier;

/**
 * Local connection ids: 64 random bits each from the endpoint's random source, which is
 * {@link java.security.SecureRandom} on a real endpoint and a seeded generator only in the simulator
 * ({@link io.pacelink.transport.PacelinkContext#randomSeed(long)}), so an off-path attacker can neither guess an
 * existing connection's id nor predict the next one (docs/security.md). Agent thread only.
 */
final class ConnectionIdGenerator
{
    private final LongSupplier randomSource;

    ConnectionIdGenerator(final LongSupplier randomSource)
    {
        this.randomSource = randomSource;
    }

    /**
     * @param isInUse whether an id already names a connection of the endpoint.
     * @return a new id, never 0 (0 means "not yet known" in the handshake) and never one in use.
     */
    long nextId(final LongPredicate isInUse)
    {
        long id;
        do
        {
            id = randomSource.getAsLong();
        }
        while (0 == id || isInUse.test(id));
        return id;
    }
}
