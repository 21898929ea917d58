package io.pacelink.transport.testing;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.LostPacket;
import io.pacelink.transport.cc.RttStats;

import java.util.ArrayList;
import java.util.List;

/**
 * Stands between the transport and a controller and records every callback: immutable copies of the reused event
 * views (which themselves implement the SPI's event interfaces, so a recording can be replayed), each with a snapshot
 * of the RTT statistics of that moment, plus an optional log line per callback and an observer called after each
 * one. Without a controller to forward to, it is a controller with a fixed, settable window and no pacing, which is
 * what tests of loss recovery need.
 * <p>
 * Counting ({@link #ackCount()}, {@link #congestionEventCount()}, {@link #cwndBeforeLastCongestionEventBytes()},
 * {@link #lastAck()}) never allocates; recording copies allocate and can be switched off
 * ({@link #recording(boolean)}) for allocation measurements.
 */
public final class RecordingController implements CongestionController
{
    /**
     * The window of a recorder that forwards to no controller, until a test sets another.
     */
    public static final long DEFAULT_WINDOW_BYTES = 12_000;

    /**
     * The state of a recorder that forwards to no controller.
     */
    public static final String STATE_RECORDING = "RECORDING";

    /**
     * Called after each callback has been recorded and forwarded.
     */
    @FunctionalInterface
    public interface Observer
    {
        /**
         * @param callback           {@code "sent"}, {@code "idle"}, {@code "ack"}, {@code "lost"},
         *                           {@code "congestion"}, {@code "spurious"} or {@code "mtu"}.
         * @param nowNs              the callback's time ({@code -1} for {@code "mtu"}).
         * @param bytesInFlight bytes in flight the callback reported ({@code -1} where it reports none).
         */
        void afterCallback(String callback, long nowNs, long bytesInFlight);
    }

    /**
     * A copy of the RTT statistics at one moment.
     */
    public record Rtt(
        boolean hasSample,
        long minRttNs,
        long smoothedRttNs,
        long rttVarianceNs,
        long latestRttNs,
        long initialRttNs) implements RttStats
    {
        /**
         * @param rttStats the live statistics.
         * @return a copy, or null for none.
         */
        public static Rtt of(final RttStats rttStats)
        {
            return null == rttStats ? null : new Rtt(
                rttStats.hasSample(),
                rttStats.minRttNs(),
                rttStats.smoothedRttNs(),
                rttStats.rttVarianceNs(),
                rttStats.latestRttNs(),
                rttStats.initialRttNs());
        }
    }

    /**
     * A recorded {@link CongestionController#onPacketSent} call.
     */
    public record Sent(
        long nowNs, long packetNumber, int sizeBytes, long bytesInFlight, boolean isRetransmission, Rtt rtt)
    {
    }

    /**
     * A recorded {@link CongestionController#onTransmitStartAfterIdle} call.
     */
    public record IdleRestart(long nowNs, long idleNs)
    {
    }

    /**
     * A recorded {@link CongestionController#onSpuriousLoss} call.
     */
    public record SpuriousLoss(long nowNs)
    {
    }

    /**
     * A recorded {@link CongestionController#onMtuChanged} call.
     */
    public record MtuChange(int maxDatagramSizeBytes)
    {
    }

    /**
     * A recorded {@link CongestionController#onAck} call.
     */
    public record Ack(
        long nowNs,
        long newlyAckedBytes,
        long newlyLostBytes,
        long priorBytesInFlightBytes,
        long bytesInFlight,
        long largestAckedPacketNumber,
        long latestRttNs,
        boolean isCwndLimited,
        boolean endsRecovery,
        boolean acknowledgesOldestInFlight,
        long totalDeliveredBytes,
        long totalLostBytes,
        boolean hasRateSample,
        long deliveryRateBytesPerSecond,
        long sampleDeliveredBytes,
        long sampleIntervalNs,
        long samplePriorDeliveredBytes,
        long sampleTxInFlightBytes,
        long sampleLostBytes,
        boolean isSampleAppLimited,
        Rtt rtt) implements AckEvent
    {
        static Ack of(final AckEvent ack, final Rtt rtt)
        {
            return new Ack(
                ack.nowNs(),
                ack.newlyAckedBytes(),
                ack.newlyLostBytes(),
                ack.priorBytesInFlightBytes(),
                ack.bytesInFlight(),
                ack.largestAckedPacketNumber(),
                ack.latestRttNs(),
                ack.isCwndLimited(),
                ack.endsRecovery(),
                ack.acknowledgesOldestInFlight(),
                ack.totalDeliveredBytes(),
                ack.totalLostBytes(),
                ack.hasRateSample(),
                ack.deliveryRateBytesPerSecond(),
                ack.sampleDeliveredBytes(),
                ack.sampleIntervalNs(),
                ack.samplePriorDeliveredBytes(),
                ack.sampleTxInFlightBytes(),
                ack.sampleLostBytes(),
                ack.isSampleAppLimited(),
                rtt);
        }
    }

    /**
     * A recorded {@link CongestionController#onPacketLost} call.
     */
    public record Lost(
        long nowNs,
        long packetNumber,
        int sizeBytes,
        long sentTimeNs,
        long deliveredAtSendBytes,
        long txInFlightBytes,
        long lostAtSendBytes,
        boolean isAppLimited,
        long totalLostBytes,
        long totalDeliveredBytes,
        long bytesInFlight,
        Rtt rtt) implements LostPacket
    {
        static Lost of(final LostPacket lost, final Rtt rtt)
        {
            return new Lost(
                lost.nowNs(),
                lost.packetNumber(),
                lost.sizeBytes(),
                lost.sentTimeNs(),
                lost.deliveredAtSendBytes(),
                lost.txInFlightBytes(),
                lost.lostAtSendBytes(),
                lost.isAppLimited(),
                lost.totalLostBytes(),
                lost.totalDeliveredBytes(),
                lost.bytesInFlight(),
                rtt);
        }
    }

    /**
     * A recorded {@link CongestionController#onCongestionEvent} call.
     */
    public record Congestion(
        long nowNs,
        long newestLostSentTimeNs,
        long lostBytes,
        long bytesInFlight,
        boolean startsRecovery,
        boolean isPersistentCongestion,
        boolean isEcnCe) implements CongestionEvent
    {
        static Congestion of(final CongestionEvent event)
        {
            return new Congestion(
                event.nowNs(),
                event.newestLostSentTimeNs(),
                event.lostBytes(),
                event.bytesInFlight(),
                event.startsRecovery(),
                event.isPersistentCongestion(),
                event.isEcnCe());
        }
    }

    private final CongestionController delegate;
    private final List<String> log;
    private final List<Object> events = new ArrayList<>();
    private RttStats rttStats;
    private Observer observer;
    private boolean recording = true;
    private long windowBytes = DEFAULT_WINDOW_BYTES;
    private boolean isEcnCeCongestionEvent;

    private AckEvent lastAck;
    private long ackCount;
    private long congestionEventCount;
    private long cwndBeforeLastCongestionEventBytes;

    /**
     * A recorder that forwards to no controller: a fixed window of {@link #DEFAULT_WINDOW_BYTES}, unpaced.
     *
     * @param log receives one line per callback ({@code "cc.ack"}, {@code "cc.lost 5"}, ...), or null.
     */
    public RecordingController(final List<String> log)
    {
        this(null, log);
    }

    /**
     * @param delegate the controller every callback is forwarded to, or null for a fixed window.
     * @param log      receives one line per callback, or null.
     */
    public RecordingController(final CongestionController delegate, final List<String> log)
    {
        this.delegate = delegate;
        this.log = log;
    }

    /**
     * @param rttStats the statistics to snapshot with each recorded callback (null: none).
     * @return this.
     */
    public RecordingController rttStats(final RttStats rttStats)
    {
        this.rttStats = rttStats;
        return this;
    }

    /**
     * @param observer called after every callback, or null.
     * @return this.
     */
    public RecordingController observer(final Observer observer)
    {
        this.observer = observer;
        return this;
    }

    /**
     * @param recording true to copy callbacks (allocates), false only to count and forward them.
     * @return this.
     */
    public RecordingController recording(final boolean recording)
    {
        this.recording = recording;
        return this;
    }

    /**
     * @param windowBytes the window of a recorder that forwards to no controller.
     * @return this.
     */
    public RecordingController windowBytes(final long windowBytes)
    {
        this.windowBytes = windowBytes;
        return this;
    }

    /**
     * @return the controller the callbacks are forwarded to, or null.
     */
    public CongestionController delegate()
    {
        return delegate;
    }

    /**
     * @return every recorded callback in order: {@link Sent}, {@link IdleRestart}, {@link Ack}, {@link Lost},
     * {@link Congestion}, {@link SpuriousLoss} and {@link MtuChange} records.
     */
    public List<Object> events()
    {
        return events;
    }

    /**
     * @param type one of the record types.
     * @param <T>  the type.
     * @return the recorded callbacks of that type, in order.
     */
    public <T> List<T> eventsOf(final Class<T> type)
    {
        final List<T> result = new ArrayList<>();
        for (final Object event : events)
        {
            if (type.isInstance(event))
            {
                result.add(type.cast(event));
            }
        }
        return result;
    }

    /**
     * @return the recorded ACK callbacks.
     */
    public List<Ack> acks()
    {
        return eventsOf(Ack.class);
    }

    /**
     * @return the recorded lost packets.
     */
    public List<Lost> losses()
    {
        return eventsOf(Lost.class);
    }

    /**
     * @return the recorded congestion events.
     */
    public List<Congestion> congestionEvents()
    {
        return eventsOf(Congestion.class);
    }

    /**
     * @return the idle times of the recorded restarts from idle.
     */
    public List<Long> idleRestartsNs()
    {
        final List<Long> result = new ArrayList<>();
        for (final IdleRestart restart : eventsOf(IdleRestart.class))
        {
            result.add(restart.idleNs());
        }
        return result;
    }

    /**
     * @return the recorded spurious-loss reports.
     */
    public int spuriousLosses()
    {
        return eventsOf(SpuriousLoss.class).size();
    }

    /**
     * @return recorded {@code onPacketSent} calls.
     */
    public int packetsSent()
    {
        return eventsOf(Sent.class).size();
    }

    /**
     * Forget what was recorded so far (the counts stay).
     */
    public void clear()
    {
        events.clear();
    }

    /**
     * @return ACK frames processed, recorded or not.
     */
    public long ackCount()
    {
        return ackCount;
    }

    /**
     * @return congestion events delivered, recorded or not.
     */
    public long congestionEventCount()
    {
        return congestionEventCount;
    }

    /**
     * @return the window just before the most recent congestion event was delivered.
     */
    public long cwndBeforeLastCongestionEventBytes()
    {
        return cwndBeforeLastCongestionEventBytes;
    }

    /**
     * @return the most recent ACK frame as the controller saw it: the transport's reused view, valid only while the
     * observer of that callback runs.
     */
    public AckEvent lastAck()
    {
        return lastAck;
    }

    public void onPacketSent(
        final long nowNs,
        final long packetNumber,
        final int sizeBytes,
        final long bytesInFlight,
        final boolean isRetransmission)
    {
        if (recording)
        {
            events.add(new Sent(nowNs, packetNumber, sizeBytes, bytesInFlight, isRetransmission, snapshot()));
        }
        if (null != delegate)
        {
            delegate.onPacketSent(nowNs, packetNumber, sizeBytes, bytesInFlight, isRetransmission);
        }
        observe("sent", nowNs, bytesInFlight);
    }

    public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
    {
        if (recording)
        {
            events.add(new IdleRestart(nowNs, idleNs));
            log("cc.idleRestart " + idleNs);
        }
        if (null != delegate)
        {
            delegate.onTransmitStartAfterIdle(nowNs, idleNs);
        }
        observe("idle", nowNs, 0);
    }

    public void onAck(final AckEvent ack)
    {
        lastAck = ack;
        ackCount++;
        if (recording)
        {
            events.add(Ack.of(ack, snapshot()));
            log("cc.ack");
        }
        if (null != delegate)
        {
            delegate.onAck(ack);
        }
        observe("ack", ack.nowNs(), ack.bytesInFlight());
    }

    public void onPacketLost(final LostPacket lost)
    {
        if (recording)
        {
            events.add(Lost.of(lost, snapshot()));
            log("cc.lost " + lost.packetNumber());
        }
        if (null != delegate)
        {
            delegate.onPacketLost(lost);
        }
        observe("lost", lost.nowNs(), lost.bytesInFlight());
    }

    public void onCongestionEvent(final CongestionEvent event)
    {
        congestionEventCount++;
        cwndBeforeLastCongestionEventBytes = congestionWindowBytes();
        if (recording)
        {
            events.add(Congestion.of(event));
            log("cc.congestion" + (event.isPersistentCongestion() ? " persistent" : "") +
                (event.isEcnCe() ? " ecn-ce" : ""));
        }
        if (null != delegate)
        {
            delegate.onCongestionEvent(event);
        }
        observe("congestion", event.nowNs(), event.bytesInFlight());
    }

    public void onSpuriousLoss(final long nowNs)
    {
        if (recording)
        {
            events.add(new SpuriousLoss(nowNs));
            log("cc.spurious");
        }
        if (null != delegate)
        {
            delegate.onSpuriousLoss(nowNs);
        }
        observe("spurious", nowNs, -1);
    }

    public void onMtuChanged(final int maxDatagramSizeBytes)
    {
        if (recording)
        {
            events.add(new MtuChange(maxDatagramSizeBytes));
            log("cc.mtu " + maxDatagramSizeBytes);
        }
        if (null != delegate)
        {
            delegate.onMtuChanged(maxDatagramSizeBytes);
        }
        observe("mtu", -1, -1);
    }

    public long congestionWindowBytes()
    {
        return null == delegate ? windowBytes : delegate.congestionWindowBytes();
    }

    public long pacingRateBytesPerSecond()
    {
        return null == delegate ? 0 : delegate.pacingRateBytesPerSecond();
    }

    public int sendQuantumBytes()
    {
        return null == delegate ? 0 : delegate.sendQuantumBytes();
    }

    public String stateName()
    {
        return null == delegate ? STATE_RECORDING : delegate.stateName();
    }

    public List<String> stateNames()
    {
        return null == delegate ? List.of(STATE_RECORDING) : delegate.stateNames();
    }

    public boolean isEcnCeCongestionEvent()
    {
        return null == delegate ? isEcnCeCongestionEvent : delegate.isEcnCeCongestionEvent();
    }

    public boolean isInStartup()
    {
        return null != delegate && delegate.isInStartup();
    }

    /**
     * For a recorder without a controller: whether the transport reports CE increases to it as congestion events.
     * Set it before the loss recovery is built (it asks once).
     *
     * @param isEcnCeCongestionEvent true to receive them, as a window controller does.
     * @return this.
     */
    public RecordingController ecnCeCongestionEvent(final boolean isEcnCeCongestionEvent)
    {
        this.isEcnCeCongestionEvent = isEcnCeCongestionEvent;
        return this;
    }

    private Rtt snapshot()
    {
        return Rtt.of(rttStats);
    }

    private void log(final String line)
    {
        if (null != log)
        {
            log.add(line);
        }
    }

    private void observe(final String callback, final long nowNs, final long bytesInFlight)
    {
        if (null != observer)
        {
            observer.afterCallback(callback, nowNs, bytesInFlight);
        }
    }
}
