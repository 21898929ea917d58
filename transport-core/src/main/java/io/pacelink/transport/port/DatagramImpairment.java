package io.pacelink.transport.port;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Applies one direction's {@link ImpairmentConfig} to a sequence of datagrams: drops, duplicates and reorders them
 * before handing them on, and counts what it did. Like Aeron's loss generators, for tests and demos on real sockets.
 * <p>
 * Reordering is by count, because a port has no clock: a held datagram is released right after the
 * {@code reorderDistance}-th datagram that arrives after it (whatever that one's fate). So at most
 * {@code reorderDistance} datagrams are held at once, and the storage is preallocated as a ring of
 * {@code reorderDistance + 1} slots indexed by arrival number: the slot of arrival {@code n} was freed when arrival
 * {@code n - 1} released its occupant. When traffic stops, held datagrams stay held until more arrive, as a lost
 * datagram would; the transport's probes then release them.
 * <p>
 * Not thread safe; allocation free after construction.
 */
public final class DatagramImpairment
{
    private static final int EMPTY = -1;

    private final ImpairmentConfig config;
    private final SplittableRandom random;
    private final int maxDatagramLength;
    private final int slotCount;
    private final UnsafeBuffer heldData;
    private final int[] heldLengths;
    private final InetSocketAddress[] heldAddresses;

    private long arrivals;
    private long dropped;
    private long duplicated;
    private long reordered;

    /**
     * @param config            what to do to datagrams.
     * @param maxDatagramLength longest datagram that can be held back; longer ones are never reordered.
     */
    public DatagramImpairment(final ImpairmentConfig config, final int maxDatagramLength)
    {
        this.config = config;
        this.random = new SplittableRandom(config.seed());
        this.maxDatagramLength = maxDatagramLength;
        this.slotCount = config.reorderDistance() + 1;
        final long storageBytes = (long)slotCount * maxDatagramLength;
        if (maxDatagramLength <= 0 || storageBytes > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("maxDatagramLength must be positive and (reorderDistance + 1) * " +
                "maxDatagramLength at most " + Integer.MAX_VALUE + ": maxDatagramLength=" + maxDatagramLength +
                " reorderDistance=" + config.reorderDistance());
        }
        this.heldData = new UnsafeBuffer(new byte[(int)storageBytes]);
        this.heldLengths = new int[slotCount];
        this.heldAddresses = new InetSocketAddress[slotCount];
        Arrays.fill(heldLengths, EMPTY);
    }

    /**
     * Impair one datagram: drop it, hold it back, or hand it on (possibly twice); then release the datagram held
     * {@code reorderDistance} arrivals ago, if any.
     *
     * @param buffer  holding the datagram.
     * @param offset  of the datagram in the buffer.
     * @param length  of the datagram.
     * @param address its destination (sending) or source (receiving).
     * @param output  receives the datagrams that go on, this one or released ones.
     * @return the number of datagrams handed to {@code output}.
     */
    public int apply(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress address,
        final Output output)
    {
        final long arrival = arrivals++;
        int emitted = 0;

        if (random.nextDouble() < config.lossRate())
        {
            dropped++;
        }
        else if (length <= maxDatagramLength && random.nextDouble() < config.reorderRate())
        {
            final int slot = (int)(arrival % slotCount);
            heldData.putBytes(slot * maxDatagramLength, buffer, offset, length);
            heldLengths[slot] = length;
            heldAddresses[slot] = address;
            reordered++;
        }
        else
        {
            output.onDatagram(buffer, offset, length, address);
            emitted++;
            if (random.nextDouble() < config.duplicateRate())
            {
                output.onDatagram(buffer, offset, length, address);
                emitted++;
                duplicated++;
            }
        }

        // (arrival - reorderDistance) mod slotCount: the datagram that has now been overtaken by reorderDistance.
        final int dueSlot = (int)((arrival + 1) % slotCount);
        final int heldLength = heldLengths[dueSlot];
        if (EMPTY != heldLength)
        {
            final InetSocketAddress heldAddress = heldAddresses[dueSlot];
            heldLengths[dueSlot] = EMPTY;
            heldAddresses[dueSlot] = null;
            output.onDatagram(heldData, dueSlot * maxDatagramLength, heldLength, heldAddress);
            emitted++;
        }

        return emitted;
    }

    /**
     * @return the impairments applied.
     */
    public ImpairmentConfig config()
    {
        return config;
    }

    /**
     * @return datagrams seen.
     */
    public long arrivals()
    {
        return arrivals;
    }

    /**
     * @return datagrams dropped.
     */
    public long dropped()
    {
        return dropped;
    }

    /**
     * @return datagrams delivered twice.
     */
    public long duplicated()
    {
        return duplicated;
    }

    /**
     * @return datagrams held back to be overtaken.
     */
    public long reordered()
    {
        return reordered;
    }

    /**
     * @return datagrams held right now.
     */
    public int heldCount()
    {
        int count = 0;
        for (final int length : heldLengths)
        {
            count += EMPTY != length ? 1 : 0;
        }
        return count;
    }

    /**
     * Where an impairment hands the datagrams that go on: the wrapped port's send, or the receiving handler.
     */
    @FunctionalInterface
    public interface Output
    {
        /**
         * @param buffer  holding the datagram, valid only during the call.
         * @param offset  of the datagram in the buffer.
         * @param length  of the datagram.
         * @param address its destination (sending) or source (receiving).
         */
        void onDatagram(DirectBuffer buffer, int offset, int length, InetSocketAddress address);
    }
}
