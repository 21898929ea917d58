package io.pacelink.transport.port;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;

/**
 * A {@link DatagramPort} on a non-blocking NIO {@link DatagramChannel}, for the agent thread.
 * <p>
 * No allocation per datagram: datagrams are received into one direct buffer (wrapped by an {@link UnsafeBuffer}
 * for the handler). A datagram built in a direct buffer is sent from it as it is, through a view of that buffer kept
 * for the next send; one in a heap buffer is first copied into a direct buffer of the port's, because the JDK would
 * otherwise copy it through a temporary one. The source address handed to the handler is the channel's own cached
 * instance when the sender repeats (JDK 17's {@code DatagramChannelImpl} keeps the last decoded sender).
 * <p>
 * A {@link ReceiveBatch} is filled one read per datagram, each straight into the free space after the last one, for
 * as long as at least {@link #MAX_DATAGRAM_BYTES} are free (a read never truncates); a {@link SendBatch} is sent one
 * datagram per call ({@link DatagramPort#send(SendBatch)}) from a view of its direct buffer, without copying. Java
 * 17's NIO has neither {@code recvmmsg(2)} nor {@code sendmmsg(2)}: the batches save the copies and the per-datagram
 * bookkeeping, not the system calls.
 * <p>
 * A receive reads at most one datagram more than the last receive found, doubling while receives come back full,
 * up to the caller's limit: a read of an empty non-blocking socket is a system call that finds nothing, and the one
 * that ends every receive would otherwise sit between a request's arrival and its processing on every round trip of
 * a request/response exchange. A receive that stops at its own bound returns what it read; the caller, having done
 * work, comes back for the rest at once.
 * <p>
 * I/O errors never escape: a send that fails (for instance a datagram larger than the network allows) is counted and
 * reported as not sent, so reliability recovers it like a loss; a failed receive is counted and the batch goes on
 * (it ends on a closed channel). A port restricted to one peer ({@link #restrictTo}, a connected channel) is told
 * by the kernel when that peer's port is unreachable: the {@link PortUnreachableException} of a receive or send is
 * reported at the next receive ({@link ReceiveBatch#unreachablePeer()}, or {@link DatagramHandler#onPortUnreachable}).
 * <p>
 * ECN (RFC 3168): NIO sets the IP header's TOS byte per socket ({@code IP_TOS}; {@code IPV6_TCLASS} on an IPv6
 * socket), not per datagram, so a batch send sets it again whenever a datagram's ECN codepoint differs from the last
 * one's — one system call per change, and an endpoint's packets change codepoint rarely (ECN validation's test, then
 * all marked or none). NIO cannot read a received datagram's TOS byte, so this port {@link #sendsEcn() sends} ECN
 * but does not {@link #carriesEcn() carry} it both ways: every datagram is reported not-ECT.
 * <p>
 * The socket buffer sizes are requests: the kernel caps them (Linux: {@code net.core.rmem_max} and
 * {@code wmem_max}, then doubles the value for its bookkeeping), so the granted sizes are exposed.
 */
public final class NioDatagramPort implements DatagramPort
{
    /**
     * Socket receive and send buffer size requested by default: room for bursts at multi-gigabit rates.
     */
    public static final int DEFAULT_SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;

    /**
     * Size of the receive and send buffers: larger than any UDP payload (65,507 bytes over IPv4, 65,527 over IPv6
     * without jumbograms), so a received datagram is never truncated.
     */
    public static final int MAX_DATAGRAM_BYTES = 64 * 1024;

    /**
     * Room a {@link #newReceiveBatch receive batch} has per datagram beyond the {@link #MAX_DATAGRAM_BYTES} every read
     * needs free: full-size datagrams of the usual MTUs fill every entry before the bytes run out, and larger ones
     * (jumbo frames) end a receive early, to be read by the next.
     */
    static final int RECEIVE_BYTES_PER_DATAGRAM = 2048;

    private static final int EMPTY = -1;
    private static final int CLOSED = -2;
    private static final int UNREACHABLE = -3;
    private static final int FAILED = -4;

    private final DatagramChannel channel;
    private final InetSocketAddress localAddress;
    private final int receiveSocketBufferBytes;
    private final int sendSocketBufferBytes;

    private final ByteBuffer receiveByteBuffer;
    private final UnsafeBuffer receiveBuffer;
    private final ByteBuffer sendByteBuffer;
    private final UnsafeBuffer sendBuffer;
    private final boolean isTosSettable;
    private final PortStats stats = new PortStats();
    private final SelectorWait selectorWait;

    private ByteBuffer lastSentFrom;
    private ByteBuffer sentFromView;
    private ByteBuffer lastReceivedInto;
    private ByteBuffer receiveIntoView;
    private InetSocketAddress lastSource;
    private int receiveBatchBound = 1;
    private InetSocketAddress restrictedTo;
    private boolean isUnreachableReported;
    private long sendErrors;
    private long receiveErrors;
    private long emptyReceives;
    private long sendBufferFull;
    private long portUnreachable;
    private int tosEcnCodepoint;
    private long tosErrors;

    /**
     * Open a port with the same receive and send socket buffer size.
     *
     * @param bindAddress       local address to bind; port 0 picks a free port.
     * @param socketBufferBytes socket receive and send buffer size to request.
     * @return the open port.
     * @throws UncheckedIOException if the channel cannot be opened or bound.
     */
    public static NioDatagramPort open(final InetSocketAddress bindAddress, final int socketBufferBytes)
    {
        return new NioDatagramPort(bindAddress, socketBufferBytes, socketBufferBytes);
    }

    /**
     * @param bindAddress              local address to bind; port 0 picks a free port.
     * @param receiveSocketBufferBytes SO_RCVBUF to request.
     * @param sendSocketBufferBytes    SO_SNDBUF to request.
     * @throws UncheckedIOException if the channel cannot be opened or bound.
     */
    public NioDatagramPort(
        final InetSocketAddress bindAddress, final int receiveSocketBufferBytes, final int sendSocketBufferBytes)
    {
        if (bindAddress.isUnresolved())
        {
            throw new IllegalArgumentException("unresolved bind address: " + bindAddress);
        }
        if (receiveSocketBufferBytes <= 0 || sendSocketBufferBytes <= 0)
        {
            throw new IllegalArgumentException("socket buffer sizes must be positive: receive=" +
                receiveSocketBufferBytes + " send=" + sendSocketBufferBytes);
        }

        DatagramChannel openedChannel = null;
        try
        {
            // Match the family to the address so an IPv4 port gets IPv4 addresses, not IPv4-mapped IPv6 ones.
            openedChannel = DatagramChannel.open(bindAddress.getAddress() instanceof Inet6Address ?
                StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
            openedChannel.setOption(StandardSocketOptions.SO_RCVBUF, receiveSocketBufferBytes);
            openedChannel.setOption(StandardSocketOptions.SO_SNDBUF, sendSocketBufferBytes);
            openedChannel.bind(bindAddress);
            openedChannel.configureBlocking(false);

            this.receiveSocketBufferBytes = openedChannel.getOption(StandardSocketOptions.SO_RCVBUF);
            this.sendSocketBufferBytes = openedChannel.getOption(StandardSocketOptions.SO_SNDBUF);
            this.localAddress = (InetSocketAddress)openedChannel.getLocalAddress();
            this.channel = openedChannel;
            this.isTosSettable = setTos(openedChannel, 0);
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(openedChannel);
            throw new UncheckedIOException("cannot open a datagram port on " + bindAddress, ex);
        }

        receiveByteBuffer = BufferUtil.allocateDirectAligned(MAX_DATAGRAM_BYTES, BitUtil.CACHE_LINE_LENGTH);
        receiveBuffer = new UnsafeBuffer(receiveByteBuffer);
        sendByteBuffer = BufferUtil.allocateDirectAligned(MAX_DATAGRAM_BYTES, BitUtil.CACHE_LINE_LENGTH);
        sendBuffer = new UnsafeBuffer(sendByteBuffer);
        selectorWait = new SelectorWait(channel, stats);
    }

    /**
     * {@inheritDoc}
     * <p>
     * The batch's buffer holds {@link #MAX_DATAGRAM_BYTES} and {@link #RECEIVE_BYTES_PER_DATAGRAM} per datagram.
     */
    public ReceiveBatch newReceiveBatch(final int maxDatagrams)
    {
        return new ReceiveBatch(maxDatagrams, MAX_DATAGRAM_BYTES + maxDatagrams * RECEIVE_BYTES_PER_DATAGRAM);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Each datagram is read straight into the batch's buffer after the previous one while at least
     * {@link #MAX_DATAGRAM_BYTES} are free there; a receive that runs out of room ends as one that reached its bound.
     * An unreachable peer reported by the kernel counts as one.
     */
    public int receive(final ReceiveBatch batch, final int limit)
    {
        batch.clear();
        if (isUnreachableReported)
        {
            isUnreachableReported = false;
            batch.portUnreachable(restrictedTo);
        }
        final ByteBuffer into = receiveView(batch.buffer());
        final int base = batch.buffer().wrapAdjustment();
        final int capacity = batch.buffer().capacity();
        final int bound = Math.min(Math.min(limit, batch.maxDatagrams()), receiveBatchBound);
        int nextOffset = 0;
        int attempt = 0;
        for (; attempt < bound; attempt++)
        {
            if (capacity - nextOffset < MAX_DATAGRAM_BYTES)
            {
                attempt = bound; // out of room: as full as a receive that reached its bound
                break;
            }
            into.clear().limit(base + nextOffset + MAX_DATAGRAM_BYTES).position(base + nextOffset);
            final int length = read(into);
            if (length >= 0)
            {
                batch.add(nextOffset, length, lastSource, ReceiveBatch.NOT_ECT);
                nextOffset += length;
            }
            else if (UNREACHABLE == length && null != restrictedTo)
            {
                batch.portUnreachable(restrictedTo);
            }
            else if (EMPTY == length || CLOSED == length)
            {
                break;
            }
        }
        receiveBatchBound = attempt == bound ? Math.max(1, Math.min(limit, bound << 1)) : batch.size() + 1;
        return batch.size() + (null != batch.unreachablePeer() ? 1 : 0);
    }

    /**
     * {@inheritDoc}
     */
    public int receive(final DatagramHandler handler, final int limit, final long nowNs)
    {
        int count = 0;
        if (isUnreachableReported)
        {
            isUnreachableReported = false;
            handler.onPortUnreachable(restrictedTo, nowNs);
            count++;
        }
        final int bound = Math.min(limit, receiveBatchBound);
        int attempt = 0;
        for (; attempt < bound; attempt++)
        {
            receiveByteBuffer.clear();
            final int length = read(receiveByteBuffer);
            if (length >= 0)
            {
                handler.onDatagram(receiveBuffer, 0, length, lastSource, nowNs);
                count++;
            }
            else if (UNREACHABLE == length && null != restrictedTo)
            {
                handler.onPortUnreachable(restrictedTo, nowNs);
            }
            else if (EMPTY == length || CLOSED == length)
            {
                break;
            }
        }
        receiveBatchBound = attempt == bound ? Math.max(1, Math.min(limit, bound << 1)) : count + 1;
        return count;
    }

    /**
     * @return the port's channel, for a {@link PortGroupWait}.
     */
    DatagramChannel channel()
    {
        return channel;
    }

    /**
     * One read from the channel into {@code into} from its position; I/O errors are counted, never thrown.
     *
     * @return the datagram's length (its source in {@link #lastSource}), or {@link #EMPTY}, {@link #CLOSED},
     * {@link #UNREACHABLE} (the kernel reported an ICMP port unreachable for an earlier send) or {@link #FAILED}
     * (the next read may be fine).
     */
    private int read(final ByteBuffer into)
    {
        final int start = into.position();
        final SocketAddress source;
        try
        {
            source = channel.receive(into);
        }
        catch (final ClosedChannelException ex)
        {
            receiveErrors++;
            return CLOSED;
        }
        catch (final PortUnreachableException ex)
        {
            portUnreachable++;
            return UNREACHABLE;
        }
        catch (final IOException ex)
        {
            // Some platforms report an ICMP error for an earlier send here; the next datagram may be fine.
            receiveErrors++;
            return FAILED;
        }
        if (null == source)
        {
            emptyReceives++;
            return EMPTY;
        }
        lastSource = (InetSocketAddress)source;
        return into.position() - start;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if {@code length} exceeds {@link #MAX_DATAGRAM_BYTES}.
     */
    public boolean send(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
    {
        if (length > MAX_DATAGRAM_BYTES)
        {
            throw new IllegalArgumentException("datagram of " + length + " bytes exceeds " + MAX_DATAGRAM_BYTES);
        }

        if (null != restrictedTo && !restrictedTo.equals(destination))
        {
            sendErrors++;
            return false;
        }

        try
        {
            // An empty datagram also "sends 0 bytes": only a non-empty one tells that the send buffer is full.
            if (0 == channel.send(directView(buffer, offset, length), destination) && length > 0)
            {
                sendBufferFull++;
                return false;
            }
            return true;
        }
        catch (final PortUnreachableException ex)
        {
            // The kernel reports an ICMP error that arrived for an earlier datagram at the next call on the socket.
            portUnreachable++;
            isUnreachableReported = null != restrictedTo;
            return false;
        }
        catch (final IOException ex)
        {
            sendErrors++;
            return false;
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * Before a datagram whose ECN codepoint differs from the last one sent, the socket's TOS byte is set to it (DSCP
     * 0): the codepoints leave as the batch gives them, at the cost of a system call per change.
     */
    public int send(final SendBatch batch)
    {
        int sent = 0;
        for (int i = 0, size = batch.size(); i < size; i++)
        {
            final int ecnCodepoint = batch.ecnCodepoint(i);
            if (ecnCodepoint != tosEcnCodepoint && isTosSettable)
            {
                if (setTos(channel, ecnCodepoint))
                {
                    tosEcnCodepoint = ecnCodepoint;
                }
                else
                {
                    tosErrors++;
                }
            }
            if (send(batch.buffer(i), batch.offset(i), batch.length(i), batch.destination(i)))
            {
                sent++;
            }
        }
        return sent;
    }

    /**
     * {@inheritDoc}
     * <p>
     * True if the socket's TOS byte could be set when the port opened.
     */
    public boolean sendsEcn()
    {
        return isTosSettable;
    }

    /**
     * @return times setting the socket's TOS byte for a datagram's ECN codepoint failed (it left with the last one).
     */
    public long tosErrors()
    {
        return tosErrors;
    }

    private static boolean setTos(final DatagramChannel channel, final int tos)
    {
        try
        {
            channel.setOption(StandardSocketOptions.IP_TOS, tos);
            return true;
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            return false;
        }
    }

    /**
     * @return the datagram as a direct {@link ByteBuffer} between position and limit: a view of the caller's own
     * direct buffer (no copy), or the port's send buffer with a copy of a heap one.
     */
    private ByteBuffer directView(final DirectBuffer buffer, final int offset, final int length)
    {
        final ByteBuffer source = buffer.byteBuffer();
        if (null == source || !source.isDirect())
        {
            sendBuffer.putBytes(0, buffer, offset, length);
            return sendByteBuffer.clear().limit(length);
        }
        if (source != lastSentFrom)
        {
            lastSentFrom = source;
            sentFromView = source.duplicate();
        }
        final int position = buffer.wrapAdjustment() + offset;
        return sentFromView.clear().position(position).limit(position + length);
    }

    private ByteBuffer receiveView(final UnsafeBuffer buffer)
    {
        final ByteBuffer target = buffer.byteBuffer();
        if (null == target || !target.isDirect())
        {
            throw new IllegalArgumentException("a receive batch from another port: its buffer is not direct");
        }
        if (target != lastReceivedInto)
        {
            lastReceivedInto = target;
            receiveIntoView = target.duplicate();
        }
        return receiveIntoView;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Connects or disconnects the channel; the local address stays the one bound.
     */
    public boolean restrictTo(final InetSocketAddress peer)
    {
        if (null == peer ? null == restrictedTo : peer.equals(restrictedTo))
        {
            return true;
        }
        try
        {
            if (channel.isConnected())
            {
                channel.disconnect();
            }
            restrictedTo = null;
            isUnreachableReported = false;
            if (null != peer)
            {
                channel.connect(peer);
                restrictedTo = peer;
            }
            return true;
        }
        catch (final IOException | RuntimeException ex)
        {
            return false;
        }
    }

    /**
     * {@inheritDoc}
     */
    public InetSocketAddress localAddress()
    {
        return localAddress;
    }

    /**
     * @return the socket receive buffer size the operating system granted.
     */
    public int receiveSocketBufferBytes()
    {
        return receiveSocketBufferBytes;
    }

    /**
     * @return the socket send buffer size the operating system granted.
     */
    public int sendSocketBufferBytes()
    {
        return sendSocketBufferBytes;
    }

    /**
     * @return sends that failed with an I/O error (the datagram was dropped).
     */
    public long sendErrors()
    {
        return sendErrors;
    }

    /**
     * @return receives that failed with an I/O error.
     */
    public long receiveErrors()
    {
        return receiveErrors;
    }

    /**
     * @return receives that found the socket empty (one ends every batch that found fewer datagrams than its bound).
     */
    public long emptyReceives()
    {
        return emptyReceives;
    }

    /**
     * @return ICMP port-unreachable errors the kernel reported (a restricted port only).
     */
    public long portUnreachable()
    {
        return portUnreachable;
    }

    /**
     * @return sends dropped because the socket send buffer was full.
     */
    public long sendBufferFull()
    {
        return sendBufferFull;
    }

    /**
     * {@inheritDoc}
     */
    public boolean canWait()
    {
        return true;
    }

    /**
     * {@inheritDoc}
     * <p>
     * A {@link java.nio.channels.Selector} for the whole milliseconds, then a park for the rest ({@link SelectorWait}).
     */
    public int awaitReadable(final long timeoutNs)
    {
        return selectorWait.await(timeoutNs);
    }

    /**
     * {@inheritDoc}
     */
    public void wakeup()
    {
        selectorWait.wakeup();
    }

    /**
     * {@inheritDoc}
     * <p>
     * The waits, send buffer full, send and receive errors, empty receives and ICMP reports.
     */
    public PortStats stats()
    {
        stats.sendBufferFull = sendBufferFull;
        stats.sendErrors = sendErrors;
        stats.receiveErrors = receiveErrors;
        stats.emptyReceives = emptyReceives;
        stats.portUnreachable = portUnreachable;
        return stats;
    }

    /**
     * {@inheritDoc}
     */
    public String describe()
    {
        return "nio";
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        CloseHelper.quietClose(selectorWait);
        CloseHelper.quietClose(channel);
    }
}
