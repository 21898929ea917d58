package io.pacelink.transport.cc.testing;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.recovery.RecoveryConfig;
import io.pacelink.transport.recovery.RttEstimator;
import io.pacelink.transport.recovery.RttSampleFeeder;

import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

/**
 * A scripted, virtual-time driver that runs one congestion controller over a single bottleneck: a FIFO link of fixed
 * (or unlimited) rate followed by a fixed propagation delay, with an optional buffer limit, scripted or random drops,
 * a token-bucket policer, stretch ACKs with a delayed-ACK timer, ACK aggregation, and an application that is
 * backlogged, writes chunks, keeps a limited amount in flight or pauses. Packets are sent while the application has
 * data, the window has room and (optionally) the pacer allows; how exactly is the {@link SenderModel}.
 * <p>
 * It plays the transport's part in the order design.md section 6 gives: RTT update (RFC 9002 section 5), the
 * delivery-rate sampler of reference section 1.3 (per-packet stamps, {@code max(send, ack)} intervals, samples
 * shorter than min_rtt dropped, app-limited bubbles), packet-threshold (3) and time-threshold (9/8 RTT) loss
 * detection (RFC 9002 section 6.1), then {@code onPacketLost} for each lost packet, {@code onCongestionEvent} once,
 * then {@code onAck}. Once constructed the driver does not allocate, so it can run inside an allocation measurement.
 */
public final class FluidPath
{
    /**
     * The sender's rules where the stacks the controllers were specified against differ. Window controllers (Reno,
     * CUBIC) are specified against RFC 9002, BBR against Linux TCP; their tests pin down behaviour under those rules.
     */
    public enum SenderModel
    {
        /**
         * Linux TCP, the default. The sender sends while bytes in flight are below cwnd ({@code tcp_cwnd_test}), so
         * the last packet of a window may overshoot it. All ACKs that arrive at one instant are processed before the
         * sender runs again. An ACK reports {@code isCwndLimited} only if the window blocked a send since the
         * previous ACK: {@code tcp_write_xmit} checks the pacer before the window, so a pacing-limited flow is never
         * cwnd-limited. The pacer grants one send quantum of burst credit, as the fq qdisc releases a flow's quantum
         * back to back.
         */
        LINUX,

        /**
         * RFC 9002. A packet is sent only if it fits in the window (section 7: bytes in flight must not exceed
         * cwnd). A window opened by an ACK is used before the next ACK of the same instant is processed. An ACK
         * reports {@code isCwndLimited} if the window blocked a send since the previous ACK or the pacer is holding
         * back a packet the window and the application would allow (section 7.8: pacing-limited is not
         * under-utilisation). The pacer spaces every packet by its size over the pacing rate, without bursts.
         */
        RFC_9002
    }

    /**
     * Called after every processed ACK frame.
     */
    @FunctionalInterface
    public interface AckListener
    {
        /**
         * @param path the path, with the clock at the ACK's arrival.
         */
        void onAckProcessed(FluidPath path);
    }

    /**
     * Bytes the application has when it never runs out.
     */
    private static final long BACKLOGGED = Long.MAX_VALUE;

    /**
     * A link rate that never queues: packets take only the propagation delay.
     */
    private static final long UNLIMITED_RATE_BYTES_PER_SECOND = Long.MAX_VALUE;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NEVER = Long.MAX_VALUE;
    private static final long NO_TIME = Long.MIN_VALUE;
    private static final long NOT_DELIVERED = -1;
    private static final int CAPACITY = 1 << 18;
    private static final int MASK = CAPACITY - 1;
    private static final byte OUTSTANDING = 0;
    private static final byte ACKED = 1;
    private static final byte LOST = 2;

    private final CongestionController controller;
    private final RttEstimator rttEstimator;
    private final int packetSizeBytes;
    private final long delayedAckTimeoutNs;
    private final SplittableRandom lossRandom;
    private final long bottleneckBytesPerSecond;

    private final long[] sentTimeNs = new long[CAPACITY];
    private final long[] ackArrivalNs = new long[CAPACITY];
    private final long[] stampDeliveredBytes = new long[CAPACITY];
    private final long[] stampDeliveredTimeNs = new long[CAPACITY];
    private final long[] stampFirstSentTimeNs = new long[CAPACITY];
    private final long[] stampTxInFlightBytes = new long[CAPACITY];
    private final long[] stampLostBytes = new long[CAPACITY];
    private final boolean[] stampAppLimited = new boolean[CAPACITY];
    private final byte[] state = new byte[CAPACITY];

    private final MutableAckEvent ack = new MutableAckEvent();
    private final MutableLostPacket lost = new MutableLostPacket();
    private final MutableCongestionEvent congestion = new MutableCongestionEvent();

    private boolean isRfc9002Sender;
    private long propagationRttNs;
    private long bufferBytes = Long.MAX_VALUE;
    private long ackBurstPeriodNs;
    private int ackEveryPackets = 1;
    private boolean isPacing = true;
    private double randomLossProbability;
    private long dropEveryNth;
    private int dropNextRemaining;
    private long policerBytesPerSecond;
    private long policerBucketBytes;
    private double policerTokens;
    private long policerTimeNs;

    private long appPendingBytes = BACKLOGGED;
    private long appChunkBytes;
    private long appChunkIntervalNs;
    private long nextAppWriteNs = NEVER;
    private long applicationLimitBytes = Long.MAX_VALUE;
    private boolean isApplicationActive = true;

    private long nowNs;
    private long nextPacketNumber;
    private long ackCursor;
    private long lossCursor;
    private long bytesInFlight;
    private long nextPacingTimeNs;
    private long lastDepartureNs;
    private long lastAckArrivalNs;
    private boolean isWindowLimitedSinceLastAck;
    private boolean isPacingLimitedNow;
    private boolean isIdle;
    private long idleStartNs;

    private long deliveredBytes;
    private long deliveredTimeNs;
    private long firstSentTimeNs;
    private long appLimitedUntilBytes;
    private long lostBytes;
    private long sentBytes;
    private long droppedBytes;
    private long maxQueueBytes;
    private long ackFrames;
    private long congestionEvents;
    private long cwndBeforeLastCongestionEventBytes;

    private AckListener listener;

    /**
     * @param controller               the controller under test.
     * @param context                  its context: the path feeds its RTT estimator, sends packets of its datagram
     *                                 size and uses its max_ack_delay as the receiver's delayed-ACK timer.
     * @param bottleneckBytesPerSecond link rate.
     * @param propagationRttNs         round-trip propagation delay (the RTT is this plus serialization and queueing).
     * @param startNs                  virtual time of the first event.
     * @param seed                     seed for random losses.
     */
    public FluidPath(
        final CongestionController controller,
        final FakeControllerContext context,
        final long bottleneckBytesPerSecond,
        final long propagationRttNs,
        final long startNs,
        final long seed)
    {
        this.controller = controller;
        this.rttEstimator = context.rttStats();
        this.packetSizeBytes = context.maxDatagramSizeBytes();
        this.delayedAckTimeoutNs = context.maxAckDelayNs();
        this.bottleneckBytesPerSecond = bottleneckBytesPerSecond;
        this.propagationRttNs = propagationRttNs;
        this.lossRandom = new SplittableRandom(seed);
        this.nowNs = startNs;
        this.nextPacingTimeNs = startNs;
        this.lastDepartureNs = startNs;
        this.policerTimeNs = startNs;
    }

    /**
     * An unlimited-rate path starting at time 0: every packet takes exactly {@code propagationRttNs} (the FIFO never
     * reorders, so a drop in RTT compresses arrivals).
     *
     * @param controller       the controller under test.
     * @param context          its context (see the other constructor).
     * @param propagationRttNs the RTT of packets sent from now on.
     */
    public FluidPath(
        final CongestionController controller, final FakeControllerContext context, final long propagationRttNs)
    {
        this(controller, context, UNLIMITED_RATE_BYTES_PER_SECOND, propagationRttNs, 0, 0);
    }

    // ------------------------------------------------------------------------------------------------- configuration

    /**
     * @param model the sender's rules; {@link SenderModel#LINUX} unless set.
     * @return this.
     */
    public FluidPath senderModel(final SenderModel model)
    {
        this.isRfc9002Sender = SenderModel.RFC_9002 == model;
        return this;
    }

    /**
     * @param listener called after every ACK frame; null for none.
     * @return this.
     */
    public FluidPath listener(final AckListener listener)
    {
        this.listener = listener;
        return this;
    }

    /**
     * @param rttNs new propagation RTT for packets sent from now on (ACK order is preserved).
     * @return this.
     */
    public FluidPath propagationRttNs(final long rttNs)
    {
        this.propagationRttNs = rttNs;
        return this;
    }

    /**
     * @param bytes drop packets arriving when the queue would exceed this.
     * @return this.
     */
    public FluidPath bufferBytes(final long bytes)
    {
        this.bufferBytes = bytes;
        return this;
    }

    /**
     * Stretch ACKs: the receiver acknowledges every {@code packets} packets, or when its delayed-ACK timer (the
     * context's max_ack_delay) expires after the first unacknowledged one arrived (RFC 9000 section 13.2.1).
     *
     * @param packets packets per ACK frame; 1 for an ACK per packet.
     * @return this.
     */
    public FluidPath ackEvery(final int packets)
    {
        this.ackEveryPackets = packets;
        return this;
    }

    /**
     * ACK aggregation: ACKs reach the sender only at multiples of {@code periodNs} (as behind a Wi-Fi or cellular
     * link that batches them), so each burst acknowledges everything that arrived since the last one.
     *
     * @param periodNs burst period; 0 for ACKs on arrival.
     * @return this.
     */
    public FluidPath ackBurstPeriodNs(final long periodNs)
    {
        this.ackBurstPeriodNs = periodNs;
        return this;
    }

    /**
     * @param isPacing true to space packets at the controller's pacing rate, false to send whole windows at once.
     * @return this.
     */
    public FluidPath pacing(final boolean isPacing)
    {
        this.isPacing = isPacing;
        return this;
    }

    /**
     * @param probability Bernoulli drop probability per packet.
     * @return this.
     */
    public FluidPath randomLoss(final double probability)
    {
        this.randomLossProbability = probability;
        return this;
    }

    /**
     * @param n drop every n-th packet sent, counted from the first packet (deterministic loss rate 1/n); 0 for none.
     * @return this.
     */
    public FluidPath dropEveryNth(final long n)
    {
        this.dropEveryNth = n;
        return this;
    }

    /**
     * @param count drop the next {@code count} packets sent.
     * @return this.
     */
    public FluidPath dropNext(final int count)
    {
        this.dropNextRemaining = count;
        return this;
    }

    /**
     * @param rateBytesPerSecond token rate (0: no policer).
     * @param bucketBytes        bucket depth; the bucket starts full.
     * @return this.
     */
    public FluidPath policer(final long rateBytesPerSecond, final long bucketBytes)
    {
        this.policerBytesPerSecond = rateBytesPerSecond;
        this.policerBucketBytes = bucketBytes;
        this.policerTokens = bucketBytes;
        this.policerTimeNs = nowNs;
        return this;
    }

    /**
     * The application always has data.
     *
     * @return this.
     */
    public FluidPath backlogged()
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
    public FluidPath appChunks(final long chunkBytes, final long intervalNs)
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
    public FluidPath applicationLimitBytes(final long bytes)
    {
        this.applicationLimitBytes = bytes;
        return this;
    }

    /**
     * The application stops writing; once everything in flight is acknowledged the connection is idle.
     *
     * @return this.
     */
    public FluidPath pauseApplication()
    {
        isApplicationActive = false;
        return this;
    }

    /**
     * The application writes again; the first send after an idle period calls
     * {@link CongestionController#onTransmitStartAfterIdle(long, long)}.
     *
     * @return this.
     */
    public FluidPath resumeApplication()
    {
        isApplicationActive = true;
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
        while (true)
        {
            final long ackAtNs = nextAckFrameNs();
            final long writeAtNs = nextAppWriteNs;
            final long sendAtNs = nextSendNs();
            final long eventNs = Math.min(ackAtNs, Math.min(writeAtNs, sendAtNs));
            if (eventNs > endNs || NEVER == eventNs)
            {
                nowNs = NEVER == endNs ? nowNs : endNs;
                return false;
            }

            nowNs = eventNs;
            // At one instant LINUX processes every ACK before sending; RFC_9002 sends what an ACK allowed first.
            if (ackAtNs == eventNs && (!isRfc9002Sender || sendAtNs > eventNs))
            {
                processAckFrame();
                if (null != stop && stop.getAsBoolean())
                {
                    return true;
                }
            }
            else if (writeAtNs == eventNs)
            {
                appPendingBytes += appChunkBytes;
                nextAppWriteNs += appChunkIntervalNs;
            }
            else
            {
                send();
            }
        }
    }

    /**
     * Declare the most recently sent packet lost now, as if loss detection had just found it: it is removed from
     * flight and reported with {@code onPacketLost} and {@code onCongestionEvent}.
     */
    public void loseNewestPacketNow()
    {
        final long packetNumber = nextPacketNumber - 1;
        final int i = (int)(packetNumber & MASK);
        if (packetNumber < ackCursor || OUTSTANDING != state[i] || NOT_DELIVERED == ackArrivalNs[i])
        {
            throw new IllegalStateException("the newest packet is not in flight");
        }
        ackArrivalNs[i] = NOT_DELIVERED;
        droppedBytes += packetSizeBytes;
        declareLost(packetNumber);
        reportCongestionEvent(sentTimeNs[i], packetSizeBytes, false, false);
    }

    /**
     * Deliver a congestion event without touching the path (e.g. a late loss report or persistent congestion).
     *
     * @param newestLostSentTimeNs   send time of the newest packet in the batch.
     * @param isPersistentCongestion whether the batch establishes persistent congestion.
     */
    public void congestionEvent(final long newestLostSentTimeNs, final boolean isPersistentCongestion)
    {
        reportCongestionEvent(newestLostSentTimeNs, packetSizeBytes, isPersistentCongestion, false);
    }

    /**
     * Deliver an ECN congestion-experienced signal for a packet sent at {@code sentTimeNs}.
     *
     * @param sentTimeNs send time of the CE-marked packet.
     */
    public void ecnCongestionEvent(final long sentTimeNs)
    {
        reportCongestionEvent(sentTimeNs, 0, false, true);
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
        return 0 == nextPacketNumber ? NO_TIME : sentTimeNs[(int)((nextPacketNumber - 1) & MASK)];
    }

    /**
     * @return bytes in flight (sent, neither acknowledged nor declared lost).
     */
    public long bytesInFlight()
    {
        return bytesInFlight;
    }

    /**
     * @return bytes acknowledged so far ({@code C.delivered}).
     */
    public long deliveredBytes()
    {
        return deliveredBytes;
    }

    /**
     * @return bytes declared lost so far.
     */
    public long lostBytes()
    {
        return lostBytes;
    }

    /**
     * @return bytes sent so far.
     */
    public long sentBytes()
    {
        return sentBytes;
    }

    /**
     * @return bytes that will never be acknowledged (dropped by the path or lost by the test), declared lost or not.
     */
    public long droppedBytes()
    {
        return droppedBytes;
    }

    /**
     * @return the largest queue seen at the bottleneck, in bytes.
     */
    public long maxQueueBytes()
    {
        return maxQueueBytes;
    }

    /**
     * @return the queue at the bottleneck now, in bytes.
     */
    public long queueBytes()
    {
        final long backlogNs = lastDepartureNs - nowNs;
        return backlogNs <= 0 ? 0 : (long)((double)bottleneckBytesPerSecond * backlogNs / NANOS_PER_SECOND);
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
     * @return congestion events delivered so far (including injected ones).
     */
    public long congestionEvents()
    {
        return congestionEvents;
    }

    /**
     * @return the controller's window just before the most recent congestion event was delivered.
     */
    public long cwndBeforeLastCongestionEventBytes()
    {
        return cwndBeforeLastCongestionEventBytes;
    }

    /**
     * @return the most recently processed ACK frame as the controller saw it (valid inside a listener).
     */
    public AckEvent lastAck()
    {
        return ack;
    }

    /**
     * @return the controller being driven.
     */
    public CongestionController controller()
    {
        return controller;
    }

    // ------------------------------------------------------------------------------------------------- sender

    private boolean hasData()
    {
        return isApplicationActive && appPendingBytes >= packetSizeBytes &&
            bytesInFlight + packetSizeBytes <= applicationLimitBytes;
    }

    private long nextSendNs()
    {
        isPacingLimitedNow = false;
        if (!hasData())
        {
            return NEVER;
        }
        final long cwndBytes = controller.congestionWindowBytes();
        if (isRfc9002Sender ? bytesInFlight + packetSizeBytes > cwndBytes : bytesInFlight >= cwndBytes)
        {
            isWindowLimitedSinceLastAck = true;
            return NEVER;
        }
        if (isPacing && nextPacingTimeNs > nowNs)
        {
            isPacingLimitedNow = true;
            return nextPacingTimeNs;
        }
        return nowNs;
    }

    private void send()
    {
        if (nextPacketNumber - lossCursor >= CAPACITY)
        {
            throw new IllegalStateException("more than " + CAPACITY + " packets outstanding");
        }
        final long packetNumber = nextPacketNumber++;
        final int i = (int)(packetNumber & MASK);

        if (0 == bytesInFlight)
        {
            if (isIdle)
            {
                isIdle = false;
                controller.onTransmitStartAfterIdle(nowNs, nowNs - idleStartNs);
            }
            // Reference 1.3 step 1: nothing outstanding, so the next sample's intervals start now.
            firstSentTimeNs = nowNs;
            deliveredTimeNs = nowNs;
        }

        sentTimeNs[i] = nowNs;
        stampDeliveredBytes[i] = deliveredBytes;
        stampDeliveredTimeNs[i] = deliveredTimeNs;
        stampFirstSentTimeNs[i] = firstSentTimeNs;
        stampAppLimited[i] = 0 != appLimitedUntilBytes;
        stampTxInFlightBytes[i] = bytesInFlight + packetSizeBytes;
        stampLostBytes[i] = lostBytes;
        state[i] = OUTSTANDING;

        bytesInFlight += packetSizeBytes;
        sentBytes += packetSizeBytes;
        if (BACKLOGGED != appPendingBytes)
        {
            appPendingBytes -= packetSizeBytes;
        }
        if (isDropped(packetNumber))
        {
            ackArrivalNs[i] = NOT_DELIVERED;
            droppedBytes += packetSizeBytes;
        }
        else
        {
            ackArrivalNs[i] = enterBottleneck();
        }

        controller.onPacketSent(nowNs, packetNumber, packetSizeBytes, bytesInFlight, false);
        advancePacer();
        checkAppLimited();
    }

    private boolean isDropped(final long packetNumber)
    {
        if (dropNextRemaining > 0)
        {
            dropNextRemaining--;
            return true;
        }
        if (dropEveryNth > 0 && 0 == (packetNumber + 1) % dropEveryNth)
        {
            return true;
        }
        if (randomLossProbability > 0 && lossRandom.nextDouble() < randomLossProbability)
        {
            return true;
        }
        if (policerBytesPerSecond > 0)
        {
            policerTokens = Math.min(
                policerBucketBytes,
                policerTokens + (double)policerBytesPerSecond * (nowNs - policerTimeNs) / NANOS_PER_SECOND);
            policerTimeNs = nowNs;
            if (policerTokens < packetSizeBytes)
            {
                return true;
            }
            policerTokens -= packetSizeBytes;
        }
        return queueBytes() + packetSizeBytes > bufferBytes;
    }

    /**
     * @return when the packet's acknowledgement reaches the sender if the receiver acknowledges it at once.
     */
    private long enterBottleneck()
    {
        final long serializationNs = UNLIMITED_RATE_BYTES_PER_SECOND == bottleneckBytesPerSecond ?
            0 : (long)packetSizeBytes * NANOS_PER_SECOND / bottleneckBytesPerSecond;
        final long departureNs = Math.max(nowNs, lastDepartureNs) + serializationNs;
        lastDepartureNs = departureNs;
        maxQueueBytes = Math.max(maxQueueBytes, queueBytes());
        final long arrivalNs = Math.max(departureNs + propagationRttNs, lastAckArrivalNs);
        lastAckArrivalNs = arrivalNs;
        return arrivalNs;
    }

    private void advancePacer()
    {
        if (!isPacing)
        {
            return;
        }
        final long rate = controller.pacingRateBytesPerSecond();
        if (rate <= 0 || Long.MAX_VALUE == rate)
        {
            nextPacingTimeNs = nowNs;
            return;
        }
        if (isRfc9002Sender)
        {
            nextPacingTimeNs = nowNs + packetSizeBytes * NANOS_PER_SECOND / rate;
        }
        else
        {
            final long quantumNs = (long)((double)controller.sendQuantumBytes() * NANOS_PER_SECOND / rate);
            final long gapNs = (long)((double)packetSizeBytes * NANOS_PER_SECOND / rate);
            nextPacingTimeNs = Math.max(Math.max(nowNs - quantumNs + gapNs, nextPacingTimeNs) + gapNs, nowNs);
        }
    }

    /**
     * Reference 1.3 step 4: nothing to send and cwnd not full, so samples from now on describe the application.
     */
    private void checkAppLimited()
    {
        if (!hasData() && bytesInFlight < controller.congestionWindowBytes())
        {
            appLimitedUntilBytes = Math.max(deliveredBytes + bytesInFlight, 1);
        }
    }

    // ------------------------------------------------------------------------------------------------- receiver

    private long firstArrivingPacketNumber()
    {
        while (ackCursor < nextPacketNumber && NOT_DELIVERED == ackArrivalNs[(int)(ackCursor & MASK)])
        {
            ackCursor++;
        }
        return ackCursor;
    }

    /**
     * @return when the next ACK frame reaches the sender: at the arrival of the {@code ackEvery}-th unacknowledged
     * packet or when the delayed-ACK timer of the first expires, rounded up to the next ACK burst.
     */
    private long nextAckFrameNs()
    {
        final long first = firstArrivingPacketNumber();
        if (first >= nextPacketNumber)
        {
            return NEVER;
        }

        long frameNs = ackArrivalNs[(int)(first & MASK)];
        if (ackEveryPackets > 1)
        {
            frameNs += delayedAckTimeoutNs;
            int count = 1;
            for (long packetNumber = first + 1; packetNumber < nextPacketNumber; packetNumber++)
            {
                final long arrivalNs = ackArrivalNs[(int)(packetNumber & MASK)];
                if (arrivalNs >= frameNs)
                {
                    break;
                }
                if (NOT_DELIVERED != arrivalNs && ++count == ackEveryPackets)
                {
                    frameNs = arrivalNs;
                    break;
                }
            }
        }
        return ackBurstPeriodNs > 0 ? (frameNs + ackBurstPeriodNs - 1) / ackBurstPeriodNs * ackBurstPeriodNs : frameNs;
    }

    private void processAckFrame()
    {
        checkAppLimited();
        long ackedBytes = 0;
        long largestAcked = -1;
        int count = 0;
        long packetNumber = ackCursor;
        while (packetNumber < nextPacketNumber && count < ackEveryPackets)
        {
            final int i = (int)(packetNumber & MASK);
            final long arrivalNs = ackArrivalNs[i];
            if (NOT_DELIVERED != arrivalNs)
            {
                if (arrivalNs > nowNs)
                {
                    break;
                }
                state[i] = ACKED;
                ackedBytes += packetSizeBytes;
                largestAcked = packetNumber;
                count++;
            }
            packetNumber++;
        }
        ackCursor = packetNumber;

        final int largest = (int)(largestAcked & MASK);
        final long rttNs = nowNs - sentTimeNs[largest];
        RttSampleFeeder.onRttSample(rttEstimator, nowNs, rttNs);
        final long priorInFlight = bytesInFlight;

        // Rate sampler, reference 1.3 step 2, for the newest packet the frame acknowledges.
        deliveredBytes += ackedBytes;
        deliveredTimeNs = nowNs;
        bytesInFlight -= ackedBytes;
        ackFrames++;
        final long priorDelivered = stampDeliveredBytes[largest];
        final long sendElapsedNs = sentTimeNs[largest] - stampFirstSentTimeNs[largest];
        final long ackElapsedNs = nowNs - stampDeliveredTimeNs[largest];
        firstSentTimeNs = sentTimeNs[largest];

        final long lostNow = detectLosses(largestAcked);

        // Step 3.
        if (0 != appLimitedUntilBytes && deliveredBytes > appLimitedUntilBytes)
        {
            appLimitedUntilBytes = 0;
        }
        final long intervalNs = Math.max(sendElapsedNs, ackElapsedNs);
        final long sampleDelivered = deliveredBytes - priorDelivered;

        final MutableAckEvent a = ack;
        a.nowNs = nowNs;
        a.newlyAckedBytes = ackedBytes;
        a.newlyLostBytes = lostNow;
        a.priorBytesInFlightBytes = priorInFlight;
        a.bytesInFlightBytes = bytesInFlight;
        a.largestAckedSentTimeNs = sentTimeNs[largest];
        a.largestAckedPacketNumber = largestAcked;
        a.latestRttNs = rttNs;
        a.isCwndLimited = isWindowLimitedSinceLastAck || (isRfc9002Sender && isPacingLimitedNow);
        a.totalDeliveredBytes = deliveredBytes;
        a.totalLostBytes = lostBytes;
        a.hasRateSample = intervalNs >= rttEstimator.minRttNs() && intervalNs > 0;
        a.deliveryRateBytesPerSecond =
            a.hasRateSample ? (long)((double)sampleDelivered * NANOS_PER_SECOND / intervalNs) : 0;
        a.sampleDeliveredBytes = sampleDelivered;
        a.sampleIntervalNs = intervalNs;
        a.samplePriorDeliveredBytes = priorDelivered;
        a.sampleTxInFlightBytes = stampTxInFlightBytes[largest];
        a.sampleLostBytes = lostBytes - stampLostBytes[largest];
        a.isSampleAppLimited = stampAppLimited[largest];
        controller.onAck(a);
        isWindowLimitedSinceLastAck = false;

        if (0 == bytesInFlight && !hasData())
        {
            isIdle = true;
            idleStartNs = nowNs;
        }
        if (null != listener)
        {
            listener.onAckProcessed(this);
        }
    }

    /**
     * RFC 9002 section 6.1 with the transport's defaults: packet threshold 3 or time threshold 9/8 RTT (at least
     * kGranularity), for packets below the largest acked.
     *
     * @return bytes newly declared lost.
     */
    private long detectLosses(final long largestAcked)
    {
        final long lossDelayNs = Math.max(
            Math.max(rttEstimator.smoothedRttNs(), rttEstimator.latestRttNs()) *
                RecoveryConfig.DEFAULT_TIME_THRESHOLD_NUMERATOR / RecoveryConfig.DEFAULT_TIME_THRESHOLD_DENOMINATOR,
            RecoveryConfig.DEFAULT_GRANULARITY_NS);
        long lostNow = 0;
        long newestLostSentTimeNs = NO_TIME;
        for (long packetNumber = lossCursor; packetNumber < largestAcked; packetNumber++)
        {
            final int i = (int)(packetNumber & MASK);
            if (OUTSTANDING == state[i] &&
                (largestAcked - packetNumber >= RecoveryConfig.DEFAULT_PACKET_THRESHOLD ||
                sentTimeNs[i] <= nowNs - lossDelayNs))
            {
                declareLost(packetNumber);
                lostNow += packetSizeBytes;
                newestLostSentTimeNs = sentTimeNs[i];
            }
        }
        while (lossCursor < largestAcked && OUTSTANDING != state[(int)(lossCursor & MASK)])
        {
            lossCursor++;
        }

        if (lostNow > 0)
        {
            reportCongestionEvent(newestLostSentTimeNs, lostNow, false, false);
        }
        return lostNow;
    }

    private void declareLost(final long packetNumber)
    {
        final int i = (int)(packetNumber & MASK);
        state[i] = LOST;
        bytesInFlight -= packetSizeBytes;
        lostBytes += packetSizeBytes;

        final MutableLostPacket l = lost;
        l.nowNs = nowNs;
        l.packetNumber = packetNumber;
        l.sizeBytes = packetSizeBytes;
        l.sentTimeNs = sentTimeNs[i];
        l.deliveredAtSendBytes = stampDeliveredBytes[i];
        l.txInFlightBytes = stampTxInFlightBytes[i];
        l.lostAtSendBytes = stampLostBytes[i];
        l.isAppLimited = stampAppLimited[i];
        l.totalLostBytes = lostBytes;
        l.totalDeliveredBytes = deliveredBytes;
        l.bytesInFlightBytes = bytesInFlight;
        controller.onPacketLost(l);
    }

    private void reportCongestionEvent(
        final long newestLostSentTimeNs,
        final long lostBytes,
        final boolean isPersistentCongestion,
        final boolean isEcnCe)
    {
        final MutableCongestionEvent c = congestion;
        c.nowNs = nowNs;
        c.newestLostSentTimeNs = newestLostSentTimeNs;
        c.lostBytes = lostBytes;
        c.bytesInFlightBytes = bytesInFlight;
        c.isPersistentCongestion = isPersistentCongestion;
        c.isEcnCe = isEcnCe;
        congestionEvents++;
        cwndBeforeLastCongestionEventBytes = controller.congestionWindowBytes();
        controller.onCongestionEvent(c);
    }
}
