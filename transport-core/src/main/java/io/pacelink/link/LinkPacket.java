package io.pacelink.link;

/**
 * One datagram in flight on an emulated link (simulator or real-time relay): a pooled, mutable holder that owns a
 * copy of the payload, so bottleneck queues can hold, reorder and drop packets without allocating.
 */
public final class LinkPacket
{
    /**
     * Largest datagram a link carries (the UDP payload limit).
     */
    public static final int MAX_DATAGRAM_BYTES = 65_507;

    private final byte[] data;
    private int length;
    private long flowKey;
    private long enqueueTimeNs;
    private long sequence;
    private Object source;
    private Object destination;

    /**
     * @param capacityBytes the largest datagram this holder can carry.
     */
    public LinkPacket(final int capacityBytes)
    {
        this.data = new byte[capacityBytes];
    }

    /**
     * @return the payload storage; valid bytes are [0, {@link #length()}).
     */
    public byte[] data()
    {
        return data;
    }

    /**
     * @return the datagram's length in bytes.
     */
    public int length()
    {
        return length;
    }

    /**
     * @param length the datagram's length in bytes.
     * @return this.
     */
    public LinkPacket length(final int length)
    {
        this.length = length;
        return this;
    }

    /**
     * @return a hash of the flow's 5-tuple (source and destination addresses): what a fair queue classifies by.
     */
    public long flowKey()
    {
        return flowKey;
    }

    /**
     * @param flowKey a hash of the flow's 5-tuple.
     * @return this.
     */
    public LinkPacket flowKey(final long flowKey)
    {
        this.flowKey = flowKey;
        return this;
    }

    /**
     * @return when the packet entered the bottleneck queue (for queueing delay and CoDel sojourn time).
     */
    public long enqueueTimeNs()
    {
        return enqueueTimeNs;
    }

    /**
     * @param enqueueTimeNs when the packet entered the bottleneck queue.
     * @return this.
     */
    public LinkPacket enqueueTimeNs(final long enqueueTimeNs)
    {
        this.enqueueTimeNs = enqueueTimeNs;
        return this;
    }

    /**
     * @return a sequence number unique on the link, for deterministic tie-breaking.
     */
    public long sequence()
    {
        return sequence;
    }

    /**
     * @param sequence a sequence number unique on the link.
     * @return this.
     */
    public LinkPacket sequence(final long sequence)
    {
        this.sequence = sequence;
        return this;
    }

    /**
     * @return the sender's address (an {@link java.net.InetSocketAddress} or a simulator host address).
     */
    public Object source()
    {
        return source;
    }

    /**
     * @param source the sender's address.
     * @return this.
     */
    public LinkPacket source(final Object source)
    {
        this.source = source;
        return this;
    }

    /**
     * @return the receiver's address.
     */
    public Object destination()
    {
        return destination;
    }

    /**
     * @param destination the receiver's address.
     * @return this.
     */
    public LinkPacket destination(final Object destination)
    {
        this.destination = destination;
        return this;
    }
}
