package io.pacelink.sim;

/**
 * Scenario code run at a virtual time: start a flow, change something, take a sample.
 */
@FunctionalInterface
public interface SimTask
{
    /**
     * @param nowNs the virtual time.
     */
    void run(long nowNs);
}
