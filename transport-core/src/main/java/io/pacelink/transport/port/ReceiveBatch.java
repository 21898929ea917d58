package io.pacelink.transport.port;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;

/**
 * The datagrams one {@link DatagramPort#receive(ReceiveBatch, int)} found, in one direct buffer, with their sources
 * and arriving ECN codepoints. The port fills it (one {@code recvmmsg(2)} on the batched port, where a UDP GRO
 * super-datagram becomes several entries inside one region; one read per datagram on the NIO port, each into the
 * free space after the last); the endpoint then reads the clock once and processes every entry at that time, so a
 * datagram is never stamped with a time read before it was received.
 * <p>
 * A port that reads the kernel's receive time of each datagram (the batched port, {@code SO_TIMESTAMPNS}) also gives
 * its age when the receive returned, and the endpoint places its arrival that long before the batch's time
 * ({@link #arrivalTimeNs}): the time an ACK it carries arrived, however late the thread ran, which is what a
 * delivery-rate sample must be timed by (Linux stamps {@code tp->tcp_mstamp} as the ACK is received;
 * draft-cheng-iccrg-delivery-rate-estimation). A port that cannot, and the simulator, report no age: the arrival is
 * the batch's time.
 * <p>
 * The port owns the layout of {@link #buffer()}: entries may lie anywhere in it. A port that keeps datagrams in its
 * own memory (the simulator's) may instead lend an entry where it lies ({@link #addInPlace}), so its bytes are not
 * copied once more on the way in; a reader therefore finds each entry in {@link #buffer(int)}, and a batch that port
 * made gives the memory back as soon as it is {@link #clear() cleared}. A port restricted to
 * one peer also reports here that the operating system said the peer's port is unreachable (ICMP). Single-threaded;
 * allocates only in its constructor.
 */
public final class ReceiveBatch
{
    /**
     * ECN codepoint reported when the port cannot read the arriving one (RFC 3168: not-ECT).
     */
    public static final int NOT_ECT = 0;

    /**
     * Arrival age reported when the port cannot read the kernel's receive time.
     */
    public static final long AGE_UNKNOWN = -1;

    /**
     * The oldest arrival age believed: a datagram that waited longer in the socket than any duty cycle lasts is taken
     * to have arrived at the batch's time. The kernel's stamp is on the wall clock, so a step of that clock (a
     * settimeofday, an NTP step) between the stamp and the receive would move the age by the step; this bounds what
     * such a step can do to a rate sample, and a step backwards gives a negative age, also ignored.
     */
    public static final long MAX_ARRIVAL_AGE_NS = 1_000_000_000L;

    private static final byte[] EMPTY = new byte[0];

    private final UnsafeBuffer buffer;
    private final int capacityBytes;
    private final UnsafeBuffer[] entryBuffers;
    private final UnsafeBuffer[] inPlaceViews;
    private final int[] offsets;
    private final int[] lengths;
    private final byte[] ecnCodepoints;
    private final long[] arrivalAgesNs;
    private final boolean[] verified;
    private final InetSocketAddress[] sources;
    private final Runnable onClear;
    private int size;
    private InetSocketAddress unreachablePeer;

    /**
     * @param maxDatagrams  the most datagrams the batch holds.
     * @param capacityBytes the size of its buffer.
     */
    public ReceiveBatch(final int maxDatagrams, final int capacityBytes)
    {
        this(maxDatagrams, capacityBytes, null);
    }

    /**
     * @param maxDatagrams  the most datagrams the batch holds.
     * @param capacityBytes the size of its buffer.
     * @param onClear       run by each {@link #clear()}: the port that made the batch takes back the memory it lent
     *                      the entries ({@link #addInPlace}); null for none.
     */
    public ReceiveBatch(final int maxDatagrams, final int capacityBytes, final Runnable onClear)
    {
        this(maxDatagrams, capacityBytes, onClear, true);
    }

    private ReceiveBatch(
        final int maxDatagrams, final int capacityBytes, final Runnable onClear, final boolean hasOwnMemory)
    {
        if (maxDatagrams <= 0 || capacityBytes <= 0)
        {
            throw new IllegalArgumentException(
                "maxDatagrams and capacityBytes must be positive: " + maxDatagrams + ", " + capacityBytes);
        }
        this.capacityBytes = BitUtil.align(capacityBytes, BitUtil.CACHE_LINE_LENGTH);
        buffer = hasOwnMemory ?
            new UnsafeBuffer(BufferUtil.allocateDirectAligned(this.capacityBytes, BitUtil.CACHE_LINE_LENGTH)) :
            new UnsafeBuffer(EMPTY);
        this.onClear = onClear;
        entryBuffers = new UnsafeBuffer[maxDatagrams];
        inPlaceViews = new UnsafeBuffer[maxDatagrams];
        for (int i = 0; i < maxDatagrams; i++)
        {
            inPlaceViews[i] = new UnsafeBuffer(EMPTY);
        }
        offsets = new int[maxDatagrams];
        lengths = new int[maxDatagrams];
        ecnCodepoints = new byte[maxDatagrams];
        arrivalAgesNs = new long[maxDatagrams];
        verified = new boolean[maxDatagrams];
        sources = new InetSocketAddress[maxDatagrams];
    }

    /**
     * A batch for a port that lends every datagram in place ({@link #addInPlace}) and never writes into
     * {@link #buffer()}: it has no memory of its own ({@link #buffer()} is empty, {@link #add} refuses every entry),
     * yet counts {@link #capacityBytes()} as if it had, so the port fills it with the same datagrams as a batch that
     * has. A simulated host's port is one: 100 of them would otherwise zero ~20 MB of direct memory they never write
     * as a run starts.
     *
     * @param maxDatagrams  the most datagrams the batch holds.
     * @param capacityBytes the room it counts for its datagrams.
     * @param onClear       run by each {@link #clear()}: the port takes back the memory it lent; null for none.
     * @return the batch.
     */
    public static ReceiveBatch lentInPlace(final int maxDatagrams, final int capacityBytes, final Runnable onClear)
    {
        return new ReceiveBatch(maxDatagrams, capacityBytes, onClear, false);
    }

    // ---------------------------------------------------------------- filled by the port

    /**
     * @return the direct memory the port receives into.
     */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return the room the batch counts for its datagrams: its buffer's size, rounded up to a cache line; for a batch
     * {@link #lentInPlace lent in place}, the room it would have had.
     */
    public int capacityBytes()
    {
        return capacityBytes;
    }

    /**
     * @return the most datagrams the batch holds.
     */
    public int maxDatagrams()
    {
        return offsets.length;
    }

    /**
     * @return true if no further entry fits.
     */
    public boolean isFull()
    {
        return size == offsets.length;
    }

    /**
     * Add a datagram the port placed in {@link #buffer()}.
     *
     * @param offset       where it starts.
     * @param lengthBytes  its length.
     * @param source       who sent it (may be a cached instance; do not rely on its identity).
     * @param ecnCodepoint the ECN field it arrived with, {@link #NOT_ECT} if unknown.
     * @throws IllegalStateException if the batch is full or the datagram lies outside the buffer.
     */
    public void add(final int offset, final int lengthBytes, final InetSocketAddress source, final int ecnCodepoint)
    {
        add(offset, lengthBytes, source, ecnCodepoint, AGE_UNKNOWN);
    }

    /**
     * Add a datagram the port placed in {@link #buffer()}, with how long before the receive returned the kernel
     * received it.
     *
     * @param offset       where it starts.
     * @param lengthBytes  its length.
     * @param source       who sent it (may be a cached instance; do not rely on its identity).
     * @param ecnCodepoint the ECN field it arrived with, {@link #NOT_ECT} if unknown.
     * @param arrivalAgeNs its age when the receive returned, {@link #AGE_UNKNOWN} if unknown; any value is accepted
     *                     here and judged by {@link #arrivalTimeNs}.
     * @throws IllegalStateException if the batch is full or the datagram lies outside the buffer.
     */
    public void add(
        final int offset,
        final int lengthBytes,
        final InetSocketAddress source,
        final int ecnCodepoint,
        final long arrivalAgeNs)
    {
        if (isFull() || offset < 0 || lengthBytes < 0 || offset > buffer.capacity() - lengthBytes)
        {
            throw new IllegalStateException("cannot add a datagram at " + offset + " of " + lengthBytes +
                " bytes: " + size + " of " + offsets.length + " entries, capacity " + buffer.capacity());
        }
        entryBuffers[size] = buffer;
        offsets[size] = offset;
        lengths[size] = lengthBytes;
        ecnCodepoints[size] = (byte)(ecnCodepoint & 0x3);
        sources[size] = source;
        arrivalAgesNs[size] = arrivalAgeNs;
        verified[size] = false;
        size++;
    }

    /**
     * Add a datagram the port keeps in its own memory, read where it lies instead of copied into {@link #buffer()}:
     * the port lends it to the batch and must leave those bytes as they are until the batch is {@link #clear()
     * cleared} (by the reader once done with it, or by the port's next receive into it).
     *
     * @param data         the port's memory; the datagram is its first {@code lengthBytes} bytes.
     * @param lengthBytes  its length.
     * @param source       who sent it (may be a cached instance; do not rely on its identity).
     * @param ecnCodepoint the ECN field it arrived with, {@link #NOT_ECT} if unknown.
     * @param arrivalAgeNs its age when the receive returned, {@link #AGE_UNKNOWN} if unknown.
     * @throws IllegalStateException if the batch is full or the datagram is longer than the memory.
     */
    public void addInPlace(
        final byte[] data,
        final int lengthBytes,
        final InetSocketAddress source,
        final int ecnCodepoint,
        final long arrivalAgeNs)
    {
        addInPlace(data, lengthBytes, source, ecnCodepoint, arrivalAgeNs, false);
    }

    /**
     * As {@link #addInPlace(byte[], int, InetSocketAddress, int, long)}, by a port that
     * {@link DatagramPort#offloadsCrc32c() offloads the CRC32C trailer}.
     *
     * @param verified true if the port vouches that the datagram is a plaintext packet whose trailer is the CRC32C of
     *                 the bytes before it — sent with the trailer left to the port, and not changed since — so the
     *                 check may be skipped; its trailer's bytes are then not necessarily written.
     */
    public void addInPlace(
        final byte[] data,
        final int lengthBytes,
        final InetSocketAddress source,
        final int ecnCodepoint,
        final long arrivalAgeNs,
        final boolean verified)
    {
        if (isFull() || lengthBytes < 0 || lengthBytes > data.length)
        {
            throw new IllegalStateException("cannot add a datagram of " + lengthBytes + " bytes in place: " + size +
                " of " + offsets.length + " entries, memory " + data.length);
        }
        final UnsafeBuffer view = inPlaceViews[size];
        view.wrap(data, 0, lengthBytes);
        entryBuffers[size] = view;
        offsets[size] = 0;
        lengths[size] = lengthBytes;
        ecnCodepoints[size] = (byte)(ecnCodepoint & 0x3);
        sources[size] = source;
        arrivalAgesNs[size] = arrivalAgeNs;
        this.verified[size] = verified;
        size++;
    }

    /**
     * The operating system reported the restricted peer's port unreachable.
     *
     * @param peer the peer.
     */
    public void portUnreachable(final InetSocketAddress peer)
    {
        unreachablePeer = peer;
    }

    // ---------------------------------------------------------------- read by the endpoint

    /**
     * @return datagrams in the batch.
     */
    public int size()
    {
        return size;
    }

    /**
     * @return true if the batch holds no datagram and no unreachable peer: the receive brought nothing to process.
     */
    public boolean isEmpty()
    {
        return 0 == size && null == unreachablePeer;
    }

    /**
     * @param index of a datagram, from 0 to {@link #size()} − 1.
     * @return the memory it lies in: {@link #buffer()}, or the port's own for an entry {@link #addInPlace added in
     * place}.
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
     * @return its length.
     */
    public int length(final int index)
    {
        return lengths[index];
    }

    /**
     * @param index of a datagram.
     * @return who sent it.
     */
    public InetSocketAddress source(final int index)
    {
        return sources[index];
    }

    /**
     * @param index of a datagram.
     * @return the ECN codepoint it arrived with (0 not-ECT, 1 ECT(1), 2 ECT(0), 3 CE).
     */
    public int ecnCodepoint(final int index)
    {
        return ecnCodepoints[index];
    }

    /**
     * @param index of a datagram.
     * @return its age when the receive returned, as the port gave it ({@link #AGE_UNKNOWN} if not read).
     */
    public long arrivalAgeNs(final int index)
    {
        return arrivalAgesNs[index];
    }

    /**
     * @param index of a datagram.
     * @return true if the port vouched for its CRC32C trailer ({@link #addInPlace(byte[], int, InetSocketAddress, int,
     * long, boolean)}): the receiver skips the check, as Linux skips the UDP checksum of a packet marked
     * {@code CHECKSUM_UNNECESSARY}.
     */
    public boolean isVerified(final int index)
    {
        return verified[index];
    }

    /**
     * When a datagram arrived, on the caller's clock: {@code batchTimeNs}, read after the receive returned, less the
     * datagram's age — so never before the kernel received it. Without an age, or with one that is negative or over
     * {@link #MAX_ARRIVAL_AGE_NS} (a wall-clock step), the batch's time.
     *
     * @param index       of a datagram.
     * @param batchTimeNs the time the batch is processed at, read after the receive returned.
     * @return its arrival time, in [{@code batchTimeNs} − {@link #MAX_ARRIVAL_AGE_NS}, {@code batchTimeNs}].
     */
    public long arrivalTimeNs(final int index, final long batchTimeNs)
    {
        final long ageNs = arrivalAgesNs[index];
        return ageNs > 0 && ageNs <= MAX_ARRIVAL_AGE_NS ? batchTimeNs - ageNs : batchTimeNs;
    }

    /**
     * @return the peer whose port was reported unreachable during this receive, or null.
     */
    public InetSocketAddress unreachablePeer()
    {
        return unreachablePeer;
    }

    /**
     * Empty the batch for the next receive; memory a port lent its entries may be reused from now on.
     */
    public void clear()
    {
        for (int i = 0; i < size; i++)
        {
            sources[i] = null;
        }
        size = 0;
        unreachablePeer = null;
        if (null != onClear)
        {
            onClear.run();
        }
    }
}
