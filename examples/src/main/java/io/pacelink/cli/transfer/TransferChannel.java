package io.pacelink.cli.transfer;

import io.pacelink.cli.net.ClosingConnections;
import io.pacelink.cli.net.ConnectFailures;
import io.pacelink.cli.net.RateLimiter;
import io.pacelink.cli.net.TransportWaits;
import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A session's network thread, and the one place the file-transfer tools wait on the transport: for a connection
 * to be established or accepted, for room in the send buffer (back-pressure), for the peer's messages, and for the
 * last messages to be delivered before the connection closes. It offers what the file thread put in the outbound
 * pipe, copies what arrives into the inbound pipe, and backs off with the endpoint context's idle strategy when
 * there is nothing to do.
 * <p>
 * Whether a transfer succeeded is never judged here: the connection closing normally says nothing about what the
 * peer's application did with the data. The sender trusts only the receiver's confirmations (a VERDICT per file and
 * a final DONE, see {@link Messages}). When the transport offers blocking waits with timeouts and a final outcome of
 * its own, {@link #connect}, {@link #accept}, the offer loop in {@link #run} and {@link #linger} are the places to
 * switch to them.
 */
public final class TransferChannel implements MessageHandler
{
    /**
     * Longest park while waiting for a sender to connect.
     */
    public static final long ACCEPT_MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private static final long TICK_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long ACCEPT_SPINS = 10;
    private static final long ACCEPT_YIELDS = 10;
    private static final long ACCEPT_MIN_PARK_NS = TimeUnit.MICROSECONDS.toNanos(10);

    private final Connection connection;
    private final SessionPipes pipes;
    private final IdleStrategy idleStrategy;
    private final String peerName;
    private final long idleTimeoutNs;
    private final RateLimiter rateLimiter;
    private String protocolFailure;
    private volatile long dataBytesOffered;
    private volatile long streamPositionOffered;

    /**
     * @param connection    an established connection.
     * @param pipes         the session's messages and status, shared with its file thread.
     * @param idleStrategy  how to back off when idle: the endpoint context's.
     * @param peerName      "receiver" or "sender", for messages.
     * @param idleTimeoutNs the endpoint's idle timeout, for messages.
     * @param rateBitsPerSecond cap on what is offered (application-limited sending), or 0 for none.
     */
    public TransferChannel(
        final Connection connection,
        final SessionPipes pipes,
        final IdleStrategy idleStrategy,
        final String peerName,
        final long idleTimeoutNs,
        final long rateBitsPerSecond)
    {
        this.connection = connection;
        this.pipes = pipes;
        this.idleStrategy = idleStrategy;
        this.peerName = peerName;
        this.idleTimeoutNs = idleTimeoutNs;
        this.rateLimiter = rateBitsPerSecond > 0 ?
            new RateLimiter(rateBitsPerSecond, pipes.outbound().slotBytes(), System.nanoTime()) : null;
    }

    /**
     * @param bindAddress where the endpoint binds.
     * @return an endpoint context for a file-transfer tool: messages no longer than the protocol's. Connection ids
     * are random (SecureRandom) on every real endpoint, so a restarted sender never looks like its predecessor.
     */
    public static PacelinkContext endpointContext(final InetSocketAddress bindAddress)
    {
        return new PacelinkContext()
            .bindAddress(bindAddress)
            .maxMessageLengthBytes(Messages.MAX_MESSAGE_BYTES);
    }

    /**
     * @return the context of a sender's endpoint: as {@link #endpointContext}, bound to any free port, and accepting
     * no connections, so its socket is restricted to the receiver and an ICMP port-unreachable report (nothing
     * listening there) ends the connect at once instead of after the handshake timeout.
     */
    public static PacelinkContext senderContext()
    {
        return endpointContext(new InetSocketAddress(0)).acceptConnections(false);
    }

    /**
     * Open a connection and wait until it is established.
     *
     * @param endpoint          the local endpoint.
     * @param address           the receiver.
     * @param congestionControl the connection's controller.
     * @param idleStrategy      how to wait.
     * @param timeoutNs         the endpoint's handshake timeout, which ends the attempt (waited for a second
     *                          longer in case the endpoint's agent is slow to say so).
     * @return the connection, CONNECTED.
     * @throws TransferException saying why it could not connect.
     */
    public static Connection connect(
        final Endpoint endpoint,
        final InetSocketAddress address,
        final String congestionControl,
        final IdleStrategy idleStrategy,
        final long timeoutNs) throws TransferException
    {
        final Connection connection = endpoint.connect(address, congestionControl);
        final long deadlineNs = System.nanoTime() + timeoutNs + TimeUnit.SECONDS.toNanos(1);
        while (ConnectionState.CONNECTING == connection.state())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                connection.closeNow();
                break;
            }
            idleStrategy.idle();
        }
        idleStrategy.reset();
        if (ConnectionState.CONNECTED != connection.state())
        {
            throw new TransferException(
                ConnectFailures.describe(connection, address, timeoutNs, "pacelink receive"));
        }
        return connection;
    }

    /**
     * Wait for a client to open a connection. A receiver may wait for hours, and a few milliseconds more before a
     * session starts are unnoticeable, so this backs off to parks of up to {@link #ACCEPT_MAX_PARK_NS} rather than
     * the context's strategy, whose short parks suit a busy connection (about 10 % of a core while idle here).
     *
     * @param endpoint      the listening endpoint.
     * @param stopRequested checked while waiting.
     * @return the connection, or null if asked to stop first.
     */
    public static Connection accept(final Endpoint endpoint, final BooleanSupplier stopRequested)
    {
        final IdleStrategy idleStrategy = new BackoffIdleStrategy(
            ACCEPT_SPINS, ACCEPT_YIELDS, ACCEPT_MIN_PARK_NS, ACCEPT_MAX_PARK_NS);
        Connection connection;
        while (null == (connection = endpoint.accept()))
        {
            if (stopRequested.getAsBoolean())
            {
                return null;
            }
            idleStrategy.idle();
        }
        return connection;
    }

    /**
     * Move messages until the file thread has finished and everything it sent was handed to the transport, then
     * linger until the connection closed; or until the connection fails, which the file thread then learns from
     * {@link SessionPipes}.
     *
     * @param onTick called about every 100 ms on this thread (progress output).
     */
    public void run(final Runnable onTick)
    {
        final SlotPipe outbound = pipes.outbound();
        final SlotPipe inbound = pipes.inbound();
        long nextTickNs = System.nanoTime() + TICK_INTERVAL_NS;
        Slot pending = null;
        while (true)
        {
            int work = 0;
            if (null == pending)
            {
                pending = outbound.poll();
            }
            if (null != pending && (null == rateLimiter || rateLimiter.tryAcquire(pending.length(), System.nanoTime())))
            {
                final long position = connection.offer(pending.buffer(), 0, pending.length());
                if (position > 0)
                {
                    account(pending, position);
                    outbound.release(pending);
                    pending = null;
                    work++;
                }
                else if (Connection.BACK_PRESSURED != position)
                {
                    // Closed: hand over first what the peer sent before it closed, as the end below does — its last
                    // message (a DONE that ended the session early) says why, which "closed the connection" does not.
                    final int freeSlots = inbound.freeSlots();
                    if (freeSlots > 0)
                    {
                        connection.poll(this, freeSlots);
                    }
                    fail(null != protocolFailure ? protocolFailure : describeClose());
                    return;
                }
            }

            final int freeSlots = inbound.freeSlots();
            if (freeSlots > 0)
            {
                work += connection.poll(this, freeSlots);
            }
            if (null != protocolFailure)
            {
                fail(protocolFailure);
                return;
            }

            if (pipes.isFinished() && outbound.isDrained())
            {
                if (pipes.isStopped())
                {
                    connection.close(); // interrupted: report now rather than deliver what is still buffered
                }
                else
                {
                    linger();
                }
                return;
            }
            // Over once its outcome is decided, not once its state turns CLOSED: after the peer's CLOSE the
            // connection drains for three probe timeouts (RFC 9000 section 10.2.2) — some 3 s before its first RTT
            // sample — and nothing can arrive meanwhile; a session that waited for CLOSED kept its two threads polling
            // that long (docs/security.md, "Floods, measured": every connect of the flood's probe became one).
            // (Judged only after a poll, so that nothing received is left behind in the connection.)
            if (0 == work && freeSlots > 0 && (connection.outcome().isClosed() || connection.isEndOfStream()))
            {
                fail(describeClose());
                return;
            }

            final long nowNs = System.nanoTime();
            if (nowNs - nextTickNs >= 0)
            {
                onTick.run();
                nextTickNs = nowNs + TICK_INTERVAL_NS;
            }
            idleStrategy.idle(work);
        }
    }

    public void onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        if (null != protocolFailure)
        {
            return;
        }
        final SlotPipe inbound = pipes.inbound();
        if (length > inbound.slotBytes())
        {
            protocolFailure = "the " + peerName + " sent a message of " + length + " bytes, more than the " +
                "protocol's " + inbound.slotBytes();
            return;
        }
        // poll() was limited to the free slots, so there is one.
        final Slot slot = inbound.claim();
        buffer.getBytes(offset, slot.buffer(), 0, length);
        slot.length(length);
        inbound.commit(slot);
    }

    /**
     * @return file bytes (DATA payload) the peer's transport has acknowledged: what was offered less what is still
     * in the send buffer, counting the few header bytes per message as file bytes (an estimate for progress).
     */
    public long dataBytesDelivered()
    {
        final long unacknowledged = streamPositionOffered - connection.stats().streamBytesAcked();
        return Math.max(0, dataBytesOffered - Math.max(0, unacknowledged));
    }

    private void account(final Slot slot, final long position)
    {
        if (Messages.DATA == Messages.type(slot.buffer()))
        {
            dataBytesOffered += slot.length() - Messages.DATA_HEADER_BYTES;
        }
        streamPositionOffered = position;
    }

    /**
     * Close gracefully and wait until the connection's outcome is decided: the transport delivered what was offered
     * and the peer's application read it, or the peer closed (bounded by {@link ClosingConnections#timeoutNs}, then
     * aborted). Nothing depends on it succeeding: the peer already has, or lacks, the confirmations.
     */
    private void linger()
    {
        final List<Connection> closing = List.of(connection);
        connection.close();
        final long deadlineNs = System.nanoTime() + ClosingConnections.timeoutNs(closing);
        while (!ClosingConnections.allDecided(closing) && System.nanoTime() - deadlineNs < 0)
        {
            idleStrategy.idle();
        }
        idleStrategy.reset();
        ClosingConnections.abortUndecided(closing);
    }

    private void fail(final String reason)
    {
        pipes.fail(reason);
        connection.close();
    }

    private String describeClose()
    {
        final CloseReason reason = connection.closeReason();
        return switch (reason)
        {
            case IDLE_TIMEOUT -> "the " + peerName + " stopped answering (nothing heard for " +
                TimeUnit.NANOSECONDS.toSeconds(idleTimeoutNs) + " s): it was stopped, or the network is down";
            case PEER_UNRESPONSIVE -> "the " + peerName + " stopped answering (it acknowledged nothing through " +
                "repeated probe timeouts): it was stopped, or the network is down";
            case PEER_UNREACHABLE -> "the " + peerName + " stopped answering (nothing listens on its port any more: " +
                "ICMP port unreachable, twice): it was stopped, or the network is down";
            case PEER_RESET -> "the " + peerName + " reset the connection (a stateless reset: it no longer knows " +
                "it, its process restarted or lost its state)";
            case PEER_CLOSE, NONE -> "the " + peerName + " closed the connection before the session was complete";
            case ENDPOINT_CLOSED, LOCAL_CLOSE -> "the connection was closed here before the session was complete";
            default -> TransportWaits.describeClose(connection, "the " + peerName);
        };
    }
}
