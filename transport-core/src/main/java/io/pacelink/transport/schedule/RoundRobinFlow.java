package io.pacelink.transport.schedule;

/**
 * A {@link RoundRobinScheduler}'s state for one flow: the pacing taken at its activation, its pacing release time and
 * its place in the ring of active flows. Created once per connection, never per packet.
 *
 * @param <F> the endpoint's flows.
 */
final class RoundRobinFlow<F extends SchedulableFlow>
{
    final F flow;
    long pacingRateBytesPerSecond;
    int sendQuantumBytes;

    /**
     * When the flow may send its next paced packet; starts in the distant past so a new flow has a full send
     * quantum of credit.
     */
    long releaseTimeNs = Long.MIN_VALUE;
    boolean active;
    RoundRobinFlow<F> previous;
    RoundRobinFlow<F> next;

    RoundRobinFlow(final F flow)
    {
        this.flow = flow;
    }
}
