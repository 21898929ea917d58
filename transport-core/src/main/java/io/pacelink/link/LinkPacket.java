package io.pacelink.link;

import io.pacelink.transport.wire.EcnCodepoint;

/**
 * One datagram in flight on an emulated link (simulator or real-time relay): a pooled, mutable holder that owns a
 * copy of the payload, so bottleneck queues can hold, reorder and drop packets without allocating. It carries the
 * ECN field of the IP header it would travel in ({@link EcnCodepoint}), which a marking queue changes to CE.
 */
public final class LinkPacket
{
    /**
     * Largest datagram a link carries (the UDP payload limit).
     */
    public static final int MAX_DATAGRAM_BYTES = 65_507;

    private final byte[] data;
    private int length;
    private int ecnCodepoint;
    private boolean crc32cPending;
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
     * @return the ECN field the datagram travels with ({@link EcnCodepoint}).
     */
    public int ecnCodepoint()
    {
        return ecnCodepoint;
    }

    /**
     * @return true if the datagram is a plaintext packet whose CRC32C trailer, its last 4 bytes, is not written yet:
     * its sender left it to the simulated port ({@code DatagramPort.offloadsCrc32c}), and whoever reads the bytes as
     * they would be on a wire writes it first ({@link LinkPacketPool#writePendingCrc32c}).
     */
    public boolean isCrc32cPending()
    {
        return crc32cPending;
    }

    /**
     * @param crc32cPending whether the CRC32C trailer is yet to be written ({@link #isCrc32cPending()}).
     * @return this.
     */
    public LinkPacket crc32cPending(final boolean crc32cPending)
    {
        this.crc32cPending = crc32cPending;
        return this;
    }

    /**
     * @param ecnCodepoint the ECN field (only its two low bits are kept).
     * @return this.
     */
    public LinkPacket ecnCodepoint(final int ecnCodepoint)
    {
        this.ecnCodepoint = ecnCodepoint & EcnCodepoint.MASK;
        return this;
    }

    /**
     * Mark the packet Congestion Experienced instead of dropping it, as a queue with ECN does (Linux
     * {@code INET_ECN_set_ce}): only an ECN-capable packet can be marked; one already CE stays so and counts as
     * marked.
     *
     * @return true if the packet is (now) CE; false if it is not ECN-capable and must be dropped instead.
     */
    public boolean markCe()
    {
        if (!EcnCodepoint.isEcnCapable(ecnCodepoint))
        {
            return false;
        }
        ecnCodepoint = EcnCodepoint.CE;
        return true;
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
