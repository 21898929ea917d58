package io.pacelink.transport.port;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketException;

/**
 * A {@link DatagramPort} on Linux's batched UDP system calls (docs/io.md): a {@link SendBatch} leaves in one
 * {@code sendmmsg(2)} per 64 messages, a run of equal-sized datagrams to one destination as one UDP GSO message
 * ({@code UDP_SEGMENT}, udp(7): the kernel cuts up to 64 KB into datagrams), and a {@link ReceiveBatch} fills with one
 * {@code recvmmsg(2)}, each UDP GRO super-datagram ({@code UDP_GRO}) split again by its segment size into separate
 * entries. Each datagram carries its ECN codepoint both ways ({@code IP_TOS} / {@code IPV6_TCLASS} control messages,
 * {@code IP_RECVTOS} / {@code IPV6_RECVTCLASS}), each received one the kernel's receive time ({@code SO_TIMESTAMPNS},
 * handed on as an age: {@link ReceiveBatch#arrivalTimeNs}), and {@link #awaitReadable(long)} sleeps in
 * {@code ppoll(2)} on the socket and an eventfd that {@link #wakeup()} writes.
 * <p>
 * No garbage per call: batches are described in two direct descriptor arrays the JNI shim ({@link NativeUdp}) reads
 * and writes, addresses go through {@link SocketAddressCodec}'s caches, and received datagrams land in the batch's own
 * buffer, one 64 KiB slot per message. A receive whose GRO segments do not all fit the batch keeps the rest and
 * hands it over at the next receive (into the same batch) before it reads the socket again. A receive right after one
 * that found the socket empty, with no wait in between, asks {@code recvmmsg} for one message while the last burst
 * between two empty receives was one message, the receive after it for all again (docs/io.md, "Receive").
 * <p>
 * Errors never escape, as on {@link NioDatagramPort}: a datagram that cannot be sent is counted and dropped like a
 * loss; a GSO send the route refuses ({@code EIO}: a device without checksum offload; {@code EINVAL}) turns GSO off
 * for the port and resends the run one datagram per message; a datagram longer than its slot is dropped and counted,
 * never handed on cut short. A port restricted to one peer ({@link #restrictTo}: a connected socket) learns of the
 * peer's ICMP port-unreachable from the {@code ECONNREFUSED} of a send or receive and reports it in the next batch.
 * <p>
 * A restricted port sends on the kernel's connected fast path: its messages name no destination (the socket's own
 * peer) and carry no IP-level control message while their ECN codepoint is the socket's own TOS, which follows the
 * codepoint of each batch's first datagram ({@code IP_TOS} / {@code IPV6_TCLASS}, set only when it changes). The
 * kernel then uses the route it cached at {@code connect(2)} instead of looking one up per message, as an unconnected
 * send or one with an {@code IP_TOS} control message must (Linux {@code udp_sendmsg}); a datagram with another
 * codepoint still carries its own control message.
 * <p>
 * Agent thread only, except {@link #wakeup()}.
 */
public final class BatchedDatagramPort implements DatagramPort
{
    /**
     * Room per received message: any UDP datagram, and any GRO super-datagram (at most 64 KiB).
     */
    public static final int SLOT_BYTES = 64 * 1024;

    /**
     * Most datagrams in one GSO send: Linux's {@code UDP_MAX_SEGMENTS} (64 before 6.8; more since).
     */
    public static final int MAX_GSO_SEGMENTS = 64;

    /**
     * Most bytes in one GSO send: what one IPv4 UDP datagram may carry (65,535 − 20 − 8), which bounds the
     * super-datagram too.
     */
    public static final int MAX_GSO_BYTES = 65_507;

    /**
     * Batches in a row that must start with the same codepoint before an open port makes it its socket's own TOS
     * byte: enough that peers of alternating codepoints cost at most one {@code setsockopt} per this many sends.
     */
    public static final int OPEN_PORT_ADOPTION_BATCHES = 8;

    /**
     * The agent thread's timer slack while it waits here (prctl {@code PR_SET_TIMERSLACK}): Linux lets a timed wait
     * of a normal thread end up to 50 µs late, which would make every pacing deadline late by that much.
     */
    public static final long WAIT_TIMER_SLACK_NS = 1_000;

    private static final int STAGING_BYTES = 64 * 1024;

    /**
     * Most {@code iovec}s a gathered datagram needs: the batch's bytes before its payload, the payload, the batch's
     * bytes after it.
     */
    private static final int VECTORS_PER_DATAGRAM = 3;
    private static final int SPARE_VECTORS = VECTORS_PER_DATAGRAM;

    /**
     * Whether the port takes gathered datagrams ({@link #sendsGathered()});
     * {@code -Dpacelink.port.batched.gather=false} turns it off for the whole JVM (a diagnostic: every datagram is
     * then copied whole into the send batch).
     */
    private static final boolean GATHER =
        !"false".equals(System.getProperty("pacelink.port.batched.gather", "true"));

    private final int fd;
    private final boolean ipv6Socket;
    private final int slotBytes;
    private final InetSocketAddress localAddress;
    private final int receiveSocketBufferBytes;
    private final int sendSocketBufferBytes;
    private final boolean groEnabled;
    private final boolean timestampsEnabled;
    private final SocketAddressCodec codec;
    private final PortStats stats = new PortStats();

    private final UnsafeBuffer sendDescriptors;
    private final long sendDescriptorsAddress;
    private final int[] messageFirst = new int[NativeUdp.MAX_BATCH];
    private final int[] messageDatagrams = new int[NativeUdp.MAX_BATCH];
    /**
     * The {@code iovec}s of one {@code sendmmsg}'s gathered messages ({@link SendBatch#commitGathered}), the first
     * {@link #SPARE_VECTORS} for the spare descriptor slot; made for the first batch with gathered datagrams and
     * again only for a larger one.
     */
    private UnsafeBuffer vectors;
    private int vectorCapacity;
    private int vectorCount;
    private int messageVectorStart;
    private final UnsafeBuffer receiveDescriptors;
    private final long receiveDescriptorsAddress;
    private final UnsafeBuffer receiveHeaders;
    private final long receiveHeadersAddress;
    /**
     * The receive buffer and message count the kept {@code recvmmsg} headers were built for
     * ({@link NativeUdp#prepareReceive}): an endpoint receives into one batch, so they are built once.
     */
    private long preparedBufferAddress;
    private int preparedSlots;
    private final UnsafeBuffer staging;
    private final UnsafeBuffer name;

    private int eventFd;
    /**
     * The wait's deadline timer ({@link NativeUdp#await}), −1 where {@code timerfd_create} failed: then each wait's
     * {@code ppoll} takes its timeout.
     */
    private int timerFd;
    private final UnsafeBuffer timerState;
    private final long timerStateAddress;
    private boolean isClosed;
    private boolean gsoEnabled;
    /**
     * {@link #sendsGathered()}: GSO off from the start (and {@link #GATHER}).
     */
    private boolean gathersSends;
    private String gsoOffReason;
    private InetSocketAddress restrictedTo;
    /**
     * The TOS byte the socket sends with when a message carries no control message for it: 0 (not-ECT) until a
     * restricted port's batch, or {@link #OPEN_PORT_ADOPTION_BATCHES} of an open port's in a row, ask for another
     * ({@link #adoptTos}, {@link #followTos}).
     */
    private int socketTos;
    /**
     * An open port: the codepoint other than the socket's own that the last batches started with, and how many in a
     * row ({@link #followTos}).
     */
    private int candidateEcn = -1;
    private int candidateBatches;
    private boolean isUnreachableReported;
    private Thread slackSetFor;
    private boolean isKnownEmpty;
    private boolean isLastReceiveDrained;
    /**
     * The last {@code recvmmsg} found the socket empty and no wait has happened since: the next one may ask for one
     * message ({@link #receive(ReceiveBatch, int)}).
     */
    private boolean isAfterEmptyReceive;
    /**
     * Messages the receives since the last empty one read (up to 64: only one or more matters): the burst in
     * progress.
     */
    private int burstMessages;
    /**
     * The last burst between two empty receives was one message (or none has been seen): the traffic is lone
     * arrivals, requests and responses, and a receive after an empty one asks for one message.
     */
    private boolean isLoneArrivalTraffic = true;

    private ReceiveBatch handlerBatch;
    private ReceiveBatch pendingBatch;
    private int pendingMessages;
    private int pendingIndex;
    private int pendingSegmentOffset;

    private SendBatch singleBatch;

    /**
     * Open a port with the same receive and send socket buffer size.
     *
     * @param bindAddress       local address to bind; port 0 picks a free port.
     * @param socketBufferBytes socket receive and send buffer size to request.
     * @param gso               true to send runs of equal-sized datagrams as UDP GSO messages.
     * @return the open port.
     * @throws IllegalStateException saying why if the native library is unavailable (see {@link #support()}).
     * @throws UncheckedIOException  if the socket cannot be opened or bound.
     */
    public static BatchedDatagramPort open(
        final InetSocketAddress bindAddress, final int socketBufferBytes, final boolean gso)
    {
        return open(bindAddress, socketBufferBytes, gso, true);
    }

    /**
     * Open a port with the same receive and send socket buffer size, choosing whether it asks the kernel for each
     * datagram's receive time ({@code SO_TIMESTAMPNS}): while any socket on the host asks, Linux stamps every packet
     * it receives, on loopback inside the sending thread's own send call ({@code PacelinkContext#kernelReceiveTimes}).
     *
     * @param bindAddress        local address to bind; port 0 picks a free port.
     * @param socketBufferBytes  socket receive and send buffer size to request.
     * @param gso                true to send runs of equal-sized datagrams as UDP GSO messages.
     * @param kernelReceiveTimes true to hand each received datagram on with its age
     *                           ({@link ReceiveBatch#arrivalTimeNs}).
     * @return the open port.
     * @throws IllegalStateException saying why if the native library is unavailable (see {@link #support()}).
     * @throws UncheckedIOException  if the socket cannot be opened or bound.
     */
    public static BatchedDatagramPort open(
        final InetSocketAddress bindAddress,
        final int socketBufferBytes,
        final boolean gso,
        final boolean kernelReceiveTimes)
    {
        return new BatchedDatagramPort(
            bindAddress, socketBufferBytes, socketBufferBytes, gso, SLOT_BYTES, kernelReceiveTimes);
    }

    /**
     * @return whether this machine runs the batched port, probed once per JVM ({@link BatchedPortSupport}).
     */
    public static BatchedPortSupport support()
    {
        return BatchedPortSupport.current();
    }

    /**
     * @param bindAddress              local address to bind; port 0 picks a free port.
     * @param receiveSocketBufferBytes SO_RCVBUF to request.
     * @param sendSocketBufferBytes    SO_SNDBUF to request.
     * @param gso                      true to use UDP GSO where the kernel allows.
     * @param slotBytes                room per received message (tests give less to provoke truncation).
     */
    BatchedDatagramPort(
        final InetSocketAddress bindAddress,
        final int receiveSocketBufferBytes,
        final int sendSocketBufferBytes,
        final boolean gso,
        final int slotBytes)
    {
        this(bindAddress, receiveSocketBufferBytes, sendSocketBufferBytes, gso, slotBytes, true);
    }

    /**
     * @param bindAddress              local address to bind; port 0 picks a free port.
     * @param receiveSocketBufferBytes SO_RCVBUF to request.
     * @param sendSocketBufferBytes    SO_SNDBUF to request.
     * @param gso                      true to use UDP GSO where the kernel allows.
     * @param slotBytes                room per received message (tests give less to provoke truncation).
     * @param kernelReceiveTimes       true to ask for each datagram's kernel receive time ({@code SO_TIMESTAMPNS}).
     */
    BatchedDatagramPort(
        final InetSocketAddress bindAddress,
        final int receiveSocketBufferBytes,
        final int sendSocketBufferBytes,
        final boolean gso,
        final int slotBytes,
        final boolean kernelReceiveTimes)
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
        NativeLibrary.load();
        this.ipv6Socket = bindAddress.getAddress() instanceof Inet6Address;
        this.slotBytes = slotBytes;
        this.codec = new SocketAddressCodec(ipv6Socket);
        sendDescriptors = newDirect((NativeUdp.MAX_BATCH + 1) * NativeUdp.SEND_STRIDE);
        sendDescriptorsAddress = sendDescriptors.addressOffset();
        receiveDescriptors = newDirect(NativeUdp.MAX_BATCH * NativeUdp.RECEIVE_STRIDE);
        receiveDescriptorsAddress = receiveDescriptors.addressOffset();
        receiveHeaders = newDirect(NativeUdp.RECEIVE_HEADERS_BYTES);
        receiveHeadersAddress = receiveHeaders.addressOffset();
        staging = newDirect(STAGING_BYTES);
        name = newDirect(SocketAddressCodec.SOCKADDR_IN6_LENGTH);
        timerState = newDirect(NativeUdp.AWAIT_TIMER_STATE_BYTES);
        timerStateAddress = timerState.addressOffset();

        final int socket = NativeUdp.open(ipv6Socket, receiveSocketBufferBytes, sendSocketBufferBytes);
        if (socket < 0)
        {
            throw ioFailure("cannot open a UDP socket for " + bindAddress, socket);
        }
        fd = socket;
        try
        {
            final int nameLength = codec.encode(bindAddress, name, 0);
            final int bound = NativeUdp.bind(fd, name.addressOffset(), nameLength);
            if (bound < 0)
            {
                // A BindException with the reason only, as NIO's bind throws: callers name the address they tried
                // ("cannot listen on ...") and recognise a taken port by the exception's type on either port.
                throw new UncheckedIOException(new BindException(NativeUdp.describe(bound)));
            }
            final int localLength = NativeUdp.localAddress(fd, name.addressOffset());
            if (localLength < 0)
            {
                throw ioFailure("cannot read the local address of " + bindAddress, localLength);
            }
            localAddress = codec.decode(name, 0, localLength);
            this.receiveSocketBufferBytes = NativeUdp.socketBufferBytes(fd, true);
            this.sendSocketBufferBytes = NativeUdp.socketBufferBytes(fd, false);
            groEnabled = 0 == NativeUdp.enableGro(fd);
            timestampsEnabled = kernelReceiveTimes && 0 == NativeUdp.enableTimestamps(fd);
            gsoEnabled = gso;
            gsoOffReason = gso ? null : "turned off";
            gathersSends = GATHER && !gso;
            eventFd = NativeUdp.eventFd();
            if (eventFd < 0)
            {
                throw ioFailure("cannot create an eventfd for the port's wake-ups", eventFd);
            }
            // Without a timerfd (a sandbox that forbids it) every wait's ppoll takes its timeout, as it did before.
            timerFd = Math.max(-1, NativeUdp.timerFd());
        }
        catch (final RuntimeException ex)
        {
            NativeUdp.close(fd);
            throw ex;
        }
    }

    private static UnsafeBuffer newDirect(final int bytes)
    {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            BitUtil.align(bytes, BitUtil.CACHE_LINE_LENGTH), BitUtil.CACHE_LINE_LENGTH));
    }

    private static UncheckedIOException ioFailure(final String what, final int result)
    {
        return new UncheckedIOException(new SocketException(what + ": " + NativeUdp.describe(result)));
    }

    // ---------------------------------------------------------------- receive

    /**
     * {@inheritDoc}
     * <p>
     * One message per {@link #SLOT_BYTES} of the batch's buffer, so the batch needs
     * {@code min(maxDatagrams, 64) * SLOT_BYTES} bytes.
     */
    public ReceiveBatch newReceiveBatch(final int maxDatagrams)
    {
        return new ReceiveBatch(maxDatagrams, Math.min(maxDatagrams, NativeUdp.MAX_BATCH) * slotBytes);
    }

    /**
     * {@inheritDoc}
     */
    public int receive(final ReceiveBatch batch, final int limit)
    {
        batch.clear();
        if (isUnreachableReported)
        {
            isUnreachableReported = false;
            batch.portUnreachable(restrictedTo);
        }
        final int maxEntries = Math.min(limit, batch.maxDatagrams());
        final boolean wasKnownEmpty = isKnownEmpty;
        isKnownEmpty = false;
        if (pendingIndex < pendingMessages)
        {
            if (batch == pendingBatch)
            {
                handOver(batch, maxEntries);
                return batch.size();
            }
            // The rest of the last receive lies in another batch's memory: it cannot be handed over any more.
            stats.truncatedDropped += pendingMessages - pendingIndex;
            pendingMessages = 0;
        }
        // A receive reads the socket, or is skipped once: either way the next hint must wait for another read.
        isLastReceiveDrained = false;
        if (wasKnownEmpty)
        {
            // The wait just before this receive ended with nothing to read on the socket (its timeout, or only the
            // application's wake-up): a recvmmsg now would almost always come back empty. A datagram that arrived
            // since stays in the socket, where the next wait sees it at once (poll is level-triggered).
            stats.skippedReceives++;
            return batch.size();
        }
        // Right after a receive that found the socket empty, with no wait in between (a busy-spinning loop), in
        // traffic whose last burst was one message (requests and responses), what arrives next is most often one
        // datagram: asking for up to 64 would make the kernel copy in the second header and look at the socket
        // again after it, only to stop at EAGAIN (Linux do_recvmmsg), on the path of every such arrival. So that
        // receive asks for one; a burst behind it is read by the next receive, which asks for all, and turns the
        // rule off until a burst of one message again. A wait that saw the socket readable is followed by a whole
        // receive, which can then tell that it drained the socket (skipReceiveIfDrained). One message is read by
        // recvmsg, not recvmmsg: the same read, without do_recvmmsg's loop around it (the native shim).
        final int bound = isAfterEmptyReceive && isLoneArrivalTraffic ? 1 : NativeUdp.MAX_BATCH;
        final int slots = Math.min(Math.min(maxEntries, bound), batch.buffer().capacity() / slotBytes);
        if (slots <= 0)
        {
            return batch.size();
        }
        final long bufferAddress = batch.buffer().addressOffset();
        if (bufferAddress != preparedBufferAddress || slots > preparedSlots)
        {
            preparedSlots = NativeUdp.prepareReceive(receiveHeadersAddress, receiveDescriptorsAddress,
                Math.min(NativeUdp.MAX_BATCH, batch.buffer().capacity() / slotBytes), bufferAddress, slotBytes);
            preparedBufferAddress = bufferAddress;
        }
        stats.receiveCalls++;
        final int received = NativeUdp.receive(fd, receiveHeadersAddress, receiveDescriptorsAddress, slots);
        isAfterEmptyReceive = -NativeUdp.EAGAIN == received || 0 == received;
        if (isAfterEmptyReceive && burstMessages > 0)
        {
            isLoneArrivalTraffic = 1 == burstMessages;
            burstMessages = 0;
        }
        if (received <= 0)
        {
            isLastReceiveDrained = isAfterEmptyReceive;
            onReceiveFailure(batch, received);
            return batch.size();
        }
        isLastReceiveDrained = received < slots;
        burstMessages = Math.min(burstMessages + received, NativeUdp.MAX_BATCH); // one, or more: no overflow
        pendingBatch = batch;
        pendingMessages = received;
        pendingIndex = 0;
        pendingSegmentOffset = 0;
        handOver(batch, maxEntries);
        return batch.size();
    }

    private void onReceiveFailure(final ReceiveBatch batch, final int result)
    {
        if (-NativeUdp.EAGAIN == result || 0 == result)
        {
            stats.emptyReceives++;
        }
        else if (-NativeUdp.ECONNREFUSED == result)
        {
            // An ICMP port unreachable for an earlier datagram (udp(7): reported to connected sockets only).
            stats.portUnreachable++;
            if (null != restrictedTo)
            {
                batch.portUnreachable(restrictedTo);
            }
        }
        else
        {
            stats.receiveErrors++;
        }
    }

    /**
     * Add the received messages to the batch, splitting GRO super-datagrams, until it is full or holds
     * {@code maxEntries}; what does not fit stays pending.
     */
    private void handOver(final ReceiveBatch batch, final int maxEntries)
    {
        while (pendingIndex < pendingMessages)
        {
            final int descriptor = pendingIndex * NativeUdp.RECEIVE_STRIDE;
            final int length = receiveDescriptors.getInt(descriptor + NativeUdp.RECEIVE_LENGTH);
            final int flags = receiveDescriptors.getInt(descriptor + NativeUdp.RECEIVE_FLAGS);
            final int segmentBytes = receiveDescriptors.getInt(descriptor + NativeUdp.RECEIVE_SEGMENT_SIZE);
            if (0 != (flags & NativeUdp.FLAG_TRUNCATED) || length > slotBytes || length < 0)
            {
                stats.truncatedDropped++;
                nextMessage();
                continue;
            }
            final InetSocketAddress source = codec.decode(receiveDescriptors, descriptor + NativeUdp.RECEIVE_NAME,
                receiveDescriptors.getInt(descriptor + NativeUdp.RECEIVE_NAME_LENGTH));
            if (null == source)
            {
                stats.receiveErrors++;
                nextMessage();
                continue;
            }
            final int tos = receiveDescriptors.getInt(descriptor + NativeUdp.RECEIVE_TOS);
            final int ecn = tos < 0 ? ReceiveBatch.NOT_ECT : tos & 0x3;
            final long ageNs = receiveDescriptors.getLong(descriptor + NativeUdp.RECEIVE_AGE_NS);
            final int slotOffset = pendingIndex * slotBytes;
            if (segmentBytes <= 0 || segmentBytes >= length)
            {
                if (batch.size() >= maxEntries || batch.isFull())
                {
                    return;
                }
                batch.add(slotOffset, length, source, ecn, ageNs);
                stats.datagramsReceived++;
                countArrivalAge(ageNs);
                nextMessage();
                continue;
            }
            if (0 == pendingSegmentOffset)
            {
                stats.groSuperDatagrams++;
            }
            for (int offset = pendingSegmentOffset; offset < length; offset += segmentBytes)
            {
                if (batch.size() >= maxEntries || batch.isFull())
                {
                    pendingSegmentOffset = offset;
                    return;
                }
                batch.add(slotOffset + offset, Math.min(segmentBytes, length - offset), source, ecn, ageNs);
                stats.datagramsReceived++;
                if (0 == offset)
                {
                    countArrivalAge(ageNs);
                }
            }
            nextMessage();
        }
    }

    private void countArrivalAge(final long ageNs)
    {
        if (ageNs >= 0 && ageNs <= ReceiveBatch.MAX_ARRIVAL_AGE_NS)
        {
            stats.timestampedDatagrams++;
            stats.arrivalAgeTotalNs += ageNs;
        }
    }

    private void nextMessage()
    {
        pendingIndex++;
        pendingSegmentOffset = 0;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Receives into a batch of the port's own (allocated at the first call) and hands each entry on.
     */
    public int receive(final DatagramHandler handler, final int limit, final long nowNs)
    {
        if (null == handlerBatch)
        {
            handlerBatch = newReceiveBatch(NativeUdp.MAX_BATCH);
        }
        final ReceiveBatch batch = handlerBatch;
        receive(batch, Math.min(limit, NativeUdp.MAX_BATCH));
        int count = 0;
        if (null != batch.unreachablePeer())
        {
            handler.onPortUnreachable(batch.unreachablePeer(), nowNs);
            count++;
        }
        final UnsafeBuffer buffer = batch.buffer();
        for (int i = 0, size = batch.size(); i < size; i++)
        {
            handler.onDatagram(buffer, batch.offset(i), batch.length(i), batch.source(i), nowNs);
            count++;
        }
        return count;
    }

    // ---------------------------------------------------------------- send

    /**
     * {@inheritDoc}
     */
    public int send(final SendBatch batch)
    {
        final int size = batch.size();
        if (size > 0)
        {
            if (null != restrictedTo)
            {
                adoptTos(batch.ecnCodepoint(0));
            }
            else
            {
                followTos(batch.ecnCodepoint(0));
            }
        }
        final long bufferAddress = batch.buffer().addressOffset();
        if (batch.hasGathered())
        {
            ensureVectors(SPARE_VECTORS + VECTORS_PER_DATAGRAM * size);
        }
        int sent = 0;
        int index = 0;
        while (index < size)
        {
            int messages = 0;
            vectorCount = SPARE_VECTORS;
            while (index < size && messages < NativeUdp.MAX_BATCH)
            {
                final int datagrams = gsoEnabled ? gsoRun(batch, index) : 1;
                if (describeRun(messages, batch, bufferAddress, index, datagrams))
                {
                    messageFirst[messages] = index;
                    messageDatagrams[messages] = datagrams;
                    messages++;
                }
                else
                {
                    stats.sendErrors += datagrams;
                }
                index += datagrams;
            }
            sent += sendDescribed(messages, batch, bufferAddress);
        }
        return sent;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if {@code length} exceeds 64 KiB.
     */
    public boolean send(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
    {
        if (length > STAGING_BYTES)
        {
            throw new IllegalArgumentException("datagram of " + length + " bytes exceeds " + STAGING_BYTES);
        }
        final long address;
        if (null == buffer.byteArray())
        {
            address = buffer.addressOffset() + offset;
        }
        else
        {
            staging.putBytes(0, buffer, offset, length);
            address = staging.addressOffset();
        }
        if (!describe(0, address, length, 0, ReceiveBatch.NOT_ECT, destination, 0, 0))
        {
            stats.sendErrors++;
            return false;
        }
        messageFirst[0] = 0;
        messageDatagrams[0] = 1;
        return 1 == sendDescribed(1, null, 0);
    }

    /**
     * @return how many datagrams from {@code first} can leave as one GSO message: equal lengths, back to back, to
     * one destination with one codepoint; the last may be shorter (udp(7)).
     */
    private static int gsoRun(final SendBatch batch, final int first)
    {
        final int segmentBytes = batch.length(first);
        if (0 == segmentBytes)
        {
            return 1;
        }
        final InetSocketAddress destination = batch.destination(first);
        final int ecn = batch.ecnCodepoint(first);
        int count = 1;
        int totalBytes = segmentBytes;
        for (int i = first + 1, size = batch.size(); i < size && count < MAX_GSO_SEGMENTS; i++)
        {
            final int length = batch.length(i);
            final InetSocketAddress to = batch.destination(i);
            if (length > segmentBytes || 0 == length || totalBytes + length > MAX_GSO_BYTES ||
                batch.offset(i) != batch.offset(i - 1) + batch.batchBytes(i - 1) ||
                batch.ecnCodepoint(i) != ecn || (to != destination && !destination.equals(to)))
            {
                break;
            }
            count++;
            totalBytes += length;
            if (length < segmentBytes)
            {
                break;
            }
        }
        return count;
    }

    /**
     * Make the socket's own TOS byte the codepoint {@code ecn}'s, if it is not already, so a restricted port's
     * datagrams with that codepoint need no control message; if the kernel refuses, they keep carrying one.
     */
    private void adoptTos(final int ecn)
    {
        final int tos = tosOf(ecn);
        if (tos != socketTos && 0 == NativeUdp.setTos(fd, ipv6Socket, tos))
        {
            socketTos = tos;
            stats.tosChanges++;
        }
    }

    /**
     * An open port makes a codepoint its socket's own TOS once {@link #OPEN_PORT_ADOPTION_BATCHES} batches in a row
     * started with it: then a lone datagram with it (an answer, an ACK) carries no control message and goes by
     * {@code sendto(2)}, without the message header and iovec copied in and the {@code IP_TOS} control message parsed
     * (perf/FINDINGS.md, branch lat22). Datagrams with another codepoint carry their own, as before; a server whose
     * peers' codepoints alternate changes the socket's TOS at most once per that many batches.
     */
    private void followTos(final int ecn)
    {
        final int tos = tosOf(ecn);
        if (tos == socketTos)
        {
            candidateBatches = 0;
            return;
        }
        if (tos != candidateEcn)
        {
            candidateEcn = tos;
            candidateBatches = 0;
        }
        if (++candidateBatches >= OPEN_PORT_ADOPTION_BATCHES)
        {
            candidateBatches = 0;
            adoptTos(ecn);
        }
    }

    private static int tosOf(final int ecn)
    {
        return ReceiveBatch.NOT_ECT == ecn ? 0 : ecn & 0x3;
    }

    private static int runBytes(final SendBatch batch, final int first, final int datagrams)
    {
        final int last = first + datagrams - 1;
        return batch.offset(last) + batch.length(last) - batch.offset(first);
    }

    /**
     * Write the descriptor of message {@code slot}: the run of {@code datagrams} from {@code first}, one GSO message
     * if more than one. A run with a gathered datagram is described by {@code iovec}s from {@link #vectorCount}
     * on, which it advances.
     *
     * @return false if it cannot go to that destination.
     */
    private boolean describeRun(
        final int slot, final SendBatch batch, final long bufferAddress, final int first, final int datagrams)
    {
        final int segmentBytes = datagrams > 1 ? batch.length(first) : 0;
        final int ecn = batch.ecnCodepoint(first);
        final InetSocketAddress destination = batch.destination(first);
        if (!batch.hasGathered())
        {
            return describe(slot, bufferAddress + batch.offset(first), runBytes(batch, first, datagrams), segmentBytes,
                ecn, destination, 0, 0);
        }
        // Each datagram from its parts: the batch's bytes before the payload, the payload where it lies, the batch's
        // bytes after it; one datagram's trailer and the next one's header are adjacent in the batch, one vector.
        messageVectorStart = vectorCount;
        int lengthBytes = 0;
        for (int i = first; i < first + datagrams; i++)
        {
            final long address = bufferAddress + batch.offset(i);
            final int payloadLength = batch.payloadLength(i);
            if (payloadLength > 0)
            {
                final int before = batch.payloadAt(i);
                addVector(address, before);
                addVector(batch.payloadAddress(i), payloadLength);
                addVector(address + before, batch.batchBytes(i) - before);
            }
            else
            {
                addVector(address, batch.length(i));
            }
            lengthBytes += batch.length(i);
        }
        return describe(slot, bufferAddress + batch.offset(first), lengthBytes, segmentBytes, ecn, destination,
            vectors.addressOffset() + (long)messageVectorStart * NativeUdp.IOVEC_BYTES,
            vectorCount - messageVectorStart);
    }

    private void addVector(final long address, final int length)
    {
        if (0 == length)
        {
            return;
        }
        if (vectorCount > messageVectorStart)
        {
            final int last = (vectorCount - 1) * NativeUdp.IOVEC_BYTES;
            final long lastLength = vectors.getLong(last + NativeUdp.IOVEC_LENGTH);
            if (vectors.getLong(last) + lastLength == address)
            {
                vectors.putLong(last + NativeUdp.IOVEC_LENGTH, lastLength + length);
                return;
            }
        }
        final int at = vectorCount * NativeUdp.IOVEC_BYTES;
        vectors.putLong(at, address);
        vectors.putLong(at + NativeUdp.IOVEC_LENGTH, length);
        vectorCount++;
    }

    private void ensureVectors(final int count)
    {
        if (count > vectorCapacity)
        {
            vectors = newDirect(count * NativeUdp.IOVEC_BYTES);
            vectorCapacity = count;
        }
    }

    /**
     * Write message {@code slot}'s descriptor.
     *
     * @return false if it cannot go to that destination (another than the restricted peer, or another family).
     */
    private boolean describe(
        final int slot,
        final long address,
        final int length,
        final int segmentBytes,
        final int ecn,
        final InetSocketAddress destination,
        final long vectorsAddress,
        final int vectorsCount)
    {
        final boolean isRestricted = null != restrictedTo;
        if (isRestricted && restrictedTo != destination && !restrictedTo.equals(destination))
        {
            return false;
        }
        final int descriptor = slot * NativeUdp.SEND_STRIDE;
        // Encoded even for a restricted port, which names no destination: the shim reads the family from it.
        final int nameLength = codec.encode(destination, sendDescriptors, descriptor + NativeUdp.SEND_NAME);
        if (nameLength < 0)
        {
            return false;
        }
        sendDescriptors.putLong(descriptor + NativeUdp.SEND_ADDRESS, address);
        sendDescriptors.putInt(descriptor + NativeUdp.SEND_LENGTH, length);
        sendDescriptors.putInt(descriptor + NativeUdp.SEND_SEGMENT_SIZE, segmentBytes);
        // The socket's own TOS needs no control message.
        final int tos = tosOf(ecn);
        sendDescriptors.putInt(descriptor + NativeUdp.SEND_TOS, tos == socketTos ? -1 : tos);
        sendDescriptors.putInt(descriptor + NativeUdp.SEND_NAME_LENGTH, isRestricted ? 0 : nameLength);
        sendDescriptors.putInt(descriptor + NativeUdp.SEND_VECTOR_COUNT, vectorsCount);
        sendDescriptors.putLong(descriptor + NativeUdp.SEND_VECTORS, vectorsAddress);
        return true;
    }

    /**
     * Send the described messages, going on past a message the kernel refuses and stopping at a full send buffer.
     *
     * @return datagrams sent.
     */
    private int sendDescribed(final int messages, final SendBatch batch, final long bufferAddress)
    {
        int sent = 0;
        int next = 0;
        while (next < messages)
        {
            stats.sendCalls++;
            final int result = NativeUdp.send(
                fd, sendDescriptorsAddress + (long)next * NativeUdp.SEND_STRIDE, messages - next);
            if (result > 0)
            {
                for (int i = next; i < next + result; i++)
                {
                    sent += messageDatagrams[i];
                    if (messageDatagrams[i] > 1)
                    {
                        stats.gsoSends++;
                    }
                }
                next += result;
                continue;
            }
            if (-NativeUdp.EAGAIN == result || -NativeUdp.ENOBUFS == result || 0 == result)
            {
                for (int i = next; i < messages; i++)
                {
                    stats.sendBufferFull += messageDatagrams[i];
                }
                break;
            }
            if (-NativeUdp.ECONNREFUSED == result)
            {
                // The kernel reports an ICMP error that arrived for an earlier datagram at the next call.
                stats.portUnreachable++;
                isUnreachableReported = null != restrictedTo;
                stats.sendErrors += messageDatagrams[next];
            }
            else if (messageDatagrams[next] > 1 && isGsoRefusal(result))
            {
                gsoEnabled = false;
                gsoOffReason = "the kernel refused a GSO send: " + NativeUdp.describe(result);
                sent += sendOneByOne(batch, bufferAddress, messageFirst[next], messageDatagrams[next]);
            }
            else
            {
                stats.sendErrors += messageDatagrams[next];
            }
            next++;
        }
        stats.datagramsSent += sent;
        return sent;
    }

    private static boolean isGsoRefusal(final int result)
    {
        return -NativeUdp.EIO == result || -NativeUdp.EINVAL == result || -NativeUdp.EOPNOTSUPP == result ||
            -NativeUdp.ENOPROTOOPT == result;
    }

    /**
     * Resend a GSO run that the kernel refused, one datagram per message, through the spare descriptor slot.
     */
    private int sendOneByOne(final SendBatch batch, final long bufferAddress, final int first, final int datagrams)
    {
        final int spare = NativeUdp.MAX_BATCH;
        final long spareAddress = sendDescriptorsAddress + (long)spare * NativeUdp.SEND_STRIDE;
        int sent = 0;
        for (int i = first; i < first + datagrams; i++)
        {
            vectorCount = 0;
            if (!describeRun(spare, batch, bufferAddress, i, 1))
            {
                stats.sendErrors++;
                continue;
            }
            stats.sendCalls++;
            final int result = NativeUdp.send(fd, spareAddress, 1);
            if (1 == result)
            {
                sent++;
            }
            else if (-NativeUdp.EAGAIN == result || -NativeUdp.ENOBUFS == result)
            {
                stats.sendBufferFull += first + datagrams - i;
                break;
            }
            else
            {
                stats.sendErrors++;
            }
        }
        return sent;
    }

    // ---------------------------------------------------------------- peer, wait, state

    /**
     * {@inheritDoc}
     * <p>
     * Connects or disconnects the socket ({@code connect(2)}, {@code AF_UNSPEC}); the local address stays.
     */
    public boolean restrictTo(final InetSocketAddress peer)
    {
        if (null == peer ? null == restrictedTo : peer.equals(restrictedTo))
        {
            return true;
        }
        if (null == peer)
        {
            restrictedTo = null;
            isUnreachableReported = false;
            return 0 == NativeUdp.connect(fd, 0, 0) && keepsLocalPort();
        }
        final int nameLength = codec.encode(peer, name, 0);
        if (nameLength < 0 || NativeUdp.connect(fd, name.addressOffset(), nameLength) < 0)
        {
            return false;
        }
        restrictedTo = peer;
        isUnreachableReported = false;
        return true;
    }

    /**
     * @return the socket's descriptor, for a {@link PortGroupWait}; −1 once the port is closed.
     */
    int socketFd()
    {
        return isClosed ? -1 : fd;
    }

    /**
     * A socket bound to port 0 loses the port the kernel gave it when it is disconnected (Linux
     * {@code __udp_disconnect} unhashes a socket whose port the application did not choose), and its next send would
     * leave from another: its peers would see it move. It is bound again to the port it had, as the JDK's
     * {@code DatagramChannel.disconnect} does on Linux.
     *
     * @return false if the port was lost and cannot be bound again.
     */
    private boolean keepsLocalPort()
    {
        final int length = NativeUdp.localAddress(fd, name.addressOffset());
        if (length > 0 && codec.decode(name, 0, length).getPort() == localAddress.getPort())
        {
            return true;
        }
        final int nameLength = codec.encode(localAddress, name, 0);
        return nameLength > 0 && 0 == NativeUdp.bind(fd, name.addressOffset(), nameLength);
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
     * {@code ppoll(2)} without a timeout on the socket, the wake-up eventfd and a timerfd whose expiry is the
     * deadline ({@link NativeUdp#await}): the timerfd stays armed across waits and is set again only when a deadline
     * is earlier than its expiry or that has passed, so a wake-up by a datagram neither arms nor cancels a timer (a
     * {@code ppoll} timeout does both on every sleep, which costs a KVM guest's timer 3 µs a round trip:
     * perf/FINDINGS.md). Where no timerfd could be created, or for a timeout of 0, the {@code ppoll} takes the
     * timeout; the first wait on a thread sets its timer slack to {@link #WAIT_TIMER_SLACK_NS}. A wait that ends
     * with nothing to read on the socket (its timeout, or a wake-up alone) spares the next
     * {@link #receive(ReceiveBatch, int)} its {@code recvmmsg}, which would find nothing
     * ({@link PortStats#skippedReceives()}).
     */
    public int awaitReadable(final long timeoutNs)
    {
        if (isClosed)
        {
            return 0;
        }
        setTimerSlack();
        final int result = NativeUdp.await(fd, eventFd, timerFd, timerStateAddress, Math.max(0, timeoutNs));
        isAfterEmptyReceive = false;
        isKnownEmpty = result >= 0 && 0 == (result & (NativeUdp.AWAIT_READABLE | NativeUdp.AWAIT_INTERRUPTED));
        return stats.onWait(Math.max(0, result) & (READABLE | WOKEN));
    }

    /**
     * {@inheritDoc}
     * <p>
     * Counted as a skipped receive ({@link PortStats#skippedReceives()}) when it spares one.
     */
    public void skipReceiveIfDrained()
    {
        if (isLastReceiveDrained && pendingIndex >= pendingMessages)
        {
            isKnownEmpty = true;
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * {@code ppoll(2)} on the eventfd alone (the socket's entry is given as −1, which poll ignores).
     */
    public int awaitWakeup(final long timeoutNs)
    {
        if (isClosed)
        {
            return 0;
        }
        setTimerSlack();
        final int result = NativeUdp.await(-1, eventFd, timerFd, timerStateAddress, Math.max(0, timeoutNs));
        // The socket was not polled: arrivals were held in it on purpose, so the next receive must look, for all.
        isKnownEmpty = false;
        isAfterEmptyReceive = false;
        return stats.onWait(Math.max(0, result) & (READABLE | WOKEN));
    }

    /**
     * @return how many times the waits set the deadline timer ({@code timerfd_settime}); 0 without one.
     */
    long deadlineTimerSettings()
    {
        return timerState.getLong(8);
    }

    /**
     * @return whether the waits keep their deadline in a timerfd (false: {@code ppoll} takes each timeout).
     */
    boolean hasDeadlineTimer()
    {
        return timerFd >= 0;
    }

    /**
     * Closes the deadline timer, as if {@code timerfd_create} had failed: tests of the fallback, where each wait's
     * {@code ppoll} takes its timeout.
     */
    void closeDeadlineTimer()
    {
        if (timerFd >= 0)
        {
            NativeUdp.close(timerFd);
            timerFd = -1;
        }
    }

    private void setTimerSlack()
    {
        final Thread thread = Thread.currentThread();
        if (thread != slackSetFor)
        {
            slackSetFor = thread;
            NativeUdp.setTimerSlackNs(WAIT_TIMER_SLACK_NS);
        }
    }

    /**
     * {@inheritDoc}
     */
    public synchronized void wakeup()
    {
        // Synchronized with close: the eventfd's number must not be written after it was closed and reused.
        if (eventFd >= 0)
        {
            NativeUdp.wakeup(eventFd);
        }
    }

    /**
     * {@inheritDoc}
     */
    public PortStats stats()
    {
        return stats;
    }

    /**
     * {@inheritDoc}
     */
    public boolean carriesEcn()
    {
        return true;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Gathered datagrams leave as {@code iovec}s: the kernel copies the payload from where it lies, once, as it
     * copies any message ({@code sendmmsg(2)}). Only on a port whose GSO is off from the start: a GSO message of 44
     * datagrams gathered from ~89 vectors, its payloads read by the kernel from the send log instead of from the
     * batch the CPU had just written, measured slower than the copy (perf/FINDINGS.md, branch bulk19), while with
     * GSO off the per-datagram system call's copy is the same either way and the gather saves the copy into the
     * batch (branch bulk23). A port that turns GSO off later (a route that refuses it) keeps copying.
     */
    public boolean sendsGathered()
    {
        return gathersSends;
    }

    /**
     * {@inheritDoc}
     */
    public String describe()
    {
        return "batched (sendmmsg/recvmmsg, GSO " + (gsoEnabled ? "on" : "off: " + gsoOffReason) + ", GRO " +
            (groEnabled ? "on" : "off") + ")";
    }

    /**
     * @return true while runs of equal-sized datagrams leave as UDP GSO messages.
     */
    public boolean isGsoEnabled()
    {
        return gsoEnabled;
    }

    /**
     * @return true if the kernel coalesces arriving datagrams (UDP GRO) for this socket.
     */
    public boolean isGroEnabled()
    {
        return groEnabled;
    }

    /**
     * @return true if each received datagram carries the kernel's receive time ({@code SO_TIMESTAMPNS}), so that
     * {@link ReceiveBatch#arrivalTimeNs} places it when it arrived rather than when the agent read it.
     */
    public boolean isReceiveTimestampEnabled()
    {
        return timestampsEnabled;
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
     * {@inheritDoc}
     */
    public void close()
    {
        if (isClosed)
        {
            return;
        }
        isClosed = true;
        NativeUdp.close(fd);
        closeDeadlineTimer();
        synchronized (this)
        {
            NativeUdp.close(eventFd);
            eventFd = -1;
        }
    }
}
