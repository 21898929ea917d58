package io.pacelink.transport.engine;

/**
 * Every connection's next deadline ({@link ConnectionCore#nextDeadlineNs()}), one entry per connection in a
 * {@link DeadlineHeap}: a duty cycle takes the connections that are due from the top of the heap instead of asking
 * every connection, and the endpoint's earliest deadline (what the agent may sleep until) is the heap's root, so
 * neither costs more with more connections: O(log n) for each timer that is set, moved, cancelled or fires, O(1) for
 * the earliest deadline. A timer fires at the duty cycle its exact deadline has passed, never early and never a
 * tick late, so the simulator sees the same deadlines as a scan of every connection would give. Agent thread only.
 */
final class ConnectionDeadlines
{
    private final DeadlineHeap<ConnectionCore> heap = new DeadlineHeap<>();

    /**
     * Set the connection's timer to its deadline, replacing the one it had.
     *
     * @param connection the connection.
     * @param deadlineNs its next deadline, {@link Long#MAX_VALUE} for none.
     */
    void schedule(final ConnectionCore connection, final long deadlineNs)
    {
        if (Long.MAX_VALUE == deadlineNs)
        {
            heap.remove(connection);
        }
        else if (DeadlineHeap.NOT_QUEUED == connection.heapIndex() || heap.deadlineNs(connection) != deadlineNs)
        {
            heap.schedule(connection, deadlineNs);
        }
    }

    /**
     * Take the connection's timer out (it closed).
     *
     * @param connection the connection.
     */
    void cancel(final ConnectionCore connection)
    {
        heap.remove(connection);
    }

    /**
     * Fire every timer whose deadline has passed: each one's connection is marked for this duty cycle.
     *
     * @param nowNs the current time.
     * @param table where the due connections are marked.
     * @return timers fired.
     */
    int expire(final long nowNs, final ConnectionTable table)
    {
        int expired = 0;
        ConnectionCore connection;
        while (null != (connection = heap.pollDue(nowNs)))
        {
            table.mark(connection);
            expired++;
        }
        return expired;
    }

    /**
     * @return the earliest deadline of every connection, {@link Long#MAX_VALUE} if none has one.
     */
    long earliestDeadlineNs()
    {
        return heap.earliestDeadlineNs();
    }

    /**
     * @return timers set: one per connection with a deadline.
     */
    int timerCount()
    {
        return heap.size();
    }
}
