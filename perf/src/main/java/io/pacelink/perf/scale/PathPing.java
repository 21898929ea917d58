package io.pacelink.perf.scale;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.MessageHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * The scale run's path round trip, taken between the same two endpoints as the connects it stands beside: the client
 * sends a small message on a connection of its own and times its echo, each poll of either side {@code parkNs} apart
 * as the one-at-a-time connects are polled. So one echo pays what a round trip between these two processes costs on
 * this machine at that moment — both agents' wake-ups, the kernel's loopback, the two applications' polls — without
 * a handshake's work, and the connect beside it can be read against it (perf/README.md, scale.sh).
 * <p>
 * Server side ({@link #serve}): the server's loop hands every message it reads to {@link #onMessage}; the first
 * message that is a ping is echoed at once, and its connection is handed to a thread of its own that echoes every
 * later one until the connection closes (the server's loop sleeps milliseconds between its reads, which an echo must
 * not wait for). Client side ({@link #roundTripNs}): one ping, its round trip.
 */
final class PathPing implements MessageHandler
{
    /**
     * A ping: this magic, then the sender's sequence number.
     */
    static final long MAGIC = 0x7061_7468_7069_6e67L;
    static final int LENGTH = 2 * Long.BYTES;

    private final long parkNs;
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[LENGTH]);
    private final Set<Connection> echoing = Collections.newSetFromMap(new IdentityHashMap<>());
    private Connection current;
    private long sequence;
    private long echoedSequence = -1;
    private final MessageHandler reply = (buffer, offset, length) ->
        echoedSequence = LENGTH == length ? buffer.getLong(offset + Long.BYTES) : echoedSequence;

    /**
     * @param parkNs how long a side parks between two polls that found nothing.
     */
    PathPing(final long parkNs)
    {
        this.parkNs = parkNs;
        message.putLong(0, MAGIC);
    }

    /**
     * Server side: read what arrived on a connection; a ping is echoed and its connection taken over by an echo
     * thread, anything else is dropped.
     *
     * @param connection an accepted connection.
     */
    void serve(final Connection connection)
    {
        if (!echoing.contains(connection))
        {
            current = connection;
            connection.poll(this, Integer.MAX_VALUE);
        }
    }

    /**
     * @return connections whose pings an echo thread answers.
     */
    int echoingConnections()
    {
        return echoing.size();
    }

    public void onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        if (LENGTH == length && MAGIC == buffer.getLong(offset) && echoing.add(current))
        {
            final Connection connection = current;
            connection.offer(buffer, offset, length);
            final Thread echo = new Thread(() -> echo(connection, parkNs), "path-ping-echo");
            echo.setDaemon(true);
            echo.start();
        }
    }

    private static void echo(final Connection connection, final long parkNs)
    {
        final MessageHandler echoHandler = connection::offer;
        while (ConnectionState.CLOSED != connection.state() && !connection.isEndOfStream())
        {
            if (0 == connection.poll(echoHandler, Integer.MAX_VALUE))
            {
                LockSupport.parkNanos(parkNs);
            }
        }
    }

    /**
     * Client side: send one ping on {@code connection} and wait for its echo.
     *
     * @param connection a connection to a server that echoes pings.
     * @param timeoutNs  longest wait.
     * @return the round trip, or -1 if no echo came within the timeout.
     */
    long roundTripNs(final Connection connection, final long timeoutNs)
    {
        final long expected = ++sequence;
        message.putLong(Long.BYTES, expected);
        final long sentNs = System.nanoTime();
        if (connection.offer(message, 0, LENGTH) < 0)
        {
            return -1;
        }
        while (echoedSequence != expected)
        {
            if (0 == connection.poll(reply, Integer.MAX_VALUE))
            {
                if (System.nanoTime() - sentNs - timeoutNs > 0 || ConnectionState.CONNECTED != connection.state())
                {
                    return -1;
                }
                LockSupport.parkNanos(parkNs);
            }
        }
        return System.nanoTime() - sentNs;
    }
}
