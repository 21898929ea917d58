package io.pacelink.transport.engine;

/**
 * Local connection ids: unique within the endpoint, unpredictable to peers, and reproducible from the context's seed
 * when connections are opened in the same order (as in the simulator). Agent thread only, like the rest of the
 * endpoint core.
 * <p>
 * id = mix64(seed + n * golden gamma) for the n-th id: the gamma is odd, so the sums are distinct, and mix64 (the
 * SplittableRandom finaliser) is a bijection, so the ids are distinct too.
 */
final class ConnectionIdGenerator
{
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

    private final long seed;
    private long sequence;

    ConnectionIdGenerator(final long seed)
    {
        this.seed = seed;
    }

    /**
     * @return a new id, never 0 (0 means "not yet known" in the handshake).
     */
    long nextId()
    {
        long id;
        do
        {
            id = mix64(seed + ++sequence * GOLDEN_GAMMA);
        }
        while (0 == id);
        return id;
    }

    private static long mix64(final long value)
    {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
