package io.pacelink.transport.engine;

import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.SendBatch;
import io.pacelink.transport.stats.EndpointCounters;
import io.pacelink.transport.wire.EcnCodepoint;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.net.InetSocketAddress;

/**
 * The datagrams of a duty cycle on their way out: each written in place where the previous one ended in one
 * {@link SendBatch} (so a run of equal-sized datagrams to one peer is one contiguous region, as UDP GSO needs), handed
 * to the port in one {@link DatagramPort#send(SendBatch)} when the batch is full or the cycle's sending is done, and
 * counted. Packets, handshakes, refusals and RETRYs all leave through it, in the order they were written.
 */
final class Outbox
{
    /**
     * The most a batch holds: enough for a send batch limit of full-size datagrams at the usual MTUs, small enough
     * that a large limit with jumbo datagrams is sent in several batches rather than one huge buffer.
     */
    static final int MAX_BATCH_BYTES = 4 << 20;

    private final DatagramPort port;
    private final SendBatch batch;
    private final EndpointCounters counters;
    private final boolean gathers;
    private final boolean offloadsCrc32c;

    /**
     * @param port             where the datagrams go.
     * @param maxDatagrams     the most datagrams sent in one call: the send batch limit.
     * @param maxDatagramBytes the largest datagram.
     * @param counters         counts datagrams and bytes sent, and send failures.
     */
    Outbox(final DatagramPort port, final int maxDatagrams, final int maxDatagramBytes, final EndpointCounters counters)
    {
        this.port = port;
        this.counters = counters;
        this.gathers = port.sendsGathered();
        this.offloadsCrc32c = port.offloadsCrc32c();
        this.batch = port.newSendBatch(maxDatagrams,
            (int)Math.max(maxDatagramBytes, Math.min((long)maxDatagrams * maxDatagramBytes, MAX_BATCH_BYTES)));
    }

    /**
     * @return the buffer the datagram last {@link #claim claimed} is written into.
     */
    MutableDirectBuffer buffer()
    {
        return batch.claimedBuffer();
    }

    /**
     * Make room for the next datagram: if the batch has none, it is sent first.
     *
     * @param maxLengthBytes the most the datagram may take.
     * @return where to write it in {@link #buffer()}, asked after this.
     */
    int claim(final int maxLengthBytes)
    {
        if (!batch.hasRoomFor(maxLengthBytes))
        {
            flush();
        }
        return batch.claim(maxLengthBytes);
    }

    /**
     * Add the datagram just written at the offset {@link #claim} gave, to leave not-ECT: handshakes, refusals and
     * RETRYs are never ECN-capable (only a connection's validation marks packets, RFC 9000 section 13.4.2).
     *
     * @param lengthBytes its length.
     * @param destination where it goes.
     */
    void commit(final int lengthBytes, final InetSocketAddress destination)
    {
        batch.commit(lengthBytes, destination, EcnCodepoint.NOT_ECT);
    }

    /**
     * Add the datagram just written at the offset {@link #claim} gave.
     *
     * @param lengthBytes  its length.
     * @param destination  where it goes.
     * @param ecnCodepoint the ECN codepoint it leaves with, if the port {@link DatagramPort#sendsEcn() sends} them.
     */
    void commit(final int lengthBytes, final InetSocketAddress destination, final int ecnCodepoint)
    {
        batch.commit(lengthBytes, destination, ecnCodepoint);
    }

    /**
     * @return true if the port takes over a plaintext packet's CRC32C trailer ({@link DatagramPort#offloadsCrc32c()}):
     * then {@link #commitLeavingCrc32c} may be used.
     */
    boolean offloadsCrc32c()
    {
        return offloadsCrc32c;
    }

    /**
     * Add a plaintext packet just written at the offset {@link #claim} gave, with room for its CRC32C trailer after it,
     * which the port writes where it must ({@link SendBatch#commit(int, InetSocketAddress, int, boolean)}).
     *
     * @param lengthBytes  its length, trailer included.
     * @param destination  where it goes.
     * @param ecnCodepoint the ECN codepoint it leaves with, if the port {@link DatagramPort#sendsEcn() sends} them.
     */
    void commitLeavingCrc32c(final int lengthBytes, final InetSocketAddress destination, final int ecnCodepoint)
    {
        batch.commit(lengthBytes, destination, ecnCodepoint, true);
    }

    /**
     * @return true if the port sends a datagram's payload from where it lies ({@link DatagramPort#sendsGathered()}):
     * then {@link #commitGathered} may be used.
     */
    boolean gathers()
    {
        return gathers;
    }

    /**
     * Add the datagram just written at the offset {@link #claim} gave without its payload, which the port sends from
     * where it lies ({@link SendBatch#commitGathered}).
     *
     * @param batchBytes    the bytes written: those before the payload, then the trailer.
     * @param payloadAt     where the payload goes in the datagram: the bytes before it.
     * @param payload       direct memory holding the payload, unchanged until the batch is sent.
     * @param payloadIndex  where the payload starts in it.
     * @param payloadLength its length.
     * @param destination   where the datagram goes.
     * @param ecnCodepoint  the ECN codepoint it leaves with.
     */
    void commitGathered(
        final int batchBytes,
        final int payloadAt,
        final DirectBuffer payload,
        final int payloadIndex,
        final int payloadLength,
        final InetSocketAddress destination,
        final int ecnCodepoint)
    {
        batch.commitGathered(batchBytes, payloadAt, payload, payloadIndex, payloadLength, destination, ecnCodepoint);
    }

    /**
     * @return datagrams committed and not yet handed to the port.
     */
    int size()
    {
        return batch.size();
    }

    /**
     * Hand the batch to the port and count the outcome. A datagram not sent (a full socket buffer) is dropped like a
     * loss on the path, which recovery repairs; a port refuses a batch's tail, so the bytes sent are those of the
     * datagrams before the first refused one.
     *
     * @return datagrams handed to the port.
     */
    int flush()
    {
        final int size = batch.size();
        if (0 == size)
        {
            return 0;
        }
        final int sent = port.send(batch);
        if (sent > 0)
        {
            counters.datagramsSent().getAndAddRelease(sent);
            counters.bytesSent().getAndAddRelease(sent == size ? batch.totalBytes() : bytesOfFirst(sent));
        }
        if (sent < size)
        {
            counters.sendFailures().getAndAddRelease(size - sent);
        }
        batch.clear();
        return size;
    }

    private long bytesOfFirst(final int count)
    {
        long bytes = 0;
        for (int i = 0; i < count; i++)
        {
            bytes += batch.length(i);
        }
        return bytes;
    }
}
