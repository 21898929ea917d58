package io.pacelink.fq.queue;

import java.util.Arrays;

/**
 * The round-robin lists of a fair queue (RFC 8290 section 4.1, sch_fq {@code new_flows}/{@code old_flows}): flow
 * indices on a new list and an old list, each a singly linked FIFO threaded through an int array. A flow is on at
 * most one list. No allocation except when the flow capacity grows.
 */
final class FlowLists
{
    private static final int NONE = -1;
    private static final byte UNLISTED = 0;
    private static final byte NEW_LIST = 1;
    private static final byte OLD_LIST = 2;

    private int[] next = new int[0];
    private byte[] membership = new byte[0];
    private int newHead = NONE;
    private int newTail = NONE;
    private int oldHead = NONE;
    private int oldTail = NONE;

    FlowLists(final int flowCapacity)
    {
        ensureFlowCapacity(flowCapacity);
    }

    void ensureFlowCapacity(final int flowCapacity)
    {
        if (flowCapacity > next.length)
        {
            next = Arrays.copyOf(next, flowCapacity);
            membership = Arrays.copyOf(membership, flowCapacity);
        }
    }

    boolean isListed(final int flow)
    {
        return UNLISTED != membership[flow];
    }

    void addNew(final int flow)
    {
        membership[flow] = NEW_LIST;
        next[flow] = NONE;
        if (NONE == newTail)
        {
            newHead = flow;
        }
        else
        {
            next[newTail] = flow;
        }
        newTail = flow;
    }

    void addOld(final int flow)
    {
        membership[flow] = OLD_LIST;
        next[flow] = NONE;
        if (NONE == oldTail)
        {
            oldHead = flow;
        }
        else
        {
            next[oldTail] = flow;
        }
        oldTail = flow;
    }

    /**
     * @return the flow to serve: the head of the new list, else of the old list, else -1.
     */
    int first()
    {
        return NONE != newHead ? newHead : oldHead;
    }

    /**
     * @return true if {@link #first()} comes from the new list.
     */
    boolean firstIsNew()
    {
        return NONE != newHead;
    }

    boolean hasOld()
    {
        return NONE != oldHead;
    }

    /**
     * Move the {@link #first()} flow to the tail of the old list.
     */
    void moveFirstToOld()
    {
        addOld(removeFirst());
    }

    /**
     * Unlist the {@link #first()} flow.
     *
     * @return the flow.
     */
    int removeFirst()
    {
        final int flow;
        if (NONE != newHead)
        {
            flow = newHead;
            newHead = next[flow];
            if (NONE == newHead)
            {
                newTail = NONE;
            }
        }
        else
        {
            flow = oldHead;
            oldHead = next[flow];
            if (NONE == oldHead)
            {
                oldTail = NONE;
            }
        }
        membership[flow] = UNLISTED;
        next[flow] = NONE;
        return flow;
    }
}
