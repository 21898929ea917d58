package io.pacelink.transport.schedule;

/**
 * A {@link RoundRobinScheduler}'s state for one flow: its pacing release time and its place in the ring of active
 * flows. Created once per connection, never per packet.
 */
final class RoundRobinFlow
{
    final SchedulableFlow flow;

    /**
     * When the flow may send its next paced packet; starts in the distant past so a new flow has a full send
     * quantum of credit.
     */
    long releaseTimeNs = Long.MIN_VALUE;
    boolean active;
    RoundRobinFlow previous;
    RoundRobinFlow next;

    RoundRobinFlow(final SchedulableFlow flow)
    {
        this.flow = flow;
    }
}
