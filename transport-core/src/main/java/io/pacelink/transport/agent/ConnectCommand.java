package io.pacelink.transport.agent;

import io.pacelink.transport.Connection;
import io.pacelink.transport.engine.EndpointCore;

import java.net.InetSocketAddress;
import java.util.concurrent.locks.LockSupport;

/**
 * An application thread's request to open a connection, carried out by the endpoint's agent on its own thread (so
 * the connection's counters and buffers are created there) and answered through volatile fields the requester polls,
 * as Aeron's client conductor awaits the media driver's answer to a command. The answer also unparks the requesting
 * thread, so a requester that parks between its polls sees the answer at once rather than at the end of a park it
 * backed off to (up to a millisecond each, which made every {@code connect} call of a burst cost milliseconds).
 */
public final class ConnectCommand
{
    private final InetSocketAddress remoteAddress;
    private final String congestionControl;
    private final Thread requester = Thread.currentThread();
    private Connection connection;
    private RuntimeException error;
    private volatile boolean isDone;

    /**
     * A request of the calling thread, which the answer unparks.
     *
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
        answer();
    }

    void fail(final RuntimeException ex)
    {
        error = ex;
        answer();
    }

    private void answer()
    {
        isDone = true;
        // After the volatile write: a requester that wakes sees the answer. Unparking a thread that is not parked
        // only leaves it a permit, which makes its next park return at once: a poll of its condition more.
        LockSupport.unpark(requester);
    }
}
