package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionOutcome;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stream.ReceiveLog;
import io.pacelink.transport.stream.SendLog;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;

/**
 * The application's side of a connection: {@code offer} writes into the send log and {@code poll} reads from the
 * receive log (both single-producer/single-consumer with the agent), while the application's close requests and the
 * agent's state changes and outcome are published through volatile fields. Holds nothing else, so application
 * threads never touch protocol state. The waits are loops over the non-blocking calls, turned by the endpoint's
 * {@link WaitDriver}.
 */
final class ConnectionHandle implements Connection
{
    /**
     * {@link #requestedLingerNs()} when the application asked for no particular linger: the context's applies.
     */
    static final long CONTEXT_LINGER = -1;

    /**
     * How long a wait allows the agent, beyond the time the protocol itself needs, to carry out a request; longer
     * means the agent is not running.
     */
    static final long AGENT_RESPONSE_ALLOWANCE_NS = 10_000_000_000L;

    private static final VarHandle IS_SIGNALLED;

    static
    {
        try
        {
            IS_SIGNALLED = MethodHandles.lookup().findVarHandle(ConnectionHandle.class, "isSignalled", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final long connectionId;
    private volatile InetSocketAddress remoteAddress;
    private final String congestionControl;
    private final SendLog sendLog;
    private final ReceiveLog receiveLog;
    private final ConnectionCounters counters;
    private final ConnectionStats stats;
    private final int maxMessageLengthBytes;
    private final WaitDriver waitDriver;
    private final ApplicationSignals signals;
    private IdleStrategy offerIdleStrategy;
    private IdleStrategy pollIdleStrategy;
    private volatile ConnectionState state;
    private volatile ConnectionOutcome outcome = ConnectionOutcome.OPEN;
    private volatile long requestedLingerNs = CONTEXT_LINGER;
    private volatile boolean closeRequested;
    private volatile boolean abortRequested;
    private volatile int isSignalled;

    ConnectionHandle(
        final long connectionId,
        final InetSocketAddress remoteAddress,
        final String congestionControl,
        final SendLog sendLog,
        final ReceiveLog receiveLog,
        final ConnectionCounters counters,
        final int maxMessageLengthBytes,
        final ConnectionState initialState,
        final WaitDriver waitDriver,
        final ApplicationSignals signals)
    {
        this.signals = signals;
        this.connectionId = connectionId;
        this.remoteAddress = remoteAddress;
        this.congestionControl = congestionControl;
        this.sendLog = sendLog;
        this.receiveLog = receiveLog;
        this.counters = counters;
        this.stats = new ConnectionStats(counters);
        this.maxMessageLengthBytes = maxMessageLengthBytes;
        this.state = initialState;
        this.waitDriver = waitDriver;
    }

    public long offer(final DirectBuffer buffer, final int offset, final int length)
    {
        final ConnectionState state = this.state;
        if (ConnectionState.CONNECTED != state || closeRequested)
        {
            return ConnectionState.CONNECTING == state && !closeRequested ? NOT_CONNECTED : CLOSED;
        }
        if (length > maxMessageLengthBytes)
        {
            return MAX_MESSAGE_LENGTH_EXCEEDED;
        }
        final long result = sendLog.offer(buffer, offset, length);
        if (result >= 0)
        {
            signal();
        }
        return result;
    }

    public long offer(final DirectBuffer buffer, final int offset, final int length, final long timeoutNs)
    {
        long result = offer(buffer, offset, length);
        if (!isWorthRetrying(result) || timeoutNs <= 0)
        {
            return result;
        }

        if (null == offerIdleStrategy)
        {
            offerIdleStrategy = waitDriver.newIdleStrategy(true);
        }
        final IdleStrategy idleStrategy = offerIdleStrategy;
        idleStrategy.reset();
        final long deadlineNs = waitDriver.nowNs() + timeoutNs;
        do
        {
            waitDriver.turn(idleStrategy, 0);
            result = offer(buffer, offset, length);
        }
        while (isWorthRetrying(result) && waitDriver.nowNs() - deadlineNs < 0);
        return result;
    }

    private static boolean isWorthRetrying(final long offerResult)
    {
        return BACK_PRESSURED == offerResult || NOT_CONNECTED == offerResult;
    }

    public int poll(final MessageHandler handler, final int limit)
    {
        return signalIfRead(receiveLog.poll(handler, limit));
    }

    /**
     * Reading frees receive credit and advances the receipts the peer is owed: the agent must look.
     */
    private int signalIfRead(final int count)
    {
        if (count > 0)
        {
            signal();
        }
        return count;
    }

    public int poll(final MessageHandler handler, final int limit, final long timeoutNs)
    {
        int count = signalIfRead(receiveLog.poll(handler, limit));
        if (count > 0 || timeoutNs <= 0)
        {
            return count;
        }

        if (null == pollIdleStrategy)
        {
            pollIdleStrategy = waitDriver.newIdleStrategy(true);
        }
        final IdleStrategy idleStrategy = pollIdleStrategy;
        idleStrategy.reset();
        final long deadlineNs = waitDriver.nowNs() + timeoutNs;
        while (true)
        {
            // Read the state before polling: a message that arrived before the close is still delivered.
            final boolean closed = ConnectionState.CLOSED == state;
            count = signalIfRead(receiveLog.poll(handler, limit));
            if (count > 0 || closed || receiveLog.isFinished() || waitDriver.nowNs() - deadlineNs >= 0)
            {
                return count;
            }
            waitDriver.turn(idleStrategy, 0);
        }
    }

    public ConnectionState state()
    {
        return state;
    }

    public CloseReason closeReason()
    {
        return outcome.reason();
    }

    public ConnectionOutcome outcome()
    {
        return outcome;
    }

    public ConnectionOutcome awaitOutcome(final long timeoutNs)
    {
        ConnectionOutcome outcome = this.outcome;
        if (outcome.isClosed() || timeoutNs <= 0)
        {
            return outcome;
        }

        final IdleStrategy idleStrategy = waitDriver.newIdleStrategy(false);
        final long deadlineNs = waitDriver.nowNs() + timeoutNs;
        while (!(outcome = this.outcome).isClosed() && waitDriver.nowNs() - deadlineNs < 0)
        {
            waitDriver.turn(idleStrategy, 0);
        }
        return outcome;
    }

    public boolean isEndOfStream()
    {
        return receiveLog.isFinished();
    }

    public InetSocketAddress remoteAddress()
    {
        return remoteAddress;
    }

    /**
     * The connection moved to its peer's new address (path validation proved it; agent thread).
     */
    void remoteAddress(final InetSocketAddress newAddress)
    {
        remoteAddress = newAddress;
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
        signal();
    }

    public ConnectionOutcome close(final long lingerTimeoutNs)
    {
        if (lingerTimeoutNs < 0)
        {
            throw new IllegalArgumentException("lingerTimeoutNs must not be negative: " + lingerTimeoutNs);
        }
        requestedLingerNs = lingerTimeoutNs;
        closeRequested = true;
        signal();
        return awaitOutcome(lingerTimeoutNs + AGENT_RESPONSE_ALLOWANCE_NS);
    }

    public void closeNow()
    {
        abortRequested = true;
        signal();
    }

    /**
     * Any thread: tell the agent this connection's application acted ({@link ApplicationSignals}); once until the
     * agent takes the signal, so a busy application pays one volatile read per call.
     */
    void signal()
    {
        if (0 == isSignalled && IS_SIGNALLED.compareAndSet(this, 0, 1) && !signals.offer(this))
        {
            isSignalled = 0;
        }
        // And wake the agent if it sleeps in its port (a no-op when it is awake): the signal alone would wait for
        // its next deadline.
        waitDriver.signalWork();
    }

    /**
     * Agent thread: the signal was taken.
     */
    void clearSignal()
    {
        isSignalled = 0;
    }

    // ---------------------------------------------------------------- the agent's side

    boolean isCloseRequested()
    {
        return closeRequested;
    }

    /**
     * @return the linger the application asked for with {@link #close(long)}, or {@link #CONTEXT_LINGER}.
     */
    long requestedLingerNs()
    {
        return requestedLingerNs;
    }

    boolean isAbortRequested()
    {
        return abortRequested;
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

    /**
     * Decide the outcome (once; later calls change nothing): how the connection ended and whether the peer's
     * application read everything offered, judged from the peer's receipt.
     *
     * @param reason               how it ended.
     * @param detail               more about it, or empty.
     * @param peerConsumedPosition how far the peer's application has read this side's stream, per its receipts.
     * @param peerConsumedMessages how many messages that is.
     */
    void ended(
        final CloseReason reason, final String detail, final long peerConsumedPosition, final long peerConsumedMessages)
    {
        if (outcome.isClosed())
        {
            return;
        }
        final long messagesOffered = sendLog.messagesOffered();
        final long streamBytesOffered = sendLog.tailPosition();
        outcome = new ConnectionOutcome(
            reason,
            detail,
            peerConsumedPosition >= streamBytesOffered,
            messagesOffered,
            SendLog.applicationBytes(streamBytesOffered, messagesOffered),
            peerConsumedMessages,
            SendLog.applicationBytes(peerConsumedPosition, peerConsumedMessages));
    }

    /**
     * The connection is gone: decide the outcome if it was not yet (a connection that never got a receipt) and
     * publish CLOSED.
     */
    void closed(final CloseReason reason, final String detail)
    {
        ended(reason, detail, 0, 0);
        state(ConnectionState.CLOSED);
    }

    public String toString()
    {
        return "Connection{id=" + Long.toHexString(connectionId) + ", remote=" + remoteAddress + ", cc=" +
            congestionControl + ", state=" + state + ", outcome=" + outcome + "}";
    }
}
