package io.pacelink.transport.port;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;

/**
 * Datagrams built in place, back to back in one direct buffer, and handed to a {@link DatagramPort} in one call
 * ({@link DatagramPort#send(SendBatch)}): the batched port turns a run of equal-sized datagrams to one destination
 * into one UDP GSO send ({@code UDP_SEGMENT}, Linux {@code udp(7)}) and the whole batch into one {@code sendmmsg(2)};
 * the NIO port sends them one by one from the same memory, without copying.
 * <p>
 * The writer asks {@link #hasRoomFor(int)}, writes the datagram at {@link #nextOffset()} of {@link #buffer()}, and
 * {@link #commit}s it with its destination and ECN codepoint (RFC 3168: 0 not-ECT, 1 ECT(1), 2 ECT(0), 3 CE). Because
 * each datagram starts where the previous one ended, a run of equal-sized datagrams is contiguous memory, which is what
 * GSO needs. Single-threaded; allocates only in its constructor.
 */
public final class SendBatch
{
    private final UnsafeBuffer buffer;
    private final int[] offsets;
    private final int[] lengths;
    private final byte[] ecnCodepoints;
    private final InetSocketAddress[] destinations;
    private int size;
    private int nextOffset;

    /**
     * @param maxDatagrams  the most datagrams the batch holds.
     * @param capacityBytes the bytes of all its datagrams together.
     */
    public SendBatch(final int maxDatagrams, final int capacityBytes)
    {
        if (maxDatagrams <= 0 || capacityBytes <= 0)
        {
            throw new IllegalArgumentException(
                "maxDatagrams and capacityBytes must be positive: " + maxDatagrams + ", " + capacityBytes);
        }
        buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            BitUtil.align(capacityBytes, BitUtil.CACHE_LINE_LENGTH), BitUtil.CACHE_LINE_LENGTH));
        offsets = new int[maxDatagrams];
        lengths = new int[maxDatagrams];
        ecnCodepoints = new byte[maxDatagrams];
        destinations = new InetSocketAddress[maxDatagrams];
    }

    /**
     * @return the direct memory the datagrams are written into.
     */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return where the next datagram is to be written in {@link #buffer()}.
     */
    public int nextOffset()
    {
        return nextOffset;
    }

    /**
     * @return bytes left after {@link #nextOffset()}.
     */
    public int remainingBytes()
    {
        return buffer.capacity() - nextOffset;
    }

    /**
     * @param lengthBytes the most a datagram to be written may take.
     * @return true if one more datagram of up to that length fits.
     */
    public boolean hasRoomFor(final int lengthBytes)
    {
        return size < offsets.length && lengthBytes <= buffer.capacity() - nextOffset;
    }

    /**
     * Add the datagram just written at {@link #nextOffset()}.
     *
     * @param lengthBytes  its length.
     * @param destination  where it goes.
     * @param ecnCodepoint the ECN field to send it with (0 to 3).
     * @throws IllegalStateException if it does not fit (the writer did not ask {@link #hasRoomFor}).
     */
    public void commit(final int lengthBytes, final InetSocketAddress destination, final int ecnCodepoint)
    {
        if (!hasRoomFor(lengthBytes) || lengthBytes < 0)
        {
            throw new IllegalStateException("datagram of " + lengthBytes + " bytes does not fit: " + size + " of " +
                offsets.length + " datagrams, " + remainingBytes() + " bytes left");
        }
        offsets[size] = nextOffset;
        lengths[size] = lengthBytes;
        ecnCodepoints[size] = (byte)(ecnCodepoint & 0x3);
        destinations[size] = destination;
        size++;
        nextOffset += lengthBytes;
    }

    /**
     * @return datagrams in the batch.
     */
    public int size()
    {
        return size;
    }

    /**
     * @return true if no datagram is in the batch.
     */
    public boolean isEmpty()
    {
        return 0 == size;
    }

    /**
     * @return the most datagrams the batch holds.
     */
    public int maxDatagrams()
    {
        return offsets.length;
    }

    /**
     * @param index of a datagram, from 0 to {@link #size()} − 1.
     * @return where it starts in {@link #buffer()}.
     */
    public int offset(final int index)
    {
        return offsets[index];
    }

    /**
     * @param index of a datagram.
     * @return its length.
     */
    public int length(final int index)
    {
        return lengths[index];
    }

    /**
     * @param index of a datagram.
     * @return where it goes.
     */
    public InetSocketAddress destination(final int index)
    {
        return destinations[index];
    }

    /**
     * @param index of a datagram.
     * @return the ECN codepoint to send it with (0 not-ECT, 1 ECT(1), 2 ECT(0), 3 CE).
     */
    public int ecnCodepoint(final int index)
    {
        return ecnCodepoints[index];
    }

    /**
     * @return the bytes of all datagrams in the batch.
     */
    public int totalBytes()
    {
        return nextOffset;
    }

    /**
     * Empty the batch for the next one; the destinations are forgotten.
     */
    public void clear()
    {
        for (int i = 0; i < size; i++)
        {
            destinations[i] = null;
        }
        size = 0;
        nextOffset = 0;
    }
}
