package io.pacelink.transport.agent;

import io.pacelink.transport.Connection;
import io.pacelink.transport.engine.EndpointCore;

import java.net.InetSocketAddress;

/**
 * An application thread's request to open a connection, carried out by the endpoint's agent on its own thread (so
 * the connection's counters and buffers are created there) and answered through volatile fields the requester polls,
 * as Aeron's client conductor awaits the media driver's answer to a command.
 */
public final class ConnectCommand
{
    private final InetSocketAddress remoteAddress;
    private final String congestionControl;
    private Connection connection;
    private RuntimeException error;
    private volatile boolean isDone;

    /**
     * @param remoteAddress     the server's address.
     * @param congestionControl controller name, or null for the endpoint's.
     */
    public ConnectCommand(final InetSocketAddress remoteAddress, final String congestionControl)
    {
        this.remoteAddress = remoteAddress;
        this.congestionControl = congestionControl;
    }

    /**
     * @return true once the agent has answered.
     */
    public boolean isDone()
    {
        return isDone;
    }

    /**
     * @return the connection the agent opened.
     * @throws RuntimeException the agent's error, rethrown on the requester's thread, if it could not open one.
     */
    public Connection connection()
    {
        if (!isDone)
        {
            throw new IllegalStateException("the agent has not answered yet");
        }
        if (null != error)
        {
            throw error;
        }
        return connection;
    }

    void execute(final EndpointCore core, final long nowNs)
    {
        try
        {
            connection = core.connect(remoteAddress, congestionControl, nowNs);
        }
        catch (final RuntimeException ex)
        {
            error = ex;
        }
        isDone = true;
    }

    void fail(final RuntimeException ex)
    {
        error = ex;
        isDone = true;
    }
}
