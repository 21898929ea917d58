package io.pacelink.transport.stats;

/**
 * Type ids of the counters an endpoint registers in its {@link org.agrona.concurrent.status.CountersManager}, so a
 * reader such as {@code pacelink stat} can tell system counters from per-connection ones and group the latter by
 * connection (the counter's key holds the local connection id).
 */
public final class CounterType
{
    /**
     * An endpoint-wide counter: datagrams in/out, malformed dropped, unknown connection, errors.
     */
    public static final int SYSTEM = 1;

    /**
     * A per-connection transport counter (cwnd, RTT, bytes in flight, ...); key = local connection id.
     */
    public static final int CONNECTION = 2;

    /**
     * A per-connection counter registered by the connection's congestion controller; key = local connection id.
     */
    public static final int CONTROLLER = 3;

    private CounterType()
    {
    }
}
