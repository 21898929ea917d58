package io.pacelink.transport.engine;

import java.util.function.LongPredicate;
import java.util.function.LongSupplier;

/**
 * Local connection ids: 64 bits no off-path attacker can guess or predict (docs/security.md). A real endpoint
 * ({@link #keyed}) draws a 128-bit key from its {@link java.security.SecureRandom} once and makes each id the
 * SipHash-2-4 of a counter under that key: SipHash is a pseudorandom function (Aumasson and Bernstein, 2012), so
 * without the key — which never leaves the process — the ids seen reveal nothing of the next, just as with a draw
 * from {@code SecureRandom} per id, at a fraction of the cost (a draw from the JDK's {@code NativePRNG} mixes
 * {@code /dev/urandom} with a SHA1PRNG under a lock, and was about 4 % of the work of accepting a connection in a
 * fresh process; perf/FINDINGS.md, "Scale round 6"). The simulator's endpoints draw ids from their seeded generator
 * ({@link io.pacelink.transport.PacelinkContext#randomSeed(long)}), so runs stay reproducible. Agent thread only.
 */
final class ConnectionIdGenerator
{
    private final LongSupplier randomSource;
    private final SipHash24 prf;
    private long counter;

    private ConnectionIdGenerator(final LongSupplier randomSource, final SipHash24 prf)
    {
        this.randomSource = randomSource;
        this.prf = prf;
    }

    /**
     * @param randomSource a seeded generator (the simulator's): every id is its next draw.
     * @return a generator of ids drawn from it.
     */
    static ConnectionIdGenerator drawing(final LongSupplier randomSource)
    {
        return new ConnectionIdGenerator(randomSource, null);
    }

    /**
     * @param secureRandom the endpoint's {@code SecureRandom}: two draws key the generator, none follows.
     * @return a generator of SipHash-2-4 outputs of a counter under that key.
     */
    static ConnectionIdGenerator keyed(final LongSupplier secureRandom)
    {
        return new ConnectionIdGenerator(null, new SipHash24(secureRandom.getAsLong(), secureRandom.getAsLong()));
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
            id = null == prf ? randomSource.getAsLong() : prf.hash(counter++);
        }
        while (0 == id || isInUse.test(id));
        return id;
    }
}
