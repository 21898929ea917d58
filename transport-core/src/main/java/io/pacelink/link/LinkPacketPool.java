package io.pacelink.link;

import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.wire.EcnCodepoint;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Recycles {@link LinkPacket}s in two size classes, so a link carrying typical datagrams holds small buffers while
 * still accepting any UDP datagram. Packets are allocated only while the population grows; in steady state acquire
 * and release allocate nothing. Single-threaded.
 */
public final class LinkPacketPool
{
    /**
     * Capacity of a small packet: fits any datagram of a 1500-byte MTU path with room to spare.
     */
    public static final int DEFAULT_SMALL_CAPACITY_BYTES = 2048;

    private static final int INITIAL_POOL_SIZE = 64;

    private final int smallCapacityBytes;
    private LinkPacket[] small = new LinkPacket[INITIAL_POOL_SIZE];
    private int smallCount;
    private LinkPacket[] large = new LinkPacket[INITIAL_POOL_SIZE];
    private int largeCount;
    private long allocatedPackets;
    private final Crc32cPacketCheck crc32c = new Crc32cPacketCheck();
    private final UnsafeBuffer crc32cView = new UnsafeBuffer(new byte[0]);

    /**
     * A pool whose small packets hold {@link #DEFAULT_SMALL_CAPACITY_BYTES}.
     */
    public LinkPacketPool()
    {
        this(DEFAULT_SMALL_CAPACITY_BYTES);
    }

    /**
     * @param smallCapacityBytes capacity of the small size class; larger datagrams get a
     *                           {@link LinkPacket#MAX_DATAGRAM_BYTES} packet.
     */
    public LinkPacketPool(final int smallCapacityBytes)
    {
        if (smallCapacityBytes <= 0 || smallCapacityBytes > LinkPacket.MAX_DATAGRAM_BYTES)
        {
            throw new IllegalArgumentException("small capacity must be in (0, " + LinkPacket.MAX_DATAGRAM_BYTES + "]");
        }
        this.smallCapacityBytes = smallCapacityBytes;
    }

    /**
     * @return the capacity of a small packet: the largest datagram a packet of the small size class holds.
     */
    public int smallCapacityBytes()
    {
        return smallCapacityBytes;
    }

    /**
     * @param lengthBytes the datagram's length, at most {@link LinkPacket#MAX_DATAGRAM_BYTES}.
     * @return a packet with that length set, not-ECT, no CRC32C pending and no addresses; its payload bytes are stale
     * until written.
     */
    public LinkPacket acquire(final int lengthBytes)
    {
        if (lengthBytes < 0 || lengthBytes > LinkPacket.MAX_DATAGRAM_BYTES)
        {
            throw new IllegalArgumentException("datagram length out of range: " + lengthBytes);
        }
        final LinkPacket packet;
        if (lengthBytes <= smallCapacityBytes)
        {
            packet = smallCount > 0 ? small[--smallCount] : allocate(smallCapacityBytes);
        }
        else
        {
            packet = largeCount > 0 ? large[--largeCount] : allocate(LinkPacket.MAX_DATAGRAM_BYTES);
        }
        return packet.length(lengthBytes).ecnCodepoint(EcnCodepoint.NOT_ECT).crc32cPending(false);
    }

    /**
     * @param original the packet to copy.
     * @return a new packet with the same payload, ECN field, pending CRC32C, flow key and addresses.
     */
    public LinkPacket copyOf(final LinkPacket original)
    {
        final LinkPacket copy = acquire(original.length());
        System.arraycopy(original.data(), 0, copy.data(), 0, original.length());
        return copy.flowKey(original.flowKey()).source(original.source()).destination(original.destination())
            .ecnCodepoint(original.ecnCodepoint()).crc32cPending(original.isCrc32cPending());
    }

    /**
     * Write a packet's pending CRC32C trailer ({@link LinkPacket#isCrc32cPending()}), before its bytes are read or
     * changed as they would be on a wire: as Linux's {@code netem} completes a {@code CHECKSUM_PARTIAL} packet's
     * checksum ({@code skb_checksum_help}) before it corrupts it, so the damage is caught where it would be.
     *
     * @param packet a packet of this pool; nothing happens unless its trailer is pending.
     */
    public void writePendingCrc32c(final LinkPacket packet)
    {
        if (packet.isCrc32cPending())
        {
            crc32cView.wrap(packet.data(), 0, packet.length());
            crc32c.seal(crc32cView, 0, packet.length() - Crc32cPacketCheck.TRAILER_LENGTH);
            packet.crc32cPending(false);
        }
    }

    /**
     * @param packet a packet from this pool that nothing references any more.
     */
    public void release(final LinkPacket packet)
    {
        packet.source(null).destination(null);
        if (packet.data().length == smallCapacityBytes)
        {
            if (smallCount == small.length)
            {
                small = Arrays.copyOf(small, smallCount << 1);
            }
            small[smallCount++] = packet;
        }
        else
        {
            if (largeCount == large.length)
            {
                large = Arrays.copyOf(large, largeCount << 1);
            }
            large[largeCount++] = packet;
        }
    }

    /**
     * @return how many packets this pool has allocated so far (its high-water mark).
     */
    public long allocatedPackets()
    {
        return allocatedPackets;
    }

    private LinkPacket allocate(final int capacityBytes)
    {
        allocatedPackets++;
        return new LinkPacket(capacityBytes);
    }
}
