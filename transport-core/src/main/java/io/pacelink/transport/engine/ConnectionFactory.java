package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.memory.BudgetedSegments;
import io.pacelink.transport.memory.MemoryBudget;
import io.pacelink.transport.memory.SegmentPool;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.recovery.PathParameters;
import io.pacelink.transport.recovery.RecoveryConfig;
import io.pacelink.transport.recovery.RttEstimator;
import io.pacelink.transport.secure.AeadGuard;
import io.pacelink.transport.secure.PacketGuard;
import io.pacelink.transport.secure.SecureSession;
import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stats.CounterReservations;
import io.pacelink.transport.stats.CountersBuffers;
import io.pacelink.transport.stats.CountersSizing;
import io.pacelink.transport.stats.EndpointCounters;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.stream.ReceiveLog;
import io.pacelink.transport.stream.SendLog;
import io.pacelink.transport.wire.PacketDecoder;
import org.agrona.concurrent.status.CountersManager;

import java.net.InetSocketAddress;
import java.util.function.LongPredicate;

/**
 * Makes an endpoint's connections: a fresh id, the handle with its stream buffers and counters, and the core with its
 * loss recovery, controller and ACK tracker, all charged to the endpoint's memory budget; and returns what a
 * connection held when it is gone ({@link #retire}). A set-up that fails leaks nothing.
 */
final class ConnectionFactory
{
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

    private final PacelinkContext context;
    private final CongestionControlRegistry registry;
    private final CountersManager countersManager;
    private final ConnectionIdGenerator idGenerator;
    private final SeededRandom random;
    private final MemoryBudget memoryBudget;
    private final SegmentPool receiveSegments;
    private final BudgetedSegments sendSegments;
    private final EndpointCounters endpointCounters;
    private final SecurityCounters securityCounters;
    private final WaitDriver waitDriver;
    private final ApplicationSignals signals;
    private final PacketGuard plaintextGuard;
    private final AeadGuard.Buffers aeadBuffers;
    private final boolean isEcnCapable;
    private final ServerTokens serverTokens = new ServerTokens();
    private final CounterReservations counterReservations = new CounterReservations();
    private CountersManager refusedCountersManager;

    ConnectionFactory(
        final PacelinkContext context,
        final CongestionControlRegistry registry,
        final CountersManager countersManager,
        final ConnectionIdGenerator idGenerator,
        final SeededRandom random,
        final EndpointCounters endpointCounters,
        final SecurityCounters securityCounters,
        final WaitDriver waitDriver,
        final ApplicationSignals signals,
        final PacketGuard plaintextGuard,
        final AeadGuard.Buffers aeadBuffers,
        final boolean isEcnCapable,
        final boolean directSendSegments)
    {
        this.signals = signals;
        this.context = context;
        this.registry = registry;
        this.countersManager = countersManager;
        this.idGenerator = idGenerator;
        this.random = random;
        this.endpointCounters = endpointCounters;
        this.securityCounters = securityCounters;
        this.waitDriver = waitDriver;
        this.plaintextGuard = plaintextGuard;
        this.aeadBuffers = aeadBuffers;
        this.isEcnCapable = isEcnCapable;
        this.memoryBudget = new MemoryBudget(context.limits().memoryBudgetBytes());
        this.receiveSegments = new SegmentPool(memoryBudget, SegmentPool.DEFAULT_SEGMENT_BYTES,
            Math.min(POOL_RETAINED_BYTES, context.limits().memoryBudgetBytes() / 4));
        // Direct where the port sends payloads from the send log in place (docs/io.md, "With GSO off, the payload
        // from the send log, in place").
        this.sendSegments =
            new BudgetedSegments(memoryBudget, SegmentPool.DEFAULT_SEGMENT_BYTES, directSendSegments);
    }

    /**
     * @return the budget every connection's buffers are charged to.
     */
    MemoryBudget memoryBudget()
    {
        return memoryBudget;
    }

    /**
     * @return true if the memory budget has room for one more connection.
     */
    boolean hasMemoryForNewConnection()
    {
        return memoryBudget.hasRoomFor(NEW_CONNECTION_BYTES);
    }

    /**
     * @return true if the counters buffer has room for one more connection's counters.
     */
    boolean hasCountersForNewConnection()
    {
        return CountersSizing.hasRoomForConnection(countersManager, counterReservations.reservedCounters());
    }

    /**
     * @param isIdInUse whether an id already names a connection.
     * @return a fresh local id.
     */
    long nextId(final LongPredicate isIdInUse)
    {
        return idGenerator.nextId(isIdInUse);
    }

    /**
     * A client's connection that was refused before it began: already CLOSED (REJECTED), retired.
     */
    ConnectionHandle rejected(
        final long connectionId, final InetSocketAddress remoteAddress, final String controllerName, final String why)
    {
        final boolean fits = hasCountersForNewConnection();
        // Closed at once, so its reservation is returned at once; one in the refusals' own buffer reserves nothing
        // in the endpoint's.
        final ConnectionHandle handle = newHandle(fits ? countersManager : refusedCountersManager(),
            fits ? counterReservations : new CounterReservations(), connectionId, remoteAddress, controllerName,
            ConnectionState.CONNECTING);
        handle.closed(CloseReason.REJECTED, why);
        retire(handle);
        return handle;
    }

    /**
     * A refused connection's counters live only until its stats are frozen: when the endpoint's counters buffer is
     * full (the refusal's very reason) they go to a small buffer of their own, made on the first such refusal.
     */
    private CountersManager refusedCountersManager()
    {
        if (null == refusedCountersManager)
        {
            refusedCountersManager = CountersBuffers.newManager(CountersSizing.MIN_VALUES_BUFFER_BYTES);
        }
        return refusedCountersManager;
    }

    /**
     * Create a connection with its buffers and counters; if any part fails the counters it registered are returned,
     * so a failed set-up leaks nothing.
     */
    ConnectionCore open(
        final long connectionId,
        final InetSocketAddress remoteAddress,
        final String controllerName,
        final boolean isClient,
        final SecureSession secureSession,
        final long nowNs)
    {
        final ConnectionHandle handle = newHandle(countersManager, counterReservations, connectionId, remoteAddress,
            controllerName, isClient ? ConnectionState.CONNECTING : ConnectionState.CONNECTED);
        try
        {
            final ConnectionCore connection = newCore(handle, isClient, secureSession, nowNs);
            final byte[] token = isClient ? serverTokens.take(remoteAddress) : null;
            if (null != token)
            {
                connection.helloWithNewToken(token);
            }
            return connection;
        }
        catch (final RuntimeException | Error ex)
        {
            retire(handle);
            throw ex;
        }
    }

    /**
     * Every close path ends here: the handle's stats are frozen, its counter slots returned and its buffers' memory
     * credited to the budget, whether the connection ever got further than its set-up or not.
     */
    static void retire(final ConnectionHandle handle)
    {
        handle.stats().freeze();
        handle.counters().close();
        handle.sendLog().releaseMemory();
        handle.receiveLog().releaseMemory();
    }

    @SuppressWarnings("deprecation") // maxReceiveRanges still caps the count for one minor version
    private ConnectionHandle newHandle(
        final CountersManager countersManager,
        final CounterReservations reservations,
        final long connectionId,
        final InetSocketAddress remoteAddress,
        final String controllerName,
        final ConnectionState initialState)
    {
        final ConnectionCounters counters = new ConnectionCounters(
            countersManager, connectionId,
            "conn " + Long.toHexString(connectionId) + " " + remoteAddress + " " + controllerName, reservations);
        return new ConnectionHandle(
            connectionId,
            remoteAddress,
            controllerName,
            new SendLog(context.sendBufferBytes(), context.maxMessageLengthBytes(), context.unsentLowWatermarkBytes(),
                sendSegments),
            new ReceiveLog(context.receiveBufferBytes(), context.maxMessageLengthBytes(),
                context.limits().maxReceiveRanges(), receiveSegments),
            counters,
            context.maxMessageLengthBytes(),
            initialState,
            waitDriver,
            signals);
    }

    private ConnectionCore newCore(
        final ConnectionHandle handle, final boolean isClient, final SecureSession secureSession, final long nowNs)
    {
        final RecoveryConfig recoveryConfig = new RecoveryConfig()
            .sentPacketCapacity(context.sentPacketCapacity())
            .initialRttNs(context.initialRttNs())
            .minRttSampleNs(context.limits().minRttSampleNs())
            .ecn(isEcnCapable);
        // The peer's max_ack_delay is assumed to be this endpoint's own until its handshake tells it.
        final PathParameters path = new PathParameters(context.maxDatagramSizeBytes(), context.maxAckDelayNs());
        final RttEstimator rttEstimator =
            new RttEstimator(recoveryConfig.initialRttNs(), recoveryConfig.granularityNs());
        final CongestionControllerFactory factory = registry.factory(handle.congestionControl());
        final CongestionController controller = newController(factory, path, rttEstimator, handle);
        final ReceivedPacketTracker ackTracker = new ReceivedPacketTracker(PacketDecoder.MAX_ACK_RANGES,
            ReceivedPacketTracker.DEFAULT_ACK_ELICITING_THRESHOLD, context.maxThinnedAckThreshold(),
            context.maxAckDelayNs());

        return new ConnectionCore(
            handle.connectionId(),
            isClient,
            handle,
            path,
            new LossRecovery(recoveryConfig, path, rttEstimator, controller, memoryBudget),
            () ->
            {
                handle.counters().releaseControllerCounters();
                return newController(factory, path, rttEstimator, handle);
            },
            ackTracker,
            random.split(),
            endpointCounters,
            securityCounters,
            context,
            secureSession,
            plaintextGuard,
            aeadBuffers,
            isClient ? serverTokens : null,
            nowNs);
    }

    private CongestionController newController(
        final CongestionControllerFactory factory,
        final PathParameters path,
        final RttEstimator rttEstimator,
        final ConnectionHandle handle)
    {
        final CongestionController controller = factory.newController(new ConnectionControllerContext(
            path, rttEstimator, random.split(), context.controllerParameters(), handle.counters()));
        handle.counters().registerControllerState(controller.stateNames());
        handle.counters().publishControllerState(controller.stateName());
        return controller;
    }
}
