package io.pacelink.transport.engine;

import org.agrona.concurrent.IdleStrategy;

/**
 * How an application thread waits on an endpoint (docs/architecture.md, "Threads"): the public {@code Endpoint}
 * provides it, so the connection's waits stay thin loops over the non-blocking calls that never block the agent. A
 * thread that drives the endpoint's agent (INVOKER mode, or the agent's own thread in SHARED mode) runs a duty cycle
 * on each turn; any other thread idles.
 */
public interface WaitDriver
{
    /**
     * Drives nothing: for the simulator, where a thread that waited would stop virtual time.
     */
    WaitDriver UNAVAILABLE = new WaitDriver()
    {
        public long nowNs()
        {
            throw unavailable();
        }

        public IdleStrategy newIdleStrategy(final boolean latencySensitive)
        {
            throw unavailable();
        }

        public int turn(final IdleStrategy idleStrategy, final int workCount)
        {
            throw unavailable();
        }

        private UnsupportedOperationException unavailable()
        {
            return new UnsupportedOperationException(
                "waits need an Endpoint: in the simulator use the non-blocking offer and poll");
        }
    };

    /**
     * @return the endpoint's clock, for deadlines.
     */
    long nowNs();

    /**
     * @param latencySensitive true for waits on data (offer, poll), which use the context's idle strategy; false for
     *                         waits on events (connect, accept, close), which may park longer unless this thread
     *                         drives the agent.
     * @return a strategy for one waiting thread; calls on the agent's thread get one that never sleeps past the
     * endpoint's next deadline.
     */
    IdleStrategy newIdleStrategy(boolean latencySensitive);

    /**
     * One turn of a wait: run the endpoint's duty cycle if this thread drives the agent, then idle unless there was
     * work.
     *
     * @param idleStrategy from {@link #newIdleStrategy(boolean)}, owned by the waiting thread.
     * @param workCount    work the caller did in this turn.
     * @return all work done in the turn.
     */
    int turn(IdleStrategy idleStrategy, int workCount);

    /**
     * Tell the agent that the application gave it work (an offer, a poll that freed receive window, a close), after
     * that work was published: wakes an agent that sleeps in its port's wait, and costs nothing more than a fence
     * otherwise. Any thread; the simulator's driver does nothing.
     */
    default void signalWork()
    {
    }
}
