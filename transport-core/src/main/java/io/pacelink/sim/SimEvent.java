package io.pacelink.sim;

/**
 * A reusable event: each simulated thing (a link, an agent, a periodic task) owns one and keeps it scheduled at its
 * next time, so the event queue never allocates per packet. Ordered by (time, sequence); the sequence is taken when
 * the event is scheduled, so events due at the same time fire in the order they were scheduled.
 */
abstract class SimEvent
{
    final int id;
    int heapIndex = -1;
    long timeNs;
    long sequence;

    SimEvent(final int id)
    {
        this.id = id;
    }

    /**
     * @param nowNs the event's time, now the simulator's time.
     */
    abstract void fire(long nowNs);

    boolean isScheduled()
    {
        return heapIndex >= 0;
    }
}
