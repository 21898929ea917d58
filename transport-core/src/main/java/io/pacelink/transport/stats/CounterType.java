package io.pacelink.transport.stats;

/**
 * Type ids of the counters Pacelink registers in an Agrona {@link org.agrona.concurrent.status.CountersManager}, so
 * a reader such as {@code pacelink stat} can tell endpoint-wide counters from per-connection ones and group the
 * latter by connection. Every counter's key has the {@link CounterKey} layout.
 */
public final class CounterType
{
    /**
     * An endpoint-wide counter: datagrams in/out, malformed dropped, unknown connection, errors.
     */
    public static final int SYSTEM = 1;

    /**
     * A per-connection transport counter (cwnd, RTT, bytes in flight, ...); owner = local connection id.
     */
    public static final int CONNECTION = 2;

    /**
     * A per-connection counter registered by the connection's congestion controller, and the controller's state
     * ({@link ConnectionCounters#CONTROLLER_STATE_NAME}); owner = local connection id.
     */
    public static final int CONTROLLER = 3;

    /**
     * A counter of the endpoint's packet scheduler (flows, throttled, horizon drops, ...).
     */
    public static final int SCHEDULER = 4;

    /**
     * A counter of a netem relay ({@code io.pacelink.link.relay.NetemRelay}); owner = 0, names start with
     * {@code forward-} (client to server) or {@code reverse-} for the two directions.
     */
    public static final int RELAY = 5;

    /**
     * A counter of the endpoint's datagram port ({@link PortCounters}): which port it is (the label of
     * {@code port-batched} says which and why) and its system calls, GSO/GRO use, drops and waits; owner = 0.
     */
    public static final int PORT = 6;

    private CounterType()
    {
    }
}
