package io.pacelink.transport.agent;

import io.pacelink.transport.Connection;
import io.pacelink.transport.engine.EndpointCore;

import java.net.InetSocketAddress;

/**
 * An application thread's request to open a connection, carried out by the endpoint's agent on its own thread (so
 * the connection's counters and buffers are created there) and answered through volatile fields, as Aeron's client
 * conductor is answered by the media driver. The requester need not wait for the answer: it may hand its
 * application a connection that is CONNECTING until the agent has created it, and ask for a close meanwhile
 * ({@link #requestClose()}, {@link #requestAbort()}), which the agent passes on to the connection it creates.
 */
public final class ConnectCommand
{
    private final InetSocketAddress remoteAddress;
    private final String congestionControl;
    private final Thread waiter;
    private volatile Connection connection;
    private volatile RuntimeException error;
    private volatile boolean isDone;
    private volatile boolean isCloseRequested;
    private volatile boolean isAbortRequested;
    private volatile boolean isWaitAbandoned;

    /**
     * @param remoteAddress     the server's address.
     * @param congestionControl controller name, or null for the endpoint's.
     */
    public ConnectCommand(final InetSocketAddress remoteAddress, final String congestionControl)
    {
        this(remoteAddress, congestionControl, null);
    }

    /**
     * @param remoteAddress     the server's address.
     * @param congestionControl controller name, or null for the endpoint's.
     * @param waiter            a thread that will wait in parks for the server's answer, which the agent then wakes
     *                          in the duty cycle the connection leaves CONNECTING; or null.
     */
    public ConnectCommand(final InetSocketAddress remoteAddress, final String congestionControl, final Thread waiter)
    {
        this.remoteAddress = remoteAddress;
        this.congestionControl = congestionControl;
        this.waiter = waiter;
    }

    /**
     * @return the server's address.
     */
    public InetSocketAddress remoteAddress()
    {
        return remoteAddress;
    }

    /**
     * @return the controller's name, or null for the endpoint's.
     */
    public String congestionControl()
    {
        return congestionControl;
    }

    /**
     * @return the thread to wake when the connection leaves CONNECTING, or null.
     */
    Thread waiter()
    {
        return waiter;
    }

    /**
     * Say that the thread given as {@code waiter} stopped waiting (its connect timed out): the agent forgets it
     * instead of waking it when the connection leaves CONNECTING, a wake that would land in whatever the thread
     * parks in next. Any thread; call it before closing the connection, so the agent never sees the close first.
     */
    public void abandonWait()
    {
        isWaitAbandoned = true;
    }

    /**
     * @return true once the waiter stopped waiting ({@link #abandonWait()}).
     */
    boolean isWaitAbandoned()
    {
        return isWaitAbandoned;
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
        final RuntimeException error = this.error;
        if (null != error)
        {
            throw error;
        }
        return connection;
    }

    /**
     * @return the connection the agent opened, or null if it has not answered yet or could not open one. Any thread.
     */
    public Connection connectionIfOpened()
    {
        return connection;
    }

    /**
     * @return why the agent could not open the connection, or null (not answered yet, or opened). Any thread.
     */
    public RuntimeException error()
    {
        return error;
    }

    /**
     * Close the connection gracefully as soon as it exists (any thread; {@link Connection#close()} once opened).
     */
    public void requestClose()
    {
        isCloseRequested = true;
        final Connection connection = this.connection;
        if (null != connection)
        {
            connection.close();
        }
    }

    /**
     * Abort the connection as soon as it exists (any thread; {@link Connection#closeNow()} once opened).
     */
    public void requestAbort()
    {
        isAbortRequested = true;
        final Connection connection = this.connection;
        if (null != connection)
        {
            connection.closeNow();
        }
    }

    /**
     * @return true once the application asked to close or abort the connection before or after it was opened.
     */
    public boolean isCloseRequested()
    {
        return isCloseRequested || isAbortRequested;
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
        // The requester writes its flag before reading the connection and this thread wrote the connection before
        // reading the flags (all volatile): a close asked for at any moment is passed on by one side or both, and a
        // second close changes nothing.
        final Connection connection = this.connection;
        if (null != connection)
        {
            if (isAbortRequested)
            {
                connection.closeNow();
            }
            else if (isCloseRequested)
            {
                connection.close();
            }
        }
    }

    void fail(final RuntimeException ex)
    {
        error = ex;
        isDone = true;
    }
}
