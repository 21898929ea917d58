package io.pacelink.transport.testing;

import io.pacelink.link.AqmSpec;
import io.pacelink.link.JitterDistribution;
import io.pacelink.link.LinkCounters;
import io.pacelink.link.LinkDirection;
import io.pacelink.link.LinkPacket;
import io.pacelink.link.LinkPacketPool;
import io.pacelink.link.LossModel;
import io.pacelink.link.PathSpec;
import io.pacelink.link.PolicerSpec;
import io.pacelink.link.QueueConfig;
import io.pacelink.link.QueueLimit;
import io.pacelink.link.RateSchedule;
import io.pacelink.link.StepRateSchedule;
import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.recovery.AckRanges;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.recovery.RecoveryConfig;
import io.pacelink.transport.recovery.ScriptedLosses;
import io.pacelink.transport.recovery.SentPacketDescriptor;
import io.pacelink.transport.schedule.Release;
import io.pacelink.transport.schedule.RoundRobinScheduler;
import io.pacelink.transport.schedule.SchedulableFlow;
import io.pacelink.transport.wire.EcnCodepoint;
import io.pacelink.transport.wire.FrameHeaderFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.function.BooleanSupplier;

/**
 * One connection of the real transport over a scripted bottleneck, in virtual time: the sender is a real
 * {@link LossRecovery} (sent-packet ring, RTT estimator, delivery-rate sampler, loss detection, probe timeouts) driving
 * the controller under test through a {@link RecordingController}, and the receiver is a real
 * {@link ReceivedPacketTracker}, so a controller test sees exactly the events, rate samples and losses production
 * would. Between them the forward path is the simulator's own {@link LinkDirection}, the bottleneck
 * {@code pacelink sim} runs: random (Bernoulli) loss, a token-bucket policer, a drop-tail FIFO with an optional byte
 * limit, serialization at a fixed (or unlimited) rate and the whole round-trip propagation delay (the ACK path adds
 * none). In front of it stay what only a test scripts: chosen drops (the next {@code n}, every {@code n}-th) and ECN
 * step marking (CE on every ECN-capable packet that finds the link's queue at or above a threshold, as an L4S or
 * DCTCP-style queue marks). The sender sends ECN-capable as its ECN validation says and the receiver reports real
 * counts; a receiver that acknowledges every {@code n}-th packet or when its delayed-ACK timer (the context's
 * max_ack_delay) expires; ACK aggregation; and an application that is backlogged, writes chunks, keeps a limited amount
 * in flight or pauses.
 * <p>
 * Each instant runs as the endpoint's duty cycle does: application writes, every ACK frame due, the
 * application-limited check, the recovery timer, then sends while the window (bytes in flight below cwnd, probes
 * whatever the window) and the pacer allow. The pacer is the core's own {@link RoundRobinScheduler}, activated with the
 * controller's pacing rate and send quantum once per duty cycle as the endpoint does: one packet every
 * {@code size / pacing rate}, with one send quantum of catch-up. The link is offered each packet at its send time
 * and polled at its own event times, between duty cycles, as the simulator drives it. Lost data is not resent: a
 * backlogged application always has more. Allocation-free once the link's pool and arrays have grown (with the
 * recorder's recording switched off).
 */
public final class ScriptedPath
{
    /**
     * Called after every processed ACK frame.
     */
    @FunctionalInterface
    public interface AckListener
    {
        /**
         * @param path the path, with the clock at the ACK's arrival.
         */
        void onAckProcessed(ScriptedPath path);
    }

    /**
     * Sent packets the loss recovery tracks at once: more than any test keeps in flight.
     */
    public static final int SENT_PACKET_CAPACITY = 1 << 16;

    /**
     * A probe sent while the application has nothing: a PING-only packet.
     */
    public static final int PING_PACKET_BYTES =
        PacketHeaderFlyweight.HEADER_LENGTH + FrameHeaderFlyweight.FRAME_HEADER_LENGTH;

    private static final long BACKLOGGED = Long.MAX_VALUE;
    private static final long UNLIMITED_RATE_BYTES_PER_SECOND = Long.MAX_VALUE;
    private static final long UNLIMITED_BUFFER_BYTES = Long.MAX_VALUE;
    private static final long NEVER = Long.MAX_VALUE;
    private static final long NOT_DELIVERED = -1;
    private static final long ON_THE_LINK = NEVER;
    private static final int CAPACITY = 1 << 18;
    private static final int MASK = CAPACITY - 1;
    private static final int MAX_DUTY_CYCLES_AT_ONE_INSTANT = 1_000_000;

    private final CongestionController controller;
    private final RecordingController recorder;
    private final TestControllerContext context;
    private final LossRecovery lossRecovery;
    private final SentPacketDescriptor sent = new SentPacketDescriptor();
    private final RoundRobinScheduler<ScriptedFlow> scheduler = new RoundRobinScheduler<>();
    private final ScriptedFlow flow = new ScriptedFlow();
    private final ReceivedPacketTracker receiver = new ReceivedPacketTracker(
        PacketDecoder.MAX_ACK_RANGES, TestControllerContext.PEER_MAX_ACK_DELAY_NS);
    private final ReceiverRanges ackRanges = new ReceiverRanges(receiver);
    private final OutcomeCounter outcomes = new OutcomeCounter();
    private final long delayedAckTimeoutNs;
    private final LinkPacketPool linkPackets = new LinkPacketPool();
    private final LinkDirection link;
    private final UnsafeBuffer packetView = new UnsafeBuffer(0, 0);
    private final long[] arrivalNs = new long[CAPACITY];
    private final byte[] arrivingCodepoints = new byte[CAPACITY];

    private long ackBurstPeriodNs;
    private long receiverReadPeriodNs;
    private long receiverFrameSpacingNs;
    private boolean isAckDelayFromArrival = true;
    private long trainReadNs = NEVER;
    private int trainFrames;
    private int ackEveryPackets = 1;
    private boolean isPacing = true;
    private long dropEveryNth;
    private int dropNextRemaining;
    private long ceThresholdBytes = Long.MAX_VALUE;
    private long ceMarkedPackets;

    private long appPendingBytes = BACKLOGGED;
    private long appChunkBytes;
    private long appChunkIntervalNs;
    private long nextAppWriteNs = NEVER;
    private long applicationLimitBytes = Long.MAX_VALUE;
    private boolean isApplicationActive = true;

    private long nowNs;
    private long nextPacketNumber;
    private long ackCursor;
    private long newestSentTimeNs = Long.MIN_VALUE;

    private long sentBytes;
    private long droppedBytes;
    private long maxQueueBytes;
    private long ackFrames;

    private AckListener listener;

    /**
     * @param controller               the controller under test, built with {@code context}.
     * @param context                  its context: the path's loss recovery feeds its RTT estimator and reads its
     *                                 datagram size, and the receiver's delayed-ACK timer is its max_ack_delay.
     * @param bottleneckBytesPerSecond link rate.
     * @param propagationRttNs         round-trip propagation delay (the RTT is this plus serialization and queueing).
     * @param startNs                  virtual time of the first event.
     * @param seed                     seed of the link's random choices (random losses).
     */
    public ScriptedPath(
        final CongestionController controller,
        final TestControllerContext context,
        final long bottleneckBytesPerSecond,
        final long propagationRttNs,
        final long startNs,
        final long seed)
    {
        this.controller = controller;
        this.context = context;
        this.recorder = new RecordingController(controller, null).recording(false);
        this.lossRecovery = new LossRecovery(
            new RecoveryConfig().sentPacketCapacity(SENT_PACKET_CAPACITY).ecn(true),
            context.path(),
            context.rttEstimator(),
            recorder);
        this.delayedAckTimeoutNs = context.maxAckDelayNs();
        this.link = new LinkDirection(
            linkSpec(bottleneckBytesPerSecond, propagationRttNs), propagationRttNs, seed, linkPackets);
        this.nowNs = startNs;
        scheduler.addFlow(flow);
    }

    /**
     * An unlimited-rate path starting at time 0: every packet takes exactly {@code propagationRttNs} (the FIFO never
     * reorders, so a drop in RTT compresses arrivals).
     *
     * @param controller       the controller under test.
     * @param context          its context (see the other constructor).
     * @param propagationRttNs the RTT of packets sent from now on.
     */
    public ScriptedPath(
        final CongestionController controller, final TestControllerContext context, final long propagationRttNs)
    {
        this(controller, context, UNLIMITED_RATE_BYTES_PER_SECOND, propagationRttNs, 0, 0);
    }

    /**
     * The forward path as a path spec: the rate, the whole round trip as its delay, a byte-limited FIFO (unlimited
     * until {@link #bufferBytes(long)}) and nothing random until {@link #randomLoss(double)}.
     */
    private static PathSpec linkSpec(final long bottleneckBytesPerSecond, final long propagationRttNs)
    {
        return new PathSpec(
            rateSchedule(bottleneckBytesPerSecond),
            propagationRttNs,
            0,
            JitterDistribution.UNIFORM,
            false,
            LossModel.NONE,
            0,
            0,
            PolicerSpec.NONE,
            new QueueLimit(QueueLimit.Unit.BYTES, UNLIMITED_BUFFER_BYTES),
            PathSpec.DEFAULT_QDISC,
            QueueConfig.DEFAULT_QUANTUM_BYTES,
            QueueConfig.DEFAULT_FLOW_BUCKETS,
            QueueConfig.DEFAULT_CODEL_TARGET_NS,
            QueueConfig.DEFAULT_CODEL_INTERVAL_NS,
            AqmSpec.DEFAULT,
            PathSpec.NO_ECN_REWRITE);
    }

    private static RateSchedule rateSchedule(final long bytesPerSecond)
    {
        return UNLIMITED_RATE_BYTES_PER_SECOND == bytesPerSecond ?
            StepRateSchedule.unlimited() : StepRateSchedule.constant(bytesPerSecond * 8);
    }

    // ------------------------------------------------------------------------------------------------- configuration

    /**
     * @param listener called after every ACK frame; null for none.
     * @return this.
     */
    public ScriptedPath listener(final AckListener listener)
    {
        this.listener = listener;
        return this;
    }

    /**
     * @param rttNs new propagation RTT for packets leaving the bottleneck from now on (they never overtake earlier
     *              ones, so ACK order is preserved; {@link LinkDirection#propagationDelayNs(long)}).
     * @return this.
     */
    public ScriptedPath propagationRttNs(final long rttNs)
    {
        link.propagationDelayNs(rttNs);
        return this;
    }

    /**
     * @param bytesPerSecond new bottleneck rate for packets the bottleneck starts serializing from now on
     *                       ({@link LinkDirection#rate(RateSchedule)}).
     * @return this.
     */
    public ScriptedPath bottleneckBytesPerSecond(final long bytesPerSecond)
    {
        link.rate(rateSchedule(bytesPerSecond));
        return this;
    }

    /**
     * @param bytes drop packets arriving when the bytes waiting in the queue (not counting the packet being
     *              serialized) would exceed this, as the link's drop-tail FIFO does; {@link Long#MAX_VALUE} for no
     *              limit. Packets already queued stay.
     * @return this.
     */
    public ScriptedPath bufferBytes(final long bytes)
    {
        link.queueLimits(Integer.MAX_VALUE, bytes);
        return this;
    }

    /**
     * Stretch ACKs: the receiver acknowledges every {@code packets} packets, or when its delayed-ACK timer (the
     * context's max_ack_delay) expires after the first unacknowledged one arrived (RFC 9000 section 13.2.1).
     *
     * @param packets packets per ACK frame; 1 for an ACK per packet.
     * @return this.
     */
    public ScriptedPath ackEvery(final int packets)
    {
        this.ackEveryPackets = packets;
        return this;
    }

    /**
     * ACK aggregation: ACKs reach the sender only at multiples of {@code periodNs} (as behind a Wi-Fi or cellular
     * link that batches them), so each burst delivers every ACK sent since the last one. The receiver reports the
     * delay it added itself, not the network's.
     *
     * @param periodNs burst period; 0 for ACKs on arrival.
     * @return this.
     */
    public ScriptedPath ackBurstPeriodNs(final long periodNs)
    {
        this.ackBurstPeriodNs = periodNs;
        return this;
    }

    /**
     * A receiver whose thread reads its socket late, a train at a time, as one waiting for a CPU does: it reads only
     * at multiples of {@code periodNs}, then acknowledges what it read, one ACK frame every {@code frameSpacingNs}
     * (the time it takes to process {@code ackEvery} packets and send the frame). The frames leave compressed: a
     * period's arrivals are acknowledged within a fraction of it.
     *
     * @param periodNs              how often the receiver reads; 0 to read every packet when it arrives.
     * @param frameSpacingNs        between the frames of one read's train.
     * @param isAckDelayFromArrival true if each frame's ACK Delay is measured from its largest packet's arrival (RFC
     *                              9000 section 13.2.5, a receiver that knows the kernel's receive time); false if
     *                              from the read, as a receiver that stamps a packet when it reads it.
     * @return this.
     */
    public ScriptedPath receiverReadsLate(
        final long periodNs, final long frameSpacingNs, final boolean isAckDelayFromArrival)
    {
        this.receiverReadPeriodNs = periodNs;
        this.receiverFrameSpacingNs = frameSpacingNs;
        this.isAckDelayFromArrival = isAckDelayFromArrival;
        return this;
    }

    /**
     * @param isPacing true to space packets at the controller's pacing rate, false to send whole windows at once.
     * @return this.
     */
    public ScriptedPath pacing(final boolean isPacing)
    {
        this.isPacing = isPacing;
        return this;
    }

    /**
     * @param probability Bernoulli drop probability per packet from now on: the link's loss model, drawn from the
     *                    link's seeded random source.
     * @return this.
     */
    public ScriptedPath randomLoss(final double probability)
    {
        link.lossModel(LossModel.bernoulli(probability));
        return this;
    }

    /**
     * @param n drop every n-th packet sent, counted from the first packet (deterministic loss rate 1/n); 0 for none.
     * @return this.
     */
    public ScriptedPath dropEveryNth(final long n)
    {
        this.dropEveryNth = n;
        return this;
    }

    /**
     * @param count drop the next {@code count} packets sent.
     * @return this.
     */
    public ScriptedPath dropNext(final int count)
    {
        this.dropNextRemaining = count;
        return this;
    }

    /**
     * A token-bucket policer in front of the bottleneck: the simulator's own ({@link PolicerSpec#newPolicer()}, Linux
     * {@code act_police}'s rules), so controller tests meet the policer the scenarios and {@code pacelink sim} use.
     *
     * @param rateBytesPerSecond token rate (0: no policer).
     * @param bucketBytes        bucket depth, at least {@link PolicerSpec#MIN_BURST_BYTES}; the bucket starts full.
     * @return this.
     */
    public ScriptedPath policer(final long rateBytesPerSecond, final long bucketBytes)
    {
        link.policer(rateBytesPerSecond <= 0 ? PolicerSpec.NONE : new PolicerSpec(rateBytesPerSecond * 8, bucketBytes));
        return this;
    }

    /**
     * ECN step marking in front of the bottleneck: an ECN-capable packet that finds at least {@code thresholdBytes}
     * waiting in the link's queue is marked CE (it still needs room in the buffer).
     *
     * @param thresholdBytes the queue at which marking starts; {@link Long#MAX_VALUE} for none (the default).
     * @return this.
     */
    public ScriptedPath ceThresholdBytes(final long thresholdBytes)
    {
        this.ceThresholdBytes = thresholdBytes;
        return this;
    }

    /**
     * The application always has data.
     *
     * @return this.
     */
    public ScriptedPath backlogged()
    {
        appPendingBytes = BACKLOGGED;
        nextAppWriteNs = NEVER;
        return this;
    }

    /**
     * The application writes {@code chunkBytes} every {@code intervalNs}, starting now, and has nothing else.
     *
     * @param chunkBytes bytes per write.
     * @param intervalNs time between writes.
     * @return this.
     */
    public ScriptedPath appChunks(final long chunkBytes, final long intervalNs)
    {
        appPendingBytes = 0;
        appChunkBytes = chunkBytes;
        appChunkIntervalNs = intervalNs;
        nextAppWriteNs = nowNs;
        return this;
    }

    /**
     * @param bytes the most the application keeps in flight ({@link Long#MAX_VALUE}: no limit).
     * @return this.
     */
    public ScriptedPath applicationLimitBytes(final long bytes)
    {
        this.applicationLimitBytes = bytes;
        return this;
    }

    /**
     * The application stops writing; once everything in flight is acknowledged the connection is idle.
     *
     * @return this.
     */
    public ScriptedPath pauseApplication()
    {
        isApplicationActive = false;
        return this;
    }

    /**
     * The application writes again; the transport restarts the controller from idle if nothing was in flight.
     *
     * @return this.
     */
    public ScriptedPath resumeApplication()
    {
        isApplicationActive = true;
        return this;
    }

    /**
     * Make the link ready for up to {@code packets} on it at once, so that a run staying within that allocates
     * nothing from its first packet: its packet pool and its propagation storage grow now. For allocation tests whose
     * first measured window starts on a fresh path; {@link #linkPacketsHighWater()} after a warm-up run of the same
     * script on another path says how many.
     *
     * @param packets the most packets on the link at once.
     * @return this.
     */
    public ScriptedPath reserveLinkPackets(final int packets)
    {
        final LinkPacket[] taken = new LinkPacket[packets];
        for (int i = 0; i < packets; i++)
        {
            taken[i] = linkPackets.acquire(context.maxDatagramSizeBytes());
        }
        for (final LinkPacket packet : taken)
        {
            linkPackets.release(packet);
        }
        link.reservePropagating(packets);
        return this;
    }

    // ------------------------------------------------------------------------------------------------- running

    /**
     * Process events up to and including {@code endNs}; afterwards {@link #nowNs()} is {@code endNs}.
     *
     * @param endNs virtual end time.
     */
    public void runUntil(final long endNs)
    {
        runUntil(endNs, null);
    }

    /**
     * @param durationNs how long to run from now.
     */
    public void runFor(final long durationNs)
    {
        runUntil(nowNs + durationNs, null);
    }

    /**
     * Process events up to and including {@code endNs} or until, checked after every ACK frame, {@code stop} holds.
     * If nothing is left to happen (an idle application) the clock still advances to {@code endNs}, unless that is
     * {@link Long#MAX_VALUE}.
     *
     * @param endNs virtual end time.
     * @param stop  the stop condition, or null.
     * @return true if stopped by the condition.
     */
    public boolean runUntil(final long endNs, final BooleanSupplier stop)
    {
        long lastCycleNs = Long.MIN_VALUE;
        int cyclesAtThisInstant = 0;
        while (true)
        {
            final long eventNs = Math.min(nextDutyCycleNs(), link.nextEventTimeNs());
            if (eventNs > endNs || NEVER == eventNs)
            {
                nowNs = NEVER == endNs ? nowNs : endNs;
                return false;
            }

            nowNs = Math.max(nowNs, eventNs);
            pollLink();
            if (nextDutyCycleNs() > nowNs)
            {
                continue;  // only the link moved: a serialization completed or a packet reached the receiver
            }
            cyclesAtThisInstant = nowNs == lastCycleNs ? cyclesAtThisInstant + 1 : 0;
            if (cyclesAtThisInstant > MAX_DUTY_CYCLES_AT_ONE_INSTANT)
            {
                throw new IllegalStateException("scripted path stuck at " + nowNs + " ns");
            }
            lastCycleNs = nowNs;
            if (dutyCycle(stop))
            {
                return true;
            }
        }
    }

    /**
     * Declare the most recently sent packet lost now, as if loss detection had just found it, and drop it from the
     * path (the receiver ignores it when the link delivers it): it is removed from flight and reported with
     * {@code onPacketLost} and {@code onCongestionEvent}.
     */
    public void loseNewestPacketNow()
    {
        final long packetNumber = nextPacketNumber - 1;
        final int i = (int)(packetNumber & MASK);
        if (packetNumber < ackCursor || NOT_DELIVERED == arrivalNs[i])
        {
            throw new IllegalStateException("the newest packet is not on its way");
        }
        arrivalNs[i] = NOT_DELIVERED;
        droppedBytes += context.maxDatagramSizeBytes();
        ScriptedLosses.declareLost(lossRecovery, packetNumber, nowNs, outcomes);
    }

    /**
     * Declare the most recently sent packet lost now while the path still delivers it: its acknowledgement, about a
     * round trip later, proves the loss spurious, which the transport reports to the controller if every loss of the
     * recovery was spurious.
     */
    public void declareNewestPacketLostNow()
    {
        ScriptedLosses.declareLost(lossRecovery, nextPacketNumber - 1, nowNs, outcomes);
    }

    /**
     * Deliver a congestion event without touching the path (e.g. a late loss report or persistent congestion).
     *
     * @param newestLostSentTimeNs   send time of the newest packet in the batch.
     * @param isPersistentCongestion whether the batch establishes persistent congestion.
     */
    public void congestionEvent(final long newestLostSentTimeNs, final boolean isPersistentCongestion)
    {
        ScriptedLosses.congestionSignal(
            lossRecovery, nowNs, newestLostSentTimeNs, context.maxDatagramSizeBytes(), isPersistentCongestion, false);
    }

    /**
     * Deliver an ECN congestion-experienced signal for a packet sent at {@code sentTimeNs}.
     *
     * @param sentTimeNs send time of the CE-marked packet.
     */
    public void ecnCongestionEvent(final long sentTimeNs)
    {
        ScriptedLosses.congestionSignal(lossRecovery, nowNs, sentTimeNs, 0, false, true);
    }

    // ------------------------------------------------------------------------------------------------- observation

    /**
     * @return virtual time.
     */
    public long nowNs()
    {
        return nowNs;
    }

    /**
     * @return send time of the newest packet sent, or {@link Long#MIN_VALUE} before the first.
     */
    public long newestSentTimeNs()
    {
        return newestSentTimeNs;
    }

    /**
     * @return bytes in flight (sent, neither acknowledged nor declared lost).
     */
    public long bytesInFlight()
    {
        return lossRecovery.bytesInFlight();
    }

    /**
     * @return bytes acknowledged so far ({@code C.delivered}).
     */
    public long deliveredBytes()
    {
        return lossRecovery.deliveredBytes();
    }

    /**
     * @return bytes declared lost so far ({@code C.lost}).
     */
    public long lostBytes()
    {
        return lossRecovery.lostBytes();
    }

    /**
     * @return bytes sent so far.
     */
    public long sentBytes()
    {
        return sentBytes;
    }

    /**
     * @return bytes the path dropped (or the test lost), declared lost yet or not.
     */
    public long droppedBytes()
    {
        return droppedBytes;
    }

    /**
     * @return packets the bottleneck marked CE.
     */
    public long ceMarkedPackets()
    {
        return ceMarkedPackets;
    }

    /**
     * @return the largest queue seen at the bottleneck just after a packet arrived, in bytes waiting (not counting
     * the packet being serialized).
     */
    public long maxQueueBytes()
    {
        return maxQueueBytes;
    }

    /**
     * @return the bytes waiting in the bottleneck queue now (not counting the packet being serialized), as the link
     * counts them for its buffer limit.
     */
    public long queueBytes()
    {
        return link.queuedBytes();
    }

    /**
     * @return the forward link's counters (offered, policed, randomly lost, queue drops, served, delivered).
     */
    public LinkCounters linkCounters()
    {
        return link.counters();
    }

    /**
     * @return the most packets the link has held at once so far (its packet pool's high-water mark).
     */
    public int linkPacketsHighWater()
    {
        return (int)linkPackets.allocatedPackets();
    }

    /**
     * Reset the max-queue statistic.
     */
    public void resetMaxQueue()
    {
        maxQueueBytes = 0;
    }

    /**
     * @return ACK frames processed so far.
     */
    public long ackFrames()
    {
        return ackFrames;
    }

    /**
     * @return congestion events delivered so far (including scripted ones).
     */
    public long congestionEvents()
    {
        return recorder.congestionEventCount();
    }

    /**
     * @return the controller's window just before the most recent congestion event was delivered.
     */
    public long cwndBeforeLastCongestionEventBytes()
    {
        return recorder.cwndBeforeLastCongestionEventBytes();
    }

    /**
     * @return the most recently processed ACK frame as the controller saw it (valid inside a listener).
     */
    public AckEvent lastAck()
    {
        return recorder.lastAck();
    }

    /**
     * @return the controller being driven.
     */
    public CongestionController controller()
    {
        return controller;
    }

    /**
     * @return the recorder between the transport and the controller: switch its recording on, or observe it.
     */
    public RecordingController recorder()
    {
        return recorder;
    }

    /**
     * @return what became of the packets sent.
     */
    public OutcomeCounter outcomes()
    {
        return outcomes;
    }

    /**
     * @return the sender's loss recovery.
     */
    public LossRecovery lossRecovery()
    {
        return lossRecovery;
    }

    // ------------------------------------------------------------------------------------------------- duty cycle

    private long nextDutyCycleNs()
    {
        return Math.min(
            Math.min(nextAppWriteNs, nextAckFrameNs()), Math.min(lossRecovery.timerDeadlineNs(), nextSendNs()));
    }

    /**
     * @return true if stopped by the condition after an ACK frame.
     */
    private boolean dutyCycle(final BooleanSupplier stop)
    {
        while (nextAppWriteNs <= nowNs)
        {
            appPendingBytes += appChunkBytes;
            nextAppWriteNs += appChunkIntervalNs;
        }

        while (nextAckFrameNs() <= nowNs)
        {
            processAckFrame();
            if (null != stop && stop.getAsBoolean())
            {
                return true;
            }
        }

        lossRecovery.onAppLimitedCheck(unsentBytes(), true, true);
        if (lossRecovery.timerDeadlineNs() <= nowNs)
        {
            lossRecovery.onTimeout(nowNs, outcomes);
        }

        if (hasWork())
        {
            scheduler.activate(
                flow, isPacing ? controller.pacingRateBytesPerSecond() : 0, controller.sendQuantumBytes(), nowNs);
        }
        Release<ScriptedFlow> release;
        while (null != (release = scheduler.next(nowNs)))
        {
            scheduler.onSent(release.flow(), send(), true, nowNs);
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------------- sender

    /**
     * @return bytes the application has ready that the window may take: what a connection's send buffer holds.
     */
    private long unsentBytes()
    {
        if (!isApplicationActive)
        {
            return 0;
        }
        final long room = applicationLimitBytes - lossRecovery.bytesInFlight();
        return Math.max(0, Math.min(appPendingBytes, room));
    }

    private boolean hasData()
    {
        return unsentBytes() >= context.maxDatagramSizeBytes();
    }

    /**
     * @return true if a packet may go within the window: a probe, or data below cwnd.
     */
    private boolean hasWork()
    {
        if (!lossRecovery.canSend())
        {
            return false;
        }
        return lossRecovery.probesToSend() > 0 ||
            (hasData() && lossRecovery.bytesInFlight() < controller.congestionWindowBytes());
    }

    /**
     * @return when the next packet may leave: now if the scheduler has yet to take the flow's work, else when its
     * pacing releases it.
     */
    private long nextSendNs()
    {
        if (!hasWork())
        {
            return NEVER;
        }
        if (0 == scheduler.activeFlowCount())
        {
            return nowNs;
        }
        return Math.max(nowNs, scheduler.nextReleaseTimeNs());
    }

    /**
     * @return the packet's size.
     */
    private int send()
    {
        if (nextPacketNumber - ackCursor >= CAPACITY)
        {
            throw new IllegalStateException("more than " + CAPACITY + " packets on the path");
        }
        final long packetNumber = nextPacketNumber++;
        final boolean isProbe = lossRecovery.probesToSend() > 0;
        final int datagramSizeBytes = context.maxDatagramSizeBytes();
        final boolean carriesData = hasData();
        final int sizeBytes = carriesData ? datagramSizeBytes : PING_PACKET_BYTES;
        final int codepoint = lossRecovery.ecnCodepointToSend(nowNs);
        if (carriesData && BACKLOGGED != appPendingBytes)
        {
            appPendingBytes -= sizeBytes;
        }

        lossRecovery.onPacketSent(sent.reset(packetNumber, nowNs)
            .sizeBytes(sizeBytes)
            .ackEliciting(true)
            .streamRange(packetNumber * datagramSizeBytes, carriesData ? sizeBytes : 0, false, false)
            .probe(isProbe)
            .ecnCodepoint(codepoint));
        newestSentTimeNs = nowNs;
        sentBytes += sizeBytes;

        final int i = (int)(packetNumber & MASK);
        arrivalNs[i] = NOT_DELIVERED;
        if (isScriptedDrop(packetNumber))
        {
            droppedBytes += sizeBytes;
            return sizeBytes;
        }

        final boolean isMarked = EcnCodepoint.isEcnCapable(codepoint) && link.queuedBytes() >= ceThresholdBytes;
        final LinkPacket packet = linkPackets.acquire(sizeBytes).ecnCodepoint(isMarked ? EcnCodepoint.CE : codepoint);
        packetView.wrap(packet.data());
        packetView.putLong(0, packetNumber);
        arrivalNs[i] = ON_THE_LINK;
        if (link.offer(packet, nowNs))
        {
            ceMarkedPackets += isMarked ? 1 : 0;
            maxQueueBytes = Math.max(maxQueueBytes, link.queuedBytes());
        }
        else
        {
            arrivalNs[i] = NOT_DELIVERED;
            droppedBytes += sizeBytes;
        }
        return sizeBytes;
    }

    /**
     * The drops a test scripts, in front of the link (which applies random loss, the policer and the buffer limit).
     */
    private boolean isScriptedDrop(final long packetNumber)
    {
        if (dropNextRemaining > 0)
        {
            dropNextRemaining--;
            return true;
        }
        return dropEveryNth > 0 && 0 == (packetNumber + 1) % dropEveryNth;
    }

    /**
     * Take every packet the link delivers by now to the receiver: its arrival time and ECN field become known.
     */
    private void pollLink()
    {
        LinkPacket packet;
        while (null != (packet = link.poll(nowNs)))
        {
            packetView.wrap(packet.data());
            final int i = (int)(packetView.getLong(0) & MASK);
            if (ON_THE_LINK == arrivalNs[i])
            {
                arrivalNs[i] = link.lastDeliveryTimeNs();
                arrivingCodepoints[i] = (byte)packet.ecnCodepoint();
            }
            linkPackets.release(packet);
        }
    }

    // ------------------------------------------------------------------------------------------------- receiver

    private long firstArrivingPacketNumber()
    {
        while (ackCursor < nextPacketNumber && NOT_DELIVERED == arrivalNs[(int)(ackCursor & MASK)])
        {
            ackCursor++;
        }
        return ackCursor;
    }

    /**
     * @return when the receiver sends the next ACK frame: at the arrival of the {@code ackEvery}-th unacknowledged
     * packet or when the delayed-ACK timer of the first expires; {@link #NEVER} if nothing has arrived. Packets still
     * on the link count as arriving after the timer: the link's next event comes no later than their arrival, and the
     * frame's time is asked again after it.
     */
    private long nextAckSendNs()
    {
        final long first = firstArrivingPacketNumber();
        if (first >= nextPacketNumber || ON_THE_LINK == arrivalNs[(int)(first & MASK)])
        {
            return NEVER;
        }

        long frameNs = arrivalNs[(int)(first & MASK)];
        if (ackEveryPackets > 1)
        {
            frameNs += delayedAckTimeoutNs;
            int count = 1;
            for (long packetNumber = first + 1; packetNumber < nextPacketNumber; packetNumber++)
            {
                final long arrivedNs = arrivalNs[(int)(packetNumber & MASK)];
                if (arrivedNs >= frameNs)
                {
                    break;
                }
                if (NOT_DELIVERED != arrivedNs && ++count == ackEveryPackets)
                {
                    frameNs = arrivedNs;
                    break;
                }
            }
        }
        return frameNs;
    }

    /**
     * @return when the next ACK frame reaches the sender: when the receiver sends it, rounded up to the next ACK
     * burst.
     */
    private long nextAckFrameNs()
    {
        final long sendNs = nextAckLeavesNs();
        if (NEVER == sendNs || ackBurstPeriodNs <= 0)
        {
            return sendNs;
        }
        return (sendNs + ackBurstPeriodNs - 1) / ackBurstPeriodNs * ackBurstPeriodNs;
    }

    /**
     * @param ackSendNs when a receiver that reads every packet as it arrives would send the frame.
     * @return when the receiver reads the frame's packets: at once, or at its next read if it reads late.
     */
    private long readNs(final long ackSendNs)
    {
        if (NEVER == ackSendNs || receiverReadPeriodNs <= 0)
        {
            return ackSendNs;
        }
        return (ackSendNs + receiverReadPeriodNs - 1) / receiverReadPeriodNs * receiverReadPeriodNs;
    }

    /**
     * @return when the receiver sends the next ACK frame: {@link #nextAckSendNs()}, or behind the frames before it
     * in its read's train if it reads late.
     */
    private long nextAckLeavesNs()
    {
        final long readNs = readNs(nextAckSendNs());
        if (NEVER == readNs || receiverReadPeriodNs <= 0)
        {
            return readNs;
        }
        return readNs + (readNs == trainReadNs ? trainFrames : 0) * receiverFrameSpacingNs;
    }

    private void processAckFrame()
    {
        final long ackSendNs = nextAckSendNs();
        final long readNs = readNs(ackSendNs);
        final long leavesNs = nextAckLeavesNs();
        if (readNs == trainReadNs)
        {
            trainFrames++;
        }
        else
        {
            trainReadNs = readNs;
            trainFrames = 1;
        }
        long largestArrivalNs = ackSendNs;
        int count = 0;
        long packetNumber = ackCursor;
        while (packetNumber < nextPacketNumber && count < ackEveryPackets)
        {
            final long arrivedNs = arrivalNs[(int)(packetNumber & MASK)];
            if (NOT_DELIVERED != arrivedNs)
            {
                if (arrivedNs > ackSendNs)
                {
                    break;
                }
                receiver.onPacketReceived(
                    packetNumber, true, arrivingCodepoints[(int)(packetNumber & MASK)], arrivedNs);
                largestArrivalNs = arrivedNs;
                count++;
            }
            packetNumber++;
        }
        ackCursor = packetNumber;

        final long ackDelayNs = isAckDelayFromArrival || receiverReadPeriodNs <= 0 ?
            leavesNs - largestArrivalNs : leavesNs - readNs;
        final int result = lossRecovery.onAckReceived(ackRanges, ackDelayNs, nowNs, outcomes);
        if (result < 0)
        {
            throw new IllegalStateException("loss lossRecovery rejected an ACK frame: " + result);
        }
        ackFrames++;
        if (null != listener)
        {
            listener.onAckProcessed(this);
        }
    }

    /**
     * The scripted connection as the scheduler sees it: an ack-eliciting packet whenever the window and the application
     * allow one (its ACKs travel on the path's own ACK model, not through the scheduler).
     */
    private final class ScriptedFlow implements SchedulableFlow
    {
        public long flowId()
        {
            return 1;
        }

        public int sendable(final long nowNs)
        {
            return hasWork() ? ACK_ELICITING : 0;
        }
    }

    /**
     * The receiver's ranges, newest first, read as the ACK frame it sends.
     */
    private static final class ReceiverRanges implements AckRanges
    {
        private final ReceivedPacketTracker tracker;

        ReceiverRanges(final ReceivedPacketTracker tracker)
        {
            this.tracker = tracker;
        }

        public long largestAcked()
        {
            return tracker.rangeLargest(0);
        }

        public int rangeCount()
        {
            return tracker.rangeCount();
        }

        public long rangeSmallest(final int i)
        {
            return tracker.rangeSmallest(i);
        }

        public long rangeLargest(final int i)
        {
            return tracker.rangeLargest(i);
        }

        public boolean hasEcnCounts()
        {
            return tracker.hasEcnCounts();
        }

        public long ect0Count()
        {
            return tracker.ect0Received();
        }

        public long ect1Count()
        {
            return tracker.ect1Received();
        }

        public long ceCount()
        {
            return tracker.ceReceived();
        }
    }
}
