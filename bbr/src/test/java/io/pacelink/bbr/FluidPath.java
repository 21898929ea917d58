package io.pacelink.bbr;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;

import java.util.SplittableRandom;

/**
 * A scripted, virtual-time driver that runs one congestion controller over a single bottleneck: a FIFO link of fixed
 * rate followed by a fixed propagation delay, with optional buffer limit, scripted or random drops and a
 * token-bucket policer. Packets are sent when the application has data, bytes in flight are below cwnd and the
 * pacer allows; each delivered packet is acknowledged individually one propagation delay after it leaves the link.
 * <p>
 * It plays the transport's part the way design.md section 6 orders it: RTT update (RFC 9002 section 5), the
 * delivery-rate sampler of reference section 1.3 (per-packet stamps, {@code max(send, ack)} intervals, samples
 * shorter than min_rtt dropped, app-limited bubbles), packet-threshold (3) and time-threshold (9/8) loss detection,
 * then {@code onPacketLost}, {@code onCongestionEvent}, {@code onAck}. No allocation per packet.
 */
public final class FluidPath
{
    /**
     * Called after every {@code onAck}, for tests that watch the controller.
     */
    @FunctionalInterface
    public interface AckListener
    {
        /**
         * @param path the path, positioned at the ACK just processed.
         */
        void onAckProcessed(FluidPath path);
    }

    /**
     * Bytes the application has when it never runs out.
     */
    public static final long BACKLOGGED = Long.MAX_VALUE;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NEVER = Long.MAX_VALUE;
    private static final int CAPACITY = 1 << 17;
    private static final int MASK = CAPACITY - 1;
    private static final byte OUTSTANDING = 0;
    private static final byte ACKED = 1;
    private static final byte LOST = 2;
    private static final int PACKET_THRESHOLD = 3;

    private final CongestionController controller;
    private final TestControllerContext.TestRttStats rttStats;
    private final int packetSizeBytes;
    private final SplittableRandom lossRandom;

    private final long[] sentTimeNs = new long[CAPACITY];
    private final long[] ackTimeNs = new long[CAPACITY];
    private final long[] stampDeliveredBytes = new long[CAPACITY];
    private final long[] stampDeliveredTimeNs = new long[CAPACITY];
    private final long[] stampFirstSentTimeNs = new long[CAPACITY];
    private final long[] stampTxInFlightBytes = new long[CAPACITY];
    private final long[] stampLostBytes = new long[CAPACITY];
    private final boolean[] stampAppLimited = new boolean[CAPACITY];
    private final byte[] state = new byte[CAPACITY];

    private final TestAckEvent ack = new TestAckEvent();
    private final TestLostPacket lost = new TestLostPacket();
    private final TestCongestionEvent congestion = new TestCongestionEvent();

    private long bottleneckBytesPerSecond;
    private long propagationRttNs;
    private long bufferBytes = Long.MAX_VALUE;
    private long ackBurstPeriodNs;
    private double randomLossProbability;
    private int dropEveryNth;
    private long dropCounter;
    private int dropBurstRemaining;
    private long policerBytesPerSecond;
    private long policerBucketBytes;
    private double policerTokens;
    private long policerTimeNs;

    private long appPendingBytes = BACKLOGGED;
    private long appChunkBytes;
    private long appChunkIntervalNs;
    private long nextAppWriteNs = NEVER;

    private long nowNs;
    private long nextPacketNumber;
    private long ackCursor;
    private long lossCursor;
    private long bytesInFlight;
    private long nextPacingTimeNs;
    private long lastDepartureNs;
    private long lastAckArrivalNs;
    private boolean isCwndLimited;
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

    private AckListener listener;

    /**
     * @param controller               the controller under test.
     * @param context                  its context (the path feeds its RTT estimator).
     * @param bottleneckBytesPerSecond link rate.
     * @param propagationRttNs         round-trip propagation delay (the RTT is this plus serialization and queueing).
     * @param startNs                  virtual time of the first event.
     * @param seed                     seed for random losses.
     */
    public FluidPath(
        final CongestionController controller,
        final TestControllerContext context,
        final long bottleneckBytesPerSecond,
        final long propagationRttNs,
        final long startNs,
        final long seed)
    {
        this.controller = controller;
        this.rttStats = context.rttStats();
        this.packetSizeBytes = context.maxDatagramSizeBytes();
        this.bottleneckBytesPerSecond = bottleneckBytesPerSecond;
        this.propagationRttNs = propagationRttNs;
        this.lossRandom = new SplittableRandom(seed);
        this.nowNs = startNs;
        this.nextPacingTimeNs = startNs;
        this.lastDepartureNs = startNs;
        this.policerTimeNs = startNs;
    }

    // ------------------------------------------------------------------------------------------------- configuration

    /**
     * @param listener called after each ACK; null for none.
     * @return this.
     */
    public FluidPath listener(final AckListener listener)
    {
        this.listener = listener;
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
     * ACK aggregation: ACKs reach the sender only at multiples of {@code periodNs} (as behind a Wi-Fi or cellular
     * link that batches them), so each burst acknowledges everything that arrived since the last one.
     *
     * @param periodNs burst period; 0 for an ACK per packet on arrival.
     * @return this.
     */
    public FluidPath ackBurstPeriodNs(final long periodNs)
    {
        this.ackBurstPeriodNs = periodNs;
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
     * @param n drop every n-th packet sent (0: off).
     * @return this.
     */
    public FluidPath dropEveryNth(final int n)
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
        this.dropBurstRemaining = count;
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
     * @param rttNs new propagation RTT for packets sent from now on (ACK order is preserved).
     * @return this.
     */
    public FluidPath propagationRttNs(final long rttNs)
    {
        this.propagationRttNs = rttNs;
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

    // ------------------------------------------------------------------------------------------------- running

    /**
     * Process events up to and including {@code endNs}; afterwards {@link #nowNs()} is {@code endNs}.
     *
     * @param endNs virtual end time.
     */
    public void runUntil(final long endNs)
    {
        while (true)
        {
            final long ackAtNs = nextAckArrivalNs();
            final long appAtNs = nextAppWriteNs;
            final long sendAtNs = nextSendNs();
            final long nextNs = Math.min(ackAtNs, Math.min(appAtNs, sendAtNs));
            if (nextNs > endNs)
            {
                nowNs = endNs;
                return;
            }
            nowNs = nextNs;
            if (ackAtNs == nextNs)
            {
                processAck();
            }
            else if (appAtNs == nextNs)
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
     * @param durationNs how long to run from now.
     */
    public void runFor(final long durationNs)
    {
        runUntil(nowNs + durationNs);
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
     * @return bytes dropped by the path so far (declared lost or not yet).
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
        return BbrMath.bytesInInterval(bottleneckBytesPerSecond, lastDepartureNs - nowNs);
    }

    /**
     * Reset the max-queue statistic.
     */
    public void resetMaxQueue()
    {
        maxQueueBytes = 0;
    }

    /**
     * @return the event of the ACK just processed (valid inside a listener).
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

    // ------------------------------------------------------------------------------------------------- transport

    private long nextAckArrivalNs()
    {
        while (ackCursor < nextPacketNumber && ackTimeNs[(int)(ackCursor & MASK)] < 0)
        {
            ackCursor++;
        }
        return ackCursor < nextPacketNumber ? ackTimeNs[(int)(ackCursor & MASK)] : NEVER;
    }

    private long nextSendNs()
    {
        if (appPendingBytes < packetSizeBytes)
        {
            return NEVER;
        }
        if (bytesInFlight >= controller.congestionWindowBytes())
        {
            isCwndLimited = true;
            return NEVER;
        }
        return Math.max(nowNs, nextPacingTimeNs);
    }

    private void send()
    {
        if (nextPacketNumber - lossCursor >= CAPACITY)
        {
            throw new IllegalStateException("packet ring full");
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
        ackTimeNs[i] = isDropped() ? -1 : enterBottleneck();
        if (ackTimeNs[i] < 0)
        {
            droppedBytes += packetSizeBytes;
        }

        controller.onPacketSent(nowNs, packetNumber, packetSizeBytes, bytesInFlight, false);
        advancePacer();
        checkAppLimited();
    }

    private boolean isDropped()
    {
        if (dropBurstRemaining > 0)
        {
            dropBurstRemaining--;
            return true;
        }
        if (dropEveryNth > 0 && 0 == ++dropCounter % dropEveryNth)
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
        final long queuedBytes = queueBytes();
        return queuedBytes + packetSizeBytes > bufferBytes;
    }

    private long enterBottleneck()
    {
        final long serializationNs = (long)packetSizeBytes * NANOS_PER_SECOND / bottleneckBytesPerSecond;
        final long departureNs = Math.max(nowNs, lastDepartureNs) + serializationNs;
        lastDepartureNs = departureNs;
        maxQueueBytes = Math.max(maxQueueBytes, queueBytes());
        long arrivalNs = Math.max(departureNs + propagationRttNs, lastAckArrivalNs);
        if (ackBurstPeriodNs > 0)
        {
            arrivalNs = (arrivalNs + ackBurstPeriodNs - 1) / ackBurstPeriodNs * ackBurstPeriodNs;
        }
        lastAckArrivalNs = arrivalNs;
        return arrivalNs;
    }

    private void advancePacer()
    {
        final long rate = controller.pacingRateBytesPerSecond();
        if (rate <= 0 || Long.MAX_VALUE == rate)
        {
            nextPacingTimeNs = nowNs;
            return;
        }
        // Allow one send quantum of burst credit, as a pacer releasing quanta does.
        final long quantumNs = (long)((double)controller.sendQuantumBytes() * NANOS_PER_SECOND / rate);
        final long gapNs = (long)((double)packetSizeBytes * NANOS_PER_SECOND / rate);
        nextPacingTimeNs = Math.max(nowNs - quantumNs + gapNs, nextPacingTimeNs) + gapNs;
        if (nextPacingTimeNs < nowNs)
        {
            nextPacingTimeNs = nowNs;
        }
    }

    /**
     * Reference 1.3 step 4: nothing to send and cwnd not full, so samples from now on describe the application.
     */
    private void checkAppLimited()
    {
        if (appPendingBytes < packetSizeBytes && bytesInFlight < controller.congestionWindowBytes())
        {
            appLimitedUntilBytes = Math.max(deliveredBytes + bytesInFlight, 1);
        }
    }

    private void processAck()
    {
        checkAppLimited();
        final long packetNumber = ackCursor++;
        final int i = (int)(packetNumber & MASK);
        final long priorInFlight = bytesInFlight;

        final long rttNs = nowNs - sentTimeNs[i];
        rttStats.onSample(rttNs);

        // Rate sampler, reference 1.3 step 2 (one newly acked packet per ACK).
        deliveredBytes += packetSizeBytes;
        deliveredTimeNs = nowNs;
        state[i] = ACKED;
        bytesInFlight -= packetSizeBytes;
        final long priorDelivered = stampDeliveredBytes[i];
        final long sendElapsedNs = sentTimeNs[i] - stampFirstSentTimeNs[i];
        final long ackElapsedNs = nowNs - stampDeliveredTimeNs[i];
        firstSentTimeNs = sentTimeNs[i];

        final long lostNow = detectLosses(packetNumber);

        // Step 3.
        if (0 != appLimitedUntilBytes && deliveredBytes > appLimitedUntilBytes)
        {
            appLimitedUntilBytes = 0;
        }
        final long intervalNs = Math.max(sendElapsedNs, ackElapsedNs);
        final long sampleDelivered = deliveredBytes - priorDelivered;

        final TestAckEvent a = ack;
        a.nowNs = nowNs;
        a.newlyAckedBytes = packetSizeBytes;
        a.newlyLostBytes = lostNow;
        a.priorBytesInFlight = priorInFlight;
        a.bytesInFlight = bytesInFlight;
        a.largestAckedSentTimeNs = sentTimeNs[i];
        a.latestRttNs = rttNs;
        a.isCwndLimited = isCwndLimited;
        a.totalDeliveredBytes = deliveredBytes;
        a.totalLostBytes = lostBytes;
        a.hasRateSample = intervalNs >= rttStats.minRttNs() && intervalNs > 0;
        a.deliveryRateBytesPerSecond =
            a.hasRateSample ? BbrMath.rateBytesPerSecond(sampleDelivered, intervalNs) : 0;
        a.sampleDeliveredBytes = sampleDelivered;
        a.sampleIntervalNs = intervalNs;
        a.samplePriorDeliveredBytes = priorDelivered;
        a.sampleTxInFlightBytes = stampTxInFlightBytes[i];
        a.sampleLostBytes = lostBytes - stampLostBytes[i];
        a.isSampleAppLimited = stampAppLimited[i];
        controller.onAck(a);
        isCwndLimited = false;

        if (0 == bytesInFlight && appPendingBytes < packetSizeBytes)
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
     * Packet threshold 3 or time threshold 9/8 RTT (RFC 9002 section 6.1) for packets below the one just acked.
     */
    private long detectLosses(final long largestAcked)
    {
        final long lossDelayNs = Math.max(rttStats.smoothedRttNs(), rttStats.latestRttNs()) * 9 / 8;
        long lostNow = 0;
        long newestLostSentNs = Long.MIN_VALUE;
        for (long pn = lossCursor; pn < largestAcked; pn++)
        {
            final int i = (int)(pn & MASK);
            if (OUTSTANDING != state[i])
            {
                continue;
            }
            if (largestAcked - pn >= PACKET_THRESHOLD || sentTimeNs[i] <= nowNs - lossDelayNs)
            {
                state[i] = LOST;
                bytesInFlight -= packetSizeBytes;
                lostBytes += packetSizeBytes;
                lostNow += packetSizeBytes;
                newestLostSentNs = sentTimeNs[i];

                final TestLostPacket l = lost;
                l.nowNs = nowNs;
                l.packetNumber = pn;
                l.sizeBytes = packetSizeBytes;
                l.sentTimeNs = sentTimeNs[i];
                l.deliveredAtSendBytes = stampDeliveredBytes[i];
                l.txInFlightBytes = stampTxInFlightBytes[i];
                l.lostAtSendBytes = stampLostBytes[i];
                l.isAppLimited = stampAppLimited[i];
                l.totalLostBytes = lostBytes;
                l.totalDeliveredBytes = deliveredBytes;
                l.bytesInFlight = bytesInFlight;
                controller.onPacketLost(l);
            }
        }
        while (lossCursor < largestAcked && OUTSTANDING != state[(int)(lossCursor & MASK)])
        {
            lossCursor++;
        }

        if (lostNow > 0)
        {
            final TestCongestionEvent c = congestion;
            c.nowNs = nowNs;
            c.newestLostSentTimeNs = newestLostSentNs;
            c.lostBytes = lostNow;
            c.bytesInFlight = bytesInFlight;
            c.isPersistentCongestion = false;
            c.isEcnCe = false;
            controller.onCongestionEvent(c);
        }
        return lostNow;
    }
}
