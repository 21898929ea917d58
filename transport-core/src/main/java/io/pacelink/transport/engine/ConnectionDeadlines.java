package io.pacelink.transport.engine;

import org.agrona.DeadlineTimerWheel;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.concurrent.TimeUnit;

/**
 * Every connection's next deadline ({@link ConnectionCore#nextDeadlineNs()}), one timer per connection in Agrona's
 * {@link DeadlineTimerWheel} (a hashed timing wheel after Varghese and Lauck, "Hashed and Hierarchical Timing Wheels",
 * 1987): a duty cycle asks the wheel which connections are due instead of asking every connection, so the cost of an
 * idle endpoint does not grow with its connections. The wheel compares each timer's exact deadline with the time
 * handed in, so a timer fires at the duty cycle its deadline has passed, never a tick late, and the simulator sees the
 * same deadlines as a scan of every connection would give.
 * <p>
 * The endpoint's earliest deadline (what the agent may sleep until) is kept exactly: lowered as timers are scheduled,
 * and found again by one pass over the timers only when the earliest one was cancelled or fired. Agent thread only.
 */
final class ConnectionDeadlines
{
    /**
     * {@link ConnectionCore#timerId()} of a connection with no timer in the wheel.
     */
    static final long NO_TIMER = -1;

    /**
     * Tick of the wheel: 2^20 ns, about 1 ms, the order of the shortest timers (ACK delay, pacing-free PTOs on
     * loopback); a timer fires at its exact deadline, the tick only groups timers into spokes.
     */
    static final long TICK_NS = 1L << 20;

    /**
     * Spokes: 256 ticks, about 268 ms per turn; later deadlines wait in their spoke for their turn to come round.
     */
    static final int TICKS_PER_WHEEL = 256;

    /**
     * Up to this many connections the earliest deadline is found from the connections themselves, beyond it from one
     * pass over the wheel's slots.
     */
    private static final int SCAN_CONNECTIONS_LIMIT = 64;

    private final DeadlineTimerWheel wheel =
        new DeadlineTimerWheel(TimeUnit.NANOSECONDS, 0, TICK_NS, TICKS_PER_WHEEL);
    private final Long2ObjectHashMap<ConnectionCore> byTimerId = new Long2ObjectHashMap<>();
    private final DeadlineTimerWheel.TimerHandler onExpiry = this::onExpiry;
    private final DeadlineTimerWheel.TimerConsumer lowerEarliest = this::lowerEarliest;
    private ConnectionTable expiredTo;
    private boolean isStarted;
    private long earliestNs = Long.MAX_VALUE;
    private boolean isEarliestKnown = true;

    /**
     * Schedule the connection's timer at its deadline, replacing the one it had.
     *
     * @param connection the connection.
     * @param deadlineNs its next deadline, {@link Long#MAX_VALUE} for none.
     * @param nowNs      the current time (starts the wheel's clock on first use).
     */
    void schedule(final ConnectionCore connection, final long deadlineNs, final long nowNs)
    {
        if (connection.scheduledDeadlineNs() == deadlineNs && NO_TIMER != connection.timerId())
        {
            return;
        }
        cancel(connection);
        if (Long.MAX_VALUE == deadlineNs)
        {
            return;
        }
        start(nowNs);
        final long timerId = wheel.scheduleTimer(deadlineNs);
        byTimerId.put(timerId, connection);
        connection.timer(timerId, deadlineNs);
        if (isEarliestKnown && deadlineNs < earliestNs)
        {
            earliestNs = deadlineNs;
        }
    }

    /**
     * Take the connection's timer out of the wheel (it closed, or its deadline moved).
     */
    void cancel(final ConnectionCore connection)
    {
        final long timerId = connection.timerId();
        if (NO_TIMER == timerId)
        {
            return;
        }
        wheel.cancelTimer(timerId);
        byTimerId.remove(timerId);
        forget(connection);
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
        if (!isStarted || 0 == wheel.timerCount())
        {
            return 0;
        }
        // Nothing is due before the earliest deadline: the wheel may skip the ticks up to it without looking.
        wheel.currentTickTime(Math.min(nowNs, earliestDeadlineNs()));
        expiredTo = table;
        int expired = 0;
        long tickEndNs;
        do
        {
            // A poll looks at one tick's spoke and moves to the next tick only once the time has passed it.
            tickEndNs = wheel.currentTickTime();
            expired += wheel.poll(nowNs, onExpiry, Integer.MAX_VALUE);
        }
        while (wheel.currentTickTime() != tickEndNs);
        expiredTo = null;
        return expired;
    }

    /**
     * @return the earliest deadline of every connection, {@link Long#MAX_VALUE} if none has one.
     */
    long earliestDeadlineNs()
    {
        if (!isEarliestKnown)
        {
            earliestNs = Long.MAX_VALUE;
            if (byTimerId.size() <= SCAN_CONNECTIONS_LIMIT)
            {
                final Long2ObjectHashMap<ConnectionCore>.ValueIterator connections = byTimerId.values().iterator();
                while (connections.hasNext())
                {
                    earliestNs = Math.min(earliestNs, connections.next().scheduledDeadlineNs());
                }
            }
            else
            {
                wheel.forEach(lowerEarliest);
            }
            isEarliestKnown = true;
        }
        return earliestNs;
    }

    /**
     * @return timers in the wheel: one per connection with a deadline.
     */
    long timerCount()
    {
        return wheel.timerCount();
    }

    private boolean onExpiry(final TimeUnit timeUnit, final long nowNs, final long timerId)
    {
        final ConnectionCore connection = byTimerId.remove(timerId);
        forget(connection);
        expiredTo.mark(connection);
        return true;
    }

    private void forget(final ConnectionCore connection)
    {
        if (connection.scheduledDeadlineNs() <= earliestNs)
        {
            isEarliestKnown = false;
        }
        connection.timer(NO_TIMER, Long.MAX_VALUE);
    }

    private void lowerEarliest(final long deadlineNs, final long timerId)
    {
        earliestNs = Math.min(earliestNs, deadlineNs);
    }

    /**
     * The wheel counts ticks from its start time; a nano clock's origin is arbitrary (and may be negative), so the
     * wheel starts at the first time it is given.
     */
    private void start(final long nowNs)
    {
        if (!isStarted && 0 == wheel.timerCount())
        {
            wheel.resetStartTime(nowNs);
            isStarted = true;
        }
    }
}
