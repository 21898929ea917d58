package io.pacelink.transport.stream;

/**
 * Tells an endpoint's agent that an application offered data since the agent last looked, so its duty cycle can send
 * before it reads the socket (a response then leaves without waiting for a receive that finds nothing). One per
 * endpoint, shared by its connections' send logs' writers: any application thread raises it, the agent clears it. A
 * raise the agent's clear overwrites costs nothing but that early send: the duty cycle services every connection
 * after its receive anyway.
 */
public final class OfferSignal
{
    private volatile boolean raised;

    /**
     * Called by an application thread after an offer was accepted; writes only when not raised already, so a stream
     * of offers does not keep taking the agent's cache line.
     */
    public void raise()
    {
        if (!raised)
        {
            raised = true;
        }
    }

    /**
     * Called by the agent.
     *
     * @return true if an offer was accepted since the last call; the signal is lowered.
     */
    public boolean take()
    {
        if (raised)
        {
            raised = false;
            return true;
        }
        return false;
    }
}
