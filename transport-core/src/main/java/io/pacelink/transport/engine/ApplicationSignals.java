package io.pacelink.transport.engine;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * How an application thread tells the agent that it acted on a connection — offered, read, asked to close — so the
 * next duty cycle serves that connection without looking at the others: each connection is queued at most once until
 * the agent takes it ({@link ConnectionHandle#signal()}), so a bounded queue holds them all; should it be full
 * anyway, the agent serves every connection once.
 */
final class ApplicationSignals
{
    /**
     * The largest queue: beyond this many connections acting between two duty cycles, the agent serves all of them.
     */
    static final int MAX_QUEUE_CAPACITY = 1 << 16;

    private final ManyToOneConcurrentArrayQueue<ConnectionHandle> queue;
    private volatile boolean isOverflowed;

    /**
     * @param maxConnections the endpoint's connections at most: the queue holds as many, up to
     *                       {@link #MAX_QUEUE_CAPACITY}.
     */
    ApplicationSignals(final int maxConnections)
    {
        queue = new ManyToOneConcurrentArrayQueue<>(Math.min(Math.max(maxConnections, 2), MAX_QUEUE_CAPACITY));
    }

    /**
     * Any thread: the connection's application acted.
     *
     * @return false if the queue was full (the agent serves every connection instead).
     */
    boolean offer(final ConnectionHandle handle)
    {
        if (queue.offer(handle))
        {
            return true;
        }
        isOverflowed = true;
        return false;
    }

    /**
     * Agent thread: whether an application acted since the last {@link #drainTo} (a read of the queue's two indexes
     * and a flag, no allocation): the duty cycle then sends what it offered before it reads the socket.
     *
     * @return true if {@link #drainTo} would mark a connection (or every one, after an overflow).
     */
    boolean isPending()
    {
        return isOverflowed || !queue.isEmpty();
    }

    /**
     * Agent thread: mark every connection whose application acted since the last call.
     *
     * @return connections marked.
     */
    int drainTo(final ConnectionTable table)
    {
        int count = 0;
        if (isOverflowed)
        {
            isOverflowed = false;
            table.markAll();
            count = table.size();
        }
        ConnectionHandle handle;
        while (null != (handle = queue.poll()))
        {
            // Cleared before the agent looks at the connection: whatever the application does from now on signals
            // again.
            handle.clearSignal();
            final ConnectionCore connection = table.find(handle.connectionId());
            if (null != connection && connection.handle() == handle)
            {
                table.mark(connection);
                count++;
            }
        }
        return count;
    }
}
