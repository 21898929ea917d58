package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.admission.AddressValidator;
import io.pacelink.transport.admission.HelloAdmission;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.memory.BudgetedSegments;
import io.pacelink.transport.memory.MemoryBudget;
import io.pacelink.transport.memory.SegmentPool;
import io.pacelink.transport.port.DatagramHandler;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.recovery.PathParameters;
import io.pacelink.transport.recovery.RecoveryConfig;
import io.pacelink.transport.recovery.RttEstimator;
import io.pacelink.transport.schedule.PacketScheduler;
import io.pacelink.transport.schedule.PacketSender;
import io.pacelink.transport.schedule.SchedulableFlow;
import io.pacelink.transport.schedule.SentPacket;
import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stats.EndpointCounters;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.secure.AeadAlgorithm;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.secure.EndpointKeys;
import io.pacelink.transport.secure.HelloMac;
import io.pacelink.transport.secure.NoiseProfile;
import io.pacelink.transport.secure.PacketProtection;
import io.pacelink.transport.secure.SecureSession;
import io.pacelink.transport.stream.ReceiveLog;
import io.pacelink.transport.stream.SendLog;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.NoiseFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;

/**
 * The sans-IO protocol core of an endpoint (docs/architecture.md): one UDP port, many connections. Driven by
 * {@link #doWork(long)} with the current time; it reads no clock, sleeps nowhere, creates no threads and reaches the
 * network only through its {@link DatagramPort}. The same object runs on NIO in real time (wrapped by the endpoint's
 * agent) and inside the virtual-time simulator.
 * <p>
 * Single-threaded: every method is called by the agent thread (or the simulator), never by an application thread.
 * The public {@code Endpoint} is the thread boundary: it enqueues an application's connect for its agent and hands
 * accepted connections over through a queue.
 * <p>
 * Duty cycle: receive a bounded batch of datagrams, fire due timers, then send while the packet scheduler releases a
 * connection.
 */
public final class EndpointCore implements DatagramHandler
{
    private final PacelinkContext context;
    private final DatagramPort port;
    private final CongestionControlRegistry registry;
    private final AcceptHandler acceptHandler;
    private final PacketScheduler<ConnectionCore> scheduler;
    private final PacketSender<ConnectionCore> packetSender = this::sendPacket;
    private final CountersManager countersManager;
    private final EndpointCounters endpointCounters;
    private final SecurityCounters securityCounters;
    private final ConnectionIdGenerator idGenerator;
    private final SeededRandom random;
    private final HelloAdmission admission;
    private final MemoryBudget memoryBudget;
    private final SegmentPool receiveSegments;
    private final BudgetedSegments sendSegments;
    private final String endpointName;
    private final WaitDriver waitDriver;
    private final FixedClock fixedClock = new FixedClock();
    private NanoClock clock = fixedClock;

    private final Long2ObjectHashMap<ConnectionCore> connectionsById = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<ConnectionCore> serverConnectionsByClientId = new Long2ObjectHashMap<>();
    private final ArrayList<ConnectionCore> connections = new ArrayList<>();
    private final LongPredicate isIdInUse = connectionsById::containsKey;

    /**
     * Free receive segments the endpoint keeps for reuse: enough for steady traffic to recycle, small enough that a
     * burst leaves no hoard.
     */
    private static final long POOL_RETAINED_BYTES = 16L << 20;

    /**
     * Memory a new connection must find in the budget, or it is refused: its first segment on each side and a
     * sent-packet ring of its first size.
     */
    private static final long NEW_CONNECTION_BYTES = 2L * SegmentPool.DEFAULT_SEGMENT_BYTES;

    private final PacketDecoder decoder = new PacketDecoder();
    private final PacketHeaderFlyweight header = new PacketHeaderFlyweight();
    private final PacketWriter writer = new PacketWriter();
    private final UnsafeBuffer sendBuffer;
    private final byte[] sealedDatagram = new byte[PacelinkContext.MAX_DATAGRAM_SIZE_BYTES];
    private final UnsafeBuffer sealedBuffer = new UnsafeBuffer(sealedDatagram);
    private final byte[] sealedInput = new byte[PacelinkContext.MAX_DATAGRAM_SIZE_BYTES];
    private final byte[] openedPacket = new byte[PacelinkContext.MAX_DATAGRAM_SIZE_BYTES];
    private final UnsafeBuffer openedBuffer = new UnsafeBuffer(openedPacket);
    private final Crc32cPacketCheck crc = new Crc32cPacketCheck();
    private final EndpointKeys keys;
    private final boolean isSecureClient;
    private final UnsafeBuffer retryToken = new UnsafeBuffer(new byte[AddressValidator.TOKEN_LENGTH]);

    private boolean isClosed;
    private boolean isClosing;
    private InetSocketAddress restrictedPeer;
    private boolean handshakeNamesController;
    private boolean handshakeHasNoise;
    private String requestedController;

    /**
     * A core whose connections cannot wait (the simulator and tests: only the non-blocking calls).
     *
     * @param context         the endpoint's configuration (already concluded).
     * @param port            where datagrams go and come from.
     * @param registry        the congestion controllers available.
     * @param scheduler       the packet scheduler.
     * @param countersManager where counters are registered (by this core only).
     * @param acceptHandler   takes each connection a client opens to this endpoint.
     */
    public EndpointCore(
        final PacelinkContext context,
        final DatagramPort port,
        final CongestionControlRegistry registry,
        final PacketScheduler<ConnectionCore> scheduler,
        final CountersManager countersManager,
        final AcceptHandler acceptHandler)
    {
        this(context, port, registry, scheduler, countersManager, acceptHandler, WaitDriver.UNAVAILABLE);
    }

    /**
     * @param context         the endpoint's configuration (already concluded).
     * @param port            where datagrams go and come from.
     * @param registry        the congestion controllers available.
     * @param scheduler       the packet scheduler.
     * @param countersManager where counters are registered (by this core only).
     * @param acceptHandler   takes each connection a client opens to this endpoint.
     * @param waitDriver      how the connections' waits wait: the endpoint's.
     */
    public EndpointCore(
        final PacelinkContext context,
        final DatagramPort port,
        final CongestionControlRegistry registry,
        final PacketScheduler<ConnectionCore> scheduler,
        final CountersManager countersManager,
        final AcceptHandler acceptHandler,
        final WaitDriver waitDriver)
    {
        this.waitDriver = waitDriver;
        this.context = context;
        this.port = port;
        this.registry = registry;
        this.acceptHandler = acceptHandler;
        this.scheduler = scheduler;
        this.countersManager = countersManager;
        this.endpointName = "endpoint " + port.localAddress();
        this.endpointCounters = new EndpointCounters(countersManager, endpointName);
        this.securityCounters = new SecurityCounters(countersManager, endpointName);
        final LongSupplier randomSource = context.newRandomSource();
        this.idGenerator = new ConnectionIdGenerator(randomSource);
        this.random = new SeededRandom(randomSource.getAsLong());
        final byte[] tokenKey = new byte[AddressValidator.KEY_LENGTH];
        for (int i = 0; i < tokenKey.length; i += Long.BYTES)
        {
            new UnsafeBuffer(tokenKey).putLong(i, randomSource.getAsLong());
        }
        this.admission = new HelloAdmission(context.limits(), tokenKey, randomSource.getAsLong(), securityCounters);
        this.memoryBudget = new MemoryBudget(context.limits().memoryBudgetBytes());
        this.receiveSegments = new SegmentPool(memoryBudget, SegmentPool.DEFAULT_SEGMENT_BYTES,
            Math.min(POOL_RETAINED_BYTES, context.limits().memoryBudgetBytes() / 4));
        this.sendSegments = new BudgetedSegments(memoryBudget, SegmentPool.DEFAULT_SEGMENT_BYTES);
        // A heap buffer: the CRC32C and the AEAD work on its array directly.
        this.sendBuffer = new UnsafeBuffer(new byte[PacelinkContext.MAX_DATAGRAM_SIZE_BYTES]);
        this.keys = context.security().newEndpointKeys(randomSource);
        this.isSecureClient = null != keys.clientProfile();
        registry.factory(context.congestionControl()).validate(context.controllerParameters());
    }

    /**
     * Open a connection to a server: it is CONNECTING until the server answers.
     *
     * @param remoteAddress     the server's address.
     * @param congestionControl controller name for this connection, or null for the context's.
     * @param nowNs             the current time.
     * @return the connection; already CLOSED (REJECTED) if this endpoint has its maximum of connections.
     * @throws IllegalArgumentException if the controller is unknown or its parameters are invalid.
     * @throws IllegalStateException    if the endpoint is closed.
     */
    public Connection connect(final InetSocketAddress remoteAddress, final String congestionControl, final long nowNs)
    {
        if (isClosed)
        {
            throw new IllegalStateException("endpoint is closed");
        }
        final String controllerName = null == congestionControl ? context.congestionControl() : congestionControl;
        registry.factory(controllerName).validate(context.controllerParameters());
        if (connections.size() >= context.maxConnections() || !memoryBudget.hasRoomFor(NEW_CONNECTION_BYTES))
        {
            endpointCounters.connectionsRejected().incrementRelease();
            final ConnectionHandle handle = newHandle(
                idGenerator.nextId(isIdInUse), remoteAddress, controllerName, ConnectionState.CONNECTING);
            handle.closed(CloseReason.REJECTED, connections.size() >= context.maxConnections() ?
                "this endpoint has its maximum of connections (maxConnections=" + context.maxConnections() + ")" :
                "this endpoint's memory budget is spent (memoryBudgetBytes=" + context.limits().memoryBudgetBytes() +
                ")");
            retire(handle);
            return handle;
        }
        return openConnection(idGenerator.nextId(isIdInUse), remoteAddress, controllerName, true,
            isSecureClient ? SecureSession.client(keys) : null, nowNs).handle();
    }

    /**
     * @return the endpoint-wide counters.
     */
    public EndpointCounters counters()
    {
        return endpointCounters;
    }

    /**
     * @return the counters of the endpoint's defences against hostile input (docs/security.md).
     */
    public SecurityCounters securityCounters()
    {
        return securityCounters;
    }

    /**
     * @return the address peers send to.
     */
    public InetSocketAddress localAddress()
    {
        return port.localAddress();
    }

    /**
     * @param connectionId a connection's local id.
     * @return its controller's current state name (a constant), or {@code "CLOSED"} if it is gone; for traces in the
     * simulator.
     */
    public String controllerStateName(final long connectionId)
    {
        final ConnectionCore connection = connectionsById.get(connectionId);
        return null == connection ? "CLOSED" : connection.controller().stateName();
    }

    /**
     * @return the packet scheduler in use.
     */
    public PacketScheduler<?> scheduler()
    {
        return scheduler;
    }

    private ConnectionHandle newHandle(
        final long connectionId,
        final InetSocketAddress remoteAddress,
        final String controllerName,
        final ConnectionState initialState)
    {
        final ConnectionCounters counters = new ConnectionCounters(
            countersManager, connectionId,
            "conn " + Long.toHexString(connectionId) + " " + remoteAddress + " " + controllerName);
        return new ConnectionHandle(
            connectionId,
            remoteAddress,
            controllerName,
            new SendLog(context.sendBufferBytes(), context.maxMessageLengthBytes(), sendSegments),
            new ReceiveLog(context.receiveBufferBytes(), context.maxMessageLengthBytes(),
                context.limits().maxReceiveRanges(), receiveSegments),
            counters,
            context.maxMessageLengthBytes(),
            initialState,
            waitDriver);
    }

    // ---------------------------------------------------------------- duty cycle

    /**
     * One duty cycle at one instant: virtual time, where nothing happens between the steps of a cycle.
     *
     * @param nowNs the current time.
     * @return the amount of work done; 0 lets the idle strategy idle until {@link #nextDeadlineNs()}.
     */
    public int doWork(final long nowNs)
    {
        fixedClock.nowNs = nowNs;
        return doWork(fixedClock);
    }

    /**
     * One duty cycle on a running clock (issue: an RTT sample must never be shorter than the path's RTT, however late
     * the thread runs). A received datagram is stamped with a clock read taken after it was read from the port, so
     * a datagram that waited in the socket while the thread was descheduled gets the time it was seen, never an
     * earlier one; a packet is stamped with a read at its send. Timers fire at a read taken after the receive step.
     * The core reads no clock of its own: the agent hands it the real one, the simulator its virtual time.
     *
     * @param clock the time, read as the cycle goes.
     * @return the amount of work done; 0 lets the idle strategy idle until {@link #nextDeadlineNs()}.
     */
    public int doWork(final NanoClock clock)
    {
        this.clock = clock;
        final long startNs = clock.nanoTime();
        int work = port.receive(this, context.receiveBatchLimit(), startNs);
        final long nowNs = clock.nanoTime();
        work += serviceConnections(nowNs);
        work += sendPackets(nowNs);
        for (int i = 0, size = connections.size(); i < size; i++)
        {
            connections.get(i).countSendLimits(nowNs);
        }
        securityCounters.memoryCommittedBytes().setRelease(memoryBudget.committedBytes());
        securityCounters.memoryRefusals().setRelease(memoryBudget.refusals());
        endpointCounters.onDutyCycle(clock.nanoTime() - startNs);
        return work;
    }

    /**
     * @return the budget every connection's buffers are charged to.
     */
    public MemoryBudget memoryBudget()
    {
        return memoryBudget;
    }

    /**
     * @param reportedNs the time the port or the duty cycle gave.
     * @return the time to stamp an event with now: a fresh read of the cycle's clock, never earlier than reported.
     */
    private long stampNs(final long reportedNs)
    {
        return Math.max(reportedNs, clock.nanoTime());
    }

    /**
     * @return the earliest time something is due (a timer, an ACK, a pacing release); {@link Long#MAX_VALUE} if
     * nothing is.
     */
    public long nextDeadlineNs()
    {
        long deadline = scheduler.nextReleaseTimeNs();
        for (int i = 0, size = connections.size(); i < size; i++)
        {
            deadline = Math.min(deadline, connections.get(i).nextDeadlineNs());
        }
        return deadline;
    }

    /**
     * Create a connection with its buffers and counters, and add it; if any part fails the counters it registered are
     * returned, so a failed set-up leaks nothing.
     */
    private ConnectionCore openConnection(
        final long connectionId,
        final InetSocketAddress remoteAddress,
        final String controllerName,
        final boolean isClient,
        final SecureSession secureSession,
        final long nowNs)
    {
        final ConnectionHandle handle = newHandle(connectionId, remoteAddress, controllerName,
            isClient ? ConnectionState.CONNECTING : ConnectionState.CONNECTED);
        final ConnectionCore connection;
        try
        {
            connection = newCore(handle, isClient, secureSession, nowNs);
        }
        catch (final RuntimeException | Error ex)
        {
            retire(handle);
            throw ex;
        }
        addConnection(connection);
        return connection;
    }

    private ConnectionCore newCore(
        final ConnectionHandle handle, final boolean isClient, final SecureSession secureSession, final long nowNs)
    {
        final RecoveryConfig recoveryConfig = new RecoveryConfig()
            .sentPacketCapacity(context.sentPacketCapacity())
            .initialRttNs(context.initialRttNs())
            .minRttSampleNs(context.limits().minRttSampleNs());
        // The peer's max_ack_delay is assumed to be this endpoint's own until its handshake tells it.
        final PathParameters path = new PathParameters(context.maxDatagramSizeBytes(), context.maxAckDelayNs());
        final RttEstimator rttEstimator =
            new RttEstimator(recoveryConfig.initialRttNs(), recoveryConfig.granularityNs());
        final CongestionControllerFactory factory = registry.factory(handle.congestionControl());
        final CongestionController controller = factory.newController(new ConnectionControllerContext(
            path, rttEstimator, random.split(), context.controllerParameters(), handle.counters()));
        handle.counters().registerControllerState(controller.stateNames());
        handle.counters().publishControllerState(controller.stateName());
        final ReceivedPacketTracker ackTracker = new ReceivedPacketTracker(PacketDecoder.MAX_ACK_RANGES,
            ReceivedPacketTracker.DEFAULT_ACK_ELICITING_THRESHOLD, context.maxThinnedAckThreshold(),
            context.maxAckDelayNs());

        return new ConnectionCore(
            handle.connectionId(),
            isClient,
            handle.remoteAddress(),
            handle,
            path,
            new LossRecovery(recoveryConfig, path, rttEstimator, controller, memoryBudget),
            controller,
            ackTracker,
            random.split(),
            endpointCounters,
            securityCounters,
            context,
            secureSession,
            nowNs);
    }

    private void addConnection(final ConnectionCore connection)
    {
        connections.add(connection);
        connectionsById.put(connection.localId(), connection);
        scheduler.addFlow(connection);
        endpointCounters.connectionsOpened().incrementRelease();
        restrictPortToSinglePeer();
    }

    /**
     * An endpoint that accepts no connections and talks to one peer restricts its port to that peer, so the
     * operating system tells it when the peer's port is unreachable (ICMP errors reach connected UDP sockets only);
     * with peers at several addresses, or none, the port is open to anyone again.
     */
    private void restrictPortToSinglePeer()
    {
        if (context.acceptConnections())
        {
            return;
        }
        InetSocketAddress peer = connections.isEmpty() ? null : connections.get(0).remoteAddress();
        for (int i = 1, size = connections.size(); i < size && null != peer; i++)
        {
            if (!peer.equals(connections.get(i).remoteAddress()))
            {
                peer = null;
            }
        }
        if (null == peer ? null != restrictedPeer : !peer.equals(restrictedPeer))
        {
            restrictedPeer = port.restrictTo(peer) ? peer : null;
        }
    }

    /**
     * The port reported a peer's port unreachable (a restricted port only): tell the connections to it.
     */
    public void onPortUnreachable(final InetSocketAddress peer, final long nowNs)
    {
        final long stampNs = stampNs(nowNs);
        endpointCounters.portUnreachable().incrementRelease();
        for (int i = 0, size = connections.size(); i < size; i++)
        {
            final ConnectionCore connection = connections.get(i);
            if (connection.remoteAddress().equals(peer))
            {
                connection.onPeerUnreachable(stampNs);
            }
        }
    }

    // ---------------------------------------------------------------- receive

    public void onDatagram(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress source,
        final long reportedNs)
    {
        final long nowNs = stampNs(reportedNs);
        endpointCounters.datagramsReceived().incrementRelease();
        endpointCounters.bytesReceived().getAndAddRelease(length);
        try
        {
            if (length >= PacketHeaderFlyweight.HEADER_LENGTH && isCurrentVersion(buffer, offset))
            {
                final int flags = buffer.getByte(offset + PacketHeaderFlyweight.FLAGS_OFFSET);
                if (0 != (flags & PacketHeaderFlyweight.FLAG_SEALED))
                {
                    final int openedLength = openSealed(buffer, offset, length, source);
                    if (openedLength >= 0)
                    {
                        onIntactPacket(openedBuffer, 0, openedLength, source, true, nowNs);
                    }
                    return;
                }
                if (!crc.isIntact(buffer, offset, length))
                {
                    securityCounters.integrityFailures().incrementRelease();
                    return;
                }
                onIntactPacket(buffer, offset, length - Crc32cPacketCheck.TRAILER_LENGTH, source, false, nowNs);
                return;
            }
            if (length > PacketHeaderFlyweight.HEADER_LENGTH &&
                crc.isIntact(buffer, offset, length, PacketHeaderFlyweight.CURRENT_VERSION))
            {
                // A packet of this version whose version byte was damaged on the way: corrupt, not another version.
                securityCounters.integrityFailures().incrementRelease();
                return;
            }
            onIntactPacket(buffer, offset, length, source, false, nowNs);
        }
        catch (final Throwable ex)
        {
            endpointCounters.errors().incrementRelease();
            context.errorHandler().onError(ex);
        }
    }

    private static boolean isCurrentVersion(final DirectBuffer buffer, final int offset)
    {
        return PacketHeaderFlyweight.CURRENT_VERSION ==
            (buffer.getByte(offset + PacketHeaderFlyweight.VERSION_OFFSET) & 0xFF);
    }

    /**
     * Open a sealed datagram into {@link #openedBuffer}. The cheap checks come first — a known connection with keys,
     * its address, the packet-number window, a duplicate (a replayed packet) — so a forgery costs no decryption
     * unless it gets past all of them.
     *
     * @return the opened packet's length, or -1 if it was dropped (counted).
     */
    private int openSealed(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress source)
    {
        final ConnectionCore connection = connectionsById.get(buffer.getLong(
            offset + PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET, PacketHeaderFlyweight.BYTE_ORDER));
        if (null == connection || connection.isClosed())
        {
            endpointCounters.unknownConnection().incrementRelease();
            return -1;
        }
        if (!connection.remoteAddress().equals(source))
        {
            securityCounters.packetsFromWrongAddress().incrementRelease();
            return -1;
        }
        final PacketProtection protection = connection.protection();
        if (null == protection)
        {
            // A plaintext connection's packet with the flag set: one damaged on the way fails its CRC32C like any
            // other corrupted packet; an intact one is a forgery.
            if (crc.isIntact(buffer, offset, length))
            {
                securityCounters.packetsUnauthenticated().incrementRelease();
            }
            else
            {
                securityCounters.integrityFailures().incrementRelease();
            }
            return -1;
        }
        final long packetNumber =
            buffer.getLong(offset + PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, PacketHeaderFlyweight.BYTE_ORDER);
        if (packetNumber < 0 || length > sealedInput.length)
        {
            endpointCounters.malformedDropped().incrementRelease();
            return -1;
        }
        if (!isNewPacketNumber(connection, packetNumber))
        {
            return -1;
        }
        buffer.getBytes(offset, sealedInput, 0, length);
        final int openedLength = protection.open(sealedInput, length, openedPacket);
        if (openedLength < 0)
        {
            securityCounters.integrityFailures().incrementRelease();
            if (protection.isIntegrityLimitReached())
            {
                connection.abortWithClose(ConnectionCore.PROTOCOL_VIOLATION_ERROR, CloseReason.PROTOCOL_VIOLATION);
            }
        }
        return openedLength;
    }

    /**
     * @return true if a packet number lies within the connection's window and was not received before; else the
     * packet is counted (out of window, or a duplicate: a replay) and must be dropped.
     */
    private boolean isNewPacketNumber(final ConnectionCore connection, final long packetNumber)
    {
        if (connection.isBeyondPacketNumberWindow(packetNumber))
        {
            securityCounters.packetNumbersOutOfWindow().incrementRelease();
            return false;
        }
        if (connection.isDuplicate(packetNumber))
        {
            endpointCounters.duplicatePackets().incrementRelease();
            connection.handle().counters().increment(ConnectionCounters.DUPLICATE_PACKETS);
            return false;
        }
        return true;
    }

    /**
     * A datagram whose integrity check passed (or of another version, which has none): validate and dispatch it.
     *
     * @param wasSealed true if it was opened by the connection's AEAD.
     */
    private void onIntactPacket(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress source,
        final boolean wasSealed,
        final long nowNs)
    {
        final int result = decoder.validate(buffer, offset, length);
        if (PacketDecoder.OK != result)
        {
            if (PacketDecoder.UNSUPPORTED_VERSION == result && isHelloOfAnyVersion(buffer, offset, length))
            {
                refuseVersion(buffer, offset, source);
            }
            else
            {
                endpointCounters.malformedDropped().incrementRelease();
            }
            return;
        }

        switch (decoder.packetType())
        {
            case PacketType.HANDSHAKE:
                onHandshakePacket(buffer, offset, length, source, nowNs);
                break;

            case PacketType.ONE_RTT:
            case PacketType.CLOSE:
                onConnectionPacket(buffer, offset, length, source, wasSealed, nowNs);
                break;

            case PacketType.RETRY:
                onRetryPacket(source, nowNs);
                break;

            default:
                endpointCounters.unknownConnection().incrementRelease();
                break;
        }
    }

    private void onConnectionPacket(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress source,
        final boolean wasSealed,
        final long nowNs)
    {
        final ConnectionCore connection = connectionsById.get(decoder.destinationConnectionId());
        if (null == connection || connection.isClosed())
        {
            endpointCounters.unknownConnection().incrementRelease();
            return;
        }
        if (!wasSealed && null != connection.protection())
        {
            // Once keyed, a secure connection acts only on what its peer sealed: a plaintext CLOSE or DATA is forged.
            securityCounters.packetsUnauthenticated().incrementRelease();
            return;
        }
        if (!connection.remoteAddress().equals(source))
        {
            // Until authenticated migration exists a connection lives on one address pair: anything else is an
            // off-path forgery or a rebinding NAT (docs/security.md).
            securityCounters.packetsFromWrongAddress().incrementRelease();
            return;
        }
        if (ConnectionState.CONNECTING == connection.state())
        {
            if (PacketType.CLOSE == decoder.packetType())
            {
                connection.onRejected(closeReasonPhrase(buffer, offset, length));
            }
            else
            {
                endpointCounters.unknownConnection().incrementRelease();
            }
            return;
        }

        final long packetNumber = decoder.packetNumber();
        if (!isNewPacketNumber(connection, packetNumber))
        {
            return;
        }

        if (!connection.isHandshakeConfirmed() && PacketType.ONE_RTT == decoder.packetType())
        {
            // The client answered from the address the handshake came from: only now is it the application's.
            connection.confirmHandshake();
            if (isClosing || !acceptHandler.onAccepted(connection.handle()))
            {
                // The application is not taking connections: refuse, as at the connection limit, rather than hold
                // one nobody reads.
                endpointCounters.connectionsRejected().incrementRelease();
                connection.refuse(isClosing ? CloseReasonTexts.CLOSING : CloseReasonTexts.ACCEPT_QUEUE_FULL);
                return;
            }
        }
        connection.onPacket(decoder, buffer, offset, length, nowNs);
    }

    private void onHandshakePacket(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress source,
        final long nowNs)
    {
        final long destinationId = decoder.destinationConnectionId();
        final HandshakeFrameFlyweight handshake = handshakeFrame(buffer, offset, length);
        if (null == handshake || handshake.isResponse() != (0 != destinationId))
        {
            endpointCounters.malformedDropped().incrementRelease();
            return;
        }

        if (0 != destinationId)
        {
            final ConnectionCore connection = connectionsById.get(destinationId);
            if (null == connection || !connection.isClient())
            {
                endpointCounters.unknownConnection().incrementRelease();
            }
            else if (!connection.remoteAddress().equals(source))
            {
                securityCounters.packetsFromWrongAddress().incrementRelease();
            }
            else
            {
                connection.onHandshakeResponse(handshake, handshakeHasNoise ? decoder.noise() : null, nowNs);
            }
            return;
        }

        final long clientId = handshake.sourceConnectionId();
        if (keys.isSecureServer() != handshakeHasNoise)
        {
            refuseMode(clientId, source);
            return;
        }
        NoiseProfile profile = null;
        if (handshakeHasNoise)
        {
            // WireGuard's mac1: a hello without the right MAC costs one HMAC, never a Diffie-Hellman.
            final NoiseFrameFlyweight noise = decoder.noise();
            profile = NoiseProfile.fromWireId(noise.profile());
            final HelloMac mac = keys.serverMac(profile);
            if (null == mac)
            {
                refuseMode(clientId, source);
                return;
            }
            if (!mac.isValid(buffer, offset, noise.macOffset()))
            {
                securityCounters.hellosBadMac().incrementRelease();
                return;
            }
        }

        final ConnectionCore existing = serverConnectionsByClientId.get(clientId);
        if (null != existing && existing.remoteAddress().equals(source))
        {
            if (existing.isHandshakeConfirmed())
            {
                // The client confirmed long ago and never sends its hello again: someone replays it.
                securityCounters.hellosReplayed().incrementRelease();
                return;
            }
            existing.onHandshakeRetransmission(nowNs);
            return;
        }

        // The floor applies to the datagram, integrity trailer included (handshake packets always carry a CRC32C).
        final int verdict = admission.admit(
            handshake, length + Crc32cPacketCheck.TRAILER_LENGTH, source, nowNs, retryToken, 0);
        if (HelloAdmission.RETRY == verdict)
        {
            writer.wrap(sendBuffer, 0, RetryPacketFlyweight.TOKEN_OFFSET + AddressValidator.TOKEN_LENGTH);
            writer.writeRetry(clientId, retryToken, 0, AddressValidator.TOKEN_LENGTH);
            sendChecked(writer.length(), source);
            return;
        }
        if (HelloAdmission.ACCEPT != verdict)
        {
            return;
        }

        // Refusals go only to a validated address, and each is far smaller than the hello it answers.
        final DirectBuffer refusal = !context.acceptConnections() ? CloseReasonTexts.NOT_ACCEPTING :
            isClosing ? CloseReasonTexts.CLOSING :
            connections.size() >= context.maxConnections() ? CloseReasonTexts.CONNECTION_LIMIT : null;
        if (null != refusal)
        {
            refuse(clientId, source, refusal);
            return;
        }
        if (!memoryBudget.hasRoomFor(NEW_CONNECTION_BYTES))
        {
            securityCounters.handshakesRefusedMemory().incrementRelease();
            refuse(clientId, source, CloseReasonTexts.MEMORY_BUDGET);
            return;
        }

        final String controllerName = serverController();
        SecureSession secureSession = null;
        if (handshakeHasNoise)
        {
            final NoiseFrameFlyweight noise = decoder.noise();
            secureSession = SecureSession.server(keys, profile, AeadAlgorithm.fromWireId(noise.aead()),
                noise.message(), ConnectionCore.transcript(buffer, handshake.offset(), requestedController));
            if (null == secureSession)
            {
                securityCounters.handshakeAuthFailures().incrementRelease();
                return;
            }
        }
        final ConnectionCore connection = openConnection(
            idGenerator.nextId(isIdInUse), source, controllerName, false, secureSession, nowNs);
        connection.applyPeerHandshake(handshake, nowNs);
        serverConnectionsByClientId.put(clientId, connection);
    }

    private void onRetryPacket(final InetSocketAddress source, final long nowNs)
    {
        final ConnectionCore connection = connectionsById.get(decoder.destinationConnectionId());
        if (null == connection || !connection.isClient())
        {
            endpointCounters.unknownConnection().incrementRelease();
        }
        else if (!connection.remoteAddress().equals(source))
        {
            securityCounters.packetsFromWrongAddress().incrementRelease();
        }
        else
        {
            final RetryPacketFlyweight retry = decoder.retry();
            connection.onRetry(retry.buffer(), retry.tokenOffset(), retry.tokenLength(), nowNs);
        }
    }

    /**
     * The server runs the controller its client asked for when it has it (as a TCP server honours a
     * {@code TCP_CONGESTION} set on the accepted socket), else its own: a client may name a controller this build
     * does not have, and should still be served. The application sees which through
     * {@link Connection#congestionControl()}. Call right after {@link #handshakeFrame}, whose walk found the frame.
     */
    private String serverController()
    {
        requestedController = handshakeNamesController ? decoder.congestionControl().name() : null;
        if (null != requestedController && registry.names().contains(requestedController))
        {
            return requestedController;
        }
        return context.congestionControl();
    }

    /**
     * Refuse a hello whose mode does not match this server's: plaintext to a secure server, secure to a plaintext
     * one, or a profile this server has no key for. The CLOSE (REJECTED) says which, so the operator knows what to
     * configure; it is far smaller than the hello.
     */
    private void refuseMode(final long clientId, final InetSocketAddress source)
    {
        securityCounters.handshakesRefusedMode().incrementRelease();
        sendRejection(clientId, source, keys.isSecureServer() ?
            CloseReasonTexts.SECURE_MODE_REQUIRED : CloseReasonTexts.SECURE_MODE_UNSUPPORTED, 0);
    }

    /**
     * @return the last HANDSHAKE frame of a validated handshake packet, or null; a client's CONGESTION_CONTROL frame
     * beside it is noted for {@link #serverController()}, and any other frame there is ignored.
     */
    private HandshakeFrameFlyweight handshakeFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        boolean found = false;
        handshakeNamesController = false;
        handshakeHasNoise = false;
        for (int frameType = decoder.firstFrame(buffer, offset, length);
            PacketDecoder.NO_MORE_FRAMES != frameType;
            frameType = decoder.nextFrame())
        {
            found |= FrameType.HANDSHAKE == frameType;
            handshakeNamesController |= FrameType.CONGESTION_CONTROL == frameType;
            handshakeHasNoise |= FrameType.NOISE == frameType;
        }
        return found ? decoder.handshake() : null;
    }

    /**
     * A hello of another version at least as long as a hello of this one, whose header has the layout every version
     * so far shares: a HANDSHAKE packet to connection id 0 starting with a HANDSHAKE frame, the client's id first.
     */
    private static boolean isHelloOfAnyVersion(final DirectBuffer buffer, final int offset, final int length)
    {
        return length >= PacelinkContext.MIN_DATAGRAM_SIZE_BYTES &&
            PacketType.HANDSHAKE == (buffer.getByte(offset + PacketHeaderFlyweight.PACKET_TYPE_OFFSET) & 0xFF) &&
            0 == buffer.getLong(offset + PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET,
                PacketHeaderFlyweight.BYTE_ORDER) &&
            FrameType.HANDSHAKE == (buffer.getByte(offset + PacketHeaderFlyweight.HEADER_LENGTH) & 0xFF);
    }

    /**
     * Refuse a client of another wire-format version clearly (docs/wire-format.md, "Versions"): a CLOSE in the
     * client's own version, which it can parse, with error code REJECTED and a reason naming this endpoint's version.
     * Only for a full-size hello, so the refusal is far smaller than what the client sent.
     */
    private void refuseVersion(final DirectBuffer buffer, final int offset, final InetSocketAddress source)
    {
        securityCounters.handshakesRefusedVersion().incrementRelease();
        final int clientVersion = buffer.getByte(offset + PacketHeaderFlyweight.VERSION_OFFSET) & 0xFF;
        final long clientId = buffer.getLong(
            offset + PacketHeaderFlyweight.HEADER_LENGTH + HandshakeFrameFlyweight.SOURCE_CONNECTION_ID_OFFSET,
            PacketHeaderFlyweight.BYTE_ORDER);
        sendRejection(clientId, source, CloseReasonTexts.VERSION_REFUSED, clientVersion);
    }

    /**
     * @return the reason phrase of a validated CLOSE packet's CLOSE frame (a server's reason for a refusal), or empty.
     */
    private String closeReasonPhrase(final DirectBuffer buffer, final int offset, final int length)
    {
        String phrase = "";
        for (int frameType = decoder.firstFrame(buffer, offset, length);
            PacketDecoder.NO_MORE_FRAMES != frameType;
            frameType = decoder.nextFrame())
        {
            if (FrameType.CLOSE == frameType && decoder.close().reasonLength() > 0)
            {
                phrase = decoder.close().reason();
            }
        }
        return phrase;
    }

    /**
     * Refuse a client's handshake with a CLOSE (REJECTED) that says why, and count it; no state is kept.
     */
    private void refuse(final long clientId, final InetSocketAddress source, final DirectBuffer reason)
    {
        endpointCounters.connectionsRejected().incrementRelease();
        sendRejection(clientId, source, reason, 0);
    }

    /**
     * A CLOSE with error code REJECTED to a client's hello.
     *
     * @param reason  why.
     * @param version the header version to write, 0 for this endpoint's.
     */
    private void sendRejection(
        final long clientId, final InetSocketAddress source, final DirectBuffer reason, final int version)
    {
        writer.wrap(sendBuffer, 0, context.maxDatagramSizeBytes() - Crc32cPacketCheck.TRAILER_LENGTH);
        writer.writeHeader(PacketType.CLOSE, clientId, 0);
        writer.appendClose(ConnectionCore.REJECTED_ERROR, reason, 0, reason.capacity());
        if (0 != version)
        {
            // Another version's client: written in its layout, which has an integrity trailer from version 3 on
            // (computed over the client's version byte) and none before.
            header.wrap(sendBuffer, 0);
            header.version(version);
            if (version >= PacketHeaderFlyweight.FIRST_VERSION_WITH_TRAILER)
            {
                sendChecked(writer.length(), source);
            }
            else
            {
                send(sendBuffer, writer.length(), source);
            }
        }
        else
        {
            sendChecked(writer.length(), source);
        }
    }

    // ---------------------------------------------------------------- timers

    private int serviceConnections(final long nowNs)
    {
        int work = 0;
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            final ConnectionCore connection = connections.get(i);
            work += connection.onDutyCycle(nowNs);
            if (connection.isClosed())
            {
                removeConnection(i, connection);
                work++;
            }
            else if (0 != connection.sendable(nowNs))
            {
                final CongestionController controller = connection.controller();
                scheduler.activate(
                    connection, controller.pacingRateBytesPerSecond(), controller.sendQuantumBytes(), nowNs);
            }
        }
        return work;
    }

    private void removeConnection(final int index, final ConnectionCore connection)
    {
        final int last = connections.size() - 1;
        connections.set(index, connections.get(last));
        connections.remove(last);
        connectionsById.remove(connection.localId());
        if (!connection.isClient())
        {
            serverConnectionsByClientId.remove(connection.remoteId());
        }
        scheduler.removeFlow(connection);
        endpointCounters.connectionsClosed().incrementRelease();
        connection.releaseMemory();
        retire(connection.handle());
        restrictPortToSinglePeer();
    }

    /**
     * Every close path ends here: the handle's stats are frozen, its counter slots returned and its buffers' memory
     * credited to the budget, whether the connection ever got further than its set-up or not.
     */
    private static void retire(final ConnectionHandle handle)
    {
        handle.stats().freeze();
        handle.counters().close();
        handle.sendLog().releaseMemory();
        handle.receiveLog().releaseMemory();
    }

    // ---------------------------------------------------------------- send

    private int sendPackets(final long nowNs)
    {
        int sent = 0;
        for (int i = 0, size = connections.size(); i < size; i++)
        {
            final ConnectionCore connection = connections.get(i);
            if (connection.isHandshakeDue(nowNs))
            {
                writer.wrap(sendBuffer, 0, connection.maxDatagramSizeBytes() - Crc32cPacketCheck.TRAILER_LENGTH);
                sendChecked(connection.writeHandshake(writer, stampNs(nowNs)), connection.remoteAddress());
                sent++;
            }
        }
        return sent + scheduler.sendPackets(nowNs, context.sendBatchLimit() - sent, packetSender);
    }

    private int sendPacket(final ConnectionCore connection, final boolean ackOnly, final long nowNs)
    {
        final int trailerLength = connection.trailerLength();
        writer.wrap(sendBuffer, 0, connection.maxDatagramSizeBytes() - trailerLength);
        final int sentPacket = connection.buildPacket(writer, sendBuffer, stampNs(nowNs), ackOnly);
        final int length = SentPacket.lengthBytes(sentPacket) - trailerLength;
        final PacketProtection protection = connection.protection();
        if (null == protection)
        {
            sendChecked(length, connection.remoteAddress());
        }
        else
        {
            final long keyUpdates = protection.keyUpdates();
            send(sealedBuffer, protection.seal(sendBuffer.byteArray(), length, sealedDatagram),
                connection.remoteAddress());
            if (keyUpdates != protection.keyUpdates())
            {
                securityCounters.keyUpdates().incrementRelease();
            }
        }
        return sentPacket;
    }

    /**
     * Send the plaintext packet in the send buffer with its CRC32C trailer.
     */
    private void sendChecked(final int length, final InetSocketAddress destination)
    {
        send(sendBuffer, crc.seal(sendBuffer, 0, length), destination);
    }

    private void send(final DirectBuffer buffer, final int length, final InetSocketAddress destination)
    {
        if (port.send(buffer, 0, length, destination))
        {
            endpointCounters.datagramsSent().incrementRelease();
            endpointCounters.bytesSent().getAndAddRelease(length);
        }
        else
        {
            // Dropped like a loss on the path: recovery repairs it.
            endpointCounters.sendFailures().incrementRelease();
        }
    }

    // ---------------------------------------------------------------- close

    /**
     * Begin closing the endpoint gracefully: refuse new connections and close every connection gracefully, so each
     * delivers what its application offered (or fails after the linger timeout). The endpoint is done when
     * {@link #connectionCount()} is 0; then {@link #close(long)} releases it.
     */
    public void beginGracefulClose()
    {
        isClosing = true;
        for (int i = 0, size = connections.size(); i < size; i++)
        {
            connections.get(i).handle().close();
        }
    }

    /**
     * @return connections not yet closed, handshakes included.
     */
    public int connectionCount()
    {
        return connections.size();
    }

    /**
     * Close at once: abort every open connection (each peer is sent a CLOSE and its outcome says it was aborted),
     * release counters and the port. A connection whose outcome was already decided keeps it. Closing again does
     * nothing.
     *
     * @param nowNs the current time.
     */
    public void close(final long nowNs)
    {
        if (isClosed)
        {
            return;
        }
        isClosed = true;
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            final ConnectionCore connection = connections.get(i);
            connection.abortWithClose(ConnectionCore.ABORTED_ERROR, CloseReason.ENDPOINT_CLOSED);
            if (0 != (connection.sendable(nowNs) & SchedulableFlow.ACK_ELICITING))
            {
                sendPacket(connection, false, nowNs);
            }
            connection.finishClose();
            connection.releaseMemory();
            retire(connection.handle());
        }
        connections.clear();
        connectionsById.clear();
        serverConnectionsByClientId.clear();
        endpointCounters.close();
        securityCounters.close();
        port.close();
    }

    /**
     * The time of a duty cycle in virtual time: one instant.
     */
    private static final class FixedClock implements NanoClock
    {
        private long nowNs;

        public long nanoTime()
        {
            return nowNs;
        }
    }
}
