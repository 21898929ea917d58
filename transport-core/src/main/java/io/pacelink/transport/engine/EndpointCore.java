package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.admission.AddressValidator;
import io.pacelink.transport.admission.HandshakeBudget;
import io.pacelink.transport.admission.KeyExchangeBudget;
import io.pacelink.transport.admission.HelloAdmission;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.memory.MemoryBudget;
import io.pacelink.transport.port.DatagramHandler;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.ReceiveBatch;
import io.pacelink.transport.recovery.SentPacketDescriptor;
import io.pacelink.transport.schedule.PacketScheduler;
import io.pacelink.transport.schedule.Release;
import io.pacelink.transport.schedule.SchedulableFlow;
import io.pacelink.transport.secure.AeadGuard;
import io.pacelink.transport.secure.Crc32cGuard;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.secure.EndpointKeys;
import io.pacelink.transport.secure.PacketGuard;
import io.pacelink.transport.secure.PacketProtection;
import io.pacelink.transport.secure.SecureSession;
import io.pacelink.transport.secure.StatelessResetTokens;
import io.pacelink.transport.stats.CountersSizing;
import io.pacelink.transport.stats.EndpointCounters;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.stream.SendLog;
import io.pacelink.transport.wire.FrameHeaderFlyweight;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketWriter;
import io.pacelink.transport.wire.PathFrameFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.function.LongSupplier;

/**
 * The sans-IO protocol core of an endpoint (docs/architecture.md): one UDP port, many connections. Driven by a duty
 * cycle with the time handed in — {@link #doWork(NanoClock)} on a running clock, {@link #doWork(long)} at one instant
 * of virtual time; it stores no clock, sleeps nowhere, creates no threads and reaches the network only through its
 * {@link DatagramPort}. The same object runs on sockets in real time (driven by the endpoint's agent) and inside the
 * virtual-time simulator.
 * <p>
 * A duty cycle flows one way. If an application acted since the last cycle on a connection that cycle left with
 * nothing to do, the cycle first serves that connection and sends what it offered, so an answer offered between two
 * cycles leaves before the socket is read. Then it receives a batch of datagrams and processes every one at one time
 * (the {@link DatagramDispatcher}: integrity, validation, to a connection or the {@link Acceptor}); fires every due
 * timer and activates in the scheduler the connections with something to send; then sends — each handshake due,
 * then each release the scheduler answers ({@link PacketScheduler#next}), the packet written by the connection's
 * {@link PacketAssembler} straight into the {@link Outbox}'s batch, sealed by its {@link PacketGuard}, recorded by
 * the connection through one reused {@link SentPacketDescriptor} and charged to the scheduler — and hands the batch
 * to the port. An ACK frame that a request carried (a packet with application data) may be parked by its connection
 * until the answer has been sent ({@code FrameReceiver#onAck}): it is applied after the send phase that carries what
 * the application offered next, or at the start of the next cycle, which then comes at once.
 * <p>
 * Single-threaded: every method is called by the agent thread (or the simulator), never by an application thread.
 * The public {@code Endpoint} is the thread boundary: it enqueues an application's connect for its agent and hands
 * accepted connections over through a queue.
 */
public final class EndpointCore implements DatagramHandler
{
    private static final int NO_DEFERRED_DATAGRAMS = -1;

    /**
     * Types on every connection's send path that only secure mode instantiates ({@code ConnectionCore.guard()}),
     * loaded with this class. Left unloaded in a plaintext process, C2 compiles that path with an uncommon trap for
     * the unloaded class, which fires on the plaintext return too: the agent's hot path is deoptimised once,
     * mid-transfer, to load the class and is compiled again (HotSpot's {@code Deoptimization::Reason_unloaded}); seen
     * as a class loaded on the agent's thread seconds into a transfer.
     */
    private static final Class<?>[] SECURE_SEND_PATH_TYPES =
        {SecureSession.class, PacketProtection.class, AeadGuard.class};

    private final PacelinkContext context;
    private final DatagramPort port;
    private final CongestionControlRegistry registry;
    private final PacketScheduler<ConnectionCore> scheduler;
    private final EndpointCounters endpointCounters;
    private final SecurityCounters securityCounters;
    private final EndpointKeys keys;
    private final boolean isSecureClient;
    private final boolean isPreparingAnswers;
    private final ConnectionTable connections;
    private final ConnectionDeadlines deadlines = new ConnectionDeadlines();
    private final ApplicationSignals applicationSignals;
    private final ConnectionFactory factory;
    private final Acceptor acceptor;
    private final DatagramDispatcher dispatcher;
    private final ConnectionFailures failures;
    private final ReceiveBatch receiveBatch;
    private int deferredFromIndex = NO_DEFERRED_DATAGRAMS;
    private final Outbox outbox;
    private final PacketWriter writer = new PacketWriter();
    private final Crc32cGuard crcGuard = new Crc32cGuard();
    private final GatheredPayload gathered = new GatheredPayload();
    private final SentPacketDescriptor sentPacket = new SentPacketDescriptor();
    private final ArrayList<ConnectionCore> parkedAckConnections = new ArrayList<>();
    /**
     * Connections this cycle received a request for and leaves to the answer's service
     * ({@link ConnectionCore#leavesServiceToAnswer}); cleared as the cycle ends.
     */
    private final ArrayList<ConnectionCore> leftToAnswer = new ArrayList<>();
    private long parkedAckDueNs = Long.MAX_VALUE;
    private boolean isServingOffered;
    /**
     * True in the send phase of {@link #sendOffered} when it serves one connection: that connection's answer, if it
     * is a packet of its own, is handed to the port before it is recorded.
     */
    private boolean isLoneAnswerSend;
    /**
     * The connection whose answer {@link #serve} chose for the lone answer's shortcut ({@link #sendLoneAnswer}),
     * not activated in the scheduler; null otherwise.
     */
    private ConnectionCore loneAnswer;
    private long loneAnswerPacingRateBytesPerSecond;
    private int loneAnswerSendQuantumBytes;
    private long loneAnswerCongestionWindowBytes;
    private long loneAnswersSent;
    private boolean isLoneAnswerShortcut = true;
    private boolean isClosed;
    /**
     * The memory budget's figures last stored in the security counters ({@link #endDutyCycle}); -1 before the first.
     */
    private long publishedMemoryCommittedBytes = -1;
    private long publishedMemoryRefusals = -1;

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
        this.context = context;
        this.port = port;
        this.registry = registry;
        this.scheduler = scheduler;
        final String endpointName = "endpoint " + port.localAddress();
        this.endpointCounters = new EndpointCounters(countersManager, endpointName);
        this.securityCounters = new SecurityCounters(countersManager, endpointName);
        final LongSupplier randomSource = context.newRandomSource();
        final ConnectionIdGenerator idGenerator = null == context.randomSeed() ?
            ConnectionIdGenerator.keyed(randomSource) : ConnectionIdGenerator.drawing(randomSource);
        final SeededRandom random = new SeededRandom(randomSource.getAsLong());
        final byte[] tokenKey = new byte[AddressValidator.KEY_LENGTH];
        for (int i = 0; i < tokenKey.length; i += Long.BYTES)
        {
            new UnsafeBuffer(tokenKey).putLong(i, randomSource.getAsLong());
        }
        final HelloAdmission admission =
            new HelloAdmission(context.limits(), tokenKey, randomSource.getAsLong(), securityCounters);
        this.keys = context.security().newEndpointKeys(randomSource);
        this.isSecureClient = null != keys.clientProfile();
        this.isPreparingAnswers = keys.isSecureServer() && context.acceptConnections();
        registry.factory(context.congestionControl()).validate(context.controllerParameters());

        final long handshakeBudgetSeed = randomSource.getAsLong();
        final HandshakeBudget handshakeBudget = new HandshakeBudget(context.limits().maxUnconfirmedHandshakes(),
            context.limits().maxUnconfirmedHandshakesPerSource(), handshakeBudgetSeed);
        // A seed of its own without another draw: the draws after it (ids, keys) stay where seeded runs expect them.
        final KeyExchangeBudget keyExchanges =
            new KeyExchangeBudget(context.limits(), Long.rotateLeft(handshakeBudgetSeed, 29));
        this.connections = new ConnectionTable(
            scheduler, endpointCounters, port, context.acceptConnections(), deadlines, handshakeBudget);
        this.applicationSignals = new ApplicationSignals(context.maxConnections());
        this.factory = new ConnectionFactory(context, registry, countersManager, idGenerator, random,
            endpointCounters, securityCounters, waitDriver, applicationSignals, crcGuard,
            isSecureClient || keys.isSecureServer() ?
            new AeadGuard.Buffers(PacelinkContext.MAX_DATAGRAM_SIZE_BYTES) : null,
            context.ecn() && port.sendsEcn(), port.sendsGathered());
        this.outbox = new Outbox(port, context.sendBatchLimit(), context.maxDatagramSizeBytes(), endpointCounters);
        final StatelessResetTokens resetTokens =
            new StatelessResetTokens(StatelessResetTokens.key(context.security(), tokenKey));
        final StatelessReplies replies = new StatelessReplies(outbox, writer, crcGuard,
            context.maxDatagramSizeBytes(), context.limits(), randomSource.getAsLong(),
            resetTokens, resetTokens.paddingSeed(tokenKey), securityCounters);
        this.acceptor = new Acceptor(context, connections, factory, admission, handshakeBudget, keyExchanges, keys,
            registry,
            acceptHandler, replies, endpointCounters, securityCounters);
        this.failures = new ConnectionFailures(context.errorHandler(), endpointCounters.errors(), connections);
        this.dispatcher =
            new DatagramDispatcher(context, connections, acceptor, replies, crcGuard, endpointCounters,
                securityCounters, failures);
        this.receiveBatch = port.newReceiveBatch(context.receiveBatchLimit());
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
        final String controllerName = controllerName(congestionControl);
        final String refusal = connectRefusal();
        if (null != refusal)
        {
            endpointCounters.connectionsRejected().incrementRelease();
            return factory.rejected(factory.nextId(connections.isIdInUse()), remoteAddress, controllerName, refusal);
        }
        final ConnectionCore connection = factory.open(factory.nextId(connections.isIdInUse()), remoteAddress,
            controllerName, true, isSecureClient ? SecureSession.client(keys) : null, nowNs);
        connections.add(connection);
        return connection.handle();
    }

    /**
     * Work for an agent that idles: a secure client makes its next connect's first message ahead
     * ({@link EndpointKeys#prepareInitiator}), a secure server its next answer's ephemeral key pair
     * ({@link EndpointKeys#prepareResponderKeyPair}), so that neither pays those X25519 operations on a connect's
     * path. Only the agent of an unseeded endpoint calls it: the simulator's driver never does, and a seeded endpoint's
     * agent does not either, so its keys are drawn where they always were and its connection ids and keys stay the
     * ones its seed gave.
     *
     * @return true if it did something (the caller then runs a duty cycle before it sleeps).
     */
    public boolean prepareWhileIdle()
    {
        return !isClosed && (isSecureClient && keys.prepareInitiator(0 == connectionCount()) ||
            isPreparingAnswers && keys.prepareResponderKeyPair());
    }

    /**
     * Build a client's and a server's connection with the context's controller and take both apart again, before the
     * first connect: the classes a connection is made of are loaded, initialised and linked here, on the launching
     * thread, instead of on the agent's in the middle of the first connects, where loading them was 12-15 % of the
     * agent's work in a burst of 100 connects in a fresh process (perf/FINDINGS.md, "Scale round 6"). Nothing is left
     * behind: the counters registered are freed, the memory charged is credited, no table or counter of the endpoint
     * sees either. Not for a deterministic endpoint ({@link PacelinkContext#randomSeed(long)}): each draws from its
     * random source. Call it before the agent runs, or on its thread.
     *
     * @param nowNs the current time.
     */
    public void primeConnectionPath(final long nowNs)
    {
        if (!factory.hasCountersForNewConnection() || !factory.hasMemoryForNewConnection())
        {
            return;
        }
        final InetSocketAddress nowhere = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        for (final boolean isClient : new boolean[] {true, false})
        {
            final ConnectionCore connection =
                factory.open(0, nowhere, context.congestionControl(), isClient, null, nowNs);
            connection.releaseMemory();
            ConnectionFactory.retire(connection.handle());
        }
    }

    /**
     * The controller a new connection would run, checked the way {@link #connect} checks it. Any thread: it reads
     * only the concluded context and the registry, neither of which changes.
     *
     * @param congestionControl the name asked for, or null for the context's.
     * @return the controller's name.
     * @throws IllegalArgumentException if no controller has that name or the context's parameters are invalid for it.
     */
    public String controllerName(final String congestionControl)
    {
        final String controllerName = null == congestionControl ? context.congestionControl() : congestionControl;
        registry.factory(controllerName).validate(context.controllerParameters());
        return controllerName;
    }

    /**
     * @return why a new client connection is refused (counted in its own counter), or null if it may open.
     */
    private String connectRefusal()
    {
        if (connections.establishedCount() >= context.maxConnections())
        {
            endpointCounters.connectionsRefusedLimit().incrementRelease();
            return "this endpoint has its maximum of connections (maxConnections=" + context.maxConnections() + ")";
        }
        if (!factory.hasCountersForNewConnection())
        {
            endpointCounters.connectionsRefusedCounters().incrementRelease();
            return "this endpoint's counters buffer is full (countersBufferBytes=" + context.countersBufferBytes() +
                " holds about " + CountersSizing.connectionsHeld(context.countersBufferBytes()) + " connections)";
        }
        if (!factory.hasMemoryForNewConnection())
        {
            return "this endpoint's memory budget is spent (memoryBudgetBytes=" +
                context.limits().memoryBudgetBytes() + ")";
        }
        return null;
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
        final ConnectionCore connection = connections.find(connectionId);
        return null == connection ? "CLOSED" : connection.controller().stateName();
    }

    /**
     * @param connection a connection {@link #connect} returned.
     * @return its send log, or null for a connection refused at once; for the simulator's bulk applications, which run
     * on the agent's thread and keep only what the next duty cycles send unsent (docs/simulation.md, "Simulator
     * speed"). Read only: the log's producer is the connection's {@code offer}, its consumer this endpoint.
     */
    public SendLog sendLogOf(final Connection connection)
    {
        return connection instanceof ConnectionHandle ? ((ConnectionHandle)connection).sendLog() : null;
    }

    /**
     * @return the packet scheduler in use.
     */
    public PacketScheduler<?> scheduler()
    {
        return scheduler;
    }

    /**
     * @return the budget every connection's buffers are charged to.
     */
    public MemoryBudget memoryBudget()
    {
        return factory.memoryBudget();
    }

    /**
     * @return the connections, for the engine's tests.
     */
    ConnectionTable connectionTable()
    {
        return connections;
    }

    /**
     * @return connections the last duty cycle served (a datagram, a due timer or their application asked for them).
     */
    int connectionsServed()
    {
        return connections.servedCount();
    }

    // ---------------------------------------------------------------- duty cycle

    /**
     * @param connectionId a connection's id ({@link Connection#connectionId()}).
     * @return its protocol state, or null: for tests of this package.
     */
    ConnectionCore connectionCore(final long connectionId)
    {
        return connections.find(connectionId);
    }

    /**
     * One duty cycle at one instant: virtual time, where nothing happens between the steps of a cycle.
     *
     * @param nowNs the current time.
     * @return the amount of work done; 0 lets the idle strategy idle until {@link #nextDeadlineNs()}.
     */
    public int doWork(final long nowNs)
    {
        acceptor.startDutyCycle();
        int work = sendOffered(nowNs);
        work += applyParkedAcks();
        final int markedBeforeReceive = connections.markedCount();
        receive();
        work += onReceived(nowNs, null, nowNs);
        connections.unmarkLeftToAnswer(markedBeforeReceive, nowNs, leftToAnswer);
        work += serviceConnections(nowNs);
        work += send(nowNs);
        endDutyCycle(nowNs, 0);
        return work;
    }

    /**
     * One duty cycle on a running clock. An RTT sample must never be shorter than the path's RTT, however late the
     * thread runs, so every time this cycle uses is read after what it stamps happened and never before: what the
     * application offered since the last cycle leaves at the time read as the cycle starts; the clock is read once
     * after the receive, and every datagram of the batch is processed at that time (a datagram that waited
     * in the socket while the thread was descheduled gets the time it was seen, never an earlier one); timers fire at
     * that time too; and the clock is read once more before the packets of the send phase are built, so each is
     * stamped a little before it leaves, which can only lengthen an RTT sample. One time is earlier: an ACK's arrival,
     * which times the delivery-rate sample, is the kernel's receive time of its datagram where the port reads it
     * ({@link ReceiveBatch#arrivalTimeNs}, never after the cycle's time), as Linux TCP times it; a rate measured by
     * the thread's reads would carry its wakes' lateness. The core stores no clock: the agent
     * hands it the real one for this cycle, the simulator calls {@link #doWork(long)} with its virtual time.
     *
     * @param clock the time, read as the cycle goes.
     * @return the amount of work done; 0 lets the idle strategy idle until {@link #nextDeadlineNs()}.
     */
    public int doWork(final NanoClock clock)
    {
        return doWork(clock, clock.nanoTime());
    }

    /**
     * {@link #doWork(NanoClock)} starting at a time the caller has just read on the same clock (the agent reads it
     * for its own bookkeeping right before), which the cycle uses as its start instead of reading it again.
     * <p>
     * The clock is read only where a time can have moved on: after the receive, unless the cycle had done nothing
     * before it and it brought nothing (then the start stands: nothing arrived to be stamped, and a timer compared
     * with the earlier time fires no earlier, at worst in the next cycle); before the send phase only if a
     * connection was served since — otherwise the read after the receive is still from before anything is sent (a
     * cycle that only processed datagrams, a request's among them whose service it leaves to the answer, sends at
     * most what the pacer held from earlier cycles), so a packet stamped with it can only lengthen an RTT sample;
     * and for the cycle's duration only if it did more than dispatch one datagram — an idle cycle's length is 0, and
     * a cycle that only left a request to its answer ends at its read after the receive ({@link #isLoneDispatch}). A
     * busy-spinning agent whose socket is empty then reads the clock once per turn (the agent's read) instead of five
     * times (a vDSO {@code clock_gettime} on a virtual machine's clock source is tens of nanoseconds: 9-14 % of a
     * spinning thread, perf/FINDINGS.md, branches lat11 and lat24), and notices an arrival that much sooner.
     *
     * @param clock   the time, read as the cycle goes.
     * @param startNs the clock's time as the cycle starts, just read.
     * @return the amount of work done; 0 lets the idle strategy idle until {@link #nextDeadlineNs()}.
     */
    public int doWork(final NanoClock clock, final long startNs)
    {
        acceptor.startDutyCycle();
        int work = sendOffered(startNs);
        work += applyParkedAcks();
        final int markedBeforeReceive = connections.markedCount();
        receive();
        // A cycle that has done nothing and received nothing keeps the time it started at: nothing it could stamp
        // arrived, and its timers compared with that time fire no earlier than with a later one — at most one receive
        // later, in the next cycle. A busy-spinning agent's empty turn then reads the clock once, not twice: an
        // arrival is noticed that much sooner (perf/FINDINGS.md, branch lat24).
        final long nowNs = 0 == work && receiveBatch.isEmpty() ? startNs : clock.nanoTime();
        final int processed = onReceived(nowNs, clock, startNs);
        connections.unmarkLeftToAnswer(markedBeforeReceive, nowNs, leftToAnswer);
        final int serviced = serviceConnections(nowNs);
        final boolean isAnyServed = 0 != connections.servedCount();
        final boolean isLoneDispatch = !isAnyServed && isLoneDispatch(processed);
        final long sendNs = isAnyServed ? clock.nanoTime() : nowNs;
        final int sent = send(sendNs);
        work += processed + serviced + sent;
        // The cycle's end, for the longest duty cycle's counter: the time read after the receive if nothing was done
        // since but a lone datagram's dispatch (isLoneDispatch), else a read now; an idle cycle's is its start.
        endDutyCycle(sendNs, (0 == work || isLoneDispatch && 0 == sent ? nowNs : clock.nanoTime()) - startNs);
        return work;
    }

    /**
     * Whether all this duty cycle did after the clock read that follows its receive was one datagram's dispatch — no
     * key exchange, no reply written, no connection served so far (a request whose service it left to the answer,
     * {@link ConnectionCore#leavesServiceToAnswer}) — so that, if it sends nothing either, that read may stand for its
     * end in the longest duty cycle's counter: the dispatch of one datagram is well under a microsecond, while another
     * read is tens of nanoseconds on a virtual machine's clock, on the path from a request's arrival to its answer
     * (perf/FINDINGS.md, branch lat19).
     *
     * @param processed datagrams (and a reported unreachable peer) processed after the receive.
     */
    private boolean isLoneDispatch(final int processed)
    {
        return processed <= 1 && 0 == outbox.size() && !acceptor.hasExchangedKeysThisDutyCycle();
    }

    /**
     * After the send phase, for each connection served: count what limits it, move its timer to its next deadline,
     * and mark it for the next duty cycle if it needs one whatever arrives ({@link ConnectionCore#isServiceNeeded}).
     */
    private void endDutyCycle(final long nowNs, final long durationNs)
    {
        finishServed(nowNs, false);
        ageLeftToAnswer();
        parkedAckDueNs = parkedAckConnections.isEmpty() ? Long.MAX_VALUE : nowNs;
        final MemoryBudget memoryBudget = factory.memoryBudget();
        // Stored only when they moved: each counter is a cache line of its own, cold in a cycle that changed neither.
        final long committedBytes = memoryBudget.committedBytes();
        if (committedBytes != publishedMemoryCommittedBytes)
        {
            publishedMemoryCommittedBytes = committedBytes;
            securityCounters.memoryCommittedBytes().setRelease(committedBytes);
        }
        final long refusals = memoryBudget.refusals();
        if (refusals != publishedMemoryRefusals)
        {
            publishedMemoryRefusals = refusals;
            securityCounters.memoryRefusals().setRelease(refusals);
        }
        endpointCounters.onDutyCycle(nowNs, durationNs);
    }

    /**
     * The connections this cycle received a request for and did not serve ({@link #leftToAnswer}): the ACK frame each
     * parked now waits for the next cycle, like a served connection's ({@link #finishServed}), which then serves
     * it — in its first step with the answer if the application offered one, else once {@link #applyParkedAcks}
     * has applied the frame. One this cycle served after all (a timer fell due, its application acted) was aged
     * there, and is not taken twice.
     */
    private void ageLeftToAnswer()
    {
        final ArrayList<ConnectionCore> left = leftToAnswer;
        for (int i = 0, size = left.size(); i < size; i++)
        {
            final ConnectionCore connection = left.get(i);
            if (connection.tableIndex() >= 0 && connection.ageParkedAck())
            {
                parkedAckConnections.add(connection);
            }
        }
        left.clear();
    }

    /**
     * For each connection served since the connections were last taken: apply the ACK frame an earlier cycle parked
     * once the application's answer has been sent, or remember one this cycle parked for the next; count what limits
     * it, move its timer to its next deadline, and mark it for the next service if it needs one whatever arrives.
     *
     * @param isAnswerService true after the send phase of {@link #sendOffered}, false at the end of a duty cycle.
     */
    private void finishServed(final long nowNs, final boolean isAnswerService)
    {
        for (int i = 0, count = connections.servedCount(); i < count; i++)
        {
            final ConnectionCore connection = connections.served(i);
            if (connection.tableIndex() < 0)
            {
                continue;
            }
            try
            {
                if (isAnswerService)
                {
                    connection.applyEarlierParkedAck();
                }
                else if (connection.ageParkedAck())
                {
                    parkedAckConnections.add(connection);
                }
                // The send state the limits were counted from answers whether the connection needs the next cycle
                // too: nothing between the two changes it, and a concurrent offer signals the agent by itself.
                final int sendState = connection.countSendLimits(nowNs);
                connection.publishApplication();
                deadlines.schedule(connection, connection.nextDeadlineNs());
                if (connection.isServiceNeeded(sendState))
                {
                    connections.mark(connection);
                }
            }
            catch (final RuntimeException ex)
            {
                failures.onFailure(connection, ex);
            }
        }
    }

    /**
     * The first step of a duty cycle, taken only if an application acted since the last one: serve the connections
     * whose application acted and which the last cycle left with nothing to do — the application was their limit —
     * and send what they have, before the socket is read. An answer an application offers between two duty cycles
     * (an echo, a response polled and answered in its loop) then leaves at the start of the next cycle, not after
     * that cycle's receive — which usually finds nothing, and on a real socket costs a system call — and its
     * service. A connection the last cycle left with work (something to send, a stall, a packet sent: a bulk
     * sender whose application keeps its buffer full) is served after the receive, as before, so the ACKs that
     * arrive are processed before it sends more. The steps are the cycle's own ({@link #serveMarked}, {@link #send},
     * {@link #finishServed}), so a connection served here is served again after the receive only if a datagram, a
     * timer or its unfinished work marks it. The wheel's expired timers wait for the service after the receive; a
     * connection served here fires its own due timers, as every service does.
     */
    private int sendOffered(final long nowNs)
    {
        if (!applicationSignals.isPending())
        {
            return 0;
        }
        final int leftByLastCycle = connections.markedCount();
        applicationSignals.drainTo(connections);
        if (connections.markedCount() == leftByLastCycle)
        {
            return 0;
        }
        isServingOffered = true;
        int work;
        final int count = connections.takeMarkedFrom(leftByLastCycle);
        isLoneAnswerSend = 1 == count;
        try
        {
            try
            {
                work = serveMarked(count, nowNs);
            }
            finally
            {
                isServingOffered = false;
            }
            work += send(nowNs);
        }
        finally
        {
            isLoneAnswerSend = false;
            loneAnswer = null;
        }
        finishServed(nowNs, true);
        return work;
    }

    /**
     * Right after the answers offered between two duty cycles were sent, and before the port is read: apply the ACK
     * frames the last cycle parked ({@code FrameReceiver#onAck}) that no answer's send applied, so none waits for a
     * timer or the next arrival, and serve their connections in this cycle, which then act on them (a loss they
     * declared, the window they opened).
     *
     * @return the frames applied.
     */
    private int applyParkedAcks()
    {
        final ArrayList<ConnectionCore> parked = parkedAckConnections;
        final int size = parked.size();
        if (0 == size)
        {
            return 0;
        }
        int applied = 0;
        for (int i = 0; i < size; i++)
        {
            final ConnectionCore connection = parked.get(i);
            if (connection.tableIndex() < 0)
            {
                continue;
            }
            try
            {
                if (connection.applyEarlierParkedAck())
                {
                    connections.mark(connection);
                    applied++;
                }
            }
            catch (final RuntimeException ex)
            {
                failures.onFailure(connection, ex);
                applied++;
            }
        }
        parked.clear();
        parkedAckDueNs = Long.MAX_VALUE;
        return applied;
    }

    /**
     * Read the next batch from the port, unless the last cycle left part of its batch for this one.
     */
    private void receive()
    {
        if (NO_DEFERRED_DATAGRAMS == deferredFromIndex)
        {
            port.receive(receiveBatch, context.receiveBatchLimit());
        }
    }

    /**
     * Process every datagram of the receive batch, and a reported unreachable peer, at one time — up to a hello that
     * would take this duty cycle past its key exchanges, in count or, on a running clock, in time
     * ({@link Acceptor#isKeyExchangeTimeSpent}): that hello and the rest wait for the next cycle.
     *
     * @param clock            the clock the cycle runs on, read only before a hello once the cycle performed a key
     *                         exchange; null in virtual time, where a cycle takes no time.
     * @param dutyCycleStartNs when the cycle started on that clock.
     */
    private int onReceived(final long nowNs, final NanoClock clock, final long dutyCycleStartNs)
    {
        final ReceiveBatch batch = receiveBatch;
        int work = 0;
        int i = 0;
        if (NO_DEFERRED_DATAGRAMS != deferredFromIndex)
        {
            i = deferredFromIndex;
            deferredFromIndex = NO_DEFERRED_DATAGRAMS;
        }
        else if (null != batch.unreachablePeer())
        {
            onPortUnreachable(batch.unreachablePeer(), nowNs);
            work++;
        }
        final int first = i;
        long bytes = 0;
        for (final int size = batch.size(); i < size; i++)
        {
            if (acceptor.hasExchangedKeysThisDutyCycle() &&
                DatagramDispatcher.isHello(batch.buffer(i), batch.offset(i), batch.length(i)) &&
                (acceptor.isKeyExchangeCapReached() ||
                null != clock && acceptor.isKeyExchangeTimeSpent(clock.nanoTime() - dutyCycleStartNs)))
            {
                // This cycle did its share of key exchanges: the rest of the batch waits for the next cycle.
                deferredFromIndex = i;
                dispatcher.countReceived(i - first, bytes);
                return work + 1;
            }
            final int length = batch.length(i);
            bytes += length;
            dispatcher.onDatagram(batch.buffer(i), batch.offset(i), length, batch.source(i),
                batch.ecnCodepoint(i), batch.isVerified(i), batch.arrivalTimeNs(i, nowNs), nowNs);
            work++;
        }
        dispatcher.countReceived(i - first, bytes);
        batch.clear();
        return work;
    }

    /**
     * Process one datagram received at {@code nowNs}, outside the duty cycle.
     *
     * @deprecated the duty cycle receives datagrams in batches; this handler form is kept for one minor version.
     */
    @Deprecated
    public void onDatagram(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress source,
        final long nowNs)
    {
        dispatcher.countReceived(1, length);
        dispatcher.onDatagram(buffer, offset, length, source, ReceiveBatch.NOT_ECT, false, nowNs, nowNs);
    }

    /**
     * The port reported a peer's port unreachable (a restricted port only): tell the connections to it.
     */
    public void onPortUnreachable(final InetSocketAddress peer, final long nowNs)
    {
        endpointCounters.portUnreachable().incrementRelease();
        for (int i = 0, size = connections.size(); i < size; i++)
        {
            final ConnectionCore connection = connections.get(i);
            if (connection.remoteAddress().equals(peer))
            {
                connection.onPeerUnreachable(nowNs);
                connections.mark(connection);
            }
        }
    }

    /**
     * Serve the connections that need it — a datagram arrived for them, a timer of theirs is due
     * ({@link ConnectionDeadlines}), their application acted ({@link ApplicationSignals}), or they were left with
     * something to do — and no other: fire their timers; remove the closed ones; activate in the scheduler, with its
     * controller's pacing rate and send quantum of this moment, each one that has something to send.
     */
    private int serviceConnections(final long nowNs)
    {
        deadlines.expire(nowNs, connections);
        applicationSignals.drainTo(connections);
        return serveMarked(connections.takeMarked(), nowNs);
    }

    /**
     * Serve the connections just taken: fire their timers, remove the closed ones, activate those with something to
     * send.
     *
     * @param count how many were taken ({@link ConnectionTable#served(int)} from 0).
     */
    private int serveMarked(final int count, final long nowNs)
    {
        int work = 0;
        for (int i = 0; i < count; i++)
        {
            final ConnectionCore connection = connections.served(i);
            try
            {
                work += serve(connection, nowNs);
            }
            catch (final RuntimeException ex)
            {
                failures.onFailure(connection, ex);
                work++;
            }
        }
        return work;
    }

    private int serve(final ConnectionCore connection, final long nowNs)
    {
        final Throwable deferredFailure = connection.takeDeferredFailure();
        if (null != deferredFailure)
        {
            failures.onFailure(connection, deferredFailure);
            return 1;
        }
        connection.applyParkedAckBeforeTimers(isServingOffered, nowNs);
        int work = connection.onDutyCycle(nowNs);
        if (connection.isClosed())
        {
            connections.remove(connection);
            work++;
        }
        else
        {
            final int sendable = connection.sendable(nowNs);
            if (0 != sendable)
            {
                // Read where the activation reads them, before anything is built: a controller that fails here
                // fails the connection's service, whichever way its packet would have gone.
                final CongestionController controller = connection.controller();
                final long pacingRateBytesPerSecond = controller.pacingRateBytesPerSecond();
                final int sendQuantumBytes = controller.sendQuantumBytes();
                final long congestionWindowBytes = controller.congestionWindowBytes();
                if (isLoneAnswerSend && isServingOffered && isLoneAnswerShortcut &&
                    connection.isLoneAnswer(sendable, nowNs) && scheduler.releasesAloneNow(connection, nowNs))
                {
                    // Activated with these values after its packet left (sendLoneAnswer).
                    loneAnswer = connection;
                    loneAnswerPacingRateBytesPerSecond = pacingRateBytesPerSecond;
                    loneAnswerSendQuantumBytes = sendQuantumBytes;
                    loneAnswerCongestionWindowBytes = congestionWindowBytes;
                }
                else
                {
                    scheduler.activate(
                        connection, pacingRateBytesPerSecond, sendQuantumBytes, congestionWindowBytes, nowNs);
                }
            }
        }
        return work;
    }

    /**
     * @param enabled false to send every answer the general way, for the engine's tests that compare the two.
     */
    void loneAnswerShortcut(final boolean enabled)
    {
        isLoneAnswerShortcut = enabled;
    }

    /**
     * @return answers sent by the lone answer's shortcut ({@link #sendLoneAnswer}) so far, for the engine's tests.
     */
    long loneAnswersSent()
    {
        return loneAnswersSent;
    }

    /**
     * @return the earliest time something is due (a timer, an ACK, a pacing release); {@link Long#MAX_VALUE} if
     * nothing is.
     */
    public long nextDeadlineNs()
    {
        return Math.min(scheduler.nextReleaseTimeNs(), nextTimerDeadlineNs());
    }

    /**
     * @return the earliest timer of any connection (an ACK, a loss, probe, idle or keep-alive timer, a handshake's);
     * {@link Long#MAX_VALUE} if none. With {@link #nextReleaseTimeNs()} it makes {@link #nextDeadlineNs()}, for a
     * real-clock agent that serves the two differently (docs/io.md, "Waits in time quanta").
     */
    public long nextTimerDeadlineNs()
    {
        // An ACK frame this cycle parked is applied in the next cycle, which must come at once: never at a timer.
        return Math.min(deadlines.earliestDeadlineNs(), parkedAckDueNs);
    }

    /**
     * How long a real-clock agent may hold arrivals before its next wake ({@code WakeCoalescing}): the shortest ACK
     * delay in force among the connections that received a packet since the last call (a connection whose peer asked
     * for fewer ACKs may wait longer, draft-ietf-quic-ack-frequency); then it starts again. Agent thread only.
     *
     * @return that delay, {@link Long#MAX_VALUE} if no connection received a packet since the last call.
     */
    public long takeArrivalAckDelayNs()
    {
        return dispatcher.takeArrivalAckDelayNs();
    }

    /**
     * @return when the pacer next releases a packet; {@link Long#MAX_VALUE} if nothing waits for its pacing time.
     */
    public long nextReleaseTimeNs()
    {
        return scheduler.nextReleaseTimeNs();
    }

    /**
     * @return how far ahead a real-clock agent may serve the pacer's next release
     * ({@link io.pacelink.transport.schedule.PacketScheduler#nextReleaseQuantumNs()}).
     */
    public long nextReleaseQuantumNs()
    {
        return scheduler.nextReleaseQuantumNs();
    }

    // ---------------------------------------------------------------- send

    /**
     * The send phase: every handshake due, then the scheduler's releases up to the send batch limit, then the batch
     * to the port.
     */
    private int send(final long nowNs)
    {
        if (null != loneAnswer)
        {
            return sendLoneAnswer(nowNs);
        }
        int sent = 0;
        for (int i = 0, count = connections.orderServedByPlace(); i < count; i++)
        {
            final ConnectionCore connection = connections.served(i);
            try
            {
                if (connection.isHandshakeDue(nowNs))
                {
                    sendHandshake(connection, nowNs);
                    sent++;
                }
                else
                {
                    sent += sendPathChallenge(connection, nowNs);
                }
            }
            catch (final RuntimeException ex)
            {
                failures.onFailure(connection, ex);
            }
        }
        return sendReleases(sent, nowNs);
    }

    /**
     * The lone answer's shortcut: the one connection an application's offer had served in {@link #sendOffered}, with
     * an ack-eliciting packet to send and nothing that makes the send phase do anything else
     * ({@link ConnectionCore#isLoneAnswer}), which the scheduler would release next and alone
     * ({@link PacketScheduler#releasesAloneNow}). Its packet is built, sealed and — alone in the batch, leaving no
     * stream data behind — handed to the port at once; the scheduler is then told as if it had activated and
     * released it ({@link PacketScheduler#onSentAlone}), the packet is recorded through the same descriptor as every
     * other, and the send phase goes on as after any release. What the general path would do for this connection —
     * its handshake and path checks, the scheduler's activation and the release's walk — either did nothing here or
     * is done after the send, with the same inputs, so loss recovery, the controller, the pacer and the counters see
     * exactly what they would have; on a request/response's path it takes the activation and the release off each
     * end (perf/FINDINGS.md, branch lat21). The controller's values were read in the service, where the activation
     * reads them.
     */
    private int sendLoneAnswer(final long nowNs)
    {
        final ConnectionCore connection = loneAnswer;
        loneAnswer = null;
        // The one connection served is in the table (a closed one is removed before it could be chosen): ordering the
        // served by place, as the general send phase starts, would change nothing.
        try
        {
            final int lengthBytes = sendPacket(connection, false, nowNs);
            if (1 == outbox.size() && !connection.hasStreamDataLeft())
            {
                outbox.flush();
            }
            final boolean isAckEliciting = connection.onPacketSent(sentPacket, false);
            scheduler.onSentAlone(connection, loneAnswerPacingRateBytesPerSecond, loneAnswerSendQuantumBytes,
                loneAnswerCongestionWindowBytes, lengthBytes, isAckEliciting, nowNs);
            loneAnswersSent++;
        }
        catch (final RuntimeException ex)
        {
            // As the general path leaves it: activated, released and answered with nothing charged, then failed.
            scheduler.onSentAlone(connection, loneAnswerPacingRateBytesPerSecond, loneAnswerSendQuantumBytes,
                loneAnswerCongestionWindowBytes, 0, false, nowNs);
            failures.onFailure(connection, ex);
        }
        return sendReleases(1, nowNs);
    }

    /**
     * The scheduler's releases up to the send batch limit, then the batch to the port.
     *
     * @param alreadySent packets already sent in this send phase.
     */
    private int sendReleases(final int alreadySent, final long nowNs)
    {
        int sent = alreadySent;
        final int limit = context.sendBatchLimit();
        Release<ConnectionCore> release;
        while (sent < limit && null != (release = scheduler.next(nowNs)))
        {
            final ConnectionCore connection = release.flow();
            connections.addServed(connection);
            final boolean ackOnly = release.isAckOnly();
            try
            {
                final int lengthBytes = sendPacket(connection, ackOnly, nowNs);
                if (isLoneAnswerSend && 1 == outbox.size() && !connection.hasStreamDataLeft())
                {
                    // The one answer an application offered, in a packet of its own: it leaves before it is
                    // recorded (loss recovery, the controller, the counters, the pacer's charge), which changes
                    // nothing the record decides — every time it uses was taken before the packet was built, and no
                    // acknowledgement of it can be read before this duty cycle's receive — and takes that work off
                    // the round trip of a request and its answer (perf/FINDINGS.md, branch lat18).
                    outbox.flush();
                }
                scheduler.onSent(connection, lengthBytes, connection.onPacketSent(sentPacket, ackOnly), nowNs);
            }
            catch (final RuntimeException ex)
            {
                failures.onFailure(connection, ex);
                // The release is answered, as the scheduler requires before its next one; nothing is charged.
                scheduler.onSent(connection, 0, false, nowNs);
            }
            sent++;
        }
        outbox.flush();
        return sent;
    }

    /**
     * Write a handshake packet straight into the batch and seal it with a CRC32C, as every handshake packet is.
     */
    private void sendHandshake(final ConnectionCore connection, final long nowNs)
    {
        final int maxDatagramBytes = connection.maxDatagramSizeBytes();
        final int offset = outbox.claim(maxDatagramBytes);
        final MutableDirectBuffer datagrams = outbox.buffer();
        writer.wrap(datagrams, offset, maxDatagramBytes - Crc32cPacketCheck.TRAILER_LENGTH);
        final int packetLength = connection.assembleHandshake(writer, nowNs);
        outbox.commit(crcGuard.seal(datagrams, offset, packetLength), connection.remoteAddress());
    }

    /**
     * Send the PATH_CHALLENGE a connection owes the address it validates, if one is due and its amplification budget
     * allows (RFC 9000 section 8.2.1): to that address, not to the peer's.
     *
     * @return 1 if one was sent, else 0.
     */
    private int sendPathChallenge(final ConnectionCore connection, final long nowNs)
    {
        final PacketGuard guard = connection.guard();
        final int sizeBytes = connection.pathChallengeSizeDue(PacketHeaderFlyweight.HEADER_LENGTH +
            FrameHeaderFlyweight.FRAME_HEADER_LENGTH + PathFrameFlyweight.BODY_LENGTH + guard.trailerLength(), nowNs);
        if (0 == sizeBytes)
        {
            return 0;
        }
        final int offset = outbox.claim(sizeBytes);
        final MutableDirectBuffer datagrams = outbox.buffer();
        writer.wrap(guard.assemblyBuffer(datagrams), guard.assemblyOffset(offset), sizeBytes - guard.trailerLength());
        final int packetLength =
            connection.assemblePathChallenge(writer, sizeBytes, guard.trailerLength(), nowNs, sentPacket);
        final int lengthBytes = guard.seal(datagrams, offset, packetLength);
        outbox.commit(lengthBytes, connection.pathCandidate(), sentPacket.ecnCodepoint());
        sentPacket.sizeBytes(lengthBytes);
        connection.onPathChallengeSent(sentPacket);
        return 1;
    }

    /**
     * Write the connection's packet where its guard says (in place in the batch, or in the guard's staging buffer),
     * seal it into the batch and commit it; {@link #sentPacket} then describes it, size included.
     *
     * @return the datagram's length.
     */
    private int sendPacket(final ConnectionCore connection, final boolean ackOnly, final long nowNs)
    {
        final PacketGuard guard = connection.guard();
        final int maxDatagramBytes = connection.maxDatagramSizeBytes();
        final int offset = outbox.claim(maxDatagramBytes);
        final MutableDirectBuffer datagrams = outbox.buffer();
        writer.wrap(guard.assemblyBuffer(datagrams), guard.assemblyOffset(offset),
            maxDatagramBytes - guard.trailerLength());
        // A plaintext packet's payload may stay in the send log for the port to send from there; a sealed (AEAD)
        // packet is encrypted into the batch, so its payload is copied as before.
        final boolean mayGather = guard == crcGuard && outbox.gathers();
        gathered.clear();
        final int packetLength = connection.assemble(writer, ackOnly, nowNs, sentPacket, mayGather ? gathered : null);
        final int lengthBytes;
        if (gathered.isSet())
        {
            final int payloadLength = gathered.length();
            final int prefixLength = packetLength - payloadLength;
            lengthBytes = crcGuard.sealGathered(
                datagrams, offset, prefixLength, gathered.segment(), gathered.index(), payloadLength);
            outbox.commitGathered(prefixLength + Crc32cPacketCheck.TRAILER_LENGTH, prefixLength, gathered.segment(),
                gathered.index(), payloadLength, connection.remoteAddress(), sentPacket.ecnCodepoint());
            gathered.clear();
        }
        else if (guard == crcGuard && outbox.offloadsCrc32c())
        {
            // The simulator's port writes the trailer only where the bytes are read as sent, and vouches for it to
            // the receiving endpoint otherwise (DatagramPort.offloadsCrc32c): the same datagram, two passes over
            // its bytes fewer.
            lengthBytes = packetLength + Crc32cPacketCheck.TRAILER_LENGTH;
            outbox.commitLeavingCrc32c(lengthBytes, connection.remoteAddress(), sentPacket.ecnCodepoint());
        }
        else
        {
            lengthBytes = guard.seal(datagrams, offset, packetLength);
            outbox.commit(lengthBytes, connection.remoteAddress(), sentPacket.ecnCodepoint());
        }
        sentPacket.sizeBytes(lengthBytes);
        return lengthBytes;
    }

    // ---------------------------------------------------------------- close

    /**
     * Begin closing the endpoint gracefully: refuse new connections and close every connection gracefully, so each
     * delivers what its application offered (or fails after the linger timeout). The endpoint is done when
     * {@link #connectionCount()} is 0; then {@link #close(long)} releases it.
     */
    public void beginGracefulClose()
    {
        acceptor.beginClosing();
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
            connection.abortWithClose(ConnectionLifecycle.ABORTED_ERROR, CloseReason.ENDPOINT_CLOSED);
            if (0 != (connection.sendable(nowNs) & SchedulableFlow.ACK_ELICITING))
            {
                sendPacket(connection, false, nowNs);
                connection.onPacketSent(sentPacket, false);
            }
            connection.finishClose();
            connection.releaseMemory();
            ConnectionFactory.retire(connection.handle());
        }
        outbox.flush();
        parkedAckConnections.clear();
        connections.clear();
        endpointCounters.close();
        securityCounters.close();
        port.close();
    }
}
