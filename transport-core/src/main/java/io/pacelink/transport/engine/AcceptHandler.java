package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;

/**
 * Takes each connection a client opened to an endpoint, on the agent thread, as the endpoint accepts it.
 */
@FunctionalInterface
public interface AcceptHandler
{
    /**
     * @param connection the new connection, already CONNECTED.
     * @return false to refuse it: the endpoint then closes it at once and the client sees it REJECTED.
     */
    boolean onAccepted(Connection connection);
}
