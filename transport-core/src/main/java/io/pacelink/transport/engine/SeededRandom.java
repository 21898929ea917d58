package io.pacelink.transport.engine;

import io.pacelink.transport.cc.ControllerRandom;

import java.util.SplittableRandom;

/**
 * The endpoint's seeded randomness: one root seed from the context, split per connection so that a connection's
 * random choices do not depend on how many other connections exist.
 */
final class SeededRandom implements ControllerRandom
{
    private final SplittableRandom random;

    SeededRandom(final long seed)
    {
        this.random = new SplittableRandom(seed);
    }

    private SeededRandom(final SplittableRandom random)
    {
        this.random = random;
    }

    /**
     * @return an independent stream for one connection.
     */
    SeededRandom split()
    {
        return new SeededRandom(random.split());
    }

    public int nextInt(final int bound)
    {
        return random.nextInt(bound);
    }

    /**
     * @return 64 random bits.
     */
    long nextLong()
    {
        return random.nextLong();
    }

    public double nextDouble()
    {
        return random.nextDouble();
    }
}
