package io.pacelink.fq.queue;

import org.agrona.collections.Hashing;
import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * One flow per distinct flow key (sch_fq keeps one flow per socket): keys map to indices through an Agrona
 * {@link Long2LongHashMap}; an index is freed when its flow goes idle and reused by the next new key. The capacity
 * doubles when more flows are active at once than it holds; otherwise no allocation.
 */
final class ExactFlowClassifier implements FlowClassifier
{
    private static final long MISSING = -1;

    private final Long2LongHashMap flowByKey;
    private long[] keyByFlow;
    private int[] freeFlows;
    private int freeCount;

    ExactFlowClassifier(final int initialCapacity)
    {
        final int capacity = Math.max(1, initialCapacity);
        flowByKey = new Long2LongHashMap(capacity * 2, Hashing.DEFAULT_LOAD_FACTOR, MISSING);
        keyByFlow = new long[0];
        freeFlows = new int[0];
        grow(capacity);
    }

    /**
     * {@inheritDoc}
     */
    public int flowOf(final long flowKey)
    {
        final long existing = flowByKey.get(flowKey);
        if (MISSING != existing)
        {
            return (int)existing;
        }

        if (0 == freeCount)
        {
            grow(keyByFlow.length * 2);
        }
        final int flow = freeFlows[--freeCount];
        keyByFlow[flow] = flowKey;
        flowByKey.put(flowKey, flow);
        return flow;
    }

    /**
     * {@inheritDoc}
     */
    public boolean release(final int flow)
    {
        flowByKey.remove(keyByFlow[flow]);
        freeFlows[freeCount++] = flow;
        return true;
    }

    /**
     * {@inheritDoc}
     */
    public int flowCapacity()
    {
        return keyByFlow.length;
    }

    /**
     * @return flows with an index now.
     */
    int activeFlows()
    {
        return flowByKey.size();
    }

    private void grow(final int newCapacity)
    {
        final int oldCapacity = keyByFlow.length;
        keyByFlow = Arrays.copyOf(keyByFlow, newCapacity);
        freeFlows = Arrays.copyOf(freeFlows, newCapacity);
        // Hand out the lowest free index first, so flows fill the arrays from the start.
        for (int flow = newCapacity - 1; flow >= oldCapacity; flow--)
        {
            freeFlows[freeCount++] = flow;
        }
    }
}
