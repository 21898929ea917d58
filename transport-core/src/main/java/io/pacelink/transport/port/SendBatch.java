package io.pacelink.transport.port;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
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
 * GSO needs.
 * <p>
 * A batch made with a port's {@link SendMemory} (the simulator's) may place a datagram in the port's memory instead:
 * the writer then {@link #claim}s its place and writes it into {@link #claimedBuffer()}, and a reader finds each
 * datagram in {@link #buffer(int)}. Room is counted as if every datagram were in the batch's buffer, so a batch fills
 * up at the same datagram either way. Single-threaded; allocates only in its constructor.
 * <p>
 * A port that {@link DatagramPort#sendsGathered() sends gathered datagrams} may also be handed one whose payload
 * stays where it is ({@link #commitGathered}): the batch then holds the datagram's other bytes — its header and frames
 * before the payload, and the trailer after it — and the payload's address, which the port inserts between them
 * ({@code sendmmsg} iovecs), so the bytes of a stream's send log leave without being copied into the batch first.
 * Such a datagram's {@link #length} is its whole length on the wire, {@link #batchBytes} what of it lies in the batch.
 */
public final class SendBatch
{
    private final UnsafeBuffer buffer;
    private final int capacityBytes;
    private final SendMemory memory;
    private final UnsafeBuffer[] entryBuffers;
    private UnsafeBuffer claimedBuffer;
    private final int[] offsets;
    private final int[] lengths;
    private final byte[] ecnCodepoints;
    private final boolean[] crc32cLeftToPort;
    private final InetSocketAddress[] destinations;
    private final long[] payloadAddresses;
    private final int[] payloadLengths;
    private final int[] payloadAt;
    /**
     * What holds each gathered payload's memory, referenced until the batch is cleared so the memory (a send log's
     * direct segment, freed only when the collector takes its buffer) cannot go before the port has sent it.
     */
    private final Object[] payloadOwners;
    private int size;
    private int nextOffset;
    private int totalBytes;
    private int gatheredCount;

    /**
     * @param maxDatagrams  the most datagrams the batch holds.
     * @param capacityBytes the bytes of all its datagrams together.
     */
    public SendBatch(final int maxDatagrams, final int capacityBytes)
    {
        this(maxDatagrams, capacityBytes, null);
    }

    /**
     * @param maxDatagrams  the most datagrams the batch holds.
     * @param capacityBytes the bytes of all its datagrams together.
     * @param memory        the port's memory datagrams may be written into, or null for none.
     */
    public SendBatch(final int maxDatagrams, final int capacityBytes, final SendMemory memory)
    {
        if (maxDatagrams <= 0 || capacityBytes <= 0)
        {
            throw new IllegalArgumentException(
                "maxDatagrams and capacityBytes must be positive: " + maxDatagrams + ", " + capacityBytes);
        }
        this.capacityBytes = BitUtil.align(capacityBytes, BitUtil.CACHE_LINE_LENGTH);
        // Memory that lends every datagram leaves the batch's own unused: none is allocated (a simulated host's port
        // lends every one, and 100 of them would otherwise zero ~9 MB as a run starts).
        buffer = null != memory && memory.lendsEveryDatagram() ? new UnsafeBuffer(new byte[0]) :
            new UnsafeBuffer(BufferUtil.allocateDirectAligned(this.capacityBytes, BitUtil.CACHE_LINE_LENGTH));
        this.memory = memory;
        claimedBuffer = buffer;
        entryBuffers = new UnsafeBuffer[maxDatagrams];
        offsets = new int[maxDatagrams];
        lengths = new int[maxDatagrams];
        ecnCodepoints = new byte[maxDatagrams];
        crc32cLeftToPort = new boolean[maxDatagrams];
        destinations = new InetSocketAddress[maxDatagrams];
        payloadAddresses = new long[maxDatagrams];
        payloadLengths = new int[maxDatagrams];
        payloadAt = new int[maxDatagrams];
        payloadOwners = new Object[maxDatagrams];
    }

    /**
     * @return the port's memory this batch may write datagrams into, or null.
     */
    public SendMemory memory()
    {
        return memory;
    }

    /**
     * Claim the place of the next datagram, which the writer has asked {@link #hasRoomFor room} for: in the port's
     * memory if it lends some, else at {@link #nextOffset()} of {@link #buffer()}.
     *
     * @param maxLengthBytes the most the datagram may take.
     * @return where to write it in {@link #claimedBuffer()}.
     */
    public int claim(final int maxLengthBytes)
    {
        final UnsafeBuffer lent = null == memory || size == offsets.length ? null : memory.lend(size, maxLengthBytes);
        if (null != lent)
        {
            claimedBuffer = lent;
            return 0;
        }
        claimedBuffer = buffer;
        return nextOffset;
    }

    /**
     * @return the buffer the datagram last {@link #claim claimed} is written into ({@link #buffer()} when none
     * was).
     */
    public UnsafeBuffer claimedBuffer()
    {
        return claimedBuffer;
    }

    /**
     * @return the direct memory the datagrams are written into.
     */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return the room the batch counts for its datagrams: its buffer's size, a cache line's multiple; for a batch
     * whose port {@link SendMemory#lendsEveryDatagram() lends every datagram}, the room it would have had.
     */
    public int capacityBytes()
    {
        return capacityBytes;
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
        return capacityBytes - nextOffset;
    }

    /**
     * @param lengthBytes the most a datagram to be written may take.
     * @return true if one more datagram of up to that length fits.
     */
    public boolean hasRoomFor(final int lengthBytes)
    {
        return size < offsets.length && lengthBytes <= capacityBytes - nextOffset;
    }

    /**
     * Add the datagram just written where {@link #claim} placed it, or at {@link #nextOffset()} when it was not
     * claimed.
     *
     * @param lengthBytes  its length.
     * @param destination  where it goes.
     * @param ecnCodepoint the ECN field to send it with (0 to 3).
     * @throws IllegalStateException if it does not fit (the writer did not ask {@link #hasRoomFor}).
     */
    public void commit(final int lengthBytes, final InetSocketAddress destination, final int ecnCodepoint)
    {
        commit(lengthBytes, destination, ecnCodepoint, false);
    }

    /**
     * As {@link #commit(int, InetSocketAddress, int)}, for a port that {@link DatagramPort#offloadsCrc32c() offloads
     * the CRC32C trailer}: the datagram may be a plaintext packet whose last {@code 4} bytes are left for the port to
     * write.
     *
     * @param lengthBytes      its length, trailer included.
     * @param destination      where it goes.
     * @param ecnCodepoint     the ECN field to send it with (0 to 3).
     * @param crc32cLeftToPort true if its trailer is the CRC32C of the bytes before it, not yet written: the port
     *                         writes it where those bytes are read as sent, and vouches for it at the receiving end.
     * @throws IllegalStateException if it does not fit (the writer did not ask {@link #hasRoomFor}).
     */
    public void commit(
        final int lengthBytes,
        final InetSocketAddress destination,
        final int ecnCodepoint,
        final boolean crc32cLeftToPort)
    {
        if (!hasRoomFor(lengthBytes) || lengthBytes < 0)
        {
            throw new IllegalStateException("datagram of " + lengthBytes + " bytes does not fit: " + size + " of " +
                offsets.length + " datagrams, " + remainingBytes() + " bytes left");
        }
        final UnsafeBuffer into = claimedBuffer;
        if (into == buffer && lengthBytes > buffer.capacity() - nextOffset)
        {
            throw new IllegalStateException("datagram of " + lengthBytes + " bytes not claimed: this batch's port " +
                "lends every datagram and the batch has no memory of its own");
        }
        claimedBuffer = buffer;
        entryBuffers[size] = into;
        offsets[size] = into == buffer ? nextOffset : 0;
        lengths[size] = lengthBytes;
        ecnCodepoints[size] = (byte)(ecnCodepoint & 0x3);
        this.crc32cLeftToPort[size] = crc32cLeftToPort;
        destinations[size] = destination;
        size++;
        nextOffset += lengthBytes;
        totalBytes += lengthBytes;
    }

    /**
     * Add the datagram just written at {@link #nextOffset()} without its payload, which stays in {@code payload}
     * and is sent from there: the port {@link DatagramPort#sendsGathered() must send gathered datagrams}.
     *
     * @param batchBytes    the bytes written in the batch: those before the payload, then those after it.
     * @param payloadAtByte where the payload goes in the datagram: the bytes of the batch's part before it.
     * @param payload       direct memory holding the payload, referenced until {@link #clear()}; its bytes must not
     *                      change before the port has sent the batch.
     * @param payloadIndex  where the payload starts in {@code payload}.
     * @param payloadLength its length.
     * @param destination   where it goes.
     * @param ecnCodepoint  the ECN field to send it with (0 to 3).
     * @throws IllegalStateException    if it does not fit.
     * @throws IllegalArgumentException if {@code payload} is not direct memory or the parts do not add up.
     */
    public void commitGathered(
        final int batchBytes,
        final int payloadAtByte,
        final DirectBuffer payload,
        final int payloadIndex,
        final int payloadLength,
        final InetSocketAddress destination,
        final int ecnCodepoint)
    {
        if (!hasRoomFor(batchBytes) || batchBytes < 0)
        {
            throw new IllegalStateException("datagram of " + batchBytes + " bytes does not fit: " + size + " of " +
                offsets.length + " datagrams, " + remainingBytes() + " bytes left");
        }
        if (null != payload.byteArray() || payloadAtByte < 0 || payloadAtByte > batchBytes || payloadLength < 0 ||
            payloadIndex < 0 || payloadIndex > payload.capacity() - payloadLength)
        {
            throw new IllegalArgumentException("a gathered payload must be direct memory within its buffer: at " +
                payloadAtByte + " of " + batchBytes + ", [" + payloadIndex + ", +" + payloadLength + ") of " +
                payload.capacity() + (null != payload.byteArray() ? ", a heap array" : ""));
        }
        if (batchBytes > buffer.capacity() - nextOffset)
        {
            throw new IllegalStateException("a gathered datagram needs the batch's own memory, which it has not");
        }
        // A gathering port lends no memory (only the simulator's does, and it never gathers): the batch's buffer.
        claimedBuffer = buffer;
        entryBuffers[size] = buffer;
        offsets[size] = nextOffset;
        lengths[size] = batchBytes + payloadLength;
        ecnCodepoints[size] = (byte)(ecnCodepoint & 0x3);
        crc32cLeftToPort[size] = false;
        destinations[size] = destination;
        payloadAddresses[size] = payload.addressOffset() + payloadIndex;
        payloadLengths[size] = payloadLength;
        payloadAt[size] = payloadAtByte;
        payloadOwners[size] = payload;
        size++;
        gatheredCount++;
        nextOffset += batchBytes;
        totalBytes += batchBytes + payloadLength;
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
     * @return the memory it lies in: {@link #buffer()}, or the port's.
     */
    public UnsafeBuffer buffer(final int index)
    {
        return entryBuffers[index];
    }

    /**
     * @param index of a datagram, from 0 to {@link #size()} − 1.
     * @return where it starts in {@link #buffer(int)}.
     */
    public int offset(final int index)
    {
        return offsets[index];
    }

    /**
     * @param index of a datagram.
     * @return its length on the wire (for a gathered one, its payload included).
     */
    public int length(final int index)
    {
        return lengths[index];
    }

    /**
     * @param index of a datagram.
     * @return the bytes of it that lie in {@link #buffer()} from {@link #offset}: all of it unless it is gathered.
     */
    public int batchBytes(final int index)
    {
        return lengths[index] - payloadLengths[index];
    }

    /**
     * @param index of a datagram.
     * @return the length of its payload sent from outside the batch ({@link #commitGathered}); 0 if it lies whole
     * in the batch.
     */
    public int payloadLength(final int index)
    {
        return payloadLengths[index];
    }

    /**
     * @param index of a gathered datagram.
     * @return the address of its payload.
     */
    public long payloadAddress(final int index)
    {
        return payloadAddresses[index];
    }

    /**
     * @param index of a gathered datagram.
     * @return where its payload goes: the bytes of its batch part that come before it.
     */
    public int payloadAt(final int index)
    {
        return payloadAt[index];
    }

    /**
     * @return true if a datagram of the batch was committed by {@link #commitGathered}.
     */
    public boolean hasGathered()
    {
        return gatheredCount > 0;
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
     * @param index of a datagram.
     * @return true if its CRC32C trailer was left for the port to write ({@link #commit(int, InetSocketAddress, int,
     * boolean)}).
     */
    public boolean isCrc32cLeftToPort(final int index)
    {
        return crc32cLeftToPort[index];
    }

    /**
     * @return the bytes of all datagrams in the batch.
     */
    public int totalBytes()
    {
        return totalBytes;
    }

    /**
     * Empty the batch for the next one; the destinations and the gathered payloads' memory are forgotten.
     */
    public void clear()
    {
        for (int i = 0; i < size; i++)
        {
            destinations[i] = null;
            payloadOwners[i] = null;
            payloadLengths[i] = 0;
        }
        size = 0;
        nextOffset = 0;
        claimedBuffer = buffer;
        totalBytes = 0;
        gatheredCount = 0;
    }
}
