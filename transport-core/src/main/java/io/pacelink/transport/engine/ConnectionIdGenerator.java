package io.pacelink.transport.engine;

import org.bouncycastle.crypto.macs.SipHash;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.util.Pack;

import java.util.function.LongPredicate;
import java.util.function.LongSupplier;

/**
 * Local connection ids: 64 bits no off-path attacker can guess or predict (docs/security.md). A real endpoint
 * ({@link #keyed}) draws a 128-bit key from its {@link java.security.SecureRandom} once and makes each id the
 * SipHash-2-4 of a counter under that key: SipHash is a pseudorandom function (Aumasson and Bernstein, 2012), so
 * without the key — which never leaves the process — the ids seen reveal nothing of the next, just as with a draw
 * from {@code SecureRandom} per id, at a fraction of the cost (a draw from the JDK's {@code NativePRNG} mixes
 * {@code /dev/urandom} with a SHA1PRNG under a lock, and was about 4 % of the work of accepting a connection in a
 * fresh process; perf/FINDINGS.md, "Scale round 6"). SipHash is Bouncy Castle's (already the handshake's X25519):
 * allocation-free once keyed, and {@code doFinal} resets it for the next id. The simulator's endpoints draw ids
 * from their seeded generator ({@link io.pacelink.transport.PacelinkContext#randomSeed(long)}), so runs stay
 * reproducible. Agent thread only.
 */
final class ConnectionIdGenerator
{
    private final LongSupplier randomSource;
    private final SipHash prf;
    private final byte[] message = new byte[Long.BYTES];
    private long counter;

    private ConnectionIdGenerator(final LongSupplier randomSource, final SipHash prf)
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
        final byte[] key = new byte[2 * Long.BYTES];
        Pack.longToLittleEndian(secureRandom.getAsLong(), key, 0);
        Pack.longToLittleEndian(secureRandom.getAsLong(), key, Long.BYTES);
        final SipHash sipHash = new SipHash(2, 4);
        sipHash.init(new KeyParameter(key));
        return new ConnectionIdGenerator(null, sipHash);
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
            id = null == prf ? randomSource.getAsLong() : prfOf(counter++);
        }
        while (0 == id || isInUse.test(id));
        return id;
    }

    /**
     * @param value an 8-byte message, encoded little-endian.
     * @return its SipHash-2-4 under this generator's key (keyed generators only).
     */
    long prfOf(final long value)
    {
        Pack.longToLittleEndian(value, message, 0);
        prf.update(message, 0, message.length);
        return prf.doFinal();
    }
}
