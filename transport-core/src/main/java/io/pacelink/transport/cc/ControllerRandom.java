package io.pacelink.transport.cc;

/**
 * The seeded source of randomness a controller gets from its context (BBR's random cycle start and probe waits).
 * Seeded from the endpoint's context so that simulations are reproducible.
 */
public interface ControllerRandom
{
    /**
     * @param bound exclusive upper bound, positive.
     * @return a uniformly distributed int in [0, bound).
     */
    int nextInt(int bound);

    /**
     * @return a uniformly distributed double in [0, 1).
     */
    double nextDouble();
}
