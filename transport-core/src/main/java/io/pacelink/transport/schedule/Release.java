package io.pacelink.transport.schedule;

/**
 * A scheduler's answer to {@link PacketScheduler#next(long)}: the flow that may send one packet now, and whether only
 * for the ACK it owes (its data is paced into the future, or it has none). Each scheduler keeps one instance and
 * reuses it for every release, so a release allocates nothing; it is valid until the scheduler is called again.
 *
 * @param <F> the endpoint's flows.
 */
public final class Release<F extends SchedulableFlow>
{
    private F flow;
    private boolean isAckOnly;

    /**
     * Fill the release; for schedulers.
     *
     * @param flow      the flow released.
     * @param isAckOnly true if it is released only for an ACK-only packet.
     * @return this.
     */
    public Release<F> set(final F flow, final boolean isAckOnly)
    {
        this.flow = flow;
        this.isAckOnly = isAckOnly;
        return this;
    }

    /**
     * @return the flow that may send one packet now.
     */
    public F flow()
    {
        return flow;
    }

    /**
     * @return true if the flow may send only an ACK-only packet: ACKs are never paced (the sch_fq rule), its data is.
     */
    public boolean isAckOnly()
    {
        return isAckOnly;
    }

    public String toString()
    {
        return "Release{flow=" + flow + ", isAckOnly=" + isAckOnly + '}';
    }
}
