package io.pacelink.sim.scenario;

import io.pacelink.transport.Connection;

/**
 * Notes when a flow's application first sees its connection closed, so the results can say when, not only that.
 * Looks at one volatile field per duty cycle of its host; changes nothing in the run.
 */
final class ConnectionWatch
{
    private Connection connection;
    private long closedAtNs = ConnectionEnd.NOT_CLOSED;

    /**
     * @param connection the connection to watch from now on (the first one given is kept).
     */
    void watch(final Connection connection)
    {
        if (null == this.connection)
        {
            this.connection = connection;
        }
    }

    /**
     * @param nowNs simulated time of the duty cycle just run.
     */
    void observe(final long nowNs)
    {
        if (ConnectionEnd.NOT_CLOSED == closedAtNs && null != connection && connection.outcome().isClosed())
        {
            closedAtNs = nowNs;
        }
    }

    /**
     * @return how the connection stands now.
     */
    ConnectionEnd end()
    {
        return null == connection ? ConnectionEnd.ABSENT : new ConnectionEnd(true, connection.outcome(), closedAtNs);
    }
}
