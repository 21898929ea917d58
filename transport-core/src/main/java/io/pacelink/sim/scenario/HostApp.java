package io.pacelink.sim.scenario;

/**
 * An application on a simulated host, run around its endpoint's duty cycle by {@link EndpointDriver}.
 */
interface HostApp
{
    /**
     * Before the endpoint's duty cycle: connect, offer.
     *
     * @param nowNs virtual time.
     */
    void beforeWork(long nowNs);

    /**
     * After the endpoint's duty cycle: accept, poll, answer.
     *
     * @param nowNs virtual time.
     * @return how many messages were offered (the endpoint then runs again to send them at once).
     */
    int afterWork(long nowNs);

    /**
     * @return when the application next needs to run by itself ({@link Long#MAX_VALUE}: only on network events).
     */
    long nextEventNs();
}
