package io.pacelink.sim.results;

/**
 * Reads one connection's statistics into a trace row; the endpoint's per-connection stats implement it.
 */
@FunctionalInterface
public interface ConnectionSampler
{
    /**
     * @param nowNs  the sampling time.
     * @param sample the row to fill in with {@link ConnectionSample#set}.
     */
    void sample(long nowNs, ConnectionSample sample);
}
