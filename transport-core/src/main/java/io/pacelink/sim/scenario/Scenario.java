package io.pacelink.sim.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.link.PathWarnings;
import io.pacelink.link.RateSchedule;
import io.pacelink.sim.DepartureListener;
import io.pacelink.sim.Dumbbell;
import io.pacelink.sim.RunWatcher;
import io.pacelink.sim.SimDatagramPort;
import io.pacelink.sim.SimHost;
import io.pacelink.sim.Simulator;
import io.pacelink.sim.results.FlowResults;
import io.pacelink.sim.results.LatencySummary;
import io.pacelink.sim.results.LinkReport;
import io.pacelink.sim.results.TraceHash;
import io.pacelink.sim.results.TraceWriter;
import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.engine.EndpointCore;
import io.pacelink.transport.schedule.PacketSchedulers;
import io.pacelink.transport.stats.CounterKey;
import io.pacelink.transport.stats.CounterType;
import io.pacelink.transport.stats.CountersBuffers;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A simulated experiment: flows of real Pacelink endpoints (the same engine, controllers and schedulers as on real
 * sockets) over a dumbbell whose bottleneck follows a {@link PathSpec}, in virtual time. Same seed, same result.
 *
 * <pre>{@code
 * ScenarioResult result = Scenario.builder()
 *     .path(PathSpec.Pair.parse("rate=100mbit delay=75ms jitter=7.5ms loss=8% queue=1bdp", "delay=75ms"))
 *     .durationNs(TimeUnit.SECONDS.toNanos(60))
 *     .flow(FlowSpec.bulk("bbr"))
 *     .build()
 *     .run();
 * }</pre>
 * Each flow has its own receiving host; flows share a sending endpoint (one socket, one packet scheduler) when they
 * are in the same sender group. On a path whose forward direction has no rate, the senders' network interfaces are
 * the bottleneck: they serialize at {@link Builder#lineRate(long) a line rate} (1 Gbit/s unless set), since nothing
 * else in a simulated host takes time.
 */
public final class Scenario
{
    /**
     * The senders' line rate unless {@link Builder#lineRate(long)} sets another: used only on a path whose forward
     * direction has no rate.
     */
    public static final long DEFAULT_LINE_RATE_BITS_PER_SECOND = 1_000_000_000L;

    /**
     * Histogram range for RTTs and response times.
     */
    private static final long MAX_TRACKED_LATENCY_NS = TimeUnit.SECONDS.toNanos(60);

    private final Builder config;

    private Scenario(final Builder config)
    {
        this.config = config;
    }

    /**
     * @return a builder.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * What in the scenario leaves flows with (almost) nothing, though it is valid: the path's own warnings
     * ({@link PathWarnings}: a rate or policer at which one packet takes seconds, every packet lost), and flows whose
     * round trips (with the worst jitter and their access delays) are too long for the handshake's two round trips
     * within the handshake timeout, or for any data within the flow's time in the run.
     *
     * @return the warnings, in a user's words; empty if none.
     */
    public List<String> warnings()
    {
        final List<String> warnings = new ArrayList<>(PathWarnings.of(config.path));
        final long pathRttNs = PathWarnings.worstOneWayDelayNs(config.path.forward()) +
            PathWarnings.worstOneWayDelayNs(config.path.reverse());
        for (int i = 0; i < config.flows.size(); i++)
        {
            final FlowSpec flow = config.flows.get(i);
            final long rttNs = pathRttNs + 4 * flow.accessDelayNs();
            final long windowNs = Math.min(flow.stopNs(), config.durationNs) - flow.startNs();
            final String rtt = "flow " + i + "'s round trip takes up to " + PathWarnings.duration(rttNs) +
                (flow.accessDelayNs() > 0 ? " (its access delay counted four times)" : "");
            if (2 * rttNs >= PacelinkContext.DEFAULT_HANDSHAKE_TIMEOUT_NS)
            {
                warnings.add(rtt + ": the handshake's two round trips (the address-validation RETRY, then the " +
                    "hello) do not fit the " + PathWarnings.duration(PacelinkContext.DEFAULT_HANDSHAKE_TIMEOUT_NS) +
                    " handshake timeout, so it may never connect");
            }
            else if (3 * rttNs >= windowNs)
            {
                warnings.add(rtt + ": its first data needs three (RETRY, hello, data), more than its " +
                    PathWarnings.duration(windowNs) + " in the run, so it delivers nothing");
            }
        }
        return warnings;
    }

    /**
     * Run the scenario to its end.
     *
     * @return the results.
     */
    public ScenarioResult run()
    {
        return run(RunWatcher.NONE);
    }

    /**
     * Run the scenario to its end, or until the watcher stops it: the results then cover the simulated time run so
     * far ({@link ScenarioResult#isComplete()} false).
     *
     * @param watcher looks at the run every {@link Simulator#WATCH_INTERVAL_EVENTS} events, and may stop it.
     * @return the results.
     */
    public ScenarioResult run(final RunWatcher watcher)
    {
        final Simulator simulator = new Simulator(config.seed);
        final boolean isForwardUnlimited =
            config.path.forward().rate().nominalBitsPerSecond() == RateSchedule.UNLIMITED_BITS_PER_SECOND;
        final Dumbbell dumbbell =
            new Dumbbell(simulator, config.path, isForwardUnlimited ? config.lineRateBitsPerSecond : 0)
                .hostsCarryEcn(config.ecn);

        final long interruptDelayNs = AgentWakes.COALESCED == config.agentWakes ? AgentWakes.INTERRUPT_DELAY_NS : 0;
        final List<FlowResults> flowResults = new ArrayList<>();
        final List<SenderApp> senders = new ArrayList<>();
        final List<ReceiverApp> receivers = new ArrayList<>();
        final List<CountersReader> senderCounters = new ArrayList<>();
        final List<Histogram> responseTimes = new ArrayList<>();
        final Map<Integer, EndpointDriver> senderGroups = new HashMap<>();
        final Map<InetSocketAddress, Integer> flowByReceiver = new HashMap<>();

        for (int i = 0; i < config.flows.size(); i++)
        {
            final FlowSpec flow = config.flows.get(i);
            final FlowResults results = new FlowResults("flow-" + i + "-" + flow.congestionControl(),
                config.goodputIntervalNs, config.durationNs);
            flowResults.add(results);

            final SimHost receiverHost = dumbbell.addRightHost(flow.accessDelayNs());
            receiverHost.interruptDelayNs(interruptDelayNs);
            flowByReceiver.put(receiverHost.address(), i);
            final ReceiverApp receiver = new ReceiverApp(results, flow.pattern());
            receivers.add(receiver);
            final EndpointDriver receiverDriver = newDriver(simulator, receiverHost.port(), flow, receiver,
                FlowBuffers.bufferBytes(config.path, config.flows, i, config.durationNs), 1, "receiver-" + i);
            receiverDriver.add(receiver);
            receiverHost.addAgent(receiverDriver);

            EndpointDriver senderDriver = flow.senderGroup() >= 0 ? senderGroups.get(flow.senderGroup()) : null;
            if (null == senderDriver)
            {
                final SimHost senderHost = dumbbell.addLeftHost(flow.accessDelayNs());
                senderHost.interruptDelayNs(interruptDelayNs);
                senderDriver = newDriver(simulator, senderHost.port(), flow, null, senderBufferBytes(i),
                    senderConnections(flow.senderGroup()), "sender-" + i);
                senderHost.addAgent(senderDriver);
                if (flow.senderGroup() >= 0)
                {
                    senderGroups.put(flow.senderGroup(), senderDriver);
                }
            }

            // Only a request/response flow has response times: 216 KiB of counts each otherwise spent for nothing.
            final Histogram responseTime = AppPattern.Kind.REQUEST_RESPONSE == flow.pattern().kind() ?
                new Histogram(MAX_TRACKED_LATENCY_NS, 3) : null;
            responseTimes.add(responseTime);
            final SenderApp sender = new SenderApp(
                flow, senderDriver.core(), receiverHost.address(), results, responseTime,
                senderDriver.heldUnsentBytes(), senderBufferBytes(i));
            senders.add(sender);
            senderCounters.add(senderDriver.counters());
            senderDriver.add(sender);
        }

        if (null != config.departureListener)
        {
            listenToDepartures(dumbbell, flowByReceiver, config.departureListener);
        }
        if (null != config.queueDelayListener)
        {
            final FlowQueueDelayListener listener = config.queueDelayListener;
            dumbbell.forward().queueDelayListener((packet, queueDelayNs, nowNs) ->
            {
                final Integer flowIndex = flowByReceiver.get(packet.destination());
                if (null != flowIndex)
                {
                    listener.onQueueDelay(flowIndex, queueDelayNs, nowNs);
                }
            });
        }

        final Histogram pingRtt = new Histogram(MAX_TRACKED_LATENCY_NS, 3);
        if (config.pingIntervalNs > 0)
        {
            new PingProbe(dumbbell.addLeftHost(), dumbbell.addRightHost(), 0, config.pingIntervalNs,
                config.durationNs, pingRtt);
        }

        for (final PathChange change : config.pathChanges)
        {
            simulator.at(change.atNs(), (nowNs) -> change.action().accept(dumbbell));
        }

        final List<TraceWriter> traces = openTraces(senders);
        simulator.every(config.traceIntervalNs, config.traceIntervalNs, (nowNs) ->
        {
            for (int i = 0; i < traces.size(); i++)
            {
                traces.get(i).sample(nowNs, senders.get(i));
            }
        });

        if (null != config.progressListener)
        {
            simulator.every(config.progressIntervalNs, config.progressIntervalNs, (nowNs) ->
            {
                for (int i = 0; i < senders.size(); i++)
                {
                    final SenderApp sender = senders.get(i);
                    config.progressListener.onProgress(i, nowNs, flowResults.get(i).deliveredBytes(),
                        null == sender.connection() ? null : sender.connection().stats());
                }
            });
        }

        watcher.beforeFirstEvent();
        simulator.runUntil(config.durationNs, watcher);
        // A stopped run's results cover the whole goodput bins simulated so far.
        final long endNs = simulator.nowNs() >= config.durationNs ? config.durationNs :
            simulator.nowNs() - simulator.nowNs() % config.goodputIntervalNs;

        final TraceHash traceHash = new TraceHash();
        for (final TraceWriter trace : traces)
        {
            traceHash.update(trace.hash());
            trace.close();
        }

        final List<FlowOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < senders.size(); i++)
        {
            outcomes.add(outcome(i, config.flows.get(i), senders.get(i), receivers.get(i), flowResults.get(i),
                responseTimes.get(i), senderCounters.get(i), endNs));
        }

        return new ScenarioResult(
            outcomes,
            LinkReport.of(dumbbell.forward(), endNs),
            LinkReport.of(dumbbell.reverse(), endNs),
            config.pingIntervalNs > 0 ? LatencySummary.of(pingRtt) : null,
            endNs,
            endNs == config.durationNs,
            traceHash.update(simulator.traceHash()).value(),
            simulator.eventsFired(),
            warnings());
    }

    private static FlowOutcome outcome(
        final int index,
        final FlowSpec flow,
        final SenderApp sender,
        final ReceiverApp receiver,
        final FlowResults results,
        final Histogram responseTime,
        final CountersReader counters,
        final long runEndNs)
    {
        final long endNs = Math.max(flow.startNs(), Math.min(flow.stopNs(), runEndNs));
        final ConnectionStats stats = null == sender.connection() ? null : sender.connection().stats();
        return new FlowOutcome(
            index,
            flow.congestionControl(),
            flow.startNs(),
            endNs,
            results.deliveredBytes(),
            endNs > flow.startNs() ? results.goodput().bitsPerSecond(flow.startNs(), endNs) : 0,
            null == stats ? 0 : stats.bytesSent(),
            null == stats ? 0 : stats.packetsSent(),
            null == stats ? 0 : stats.bytesRetransmitted(),
            null == stats ? 0 : stats.packetsRetransmitted(),
            null == stats ? 0 : stats.packetsLost(),
            null == stats ? 0 : stats.spuriousLosses(),
            results.rtt(),
            results.rttHistogram(),
            AppPattern.Kind.REQUEST_RESPONSE == flow.pattern().kind() ? LatencySummary.of(responseTime) : null,
            results.goodput(),
            null == sender.connection() ? Map.of() : controllerCounters(counters, sender.connection().connectionId()),
            EcnOutcome.of(stats, null == receiver.connection() ? null : receiver.connection().stats()),
            sender.connectionEnd(),
            receiver.connectionEnd());
    }

    /**
     * @return the counters the connection's controller registered, by name (e.g. {@code bbr-lt-bw-engagements}),
     * with their values now.
     */
    private static Map<String, Long> controllerCounters(final CountersReader counters, final long connectionId)
    {
        final Map<String, Long> values = new TreeMap<>();
        counters.forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (CounterType.CONTROLLER == typeId && CounterKey.ownerId(keyBuffer) == connectionId)
            {
                values.put(CounterKey.name(keyBuffer), counters.getCounterValue(counterId));
            }
        });
        return Collections.unmodifiableMap(values);
    }

    /**
     * The unsent low watermark a sender's context starts with, before the customizer: one byte below the largest.
     */
    private static final int UNTOUCHED_MARK_BYTES = PacelinkContext.MAX_UNSENT_LOW_WATERMARK_BYTES - 1;

    private EndpointDriver newDriver(
        final Simulator simulator,
        final SimDatagramPort port,
        final FlowSpec flow,
        final ReceiverApp receiver,
        final int bufferBytes,
        final int connections,
        final String name)
    {
        final PacelinkContext context = new PacelinkContext()
            .datagramPort(port)
            .congestionControl(flow.congestionControl())
            .controllerParameters(flow.parameters())
            .acceptConnections(null != receiver)
            .sendBufferBytes(bufferBytes)
            .receiveBufferBytes(bufferBytes)
            .maxMessageLengthBytes(Math.min(1 << 20, bufferBytes / 2))
            .randomSeed(simulator.seedFor(name));
        // A customizer may set a mark of its own, the mark off included: a sender is held to the simulator's own only
        // if it leaves the one set here, which no customizer would choose (one byte below the largest), untouched.
        final boolean offersInBulk = null == receiver && offersInBulk(flow);
        if (offersInBulk)
        {
            context.unsentLowWatermarkBytes(UNTOUCHED_MARK_BYTES);
        }
        config.contextCustomizer.accept(context);
        int heldUnsentBytes = 0;
        if (offersInBulk && UNTOUCHED_MARK_BYTES == context.unsentLowWatermarkBytes())
        {
            context.unsentLowWatermarkBytes(new PacelinkContext()
                .threadingMode(context.threadingMode())
                .sendBatchLimit(context.sendBatchLimit())
                .maxDatagramSizeBytes(context.maxDatagramSizeBytes())
                .unsentLowWatermarkBytes());
            // Where the buffer holds less, it never binds: the application fills the buffer as before.
            heldUnsentBytes = senderUnsentBytes(context) < bufferBytes ? senderUnsentBytes(context) : 0;
        }
        context.conclude();
        final CountersManager countersManager =
            CountersBuffers.newManager(FlowBuffers.countersValuesBytes(connections));
        final EndpointCore core = new EndpointCore(
            context,
            port,
            config.registry,
            PacketSchedulers.newScheduler(config.schedulerName, config.schedulerParameters, countersManager),
            countersManager,
            null == receiver ? (connection) -> false : receiver);
        // As Endpoint asks it for a real agent that sleeps in pacing quanta; off by default, so no trace moves.
        final boolean releasesAhead = config.releaseAhead && core.scheduler().releaseAheadInQuanta(true);
        return new EndpointDriver(core, countersManager, port, config.agentWakes, releasesAhead, heldUnsentBytes);
    }

    /**
     * @return true if the flow's sending endpoint serves only bulk applications that offer until the run ends: the
     * flow's, or every flow of its sender group. One that stops offering earlier leaves its connection to send what
     * waits in its send buffer, which a mark would make less.
     */
    private boolean offersInBulk(final FlowSpec flow)
    {
        for (final FlowSpec other : config.flows)
        {
            if ((other == flow || (flow.senderGroup() >= 0 && other.senderGroup() == flow.senderGroup())) &&
                (AppPattern.Kind.BULK != other.pattern().kind() || other.stopNs() < config.durationNs))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * What a simulated bulk sender's application keeps unsent, unless the context's customizer sets an unsent low
     * watermark (the mark off included): what two duty cycles send at most (the answer service's send and the send
     * phase, each up to the send batch limit). It offers right before every duty cycle and right after it
     * ({@link EndpointDriver#doWork}), as an INVOKER application does, so with this much unsent the connection never
     * finds its stream empty where an application that filled the whole send buffer would have left it something:
     * the same packets leave at the same times (the trace hashes are unchanged). What changes is where the bytes
     * wait. Filling the whole buffer, the application writes each message a whole buffer ahead of the packet that
     * reads it (16 MiB at 1 Gbit/s), into memory freed that long ago, and the packet reads it as long after: both in
     * memory the caches no longer hold. Held, it writes into a segment the log recycled as its bytes were
     * acknowledged, a few duty cycles before the packet copies it out (the reason for
     * {@link PacelinkContext#DEFAULT_INVOKER_UNSENT_LOW_WATERMARK_BYTES} on loopback; perf/FINDINGS.md, "Simulator
     * speed, round 18"). The application, not the connection, holds back ({@link SenderApp}): after a probe timeout
     * it fills the whole buffer again, so a connection that fails reports what it did before.
     *
     * @param context the sender's context, customized.
     * @return the bytes kept unsent.
     */
    static int senderUnsentBytes(final PacelinkContext context)
    {
        final long dutyCyclesBytes = 2L * context.sendBatchLimit() * context.maxDatagramSizeBytes();
        return (int)Math.min(PacelinkContext.MAX_UNSENT_LOW_WATERMARK_BYTES,
            Math.max(PacelinkContext.MIN_UNSENT_LOW_WATERMARK_BYTES, dutyCyclesBytes));
    }

    /**
     * The sending endpoint of a sender group serves every flow of the group: its buffers are the largest any of them
     * needs.
     */
    private int senderBufferBytes(final int index)
    {
        final int senderGroup = config.flows.get(index).senderGroup();
        int bytes = FlowBuffers.bufferBytes(config.path, config.flows, index, config.durationNs);
        for (int i = 0; i < config.flows.size(); i++)
        {
            if (senderGroup >= 0 && config.flows.get(i).senderGroup() == senderGroup)
            {
                bytes = Math.max(bytes, FlowBuffers.bufferBytes(config.path, config.flows, i, config.durationNs));
            }
        }
        return bytes;
    }

    private int senderConnections(final int senderGroup)
    {
        return senderGroup < 0 ? 1 : (int)config.flows.stream().filter((flow) -> flow.senderGroup() == senderGroup)
            .count();
    }

    private static void listenToDepartures(
        final Dumbbell dumbbell,
        final Map<InetSocketAddress, Integer> flowByReceiver,
        final FlowDepartureListener listener)
    {
        final DepartureListener byFlow = (buffer, offset, length, destination, nowNs) ->
        {
            final Integer flowIndex = flowByReceiver.get(destination);
            if (null != flowIndex)
            {
                listener.onDeparture(flowIndex, buffer, offset, length, nowNs);
            }
        };
        for (final SimHost host : dumbbell.leftHosts())
        {
            host.port().departureListener(byFlow);
        }
    }

    private List<TraceWriter> openTraces(final List<SenderApp> senders)
    {
        final List<TraceWriter> traces = new ArrayList<>();
        for (int i = 0; i < senders.size(); i++)
        {
            if (null == config.traceDirectory)
            {
                // No writers: the trace hash is taken from the samples, not from their text, so a run without
                // --trace formats no lines (with 50 flows that was a few per cent of the run).
                traces.add(new TraceWriter(null, null));
            }
            else
            {
                final String name = "flow-" + i + "-" + config.flows.get(i).congestionControl();
                traces.add(TraceWriter.open(
                    config.traceDirectory.resolve(name + ".csv"), config.traceDirectory.resolve(name + ".jsonl")));
            }
        }
        return traces;
    }

    /**
     * Hears how every flow is doing at a fixed interval of simulated time, e.g. to print per-second lines like a real
     * transfer does. Only a scenario with a listener schedules these samples, so adding one changes the event
     * sequence (and the trace hash) but not what the flows do.
     */
    @FunctionalInterface
    public interface ProgressListener
    {
        /**
         * @param flowIndex      the flow, in scenario order.
         * @param nowNs          simulated time.
         * @param deliveredBytes message bytes its receiving application has had so far.
         * @param stats          its sending connection's statistics, or null before it has connected.
         */
        void onProgress(int flowIndex, long nowNs, long deliveredBytes, ConnectionStats stats);
    }

    /**
     * Hears every datagram a flow's sender sends (data, ACKs, handshake), when it leaves the sending host: e.g. to
     * measure pacing gaps, or how long a request waited in the sender. Called on the simulation's thread; the buffer
     * is valid only during the call. Listening does not change what the flows do.
     */
    @FunctionalInterface
    public interface FlowDepartureListener
    {
        /**
         * @param flowIndex the flow, in scenario order.
         * @param buffer    holding the datagram.
         * @param offset    of the datagram in the buffer.
         * @param length    of the datagram.
         * @param nowNs     simulated time it left the sender.
         */
        void onDeparture(int flowIndex, DirectBuffer buffer, int offset, int length, long nowNs);
    }

    /**
     * Hears how long each data packet of every flow waited in the forward (data) bottleneck's queue, when the
     * bottleneck starts serializing it: the queueing delay per flow over time. Called on the simulation's thread.
     * Listening does not change what the flows do.
     */
    @FunctionalInterface
    public interface FlowQueueDelayListener
    {
        /**
         * @param flowIndex    the flow whose receiver the packet is going to, in scenario order.
         * @param queueDelayNs how long the packet waited in the queue.
         * @param nowNs        simulated time its serialization starts.
         */
        void onQueueDelay(int flowIndex, long queueDelayNs, long nowNs);
    }

    /**
     * Describes a scenario.
     */
    public static final class Builder
    {
        private long seed = 1;
        private PathSpec.Pair path;
        private long durationNs;
        private final List<FlowSpec> flows = new ArrayList<>();
        private long pingIntervalNs;
        private String schedulerName;
        private ControllerParameters schedulerParameters = ControllerParameters.EMPTY;
        private Path traceDirectory;
        private long traceIntervalNs = TimeUnit.MILLISECONDS.toNanos(10);
        private long goodputIntervalNs = TimeUnit.MILLISECONDS.toNanos(100);
        private CongestionControlRegistry registry;
        private Consumer<PacelinkContext> contextCustomizer = (context) -> {};
        private final List<PathChange> pathChanges = new ArrayList<>();
        private long progressIntervalNs;
        private ProgressListener progressListener;
        private long lineRateBitsPerSecond = DEFAULT_LINE_RATE_BITS_PER_SECOND;
        private boolean ecn;
        private AgentWakes agentWakes = AgentWakes.EXACT;
        private boolean releaseAhead;
        private FlowDepartureListener departureListener;
        private FlowQueueDelayListener queueDelayListener;

        private Builder()
        {
        }

        /**
         * @param seed seeds every random choice (links, endpoints, controllers).
         * @return this.
         */
        public Builder seed(final long seed)
        {
            this.seed = seed;
            return this;
        }

        /**
         * @param path the bottleneck's two directions (forward carries the data).
         * @return this.
         */
        public Builder path(final PathSpec.Pair path)
        {
            this.path = path;
            return this;
        }

        /**
         * @param durationNs simulated time.
         * @return this.
         */
        public Builder durationNs(final long durationNs)
        {
            this.durationNs = durationNs;
            return this;
        }

        /**
         * @param flow a flow to add.
         * @return this.
         */
        public Builder flow(final FlowSpec flow)
        {
            flows.add(Objects.requireNonNull(flow, "flow"));
            return this;
        }

        /**
         * @param bitsPerSecond the senders' line rate, which limits them on a path whose forward direction has no
         *                      rate (default {@link #DEFAULT_LINE_RATE_BITS_PER_SECOND}); unused otherwise.
         * @return this.
         */
        public Builder lineRate(final long bitsPerSecond)
        {
            this.lineRateBitsPerSecond = bitsPerSecond;
            return this;
        }

        /**
         * @param ecn true if the hosts' ports carry the ECN field, as a socket with {@code IP_RECVTOS} does, so the
         *            endpoints send ECN-capable packets and marking queues mark instead of dropping; false (the
         *            default) for ports that, like NIO's, cannot read it: the endpoints then use no ECN.
         * @return this.
         */
        public Builder ecn(final boolean ecn)
        {
            this.ecn = ecn;
            return this;
        }

        /**
         * @param wakes when each endpoint's duty cycle runs (default {@link AgentWakes#EXACT}: at every deadline and
         *              arrival); the ping probe's agents always run at theirs.
         * @return this.
         */
        public Builder agentWakes(final AgentWakes wakes)
        {
            this.agentWakes = Objects.requireNonNull(wakes, "wakes");
            return this;
        }

        /**
         * @param releaseAhead true to have each endpoint's pacer release ahead of its schedule, as it does under the
         *                     real agent's default profile ({@code PacketScheduler.releaseAheadInQuanta}: fq's
         *                     {@code fq.releaseAhead}, bounded by {@code fq.releaseAheadMaxBytes}), its releases then
         *                     served on time by {@link AgentWakes#COALESCED}'s plan as by the real agent's; false (the
         *                     default) for what is due alone, as every result before this option was taken with.
         *                     The bursts it sends into the bottleneck's queue are then seen here too.
         * @return this.
         */
        public Builder releaseAhead(final boolean releaseAhead)
        {
            this.releaseAhead = releaseAhead;
            return this;
        }

        /**
         * @param intervalNs send a ping probe this often (0: no probe).
         * @return this.
         */
        public Builder pingIntervalNs(final long intervalNs)
        {
            this.pingIntervalNs = intervalNs;
            return this;
        }

        /**
         * @param name       sender packet scheduler ({@code fq}, {@code fifo}, {@code rr}; null: the preferred).
         * @param parameters its parameters.
         * @return this.
         */
        public Builder scheduler(final String name, final ControllerParameters parameters)
        {
            this.schedulerName = name;
            this.schedulerParameters = null == parameters ? ControllerParameters.EMPTY : parameters;
            return this;
        }

        /**
         * @param directory write each flow's trace there as CSV and JSON lines (null: keep only the hash).
         * @return this.
         */
        public Builder traceDirectory(final Path directory)
        {
            this.traceDirectory = directory;
            return this;
        }

        /**
         * @param intervalNs time between trace rows.
         * @return this.
         */
        public Builder traceIntervalNs(final long intervalNs)
        {
            this.traceIntervalNs = intervalNs;
            return this;
        }

        /**
         * @param intervalNs width of the goodput series' bins.
         * @return this.
         */
        public Builder goodputIntervalNs(final long intervalNs)
        {
            this.goodputIntervalNs = intervalNs;
            return this;
        }

        /**
         * @param registry the controllers to use (default: those on the class path).
         * @return this.
         */
        public Builder registry(final CongestionControlRegistry registry)
        {
            this.registry = registry;
            return this;
        }

        /**
         * @param customizer adjusts every endpoint's context (e.g. a different max ACK delay).
         * @return this.
         */
        public Builder contextCustomizer(final Consumer<PacelinkContext> customizer)
        {
            this.contextCustomizer = Objects.requireNonNull(customizer, "customizer");
            return this;
        }

        /**
         * @param intervalNs how often, in simulated time, the listener hears of every flow.
         * @param listener   told each flow's progress (null: none); called on the simulation's thread.
         * @return this.
         */
        public Builder progress(final long intervalNs, final ProgressListener listener)
        {
            this.progressIntervalNs = intervalNs;
            this.progressListener = listener;
            return this;
        }

        /**
         * @param listener hears every datagram of every flow's sender when it leaves the sending host (null: none).
         * @return this.
         */
        public Builder departures(final FlowDepartureListener listener)
        {
            this.departureListener = listener;
            return this;
        }

        /**
         * @param listener hears the forward bottleneck's queueing delay of every flow's data packets (null: none).
         * @return this.
         */
        public Builder queueDelays(final FlowQueueDelayListener listener)
        {
            this.queueDelayListener = listener;
            return this;
        }

        /**
         * Change the path during the run, e.g. a route change:
         * {@code pathChange(30s, d -> d.forward().propagationDelayNs(40ms))}. Rate changes are better described in
         * the path spec itself ({@code rate=100mbit,50mbit@30s}).
         *
         * @param atNs   when, in simulated time.
         * @param action applied to the dumbbell at that time.
         * @return this.
         */
        public Builder pathChange(final long atNs, final Consumer<Dumbbell> action)
        {
            if (atNs < 0)
            {
                throw new IllegalArgumentException("a path change needs a time >= 0: " + atNs);
            }
            pathChanges.add(new PathChange(atNs, Objects.requireNonNull(action, "action")));
            return this;
        }

        /**
         * @return the scenario.
         * @throws IllegalArgumentException saying what is missing or wrong.
         */
        public Scenario build()
        {
            if (null == path)
            {
                throw new IllegalArgumentException("a scenario needs a path, e.g. rate=10mbit delay=20ms queue=1bdp");
            }
            if (durationNs <= 0)
            {
                throw new IllegalArgumentException("a scenario needs a positive duration");
            }
            if (flows.isEmpty())
            {
                throw new IllegalArgumentException("a scenario needs at least one flow");
            }
            if (lineRateBitsPerSecond <= 0)
            {
                throw new IllegalArgumentException("the senders' line rate must be positive: " +
                    lineRateBitsPerSecond);
            }
            if (traceIntervalNs <= 0 || goodputIntervalNs <= 0 || (null != progressListener && progressIntervalNs <= 0))
            {
                throw new IllegalArgumentException("trace, goodput and progress intervals must be positive");
            }
            if (null != traceDirectory)
            {
                try
                {
                    Files.createDirectories(traceDirectory);
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException("cannot create trace directory " + traceDirectory, ex);
                }
            }
            if (null == registry)
            {
                registry = CongestionControlRegistry.load();
            }
            for (final FlowSpec flow : flows)
            {
                registry.factory(flow.congestionControl()).validate(flow.parameters());
            }
            return new Scenario(this);
        }
    }

    private record PathChange(long atNs, Consumer<Dumbbell> action)
    {
    }
}
