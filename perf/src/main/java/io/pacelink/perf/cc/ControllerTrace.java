package io.pacelink.perf.cc;

import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.recovery.RecoveryConfig;
import io.pacelink.transport.testing.RecordingController;
import io.pacelink.transport.testing.ScriptedPath;
import io.pacelink.transport.testing.TestControllerContext;

import java.util.ArrayList;
import java.util.List;

/**
 * The controller callbacks one algorithm received over a stretch of a realistic connection, recorded once and then
 * replayed as fast as a benchmark can: the algorithm drives a backlogged connection over the test kit's
 * {@link ScriptedPath} (the real loss recovery), and after a warm-up every callback is copied, in order, by its
 * {@link RecordingController}, until the window holds enough ACKs, sends and losses. Replaying the events into a
 * fresh controller of the same algorithm walks it through the states the connection went through (slow start,
 * recovery, probing) instead of repeating one branch.
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

    /**
     * The receiver acknowledges every second packet, as a connection's receiver does by default.
     */
    private static final int ACK_EVERY_PACKETS = 2;

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
        final ReplayAdjuster adjuster)
    {
        this.factory = factory;
        this.maxDatagramSizeBytes = maxDatagramSizeBytes;
        this.events = events.toArray(new TraceEvent[0]);
        this.adjuster = adjuster;
        this.ackCount = count(events, AckFixture.class);
        this.sentCount = count(events, SentFixture.class);
        this.lostCount = count(events, LostFixture.class);
    }

    private static int count(final List<TraceEvent> events, final Class<? extends TraceEvent> type)
    {
        int count = 0;
        for (final TraceEvent event : events)
        {
            count += type.isInstance(event) ? 1 : 0;
        }
        return count;
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
        final TestControllerContext context =
            new TestControllerContext(path.packetSizeBytes(), path.seed(), ControllerParameters.EMPTY);
        final ScriptedPath driver = new ScriptedPath(
            factory.newController(context),
            context,
            path.bottleneckBytesPerSecond(),
            path.propagationRttNs(),
            0,
            path.seed())
            .bufferBytes(path.bufferBytes())
            .randomLoss(path.randomLossProbability())
            .ackEvery(ACK_EVERY_PACKETS);
        final RecordingController recorder = driver.recorder().rttStats(context.rttStats());
        driver.runUntil(warmupNs);

        final long startNs = driver.nowNs();
        final long startAcks = recorder.ackCount();
        final long startDeliveredBytes = driver.deliveredBytes();
        final long startLostBytes = driver.lostBytes();
        final long startLostPackets = driver.lossRecovery().lostPackets();
        final long startPacketNumber = driver.lossRecovery().largestSentPacketNumber();
        // Recording starts and stops between events, so every recorded loss batch is complete.
        recorder.recording(true);
        while (recorder.ackCount() - startAcks < minimumAcks ||
            driver.lossRecovery().lostPackets() - startLostPackets < minimumLostPackets)
        {
            if (driver.nowNs() - startNs > MAX_RECORDING_NS)
            {
                throw new IllegalStateException(controllerName + " lost only " +
                    (driver.lossRecovery().lostPackets() - startLostPackets) + " packets in " + MAX_RECORDING_NS +
                    " ns of recording; make the path lossier");
            }
            driver.runFor(RECORDING_STEP_NS);
        }
        recorder.recording(false);

        final ReplayAdjuster adjuster = new ReplayAdjuster();
        adjuster.steps(
            driver.nowNs() - startNs,
            driver.deliveredBytes() - startDeliveredBytes,
            driver.lostBytes() - startLostBytes,
            driver.lossRecovery().largestSentPacketNumber() - startPacketNumber);

        return new ControllerTrace(factory, path.packetSizeBytes(), fixtures(recorder.events(), adjuster), adjuster);
    }

    /**
     * @return the recorded callbacks as replayable fixtures, each loss batch's congestion event attached to its last
     * lost packet.
     * @throws IllegalStateException for a callback the trace format does not keep: the recording path (backlogged
     * sender, FIFO bottleneck without reordering, fixed MTU) never produces one, and a replay without it would
     * misrepresent the controller.
     */
    private static List<TraceEvent> fixtures(final List<Object> recorded, final ReplayAdjuster adjuster)
    {
        final List<TraceEvent> events = new ArrayList<>();
        LostFixture openBatchLast = null;
        for (final Object event : recorded)
        {
            if (event instanceof RecordingController.Sent sent)
            {
                events.add(new SentFixture(sent, adjuster));
            }
            else if (event instanceof RecordingController.Ack ack)
            {
                events.add(new AckFixture(ack.rtt(), adjuster, ack));
            }
            else if (event instanceof RecordingController.Lost lost)
            {
                openBatchLast = new LostFixture(lost.rtt(), adjuster, lost);
                events.add(openBatchLast);
            }
            else if (event instanceof RecordingController.Congestion congestion && null != openBatchLast)
            {
                openBatchLast.batchEnd(new CongestionFixture(adjuster, congestion));
                openBatchLast = null;
            }
            else
            {
                throw new IllegalStateException(event + " during trace recording: the trace format does not keep it");
            }
        }
        return events;
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
            new TestControllerContext(maxDatagramSizeBytes, REPLAY_SEED, ControllerParameters.EMPTY, rttStats));

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
