package io.pacelink.perf.cc;

import io.pacelink.perf.path.PathConfig;
import io.pacelink.perf.path.PathDriver;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.recovery.RecoveryConfig;

import java.util.List;

/**
 * The controller callbacks one algorithm received over a stretch of a realistic connection, recorded once and then
 * replayed as fast as a benchmark can: the algorithm drives a backlogged connection over a {@link PathDriver} path
 * with the real {@link LossRecovery}, and after a warm-up every callback is copied, in order, until the window holds
 * enough ACKs, sends and losses. Replaying the events into a fresh controller of the same algorithm walks it through
 * the states the connection went through (slow start, recovery, probing) instead of repeating one branch.
 */
public final class ControllerTrace
{
    /**
     * Which recorded callbacks a replay delivers.
     */
    public enum Kind
    {
        /**
         * What processing ACKs asks of the controller: {@code onAck}, and for the losses detected with them (about
         * 1 % of these events) {@code onPacketLost} and {@code onCongestionEvent}; without the losses a window
         * controller would never leave slow start. Everything but {@code onPacketSent}.
         */
        ACKS,

        /**
         * {@code onPacketSent} only.
         */
        SENDS,

        /**
         * {@code onPacketLost}, with {@code onCongestionEvent} after the last packet of each loss batch.
         */
        LOSSES,

        /**
         * Everything, in the recorded order.
         */
        ALL
    }

    private static final long RECORDING_STEP_NS = 1_000_000L;
    private static final long MAX_RECORDING_NS = 600_000_000_000L;
    private static final long REPLAY_SEED = 7;

    private final CongestionControllerFactory factory;
    private final int maxDatagramSizeBytes;
    private final TraceEvent[] events;
    private final ReplayAdjuster adjuster;
    private final int ackCount;
    private final int sentCount;
    private final int lostCount;

    private ControllerTrace(
        final CongestionControllerFactory factory,
        final int maxDatagramSizeBytes,
        final List<TraceEvent> events,
        final ReplayAdjuster adjuster,
        final int ackCount,
        final int sentCount,
        final int lostCount)
    {
        this.factory = factory;
        this.maxDatagramSizeBytes = maxDatagramSizeBytes;
        this.events = events.toArray(new TraceEvent[0]);
        this.adjuster = adjuster;
        this.ackCount = ackCount;
        this.sentCount = sentCount;
        this.lostCount = lostCount;
    }

    /**
     * Run the algorithm over the path and record its callbacks.
     *
     * @param controllerName     the algorithm, as {@link CongestionControlRegistry} names it.
     * @param path               the path to run over.
     * @param warmupNs           virtual time run before recording starts (past the first slow start).
     * @param minimumAcks        record at least this many {@code onAck} calls.
     * @param minimumLostPackets and at least this many {@code onPacketLost} calls.
     * @return the trace.
     * @throws IllegalStateException if the path produces too few losses within ten virtual minutes.
     */
    public static ControllerTrace record(
        final String controllerName,
        final PathConfig path,
        final long warmupNs,
        final int minimumAcks,
        final int minimumLostPackets)
    {
        final CongestionControllerFactory factory = CongestionControlRegistry.load().factory(controllerName);
        final LossRecovery recovery = new LossRecovery(
            new RecoveryConfig().maxDatagramSizeBytes(path.packetSizeBytes()));
        final ReplayAdjuster adjuster = new ReplayAdjuster();
        final RecordingController recorder = new RecordingController(
            factory.newController(new BenchmarkControllerContext(
                path.packetSizeBytes(), recovery.rttEstimator(), path.seed())),
            recovery.rttEstimator(),
            adjuster);
        recovery.controller(recorder);

        final PathDriver driver = new PathDriver(recovery, path, 0);
        driver.runUntil(warmupNs);

        final long startNs = driver.nowNs();
        final long startDeliveredBytes = recovery.deliveredBytes();
        final long startLostBytes = recovery.lostBytes();
        final long startPacketNumber = recovery.largestSentPacketNumber();
        // Recording starts and stops between events, so every recorded loss batch is complete.
        recorder.recording(true);
        while (recorder.ackCount() < minimumAcks || recorder.lostCount() < minimumLostPackets)
        {
            if (driver.nowNs() - startNs > MAX_RECORDING_NS)
            {
                throw new IllegalStateException(controllerName + " lost only " + recorder.lostCount() +
                    " packets in " + MAX_RECORDING_NS + " ns of recording; make the path lossier");
            }
            driver.runFor(RECORDING_STEP_NS);
        }
        recorder.recording(false);

        adjuster.steps(
            driver.nowNs() - startNs,
            recovery.deliveredBytes() - startDeliveredBytes,
            recovery.lostBytes() - startLostBytes,
            recovery.largestSentPacketNumber() - startPacketNumber);

        return new ControllerTrace(
            factory,
            path.packetSizeBytes(),
            recorder.events(),
            adjuster,
            recorder.ackCount(),
            recorder.sentCount(),
            recorder.lostCount());
    }

    /**
     * Start replaying into a new controller of the recorded algorithm. The controller first gets one lap of every
     * recorded callback, unmeasured, so that it starts the chosen replay in the state a connection of its own would be
     * in (past slow start, with a bandwidth and RTT estimate) rather than in its initial state. Only one replay of a
     * trace may run at a time: they share the {@link ReplayAdjuster}.
     *
     * @param kind which callbacks to deliver.
     * @return the replay, positioned at the start of the second lap.
     */
    public TraceReplay replay(final Kind kind)
    {
        adjuster.rewind();
        final ReplayRttStats rttStats = new ReplayRttStats(RecoveryConfig.DEFAULT_INITIAL_RTT_NS);
        final CongestionController controller = factory.newController(
            new BenchmarkControllerContext(maxDatagramSizeBytes, rttStats, REPLAY_SEED));

        final TraceReplay warmUp = new TraceReplay(events, adjuster, rttStats, controller);
        for (int i = 0; i < events.length; i++)
        {
            warmUp.replayNext();
        }
        return new TraceReplay(select(kind), adjuster, rttStats, controller);
    }

    /**
     * @return recorded {@code onAck} calls.
     */
    public int ackCount()
    {
        return ackCount;
    }

    /**
     * @return recorded {@code onPacketSent} calls.
     */
    public int sentCount()
    {
        return sentCount;
    }

    /**
     * @return recorded {@code onPacketLost} calls.
     */
    public int lostCount()
    {
        return lostCount;
    }

    /**
     * @return recorded loss batches ({@code onCongestionEvent} calls).
     */
    public int congestionEventCount()
    {
        int count = 0;
        for (final TraceEvent event : events)
        {
            if (event instanceof LostFixture && ((LostFixture)event).isBatchEnd())
            {
                count++;
            }
        }
        return count;
    }

    /**
     * @return length of the recorded window in virtual time.
     */
    public long windowNs()
    {
        return adjuster.timeStepNs();
    }

    private TraceEvent[] select(final Kind kind)
    {
        int count = 0;
        for (final TraceEvent event : events)
        {
            count += isSelected(kind, event) ? 1 : 0;
        }
        final TraceEvent[] selected = new TraceEvent[count];
        int i = 0;
        for (final TraceEvent event : events)
        {
            if (isSelected(kind, event))
            {
                selected[i++] = event;
            }
        }
        return selected;
    }

    private static boolean isSelected(final Kind kind, final TraceEvent event)
    {
        return switch (kind)
        {
            case ACKS -> !(event instanceof SentFixture);
            case SENDS -> event instanceof SentFixture;
            case LOSSES -> event instanceof LostFixture;
            case ALL -> true;
        };
    }
}
