package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
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
import io.pacelink.transport.stream.ReceiveLog;
import io.pacelink.transport.stream.SendLog;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;

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
    private final ConnectionIdGenerator idGenerator;
    private final SeededRandom random;
    private final String endpointName;

    private final Long2ObjectHashMap<ConnectionCore> connectionsById = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<ConnectionCore> serverConnectionsByClientId = new Long2ObjectHashMap<>();
    private final ArrayList<ConnectionCore> connections = new ArrayList<>();

    private final PacketDecoder decoder = new PacketDecoder();
    private final PacketHeaderFlyweight header = new PacketHeaderFlyweight();
    private final PacketWriter writer = new PacketWriter();
    private final UnsafeBuffer sendBuffer;

    private boolean isClosed;
    private boolean handshakeNamesController;

    /**
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
        this.context = context;
        this.port = port;
        this.registry = registry;
        this.acceptHandler = acceptHandler;
        this.scheduler = scheduler;
        this.countersManager = countersManager;
        this.endpointName = "endpoint " + port.localAddress();
        this.endpointCounters = new EndpointCounters(countersManager, endpointName);
        this.idGenerator = new ConnectionIdGenerator(context.randomSeed());
        this.random = new SeededRandom(context.randomSeed());
        this.sendBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(PacelinkContext.MAX_DATAGRAM_SIZE_BYTES));
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
        final ConnectionHandle handle = newHandle(
            idGenerator.nextId(), remoteAddress, controllerName, ConnectionState.CONNECTING);
        if (connections.size() >= context.maxConnections())
        {
            endpointCounters.connectionsRejected().incrementRelease();
            handle.closed(CloseReason.REJECTED);
            retire(handle);
        }
        else
        {
            addConnection(newCore(handle, true, nowNs));
        }
        return handle;
    }

    /**
     * @return the endpoint-wide counters.
     */
    public EndpointCounters counters()
    {
        return endpointCounters;
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
            new SendLog(context.sendBufferBytes(), context.maxMessageLengthBytes()),
            new ReceiveLog(context.receiveBufferBytes(), context.maxMessageLengthBytes()),
            counters,
            context.maxMessageLengthBytes(),
            initialState);
    }

    // ---------------------------------------------------------------- duty cycle

    /**
     * One duty cycle.
     *
     * @param nowNs the current time.
     * @return the amount of work done; 0 lets the idle strategy idle until {@link #nextDeadlineNs()}.
     */
    public int doWork(final long nowNs)
    {
        int work = port.receive(this, context.receiveBatchLimit(), nowNs);
        work += serviceConnections(nowNs);
        work += sendPackets(nowNs);
        for (int i = 0, size = connections.size(); i < size; i++)
        {
            connections.get(i).countSendLimits(nowNs);
        }
        return work;
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

    private ConnectionCore newCore(final ConnectionHandle handle, final boolean isClient, final long nowNs)
    {
        final RecoveryConfig recoveryConfig = new RecoveryConfig()
            .sentPacketCapacity(context.sentPacketCapacity())
            .initialRttNs(context.initialRttNs());
        // The peer's max_ack_delay is assumed to be this endpoint's own until its handshake tells it.
        final PathParameters path = new PathParameters(context.maxDatagramSizeBytes(), context.maxAckDelayNs());
        final RttEstimator rttEstimator =
            new RttEstimator(recoveryConfig.initialRttNs(), recoveryConfig.granularityNs());
        final CongestionControllerFactory factory = registry.factory(handle.congestionControl());
        final CongestionController controller = factory.newController(new ConnectionControllerContext(
            path, rttEstimator, random.split(), context.controllerParameters(), handle.counters()));
        handle.counters().registerControllerState(controller.stateNames());
        handle.counters().publishControllerState(controller.stateName());
        final ReceivedPacketTracker ackTracker = new ReceivedPacketTracker(
            PacketDecoder.MAX_ACK_RANGES, context.maxAckDelayNs());

        return new ConnectionCore(
            handle.connectionId(),
            isClient,
            handle.remoteAddress(),
            handle,
            path,
            new LossRecovery(recoveryConfig, path, rttEstimator, controller),
            controller,
            ackTracker,
            endpointCounters,
            context,
            nowNs);
    }

    private void addConnection(final ConnectionCore connection)
    {
        connections.add(connection);
        connectionsById.put(connection.localId(), connection);
        scheduler.addFlow(connection);
        endpointCounters.connectionsOpened().incrementRelease();
    }

    // ---------------------------------------------------------------- receive

    public void onDatagram(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress source, final long nowNs)
    {
        endpointCounters.datagramsReceived().incrementRelease();
        endpointCounters.bytesReceived().getAndAddRelease(length);
        try
        {
            if (PacketDecoder.OK != decoder.validate(buffer, offset, length))
            {
                endpointCounters.malformedDropped().incrementRelease();
                return;
            }

            header.wrap(buffer, offset);
            final int packetType = header.packetType();
            if (PacketType.HANDSHAKE == packetType)
            {
                onHandshakePacket(buffer, offset, length, source, nowNs);
            }
            else if (PacketType.ONE_RTT == packetType || PacketType.CLOSE == packetType)
            {
                onConnectionPacket(buffer, offset, length, nowNs);
            }
            else
            {
                endpointCounters.unknownConnection().incrementRelease();
            }
        }
        catch (final Throwable ex)
        {
            endpointCounters.errors().incrementRelease();
            context.errorHandler().onError(ex);
        }
    }

    private void onConnectionPacket(final DirectBuffer buffer, final int offset, final int length, final long nowNs)
    {
        final ConnectionCore connection = connectionsById.get(header.destinationConnectionId());
        if (null != connection && ConnectionState.CONNECTING == connection.state() &&
            PacketType.CLOSE == header.packetType())
        {
            connection.onRejected();
            return;
        }
        if (null == connection || ConnectionState.CONNECTING == connection.state() || connection.isClosed())
        {
            endpointCounters.unknownConnection().incrementRelease();
            return;
        }

        final long packetNumber = header.packetNumber();
        if (connection.isDuplicate(packetNumber))
        {
            endpointCounters.duplicatePackets().incrementRelease();
            connection.handle().counters().increment(ConnectionCounters.DUPLICATE_PACKETS);
            return;
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
        final long destinationId = header.destinationConnectionId();
        final HandshakeFrameFlyweight handshake = handshakeFrame(buffer, offset, length);
        if (null == handshake || handshake.isResponse() != (0 != destinationId))
        {
            endpointCounters.malformedDropped().incrementRelease();
            return;
        }

        if (0 != destinationId)
        {
            final ConnectionCore connection = connectionsById.get(destinationId);
            if (null != connection && connection.isClient())
            {
                connection.onHandshakeResponse(handshake, nowNs);
            }
            else
            {
                endpointCounters.unknownConnection().incrementRelease();
            }
            return;
        }

        final long clientId = handshake.sourceConnectionId();
        final ConnectionCore existing = serverConnectionsByClientId.get(clientId);
        if (null != existing && existing.remoteAddress().equals(source))
        {
            existing.onHandshakeRetransmission(nowNs);
            return;
        }

        if (!context.acceptConnections() || connections.size() >= context.maxConnections())
        {
            endpointCounters.connectionsRejected().incrementRelease();
            sendRejection(clientId, source);
            return;
        }

        final ConnectionHandle handle = newHandle(
            idGenerator.nextId(), source, serverController(), ConnectionState.CONNECTED);
        final ConnectionCore connection = newCore(handle, false, nowNs);
        connection.applyPeerHandshake(handshake, nowNs);
        addConnection(connection);
        serverConnectionsByClientId.put(clientId, connection);
        if (!acceptHandler.onAccepted(handle))
        {
            // The application is not accepting: refuse rather than hold a connection nobody reads.
            connection.abortWithClose(ConnectionCore.PROTOCOL_VIOLATION_ERROR, CloseReason.REJECTED);
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
        if (handshakeNamesController)
        {
            final String name = decoder.congestionControl().name();
            if (registry.names().contains(name))
            {
                return name;
            }
        }
        return context.congestionControl();
    }

    /**
     * @return the last HANDSHAKE frame of a validated handshake packet, or null; a client's CONGESTION_CONTROL frame
     * beside it is noted for {@link #serverController()}, and any other frame there is ignored.
     */
    private HandshakeFrameFlyweight handshakeFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        boolean found = false;
        handshakeNamesController = false;
        for (int frameType = decoder.firstFrame(buffer, offset, length);
            PacketDecoder.NO_MORE_FRAMES != frameType;
            frameType = decoder.nextFrame())
        {
            found |= FrameType.HANDSHAKE == frameType;
            handshakeNamesController |= FrameType.CONGESTION_CONTROL == frameType;
        }
        return found ? decoder.handshake() : null;
    }

    private void sendRejection(final long clientId, final InetSocketAddress source)
    {
        writer.wrap(sendBuffer, 0, context.maxDatagramSizeBytes());
        writer.writeHeader(PacketType.CLOSE, clientId, 0);
        writer.appendClose(ConnectionCore.REJECTED_ERROR, null, 0, 0);
        send(writer.length(), source);
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
        retire(connection.handle());
    }

    private static void retire(final ConnectionHandle handle)
    {
        handle.stats().freeze();
        handle.counters().close();
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
                writer.wrap(sendBuffer, 0, connection.maxDatagramSizeBytes());
                send(connection.writeHandshake(writer, nowNs), connection.remoteAddress());
                sent++;
            }
        }
        return sent + scheduler.sendPackets(nowNs, context.sendBatchLimit() - sent, packetSender);
    }

    private int sendPacket(final ConnectionCore connection, final boolean ackOnly, final long nowNs)
    {
        writer.wrap(sendBuffer, 0, connection.maxDatagramSizeBytes());
        final int sentPacket = connection.buildPacket(writer, sendBuffer, nowNs, ackOnly);
        send(SentPacket.lengthBytes(sentPacket), connection.remoteAddress());
        return sentPacket;
    }

    private void send(final int length, final InetSocketAddress destination)
    {
        if (port.send(sendBuffer, 0, length, destination))
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
     * Close every connection (each peer is sent a CLOSE), release counters and the port. Closing again does nothing.
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
            connection.abortWithClose(ConnectionCore.NO_ERROR, CloseReason.ENDPOINT_CLOSED);
            if (0 != (connection.sendable(nowNs) & SchedulableFlow.ACK_ELICITING))
            {
                sendPacket(connection, false, nowNs);
            }
            connection.handle().closed(CloseReason.ENDPOINT_CLOSED);
            retire(connection.handle());
        }
        connections.clear();
        connectionsById.clear();
        endpointCounters.close();
        port.close();
    }
}
