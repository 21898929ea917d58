package io.pacelink.sim;

import io.pacelink.link.LinkPacketPool;

import java.util.SplittableRandom;

/**
 * A discrete-event simulator in virtual time: events are ordered by (time, sequence) and fired one after another on
 * the calling thread; there are no threads and no clock. The same seed and the same scenario give the same events,
 * which {@link #traceHash()} summarises so that tests can compare runs.
 *
 * <p>Links ({@link SimLink}), hosts ({@link SimHost}) and agents each keep one reusable event scheduled at their
 * next time, so a running simulation allocates nothing per packet.
 */
public final class Simulator
{
    /**
     * How many events a {@link RunWatcher} waits between looks: a power of two.
     */
    public static final int WATCH_INTERVAL_EVENTS = 1 << 14;

    private static final long FNV_PRIME = 0x100000001B3L;

    private final long seed;
    private final EventQueue events = new EventQueue();
    private final LinkPacketPool pool = new LinkPacketPool();
    private long nowNs;
    private long nextSequence;
    private int nextEventId;
    private long eventsFired;
    private long traceHash = 0xCBF29CE484222325L;
    private boolean stopped;

    /**
     * @param seed the scenario seed every random stream is derived from ({@link #seedFor(String)}).
     */
    public Simulator(final long seed)
    {
        this.seed = seed;
    }

    /**
     * @return the virtual time.
     */
    public long nowNs()
    {
        return nowNs;
    }

    /**
     * @return the scenario seed.
     */
    public long seed()
    {
        return seed;
    }

    /**
     * @param streamName names a random stream, e.g. {@code "dumbbell.forward"} or {@code "client-1.controller"}.
     * @return the stream's seed, derived from the scenario seed.
     */
    public long seedFor(final String streamName)
    {
        return Seeds.derive(seed, streamName);
    }

    /**
     * @param streamName names a random stream.
     * @return a new random source seeded with {@link #seedFor(String)}.
     */
    public SplittableRandom randomFor(final String streamName)
    {
        return new SplittableRandom(seedFor(streamName));
    }

    /**
     * @return the packet pool every simulated datagram comes from.
     */
    public LinkPacketPool pool()
    {
        return pool;
    }

    /**
     * Run a task once at a virtual time (set-up use: allocates an event).
     *
     * @param timeNs when, not before now.
     * @param task   what.
     */
    public void at(final long timeNs, final SimTask task)
    {
        schedule(new TaskEvent(nextEventId(), task, 0), timeNs);
    }

    /**
     * Run a task periodically (sampling, reporting); one event, reused.
     *
     * @param firstNs  first run, not before now.
     * @param periodNs time between runs, positive.
     * @param task     what.
     */
    public void every(final long firstNs, final long periodNs, final SimTask task)
    {
        if (periodNs <= 0)
        {
            throw new IllegalArgumentException("period must be positive");
        }
        schedule(new TaskEvent(nextEventId(), task, periodNs), firstNs);
    }

    /**
     * Fire every event due up to and including {@code endNs}, then leave the clock at {@code endNs}.
     *
     * @param endNs the virtual time to run to.
     */
    public void runUntil(final long endNs)
    {
        runUntil(endNs, RunWatcher.NONE);
    }

    /**
     * Fire every event due up to and including {@code endNs}, then leave the clock at {@code endNs}, unless
     * {@link #stop()} was called or the watcher said to stop: then the clock stays at the last event fired.
     *
     * @param endNs   the virtual time to run to.
     * @param watcher asked every {@link #WATCH_INTERVAL_EVENTS} events whether to go on.
     */
    public void runUntil(final long endNs, final RunWatcher watcher)
    {
        stopped = false;
        while (!stopped && events.size() > 0 && events.firstTimeNs() <= endNs)
        {
            final SimEvent event = events.poll();
            nowNs = event.timeNs;
            eventsFired++;
            hash(event.id, nowNs);
            event.fire(nowNs);
            if ((eventsFired & (WATCH_INTERVAL_EVENTS - 1)) == 0 && !watcher.keepRunning(nowNs, eventsFired))
            {
                stopped = true;
            }
        }
        if (!stopped && endNs > nowNs)
        {
            nowNs = endNs;
        }
    }

    /**
     * Make {@link #runUntil(long)} return after the event being fired.
     */
    public void stop()
    {
        stopped = true;
    }

    /**
     * @return events fired so far.
     */
    public long eventsFired()
    {
        return eventsFired;
    }

    /**
     * @return events waiting.
     */
    public int pendingEvents()
    {
        return events.size();
    }

    /**
     * @return a 64-bit FNV-1a hash over every event fired (its owner and time) and every packet a link delivered (its
     * sequence, length and time): equal for runs with equal events.
     */
    public long traceHash()
    {
        return traceHash;
    }

    /**
     * Fold two values into the trace hash (links add each delivered packet).
     *
     * @param a first value.
     * @param b second value.
     */
    void hash(final long a, final long b)
    {
        traceHash = (traceHash ^ a) * FNV_PRIME;
        traceHash = (traceHash ^ b) * FNV_PRIME;
    }

    int nextEventId()
    {
        return nextEventId++;
    }

    /**
     * Schedule (or move) an event to a time.
     */
    void schedule(final SimEvent event, final long timeNs)
    {
        if (timeNs < nowNs)
        {
            throw new IllegalArgumentException("cannot schedule in the past: " + timeNs + " < now " + nowNs);
        }
        events.schedule(event, timeNs, nextSequence++);
    }

    /**
     * Schedule an event at a time unless it is already scheduled at that time or earlier.
     */
    void scheduleNoLaterThan(final SimEvent event, final long timeNs)
    {
        if (!event.isScheduled() || event.timeNs > timeNs)
        {
            schedule(event, timeNs);
        }
    }

    void cancel(final SimEvent event)
    {
        events.cancel(event);
    }

    private final class TaskEvent extends SimEvent
    {
        private final SimTask task;
        private final long periodNs;

        TaskEvent(final int id, final SimTask task, final long periodNs)
        {
            super(id);
            this.task = task;
            this.periodNs = periodNs;
        }

        void fire(final long nowNs)
        {
            task.run(nowNs);
            if (periodNs > 0)
            {
                schedule(this, nowNs + periodNs);
            }
        }
    }
}
