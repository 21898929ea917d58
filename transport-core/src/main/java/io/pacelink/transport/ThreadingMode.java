package io.pacelink.transport;

/**
 * How an endpoint's agent is run, as in Aeron.
 */
public enum ThreadingMode
{
    /**
     * The endpoint starts its own thread running the agent with the context's idle strategy.
     */
    DEDICATED,

    /**
     * The application composes the endpoint's agent ({@link Endpoint#agent()}) with others, e.g. in an Agrona
     * {@link org.agrona.concurrent.CompositeAgent} run by one {@link org.agrona.concurrent.AgentRunner}.
     */
    SHARED,

    /**
     * The application drives the agent by calling {@link Endpoint#invoke()} from its own loop.
     */
    INVOKER
}
