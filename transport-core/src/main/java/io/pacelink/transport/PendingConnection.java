package io.pacelink.transport;

import io.pacelink.transport.agent.ConnectCommand;
import io.pacelink.transport.engine.WaitDriver;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;

import java.net.InetSocketAddress;

/**
 * A client's connection handed to the application before the agent has created it: {@link Endpoint#connect} queues
 * its {@link ConnectCommand} and returns at once, so a burst of connects from one thread costs one queue offer each
 * instead of one agent duty cycle each (an Aeron client's {@code asyncAddPublication} in spirit). Until the agent
 * answers it is CONNECTING: offers say {@link #NOT_CONNECTED}, polls find nothing, a close is remembered and passed
 * on; afterwards every call goes to the connection the agent created. The calls that need the agent's answer
 * ({@link #connectionId()}, {@link #stats()}, {@link #close(long)}) wait for it, as a connect used to.
 */
final class PendingConnection implements Connection
{
    private final ConnectCommand command;
    private final InetSocketAddress remoteAddress;
    private final String congestionControl;
    private final WaitDriver waits;
    private final Endpoint endpoint;
    private IdleStrategy offerIdleStrategy;
    private IdleStrategy pollIdleStrategy;

    /**
     * @param command           the queued connect.
     * @param remoteAddress     the server's address.
     * @param congestionControl the controller's name, resolved (never null).
     * @param waits             how the application's threads wait on the endpoint.
     * @param endpoint          the endpoint, to wait for its agent's answer.
     */
    PendingConnection(
        final ConnectCommand command,
        final InetSocketAddress remoteAddress,
        final String congestionControl,
        final WaitDriver waits,
        final Endpoint endpoint)
    {
        this.command = command;
        this.remoteAddress = remoteAddress;
        this.congestionControl = congestionControl;
        this.waits = waits;
        this.endpoint = endpoint;
    }

    /**
     * @return the connection the agent created, or null while it has not (or could not: see {@link #outcome()}).
     */
    Connection opened()
    {
        return command.connectionIfOpened();
    }

    /**
     * Wait (as a connect used to) until the agent has answered.
     *
     * @return the connection it created, or null if it could not.
     */
    private Connection awaitOpened(final String what)
    {
        if (!command.isDone())
        {
            endpoint.awaitAgent(command::isDone, what);
        }
        return command.connectionIfOpened();
    }

    public long offer(final DirectBuffer buffer, final int offset, final int length)
    {
        final Connection connection = command.connectionIfOpened();
        if (null != connection)
        {
            return connection.offer(buffer, offset, length);
        }
        return command.isCloseRequested() || null != command.error() ? CLOSED : NOT_CONNECTED;
    }

    public long offer(final DirectBuffer buffer, final int offset, final int length, final long timeoutNs)
    {
        long result = offer(buffer, offset, length);
        if (NOT_CONNECTED != result || timeoutNs <= 0)
        {
            return result;
        }
        if (null == offerIdleStrategy)
        {
            offerIdleStrategy = waits.newIdleStrategy(true);
        }
        final IdleStrategy idleStrategy = offerIdleStrategy;
        idleStrategy.reset();
        final long deadlineNs = waits.nowNs() + timeoutNs;
        Connection connection;
        while (null == (connection = command.connectionIfOpened()))
        {
            result = offer(buffer, offset, length);
            if (NOT_CONNECTED != result || waits.nowNs() - deadlineNs >= 0)
            {
                return result;
            }
            waits.turn(idleStrategy, 0);
        }
        return connection.offer(buffer, offset, length, Math.max(0, deadlineNs - waits.nowNs()));
    }

    public int poll(final MessageHandler handler, final int limit)
    {
        final Connection connection = command.connectionIfOpened();
        return null == connection ? 0 : connection.poll(handler, limit);
    }

    public int poll(final MessageHandler handler, final int limit, final long timeoutNs)
    {
        final Connection connection = command.connectionIfOpened();
        if (null != connection || timeoutNs <= 0)
        {
            return null == connection ? 0 : connection.poll(handler, limit, timeoutNs);
        }
        if (null == pollIdleStrategy)
        {
            pollIdleStrategy = waits.newIdleStrategy(true);
        }
        final IdleStrategy idleStrategy = pollIdleStrategy;
        idleStrategy.reset();
        final long deadlineNs = waits.nowNs() + timeoutNs;
        Connection opened;
        while (null == (opened = command.connectionIfOpened()))
        {
            if (null != command.error() || waits.nowNs() - deadlineNs >= 0)
            {
                return 0;
            }
            waits.turn(idleStrategy, 0);
        }
        return opened.poll(handler, limit, Math.max(0, deadlineNs - waits.nowNs()));
    }

    public ConnectionState state()
    {
        final Connection connection = command.connectionIfOpened();
        if (null != connection)
        {
            return connection.state();
        }
        return null != command.error() ? ConnectionState.CLOSED : ConnectionState.CONNECTING;
    }

    public CloseReason closeReason()
    {
        return outcome().reason();
    }

    public ConnectionOutcome outcome()
    {
        final Connection connection = command.connectionIfOpened();
        if (null != connection)
        {
            return connection.outcome();
        }
        final RuntimeException error = command.error();
        return null == error ? ConnectionOutcome.OPEN : failedOutcome(error);
    }

    /**
     * The agent could not create the connection: the endpoint closed before it did, or the set-up failed (the
     * agent's exception is the detail).
     */
    private static ConnectionOutcome failedOutcome(final RuntimeException error)
    {
        final boolean isEndpointClosed = error instanceof IllegalStateException;
        return new ConnectionOutcome(
            isEndpointClosed ? CloseReason.ENDPOINT_CLOSED : CloseReason.ABORTED,
            isEndpointClosed ? "" : "the connection could not be set up: " + error,
            true, 0, 0, 0, 0);
    }

    public ConnectionOutcome awaitOutcome(final long timeoutNs)
    {
        final ConnectionOutcome outcome = outcome();
        if (outcome.isClosed() || timeoutNs <= 0)
        {
            return outcome;
        }
        final long deadlineNs = waits.nowNs() + timeoutNs;
        final IdleStrategy idleStrategy = waits.newIdleStrategy(false);
        while (!command.isDone() && waits.nowNs() - deadlineNs < 0)
        {
            waits.turn(idleStrategy, 0);
        }
        final Connection connection = command.connectionIfOpened();
        return null == connection ? outcome() : connection.awaitOutcome(Math.max(0, deadlineNs - waits.nowNs()));
    }

    public boolean isEndOfStream()
    {
        final Connection connection = command.connectionIfOpened();
        return null != connection && connection.isEndOfStream();
    }

    public InetSocketAddress remoteAddress()
    {
        final Connection connection = command.connectionIfOpened();
        return null == connection ? remoteAddress : connection.remoteAddress();
    }

    /**
     * @return the connection's id; waits for the agent to create the connection if it has not yet (0 if it could
     * not).
     */
    public long connectionId()
    {
        final Connection connection = awaitOpened("connect");
        return null == connection ? 0 : connection.connectionId();
    }

    public String congestionControl()
    {
        return congestionControl;
    }

    /**
     * @return the connection's statistics; waits for the agent to create the connection if it has not yet (all 0
     * if it could not).
     */
    public ConnectionStats stats()
    {
        final Connection connection = awaitOpened("connect");
        return null == connection ? ConnectionStats.ofUnopened() : connection.stats();
    }

    public void close()
    {
        command.requestClose();
    }

    public ConnectionOutcome close(final long lingerTimeoutNs)
    {
        if (lingerTimeoutNs < 0)
        {
            throw new IllegalArgumentException("lingerTimeoutNs must not be negative: " + lingerTimeoutNs);
        }
        final Connection connection = awaitOpened("close");
        return null == connection ? outcome() : connection.close(lingerTimeoutNs);
    }

    public void closeNow()
    {
        command.requestAbort();
    }

    public String toString()
    {
        final Connection connection = command.connectionIfOpened();
        return null != connection ? connection.toString() :
            "Connection{remote=" + remoteAddress + ", cc=" + congestionControl + ", state=" + state() + "}";
    }
}
