package io.pacelink.fq;

/**
 * Idle (detached) flows in the order they went idle, oldest first, so garbage collection (sch_fq {@code fq_gc}) looks
 * only at the oldest few instead of scanning every flow. An intrusive doubly linked list: O(1) to add the newest and
 * to remove any flow when it becomes active again; no allocation.
 */
final class DetachedFlows
{
    private FqFlow oldest;
    private FqFlow newest;

    /**
     * @return the flow idle the longest, or null.
     */
    FqFlow oldest()
    {
        return oldest;
    }

    /**
     * @param flow  a flow that just went idle.
     * @param nowNs when; not earlier than the previous call's (time is monotonic), so the list stays ordered.
     */
    void addNewest(final FqFlow flow, final long nowNs)
    {
        flow.detachedAtNs = nowNs;
        flow.newerDetached = null;
        flow.olderDetached = newest;
        if (null == newest)
        {
            oldest = flow;
        }
        else
        {
            newest.newerDetached = flow;
        }
        newest = flow;
    }

    void remove(final FqFlow flow)
    {
        if (null == flow.olderDetached)
        {
            oldest = flow.newerDetached;
        }
        else
        {
            flow.olderDetached.newerDetached = flow.newerDetached;
        }

        if (null == flow.newerDetached)
        {
            newest = flow.olderDetached;
        }
        else
        {
            flow.newerDetached.olderDetached = flow.olderDetached;
        }
        flow.olderDetached = null;
        flow.newerDetached = null;
    }
}
