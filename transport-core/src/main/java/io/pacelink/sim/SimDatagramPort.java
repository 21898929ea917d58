package io.pacelink.sim;

import io.pacelink.link.FlowKeys;
import io.pacelink.link.LinkPacket;
import io.pacelink.link.LinkPacketPool;
import io.pacelink.transport.port.DatagramHandler;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.ReceiveBatch;
import io.pacelink.transport.port.SendBatch;
import io.pacelink.transport.port.SendMemory;
import io.pacelink.transport.wire.EcnCodepoint;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;

/**
 * A host's simulated UDP socket: a send hands each datagram in a pooled packet to the host's uplink at the current
 * virtual time (a {@link SendBatch} datagram by datagram, in order, so a batch leaves exactly as the same datagrams
 * sent one by one). A batch this port made ({@link #newSendBatch}) is written straight into the packets that will
 * travel ({@link SendMemory}); any other datagram is copied into one. Datagrams delivered to the host wait here until
 * the agent receives them, into a {@link ReceiveBatch} (each with how long it waited) or handed to a handler. A batch
 * receive lends the batch each packet where it lies ({@link ReceiveBatch#addInPlace}) and takes the packets back into
 * the pool when a batch it made is cleared (the endpoint clears it once it has read every entry), or else at the next
 * receive, so a packet just read is the next one a send writes into. So a packet's bytes are written once, by the
 * sender's endpoint, and read first by the receiver's integrity check, not copied on the way out and in: those copies
 * were the first reads of memory gone cold while the packet waited on the modelled path. Nothing touches a real
 * network; nothing is allocated per datagram once the packet pool is warm.
 * <p>
 * Like a socket with {@code IP_TOS} and {@code IP_RECVTOS}, the port can carry each datagram's ECN field
 * ({@link #ecn(boolean)}, off by default, as a scenario chooses): a batch send gives the packet its codepoint, the link
 * may mark it CE, and a batch receive reports what arrived. With ECN off it behaves as the NIO port: datagrams leave
 * not-ECT and arrive with the codepoint unknown.
 */
public final class SimDatagramPort implements DatagramPort
{
    private final Simulator simulator;
    private final LinkPacketPool pool;
    private final InetSocketAddress address;
    private final PacketSink uplink;
    /**
     * Room a {@link #newReceiveBatch receive batch} has per datagram, beyond one largest datagram.
     */
    static final int RECEIVE_BYTES_PER_DATAGRAM = 2048;

    private static final int CACHE_LINE_BYTES = 64;

    private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
    private final UnsafeBuffer departureView = new UnsafeBuffer(new byte[0]);
    private LinkPacket[] inbox = new LinkPacket[64];
    private LinkPacket[] lent = new LinkPacket[64];
    private int lentCount;
    private long readAheadSum;
    private final Runnable releaseLent = this::releaseLent;
    private long[] inboxArrivalNs = new long[64];
    private int inboxHead;
    private int inboxCount;
    private long sentDatagrams;
    private long receivedDatagrams;
    private boolean closed;
    private boolean carriesEcn;
    private DepartureListener departureListener;

    SimDatagramPort(final Simulator simulator, final InetSocketAddress address, final PacketSink uplink)
    {
        this.simulator = simulator;
        this.pool = simulator.pool();
        this.address = address;
        this.uplink = uplink;
    }

    /**
     * {@inheritDoc}
     */
    public int receive(final DatagramHandler handler, final int limit, final long nowNs)
    {
        int received = 0;
        while (received < limit && inboxCount > 0)
        {
            final LinkPacket packet = inbox[inboxHead];
            inbox[inboxHead] = null;
            inboxHead = (inboxHead + 1) & (inbox.length - 1);
            inboxCount--;
            received++;
            receivedDatagrams++;
            try
            {
                pool.writePendingCrc32c(packet);
                view.wrap(packet.data(), 0, packet.length());
                handler.onDatagram(view, 0, packet.length(), (InetSocketAddress)packet.source(), nowNs);
            }
            finally
            {
                pool.release(packet);
            }
        }
        return received;
    }

    /**
     * Send a batch, each datagram with its codepoint when the port carries ECN (not-ECT otherwise).
     */
    public int send(final SendBatch batch)
    {
        final PacketMemory lender = batch.memory() instanceof PacketMemory &&
            ((PacketMemory)batch.memory()).isOf(this) ? (PacketMemory)batch.memory() : null;
        int sent = 0;
        for (int i = 0, size = batch.size(); i < size; i++)
        {
            if (send(batch.buffer(i), batch.offset(i), batch.length(i), batch.destination(i),
                carriesEcn ? batch.ecnCodepoint(i) : EcnCodepoint.NOT_ECT, batch.isCrc32cLeftToPort(i),
                null == lender ? null : lender.take(i)))
            {
                sent++;
            }
        }
        return sent;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Each datagram is written into the pooled packet it will travel in (of the small size class, or the large one
     * for a datagram that may be larger), so its bytes are written once, by the endpoint; the batch has no memory of
     * its own ({@link SendMemory#lendsEveryDatagram()}).
     */
    public SendBatch newSendBatch(final int maxDatagrams, final int capacityBytes)
    {
        return new SendBatch(maxDatagrams, capacityBytes, new PacketMemory(maxDatagrams));
    }

    /**
     * {@inheritDoc}
     * <p>
     * Room for one datagram of any size plus {@link #RECEIVE_BYTES_PER_DATAGRAM} per datagram: full-size datagrams of
     * the usual MTUs always fill every entry. The room is counted, not allocated: every datagram is lent to the batch
     * where it lies ({@link ReceiveBatch#lentInPlace}).
     */
    public ReceiveBatch newReceiveBatch(final int maxDatagrams)
    {
        return ReceiveBatch.lentInPlace(
            maxDatagrams, LinkPacket.MAX_DATAGRAM_BYTES + maxDatagrams * RECEIVE_BYTES_PER_DATAGRAM, releaseLent);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Datagrams are lent to the batch in arrival order, each where it lies in its packet (valid until the batch is
     * cleared, if this port made it, or else until this port's next batch receive), as many as would fit in the batch's
     * buffer back to back: one that would not waits for the next receive, as on a socket port. Each carries the ECN
     * field it arrived with when the port carries ECN (not-ECT otherwise).
     */
    public int receive(final ReceiveBatch batch, final int limit)
    {
        releaseLent();
        batch.clear();
        final long nowNs = simulator.nowNs();
        final int capacityBytes = batch.capacityBytes();
        final int bound = Math.min(limit, batch.maxDatagrams());
        int nextOffset = 0;
        while (batch.size() < bound && inboxCount > 0)
        {
            final LinkPacket packet = inbox[inboxHead];
            final int length = packet.length();
            if (length > capacityBytes - nextOffset)
            {
                break;
            }
            final long arrivalNs = inboxArrivalNs[inboxHead];
            inbox[inboxHead] = null;
            inboxHead = (inboxHead + 1) & (inbox.length - 1);
            inboxCount--;
            receivedDatagrams++;
            batch.addInPlace(packet.data(), length, (InetSocketAddress)packet.source(),
                carriesEcn ? packet.ecnCodepoint() : ReceiveBatch.NOT_ECT, nowNs - arrivalNs, packet.isCrc32cPending());
            nextOffset += length;
            lend(packet);
        }
        readAhead();
        return batch.size();
    }

    /**
     * Read one byte of every cache line of the datagrams just lent, before the endpoint reads any of them. A packet's
     * bytes were written by its sender a path's delay earlier (at 50 flows of 100 Mbit/s, ~12 MB of packets later),
     * so they come from memory; read here, one line after another with nothing depending on them, the misses
     * overlap (the core keeps many in flight), where the endpoint's copy of each datagram into its receive log would
     * meet them a packet at a time. A NIC has the same effect on a real host by writing what it receives into the
     * last-level cache (Intel's Data Direct I/O; Linux drivers also {@code prefetch} a received frame's data ahead
     * of the stack, e.g. {@code net_prefetch} in {@code include/linux/netdevice.h}). The bytes are not changed.
     */
    private void readAhead()
    {
        long sum = 0;
        for (int i = 0; i < lentCount; i++)
        {
            final LinkPacket packet = lent[i];
            final byte[] data = packet.data();
            final int length = packet.length();
            for (int at = 0; at < length; at += CACHE_LINE_BYTES)
            {
                sum += data[at];
            }
        }
        readAheadSum += sum;
    }

    /**
     * @return the sum of the bytes {@link #readAhead} read: it keeps the reads from being optimized away.
     */
    long readAheadSum()
    {
        return readAheadSum;
    }

    private void lend(final LinkPacket packet)
    {
        if (lentCount == lent.length)
        {
            final LinkPacket[] larger = new LinkPacket[lent.length << 1];
            System.arraycopy(lent, 0, larger, 0, lentCount);
            lent = larger;
        }
        lent[lentCount++] = packet;
    }

    private void releaseLent()
    {
        for (int i = 0; i < lentCount; i++)
        {
            pool.release(lent[i]);
            lent[i] = null;
        }
        lentCount = 0;
    }

    /**
     * {@inheritDoc}
     */
    public boolean send(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
    {
        return send(buffer, offset, length, destination, EcnCodepoint.NOT_ECT);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Always: a packet's bytes are written once, by the sending endpoint, and read next by the receiving one, so the
     * CRC32C of a plaintext packet is computed only where its bytes are read otherwise — by a departure listener, a
     * receiving handler, or the link model's corruption (which the trailer then reveals, as on a wire) — and vouched
     * for where they are not. Then two passes over every byte of a packet go (the seal's and the check's, a fifth of
     * a one-flow run's simulation thread); every packet's fate and every trace stay the same.
     */
    public boolean offloadsCrc32c()
    {
        return true;
    }

    /**
     * {@inheritDoc}
     * <p>
     * As the scenario chose ({@link #ecn(boolean)}).
     */
    public boolean carriesEcn()
    {
        return carriesEcn;
    }

    /**
     * @param carriesEcn true to carry the ECN field both ways, as a socket with {@code IP_TOS} and {@code IP_RECVTOS}
     *                   does; false (the default) to behave as the NIO port.
     * @return this.
     */
    public SimDatagramPort ecn(final boolean carriesEcn)
    {
        this.carriesEcn = carriesEcn;
        return this;
    }

    private boolean send(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress destination,
        final int ecnCodepoint)
    {
        return send(buffer, offset, length, destination, ecnCodepoint, false, null);
    }

    /**
     * @param crc32cLeftToPort true if the datagram's CRC32C trailer is the port's to write
     *                         ({@link SendBatch#isCrc32cLeftToPort}).
     * @param written          the packet the datagram was written into, or null to copy it into one.
     */
    private boolean send(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress destination,
        final int ecnCodepoint,
        final boolean crc32cLeftToPort,
        final LinkPacket written)
    {
        if (closed)
        {
            if (null != written)
            {
                pool.release(written);
            }
            return false;
        }
        final LinkPacket packet;
        final int smallBytes = pool.smallCapacityBytes();
        if (null != written && (length > smallBytes || written.data().length <= smallBytes))
        {
            packet = written.length(length);
        }
        else if (null != written)
        {
            // Written into a large packet for a datagram that might have been large, and was not: it travels in a
            // small one, so the packets on a path hold what its datagrams need (a large one is 64 KiB).
            packet = pool.acquire(length);
            System.arraycopy(written.data(), 0, packet.data(), 0, length);
            pool.release(written);
        }
        else
        {
            packet = pool.acquire(length);
            buffer.getBytes(offset, packet.data(), 0, length);
        }
        packet.source(address).destination(destination).flowKey(FlowKeys.of(address, destination))
            .ecnCodepoint(ecnCodepoint).crc32cPending(crc32cLeftToPort);
        sentDatagrams++;
        if (null != departureListener)
        {
            if (crc32cLeftToPort)
            {
                // The listener reads the datagram as it leaves: whole, from the packet.
                pool.writePendingCrc32c(packet);
                departureView.wrap(packet.data(), 0, length);
                departureListener.onDeparture(departureView, 0, length, destination, simulator.nowNs());
            }
            else
            {
                departureListener.onDeparture(buffer, offset, length, destination, simulator.nowNs());
            }
        }
        uplink.accept(packet, simulator.nowNs());
        return true;
    }

    /**
     * @param listener hears every datagram this port sends from now on, when it leaves (null: none).
     */
    public void departureListener(final DepartureListener listener)
    {
        this.departureListener = listener;
    }

    /**
     * {@inheritDoc}
     */
    public InetSocketAddress localAddress()
    {
        return address;
    }

    /**
     * Drops every waiting datagram; later sends fail and later deliveries are discarded.
     */
    public void close()
    {
        closed = true;
        while (inboxCount > 0)
        {
            pool.release(inbox[inboxHead]);
            inbox[inboxHead] = null;
            inboxHead = (inboxHead + 1) & (inbox.length - 1);
            inboxCount--;
        }
    }

    /**
     * @return datagrams delivered and not yet received.
     */
    public int pendingDatagrams()
    {
        return inboxCount;
    }

    /**
     * @return datagrams sent.
     */
    public long sentDatagrams()
    {
        return sentDatagrams;
    }

    /**
     * @return datagrams handed to a handler.
     */
    public long receivedDatagrams()
    {
        return receivedDatagrams;
    }

    /**
     * The packets a {@link SendBatch} of this port writes its datagrams into, one per entry, taken by the send that
     * hands them on; one claimed and not sent is lent again for the same entry.
     */
    private final class PacketMemory implements SendMemory
    {
        private final LinkPacket[] packets;
        private final UnsafeBuffer[] views;

        PacketMemory(final int maxDatagrams)
        {
            packets = new LinkPacket[maxDatagrams];
            views = new UnsafeBuffer[maxDatagrams];
            for (int i = 0; i < maxDatagrams; i++)
            {
                views[i] = new UnsafeBuffer(new byte[0]);
            }
        }

        public UnsafeBuffer lend(final int index, final int maxLengthBytes)
        {
            LinkPacket packet = packets[index];
            if (null != packet && maxLengthBytes > packet.data().length)
            {
                pool.release(packet);
                packet = null;
            }
            if (null == packet)
            {
                packet = pool.acquire(maxLengthBytes);
                packets[index] = packet;
                views[index].wrap(packet.data());
            }
            return views[index];
        }

        /**
         * Every datagram, of any size, closed or not (a send on a closed port gives the packet back): the batch
         * needs no memory of its own.
         */
        public boolean lendsEveryDatagram()
        {
            return true;
        }

        boolean isOf(final SimDatagramPort port)
        {
            return SimDatagramPort.this == port;
        }

        LinkPacket take(final int index)
        {
            final LinkPacket packet = packets[index];
            packets[index] = null;
            return packet;
        }
    }

    /**
     * A datagram arrives: it waits for the agent's next receive, which reports how long it waited (its age, as a
     * kernel's receive timestamp gives it: {@link ReceiveBatch#arrivalAgeNs}), 0 when the agent runs at its arrival.
     */
    void deliver(final LinkPacket packet, final long nowNs)
    {
        if (closed)
        {
            pool.release(packet);
            return;
        }
        if (inboxCount == inbox.length)
        {
            final LinkPacket[] larger = new LinkPacket[inbox.length << 1];
            final long[] largerArrivalNs = new long[larger.length];
            for (int i = 0; i < inboxCount; i++)
            {
                larger[i] = inbox[(inboxHead + i) & (inbox.length - 1)];
                largerArrivalNs[i] = inboxArrivalNs[(inboxHead + i) & (inbox.length - 1)];
            }
            inbox = larger;
            inboxArrivalNs = largerArrivalNs;
            inboxHead = 0;
        }
        final int tail = (inboxHead + inboxCount) & (inbox.length - 1);
        inbox[tail] = packet;
        inboxArrivalNs[tail] = nowNs;
        inboxCount++;
    }
}
