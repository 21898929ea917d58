package io.pacelink.transport.cc.testing;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.LostPacket;

import java.util.function.BooleanSupplier;

/**
 * A scripted path for driving one congestion controller on a hand-advanced clock: an unlimited-rate FIFO with a
 * settable RTT that acknowledges every packet (or every n-th, with a delayed-ACK timer) one RTT after it was sent.
 * <p>
 * The sender keeps sending while the window, the application and (optionally) the controller's pacing rate allow.
 * An ACK reports {@code isCwndLimited} if since the previous ACK the window blocked a send, or if the pacer is holding
 * back a packet the window and the application would allow (RFC 9002 section 7.8: pacing-limited is not
 * under-utilisation). Dropped packets are declared lost the way RFC 9002 section 6.1 does (3 packets or 9/8 RTT), and
 * the controller sees the calls in the transport's order: {@code onPacketLost} for each, {@code onCongestionEvent}
 * once, then {@code onAck}. Once constructed the driver does not allocate, so it can run inside an allocation
 * measurement.
 */
public final class FluidPath
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
        void onAckProcessed(FluidPath path);
    }

    private static final int CAPACITY = 1 << 18;
    private static final int MASK = CAPACITY - 1;
    private static final long NO_TIME = Long.MIN_VALUE;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final int PACKET_THRESHOLD = 3;
    private static final long DELAYED_ACK_TIMEOUT_NS = 1_000_000L;

    private final CongestionController controller;
    private final SettableRttStats rttStats;
    private final int packetSizeBytes;
    private final long[] sentTimeNs = new long[CAPACITY];
    private final long[] arrivalTimeNs = new long[CAPACITY];
    private final boolean[] isDropped = new boolean[CAPACITY];
    private final long[] pendingDrops = new long[CAPACITY];
    private final MutableAckEvent ackEvent = new MutableAckEvent();
    private final MutableLostPacket lostPacket = new MutableLostPacket();
    private final MutableCongestionEvent congestionEvent = new MutableCongestionEvent();

    private long nowNs;
    private long pathRttNs;
    private long nextPacketNumber;
    private long nextUnackedPacketNumber;
    private long pendingDropHead;
    private long pendingDropTail;
    private long lastArrivalNs = NO_TIME;
    private long bytesInFlight;
    private long nextSendTimeNs;
    private boolean isPacing = true;
    private int ackEveryPackets = 1;
    private long applicationLimitBytes = Long.MAX_VALUE;
    private boolean isApplicationActive = true;
    private long idleSinceNs = NO_TIME;
    private boolean isWindowLimitedSinceLastAck;
    private boolean isPacingLimitedNow;
    private long cwndBeforeLastCongestionEventBytes;
    private long dropEveryPackets;
    private int packetsToDrop;
    private long totalDeliveredBytes;
    private long totalLostBytes;
    private long ackFrames;
    private long congestionEvents;
    private AckListener ackListener;

    /**
     * @param controller the controller under test.
     * @param context    the context the controller was built with; its RTT statistics follow the path.
     * @param pathRttNs  the RTT of packets sent from now on.
     */
    public FluidPath(final CongestionController controller, final FakeControllerContext context, final long pathRttNs)
    {
        this.controller = controller;
        this.rttStats = context.settableRttStats();
        this.packetSizeBytes = context.maxDatagramSizeBytes();
        this.pathRttNs = pathRttNs;
    }

    /**
     * @param rttNs the RTT of packets sent from now on (the FIFO never reorders: a drop in RTT compresses arrivals).
     * @return this.
     */
    public FluidPath pathRttNs(final long rttNs)
    {
        this.pathRttNs = rttNs;
        return this;
    }

    /**
     * @param packets acknowledge every this many packets (a stretch ACK), or after a 1 ms delayed-ACK timer.
     * @return this.
     */
    public FluidPath ackEvery(final int packets)
    {
        this.ackEveryPackets = packets;
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
     * @param bytes the most the application keeps in flight ({@link Long#MAX_VALUE}: always has data).
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

    /**
     * @param packets drop every this many packets (deterministic loss rate 1 / packets); 0 for none.
     * @return this.
     */
    public FluidPath dropEvery(final long packets)
    {
        this.dropEveryPackets = packets;
        return this;
    }

    /**
     * @param count drop the next this many packets sent.
     * @return this.
     */
    public FluidPath dropNext(final int count)
    {
        this.packetsToDrop = count;
        return this;
    }

    /**
     * @param listener called after every ACK frame, or null.
     * @return this.
     */
    public FluidPath onAck(final AckListener listener)
    {
        this.ackListener = listener;
        return this;
    }

    /**
     * Run until the clock reaches {@code endNs}.
     *
     * @param endNs absolute time.
     */
    public void runUntil(final long endNs)
    {
        runUntil(endNs, null);
    }

    /**
     * @param durationNs how long to run.
     */
    public void runFor(final long durationNs)
    {
        runUntil(nowNs + durationNs, null);
    }

    /**
     * Run until the clock reaches {@code endNs} or, checked after every ACK frame, {@code stop} holds.
     *
     * @param endNs absolute time.
     * @param stop  the stop condition, or null.
     * @return true if stopped by the condition.
     */
    public boolean runUntil(final long endNs, final BooleanSupplier stop)
    {
        while (true)
        {
            final long ackDueNs = nextAckDueNs();
            final long sendAtNs = nextSendTimeNs();
            final long eventNs = Math.min(ackDueNs, sendAtNs);
            if (eventNs > endNs || Long.MAX_VALUE == eventNs)
            {
                // Nothing will happen any more (an idle application): the clock still advances to the end.
                nowNs = Long.MAX_VALUE == endNs ? nowNs : endNs;
                return false;
            }

            nowNs = eventNs;
            if (sendAtNs <= ackDueNs)
            {
                // A window opened by an ACK is used before the next ACK of the same instant is processed.
                send();
            }
            else
            {
                processAckFrame();
                if (null != stop && stop.getAsBoolean())
                {
                    return true;
                }
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
        final int index = (int)(packetNumber & MASK);
        if (packetNumber < nextUnackedPacketNumber || isDropped[index])
        {
            throw new IllegalStateException("the newest packet is not in flight");
        }
        isDropped[index] = true;
        bytesInFlight -= packetSizeBytes;
        totalLostBytes += packetSizeBytes;
        reportLost(packetNumber);
        reportCongestionEvent(sentTimeNs[index], packetSizeBytes, false, false);
    }

    /**
     * Deliver a congestion event without touching the path (e.g. a late loss report or persistent congestion).
     *
     * @param newestLostSentTimeNs send time of the newest packet in the batch.
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

    /**
     * @return the clock.
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
     * @return bytes sent and neither acknowledged nor declared lost.
     */
    public long bytesInFlight()
    {
        return bytesInFlight;
    }

    /**
     * @return packets sent so far.
     */
    public long packetsSent()
    {
        return nextPacketNumber;
    }

    /**
     * @return bytes acknowledged so far.
     */
    public long totalDeliveredBytes()
    {
        return totalDeliveredBytes;
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
     * @return ACK frames processed so far.
     */
    public long ackFrames()
    {
        return ackFrames;
    }

    /**
     * @return the most recently acknowledged frame as the controller saw it.
     */
    public AckEvent lastAck()
    {
        return ackEvent;
    }

    private long nextSendTimeNs()
    {
        isPacingLimitedNow = false;
        final boolean hasData = isApplicationActive && bytesInFlight + packetSizeBytes <= applicationLimitBytes;
        if (!hasData)
        {
            return Long.MAX_VALUE;
        }
        if (bytesInFlight + packetSizeBytes > controller.congestionWindowBytes())
        {
            isWindowLimitedSinceLastAck = true;
            return Long.MAX_VALUE;
        }
        if (isPacing && nextSendTimeNs > nowNs)
        {
            // Waiting for the pacer with data and window at hand is not under-utilisation (RFC 9002 section 7.8).
            isPacingLimitedNow = true;
            return nextSendTimeNs;
        }
        return nowNs;
    }

    private void send()
    {
        if (NO_TIME != idleSinceNs)
        {
            controller.onTransmitStartAfterIdle(nowNs, nowNs - idleSinceNs);
            idleSinceNs = NO_TIME;
        }

        final long packetNumber = nextPacketNumber++;
        final long oldestOutstanding = pendingDropHead < pendingDropTail ?
            Math.min(pendingDrops[(int)(pendingDropHead & MASK)], nextUnackedPacketNumber) : nextUnackedPacketNumber;
        if (packetNumber - oldestOutstanding >= CAPACITY)
        {
            throw new IllegalStateException("more than " + CAPACITY + " packets outstanding");
        }

        final int index = (int)(packetNumber & MASK);
        sentTimeNs[index] = nowNs;
        final boolean drop =
            packetsToDrop > 0 || (dropEveryPackets > 0 && (packetNumber + 1) % dropEveryPackets == 0);
        isDropped[index] = drop;
        if (drop)
        {
            if (packetsToDrop > 0)
            {
                packetsToDrop--;
            }
            pendingDrops[(int)(pendingDropTail++ & MASK)] = packetNumber;
        }
        else
        {
            final long arrivalNs = Math.max(lastArrivalNs, nowNs + pathRttNs);
            arrivalTimeNs[index] = arrivalNs;
            lastArrivalNs = arrivalNs;
        }

        bytesInFlight += packetSizeBytes;
        controller.onPacketSent(nowNs, packetNumber, packetSizeBytes, bytesInFlight, false);

        if (isPacing)
        {
            final long rate = controller.pacingRateBytesPerSecond();
            nextSendTimeNs = rate > 0 && rate != Long.MAX_VALUE ?
                nowNs + packetSizeBytes * NANOS_PER_SECOND / rate : nowNs;
        }
    }

    private long firstArrivingPacketNumber()
    {
        long packetNumber = nextUnackedPacketNumber;
        while (packetNumber < nextPacketNumber && isDropped[(int)(packetNumber & MASK)])
        {
            packetNumber++;
        }
        return packetNumber;
    }

    private long nextAckDueNs()
    {
        final long first = firstArrivingPacketNumber();
        if (first >= nextPacketNumber)
        {
            return Long.MAX_VALUE;
        }

        final long firstArrivalNs = arrivalTimeNs[(int)(first & MASK)];
        if (1 == ackEveryPackets)
        {
            return firstArrivalNs;
        }

        int count = 1;
        for (long packetNumber = first + 1; packetNumber < nextPacketNumber; packetNumber++)
        {
            final int index = (int)(packetNumber & MASK);
            if (!isDropped[index] && ++count == ackEveryPackets)
            {
                return Math.min(arrivalTimeNs[index], firstArrivalNs + DELAYED_ACK_TIMEOUT_NS);
            }
        }
        return firstArrivalNs + DELAYED_ACK_TIMEOUT_NS;
    }

    private void processAckFrame()
    {
        long ackedBytes = 0;
        long largestAcked = -1;
        int count = 0;
        long packetNumber = nextUnackedPacketNumber;
        while (packetNumber < nextPacketNumber && count < ackEveryPackets)
        {
            final int index = (int)(packetNumber & MASK);
            if (!isDropped[index])
            {
                if (arrivalTimeNs[index] > nowNs)
                {
                    break;
                }
                ackedBytes += packetSizeBytes;
                largestAcked = packetNumber;
                count++;
            }
            packetNumber++;
        }
        nextUnackedPacketNumber = packetNumber;

        final long largestSentTimeNs = sentTimeNs[(int)(largestAcked & MASK)];
        final long latestRttNs = nowNs - largestSentTimeNs;
        rttStats.onSample(latestRttNs);

        final long priorInFlight = bytesInFlight;
        bytesInFlight -= ackedBytes;
        totalDeliveredBytes += ackedBytes;
        ackFrames++;

        // RFC 9002 section 6.1: packet threshold 3, time threshold 9/8 of the larger of latest and smoothed RTT.
        final long lossDelayNs = Math.max(
            9 * Math.max(latestRttNs, rttStats.smoothedRttNs()) / 8, 1_000_000L);
        long lostBytes = 0;
        long newestLostSentTimeNs = NO_TIME;
        while (pendingDropHead < pendingDropTail)
        {
            final long dropped = pendingDrops[(int)(pendingDropHead & MASK)];
            final long droppedSentTimeNs = sentTimeNs[(int)(dropped & MASK)];
            if (dropped > largestAcked ||
                (largestAcked - dropped < PACKET_THRESHOLD && droppedSentTimeNs > nowNs - lossDelayNs))
            {
                break;
            }
            pendingDropHead++;
            bytesInFlight -= packetSizeBytes;
            totalLostBytes += packetSizeBytes;
            lostBytes += packetSizeBytes;
            newestLostSentTimeNs = droppedSentTimeNs;
            reportLost(dropped);
        }
        if (lostBytes > 0)
        {
            reportCongestionEvent(newestLostSentTimeNs, lostBytes, false, false);
        }

        ackEvent.nowNs = nowNs;
        ackEvent.newlyAckedBytes = ackedBytes;
        ackEvent.newlyLostBytes = lostBytes;
        ackEvent.priorBytesInFlightBytes = priorInFlight;
        ackEvent.bytesInFlightBytes = bytesInFlight;
        ackEvent.largestAckedSentTimeNs = largestSentTimeNs;
        ackEvent.latestRttNs = latestRttNs;
        ackEvent.isCwndLimited = isWindowLimitedSinceLastAck || isPacingLimitedNow;
        ackEvent.totalDeliveredBytes = totalDeliveredBytes;
        ackEvent.totalLostBytes = totalLostBytes;
        controller.onAck(ackEvent);
        isWindowLimitedSinceLastAck = false;

        if (0 == bytesInFlight && !isApplicationActive && NO_TIME == idleSinceNs)
        {
            idleSinceNs = nowNs;
        }
        if (null != ackListener)
        {
            ackListener.onAckProcessed(this);
        }
    }

    private void reportLost(final long packetNumber)
    {
        final int index = (int)(packetNumber & MASK);
        lostPacket.nowNs = nowNs;
        lostPacket.packetNumber = packetNumber;
        lostPacket.sizeBytes = packetSizeBytes;
        lostPacket.sentTimeNs = sentTimeNs[index];
        lostPacket.totalLostBytes = totalLostBytes;
        lostPacket.totalDeliveredBytes = totalDeliveredBytes;
        lostPacket.bytesInFlightBytes = bytesInFlight;
        controller.onPacketLost(lostPacket);
    }

    private void reportCongestionEvent(
        final long newestLostSentTimeNs,
        final long lostBytes,
        final boolean isPersistentCongestion,
        final boolean isEcnCe)
    {
        congestionEvent.nowNs = nowNs;
        congestionEvent.newestLostSentTimeNs = newestLostSentTimeNs;
        congestionEvent.lostBytes = lostBytes;
        congestionEvent.bytesInFlightBytes = bytesInFlight;
        congestionEvent.isPersistentCongestion = isPersistentCongestion;
        congestionEvent.isEcnCe = isEcnCe;
        congestionEvents++;
        cwndBeforeLastCongestionEventBytes = controller.congestionWindowBytes();
        controller.onCongestionEvent(congestionEvent);
    }

    private static final class MutableAckEvent implements AckEvent
    {
        long nowNs;
        long newlyAckedBytes;
        long newlyLostBytes;
        long priorBytesInFlightBytes;
        long bytesInFlightBytes;
        long largestAckedSentTimeNs;
        long latestRttNs;
        boolean isCwndLimited;
        long totalDeliveredBytes;
        long totalLostBytes;

        public long nowNs()
        {
            return nowNs;
        }

        public long newlyAckedBytes()
        {
            return newlyAckedBytes;
        }

        public long newlyLostBytes()
        {
            return newlyLostBytes;
        }

        public long priorBytesInFlightBytes()
        {
            return priorBytesInFlightBytes;
        }

        public long bytesInFlightBytes()
        {
            return bytesInFlightBytes;
        }

        public long largestAckedSentTimeNs()
        {
            return largestAckedSentTimeNs;
        }

        public long latestRttNs()
        {
            return latestRttNs;
        }

        public boolean isCwndLimited()
        {
            return isCwndLimited;
        }

        public long totalDeliveredBytes()
        {
            return totalDeliveredBytes;
        }

        public long totalLostBytes()
        {
            return totalLostBytes;
        }

        public boolean hasRateSample()
        {
            return false;
        }

        public long deliveryRateBytesPerSecond()
        {
            return 0;
        }

        public long sampleDeliveredBytes()
        {
            return 0;
        }

        public long sampleIntervalNs()
        {
            return 0;
        }

        public long samplePriorDeliveredBytes()
        {
            return 0;
        }

        public long sampleTxInFlightBytes()
        {
            return 0;
        }

        public long sampleLostBytes()
        {
            return 0;
        }

        public boolean isSampleAppLimited()
        {
            return false;
        }
    }

    private static final class MutableLostPacket implements LostPacket
    {
        long nowNs;
        long packetNumber;
        int sizeBytes;
        long sentTimeNs;
        long totalLostBytes;
        long totalDeliveredBytes;
        long bytesInFlightBytes;

        public long nowNs()
        {
            return nowNs;
        }

        public long packetNumber()
        {
            return packetNumber;
        }

        public int sizeBytes()
        {
            return sizeBytes;
        }

        public long sentTimeNs()
        {
            return sentTimeNs;
        }

        public long deliveredAtSendBytes()
        {
            return 0;
        }

        public long txInFlightBytes()
        {
            return 0;
        }

        public long lostAtSendBytes()
        {
            return 0;
        }

        public boolean isAppLimited()
        {
            return false;
        }

        public long totalLostBytes()
        {
            return totalLostBytes;
        }

        public long totalDeliveredBytes()
        {
            return totalDeliveredBytes;
        }

        public long bytesInFlightBytes()
        {
            return bytesInFlightBytes;
        }
    }

    private static final class MutableCongestionEvent implements CongestionEvent
    {
        long nowNs;
        long newestLostSentTimeNs;
        long lostBytes;
        long bytesInFlightBytes;
        boolean isPersistentCongestion;
        boolean isEcnCe;

        public long nowNs()
        {
            return nowNs;
        }

        public long newestLostSentTimeNs()
        {
            return newestLostSentTimeNs;
        }

        public long lostBytes()
        {
            return lostBytes;
        }

        public long bytesInFlightBytes()
        {
            return bytesInFlightBytes;
        }

        public boolean isPersistentCongestion()
        {
            return isPersistentCongestion;
        }

        public boolean isEcnCe()
        {
            return isEcnCe;
        }
    }
}
