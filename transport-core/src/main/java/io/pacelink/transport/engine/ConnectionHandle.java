package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stream.ReceiveLog;
import io.pacelink.transport.stream.SendLog;
import org.agrona.DirectBuffer;

import java.net.InetSocketAddress;

/**
 * The application's side of a connection: {@code offer} writes into the send log and {@code poll} reads from the
 * receive log (both single-producer/single-consumer with the agent), while state changes are published by the agent
 * through volatile fields. Holds nothing else, so application threads never touch protocol state.
 */
final class ConnectionHandle implements Connection
{
    private final long connectionId;
    private final InetSocketAddress remoteAddress;
    private final String congestionControl;
    private final SendLog sendLog;
    private final ReceiveLog receiveLog;
    private final ConnectionCounters counters;
    private final ConnectionStats stats;
    private final int maxMessageLengthBytes;
    private volatile ConnectionState state;
    private volatile CloseReason closeReason = CloseReason.NONE;
    private volatile boolean closeRequested;

    ConnectionHandle(
        final long connectionId,
        final InetSocketAddress remoteAddress,
        final String congestionControl,
        final SendLog sendLog,
        final ReceiveLog receiveLog,
        final ConnectionCounters counters,
        final int maxMessageLengthBytes,
        final ConnectionState initialState)
    {
        this.connectionId = connectionId;
        this.remoteAddress = remoteAddress;
        this.congestionControl = congestionControl;
        this.sendLog = sendLog;
        this.receiveLog = receiveLog;
        this.counters = counters;
        this.stats = new ConnectionStats(counters);
        this.maxMessageLengthBytes = maxMessageLengthBytes;
        this.state = initialState;
    }

    public long offer(final DirectBuffer buffer, final int offset, final int length)
    {
        final ConnectionState state = this.state;
        if (ConnectionState.CONNECTED != state || closeRequested)
        {
            return ConnectionState.CONNECTING == state ? NOT_CONNECTED : CLOSED;
        }
        if (length > maxMessageLengthBytes)
        {
            return MAX_MESSAGE_LENGTH_EXCEEDED;
        }
        return sendLog.offer(buffer, offset, length);
    }

    public int poll(final MessageHandler handler, final int limit)
    {
        return receiveLog.poll(handler, limit);
    }

    public ConnectionState state()
    {
        return state;
    }

    public CloseReason closeReason()
    {
        return closeReason;
    }

    public boolean isEndOfStream()
    {
        return receiveLog.isFinished();
    }

    public InetSocketAddress remoteAddress()
    {
        return remoteAddress;
    }

    public long connectionId()
    {
        return connectionId;
    }

    public String congestionControl()
    {
        return congestionControl;
    }

    public ConnectionStats stats()
    {
        return stats;
    }

    public void close()
    {
        closeRequested = true;
    }

    boolean isCloseRequested()
    {
        return closeRequested;
    }

    SendLog sendLog()
    {
        return sendLog;
    }

    ReceiveLog receiveLog()
    {
        return receiveLog;
    }

    ConnectionCounters counters()
    {
        return counters;
    }

    void state(final ConnectionState state)
    {
        this.state = state;
        counters.set(ConnectionCounters.STATE, state.ordinal());
    }

    void closed(final CloseReason reason)
    {
        closeReason = reason;
        state(ConnectionState.CLOSED);
    }

    public String toString()
    {
        return "Connection{id=" + Long.toHexString(connectionId) + ", remote=" + remoteAddress + ", cc=" +
            congestionControl + ", state=" + state + ", closeReason=" + closeReason + "}";
    }
}
