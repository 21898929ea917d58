package io.pacelink.sim;

/**
 * Something the simulator drives in virtual time, in the sans-IO style of the endpoint core ({@code EndpointCore}
 * has exactly these two methods): the simulator calls {@link #doWork(long)} when a datagram has been delivered to
 * the agent's host and when the agent's own deadline comes, handing it the virtual time.
 */
public interface SimulatedAgent
{
    /**
     * Do whatever is due at {@code nowNs}: receive from the host's port, fire timers, send.
     *
     * @param nowNs the virtual time.
     * @return the amount of work done (0 if there was none).
     */
    int doWork(long nowNs);

    /**
     * @return when the agent next needs {@link #doWork(long)} even if no datagram arrives, or {@link Long#MAX_VALUE}
     * if never; a time at or before now means "again, now".
     */
    long nextDeadlineNs();

    /**
     * @return false while a datagram's delivery to the host should not run the agent (it holds arrivals, as a NIC's
     * interrupt moderation does, until {@link #nextDeadlineNs()}); true, the default, to run it at every arrival.
     * Asked after each {@link #doWork(long)}.
     */
    default boolean wakesOnArrival()
    {
        return true;
    }
}
