package io.pacelink.fq.queue;

/**
 * Maps a packet's flow key to the index of the flow queue it joins.
 */
interface FlowClassifier
{
    /**
     * @param flowKey the packet's {@link io.pacelink.link.LinkPacket#flowKey()}.
     * @return the flow index, below {@link #flowCapacity()}.
     */
    int flowOf(long flowKey);

    /**
     * The flow went idle (empty and unlisted).
     *
     * @param flow the flow index.
     * @return true if the index was freed and may be given to another flow key (its per-flow state must be reset).
     */
    boolean release(int flow);

    /**
     * @return the number of flow indices in use or available; grows only for exact classification.
     */
    int flowCapacity();
}
