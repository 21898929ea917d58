package io.pacelink.transport.engine;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

import java.util.ArrayList;

/**
 * How an application thread tells the agent that it acted on a connection — offered, read, asked to close — so the
 * next duty cycle serves that connection without looking at the others: each connection is queued at most once until
 * the agent takes it ({@link ConnectionHandle#signal()}), so a bounded queue holds them all; should it be full
 * anyway, the agent serves every connection once. A thread that drives the agent itself (INVOKER mode, while it is the
 * only thread that ever invoked it) notes its connections in a plain list instead ({@link #noteFromDrivingThread}),
 * which only that thread reads and writes: the same connections are served, without the queue's atomics.
 */
final class ApplicationSignals
{
    /**
     * The largest queue: beyond this many connections acting between two duty cycles, the agent serves all of them.
     */
    static final int MAX_QUEUE_CAPACITY = 1 << 16;

    private final ManyToOneConcurrentArrayQueue<ConnectionHandle> queue;
    private volatile boolean isOverflowed;
    private final ArrayList<ConnectionHandle> notedByDrivingThread = new ArrayList<>();
    private long notesTaken;

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
        return !notedByDrivingThread.isEmpty() || isOverflowed || !queue.isEmpty();
    }

    /**
     * The thread that drives the agent ({@link WaitDriver#drivesAgent()}), once per connection until the agent takes
     * it: the connection's application acted on the agent's own thread.
     */
    void noteFromDrivingThread(final ConnectionHandle handle)
    {
        notedByDrivingThread.add(handle);
    }

    /**
     * Agent thread: mark every connection whose application acted since the last call.
     *
     * @return connections marked.
     */
    int drainTo(final ConnectionTable table)
    {
        int count = 0;
        final ArrayList<ConnectionHandle> noted = notedByDrivingThread;
        final int notes = noted.size();
        for (int i = 0; i < notes; i++)
        {
            // Never null while one thread drives the agent; a note racing the moment a second thread starts to
            // invoke (an application that hands the invoker over and offers from the old thread at that instant)
            // may be lost, which delays its connection to its next timer or arrival, and is skipped here.
            final ConnectionHandle handle = noted.get(i);
            if (null != handle)
            {
                count += mark(table, handle);
            }
        }
        noted.clear();
        notesTaken += notes;
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

    /**
     * @return the notes of the thread that drives the agent taken so far ({@link #noteFromDrivingThread}), for the
     * engine's tests.
     */
    long notesTaken()
    {
        return notesTaken;
    }

    /**
     * A connection the driving thread noted: cleared first, as a queued one is, then marked if it is still the
     * table's — found through its handle, on this thread, where a queued one is looked up by id (a connection removed
     * from the table is not marked either way: {@link ConnectionTable#mark}).
     *
     * @return 1 if marked, else 0.
     */
    private static int mark(final ConnectionTable table, final ConnectionHandle handle)
    {
        handle.clearDrivingThreadNote();
        final ConnectionCore connection = handle.agentSide();
        if (null != connection && connection.tableIndex() >= 0)
        {
            table.mark(connection);
            return 1;
        }
        return 0;
    }
}
