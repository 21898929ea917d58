package io.pacelink.scenario;

import io.pacelink.cubic.CubicParameters;
import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.AppPattern;
import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.WindowController;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The simulator scenarios of the CUBIC issue (issue 5, items 1 to 7), shared by {@link CubicAcceptanceTest} (which
 * asserts the thresholds for CUBIC) and {@link CubicNewRenoComparisonTest} (which measures NewReno on the same
 * paths, seeds and durations for docs/cubic.md). The reverse (ACK) direction always has the forward direction's
 * delay and jitter and nothing else: no bottleneck, no loss.
 */
final class CubicScenarios
{
    static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    static final long MILLISECOND_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * What "a packet" is in the issue: one full datagram.
     */
    static final int PACKET_BYTES = PacelinkContext.DEFAULT_MAX_DATAGRAM_SIZE_BYTES;

    /**
     * RFC 9438 constants the closed-form curve is checked against (CUBIC's defaults).
     */
    static final double BETA = CubicParameters.DEFAULT_BETA;
    static final double C_SEGMENTS_PER_SECOND_CUBED = CubicParameters.DEFAULT_C;

    /**
     * Item 1: a long fat path (1 Gbit/s, 100 ms RTT, BDP about 8 500 packets) that never limits a window of a few
     * thousand packets, so the one packet the link is told to lose is the only loss.
     */
    static final String LONG_FAT_PATH = "rate=1gbit delay=50ms";
    static final String LONG_FAT_REVERSE = "delay=50ms";

    /**
     * Item 1: the forward packet to lose. In slow start a packet sent as the N-th is declared lost about one RTT later,
     * when cwnd has roughly doubled from N / 2 to N; 990 puts that loss at a window of about 1 000 packets.
     */
    static final long SINGLE_LOSS_PACKET_NUMBER = 990;

    static final String RENO_FRIENDLY_PATH = "rate=10mbit delay=1ms loss=0.1%";
    static final String RENO_FRIENDLY_REVERSE = "delay=1ms";

    static final String SHORT_LOSSY_PATH = "rate=500mbit delay=19ms loss=1% queue=1bdp";
    static final String SHORT_LOSSY_REVERSE = "delay=19ms";

    static final String LONG_LOSSY_PATH = "rate=100mbit delay=75ms jitter=7.5ms loss=8% queue=1bdp";
    static final String LONG_LOSSY_REVERSE = "delay=75ms jitter=7.5ms";

    /**
     * Items 4 and 5: a ten-BDP buffer, where slow start overshoots by far unless it leaves early.
     */
    static final String DEEP_BUFFER_PATH = "rate=100mbit delay=20ms queue=10bdp";
    static final String DEEP_BUFFER_REVERSE = "delay=20ms";
    static final double DEEP_BUFFER_BDP_BYTES = 100e6 / 8 * 0.040;

    static final String FAIRNESS_PATH = "rate=100mbit delay=20ms queue=2bdp";
    static final String FAIRNESS_REVERSE = "delay=20ms";
    static final long LATECOMER_START_NS = 30 * SECOND_NS;
    static final long FAIRNESS_DURATION_NS = 120 * SECOND_NS;

    /**
     * Item 7: 5 Mbit/s offered for 30 s, then bulk, on the fairness path.
     */
    static final long APP_LIMITED_BYTES_PER_SECOND = 5_000_000 / 8;
    static final long APP_LIMITED_SWITCH_NS = 30 * SECOND_NS;

    private CubicScenarios()
    {
    }

    static ScenarioResult windowCurve(final String controller, final long durationNs, final Path traces)
    {
        return Scenario.builder()
            .seed(1)
            .path(PathSpec.Pair.parse(LONG_FAT_PATH, LONG_FAT_REVERSE))
            .durationNs(durationNs)
            .pathChange(0, (dumbbell) -> dumbbell.forward().loseOfferedPacket(SINGLE_LOSS_PACKET_NUMBER))
            .traceDirectory(traces)
            .traceIntervalNs(10 * MILLISECOND_NS)
            .flow(FlowSpec.bulk(controller))
            .build()
            .run();
    }

    static ScenarioResult renoFriendly(final String controller)
    {
        return bulk(controller, RENO_FRIENDLY_PATH, RENO_FRIENDLY_REVERSE, 1, 30 * SECOND_NS);
    }

    static ScenarioResult shortLossyPath(final String controller, final long seed)
    {
        return bulk(controller, SHORT_LOSSY_PATH, SHORT_LOSSY_REVERSE, seed, 30 * SECOND_NS);
    }

    static ScenarioResult longLossyPath(final String controller, final long seed)
    {
        return bulk(controller, LONG_LOSSY_PATH, LONG_LOSSY_REVERSE, seed, 30 * SECOND_NS);
    }

    /**
     * @param durationNs a whole number of milliseconds (the goodput bins' width).
     * @param traces     where the flow's trace goes, sampled every millisecond to catch the slow-start exit.
     */
    static ScenarioResult deepBuffer(
        final String controller, final ControllerParameters parameters, final long durationNs, final Path traces)
    {
        return deepBuffer(controller, parameters, 1, durationNs, traces);
    }

    /**
     * {@link #deepBuffer(String, ControllerParameters, long, Path)} with another seed.
     */
    static ScenarioResult deepBuffer(
        final String controller,
        final ControllerParameters parameters,
        final long seed,
        final long durationNs,
        final Path traces)
    {
        return deepBuffer(controller, parameters, seed, durationNs, traces, true);
    }

    /**
     * {@link #deepBuffer(String, ControllerParameters, long, long, Path)} with the senders' and receivers' packet
     * number skipping (the optimistic-ACK defence, a simulator-only switch) on or off.
     */
    static ScenarioResult deepBuffer(
        final String controller,
        final ControllerParameters parameters,
        final long seed,
        final long durationNs,
        final Path traces,
        final boolean isPacketNumberSkipping)
    {
        return Scenario.builder()
            .seed(seed)
            .path(PathSpec.Pair.parse(DEEP_BUFFER_PATH, DEEP_BUFFER_REVERSE))
            .durationNs(durationNs)
            .pingIntervalNs(100 * MILLISECOND_NS)
            .traceDirectory(traces)
            .traceIntervalNs(MILLISECOND_NS)
            .goodputIntervalNs(MILLISECOND_NS)
            .contextCustomizer((context) -> context.packetNumberSkipping(isPacketNumberSkipping))
            .flow(FlowSpec.bulk(controller).with(parameters))
            .build()
            .run();
    }

    /**
     * Two flows of the controller, the second starting at 30 s, for 120 s; goodput in one-second bins.
     */
    static ScenarioResult fairness(final String controller, final ControllerParameters parameters)
    {
        return Scenario.builder()
            .seed(1)
            .path(PathSpec.Pair.parse(FAIRNESS_PATH, FAIRNESS_REVERSE))
            .durationNs(FAIRNESS_DURATION_NS)
            .goodputIntervalNs(SECOND_NS)
            .flow(FlowSpec.bulk(controller).with(parameters))
            .flow(FlowSpec.bulk(controller).with(parameters).during(LATECOMER_START_NS, Long.MAX_VALUE))
            .build()
            .run();
    }

    static ScenarioResult appLimitedThenBulk(final String controller, final Path traces)
    {
        return Scenario.builder()
            .seed(1)
            .path(PathSpec.Pair.parse(FAIRNESS_PATH, FAIRNESS_REVERSE))
            .durationNs(APP_LIMITED_SWITCH_NS + 5 * SECOND_NS)
            .traceDirectory(traces)
            .traceIntervalNs(MILLISECOND_NS)
            .flow(FlowSpec.bulk(controller).with(
                AppPattern.rateLimited(APP_LIMITED_BYTES_PER_SECOND).thenBulkFrom(APP_LIMITED_SWITCH_NS)))
            .build()
            .run();
    }

    /**
     * Item 1's figures from a {@link #windowCurve} trace.
     *
     * @param trace                   the flow's trace.
     * @param reductionRow            first row after the loss was answered (state RECOVERY).
     * @param epochRow                first congestion-avoidance row after it: the epoch start, to 10 ms.
     * @param wMaxBytes               the window when the loss was detected (the controller's W_max).
     * @param regainAfterLossSeconds  from the reduction until cwnd is back at W_max; NaN if it never is.
     * @param regainAfterEpochSeconds the same from the epoch start.
     */
    record SingleLoss(
        CubicTrace trace,
        int reductionRow,
        int epochRow,
        double wMaxBytes,
        double regainAfterLossSeconds,
        double regainAfterEpochSeconds)
    {
        /**
         * @param trace     the flow's trace.
         * @param wMaxBytes the window at the loss, from the controller's counters (the run has one loss): the
         *                  trace's window during the recovery is Proportional Rate Reduction's, the flight plus what
         *                  the ACKs allow, and on the curve's plateau near K a W_max a few bytes off moves the regain
         *                  by a second.
         * @return the figures.
         */
        static SingleLoss of(final CubicTrace trace, final double wMaxBytes)
        {
            final int reductionRow = trace.firstRowIn(WindowController.STATE_RECOVERY, 0);
            final int epochRow = trace.firstRowIn(WindowController.STATE_CONGESTION_AVOIDANCE, reductionRow);
            int regainRow = reductionRow;
            while (regainRow < trace.rows() && trace.congestionWindowBytes(regainRow) < wMaxBytes)
            {
                regainRow++;
            }
            final double regainNs = regainRow < trace.rows() ? trace.timeNs(regainRow) : Double.NaN;
            return new SingleLoss(trace, reductionRow, epochRow, wMaxBytes,
                (regainNs - trace.timeNs(reductionRow)) / 1e9, (regainNs - trace.timeNs(epochRow)) / 1e9);
        }

        double wMaxPackets()
        {
            return wMaxBytes / PACKET_BYTES;
        }
    }

    /**
     * Item 4 without HyStart++: how the first slow start on the deep buffer ends and what it loses. A packet is
     * dropped when it reaches the queue, which is as it is sent, so every packet slow start loses is dropped before the
     * first reduction and none sent later is: a second run ending at that reduction counts exactly those.
     *
     * @param endedBy       the state the first slow start ended in.
     * @param endNs         when, to 1 ms.
     * @param cwndAtEndBdp  the window then, in BDP (its last slow-start sample, 1 ms before, if it was a loss: the
     *                      recovery's window is Proportional Rate Reduction's).
     * @param droppedPackets packets dropped by the bottleneck in slow start.
     */
    record SlowStartEnd(String endedBy, long endNs, double cwndAtEndBdp, long droppedPackets)
    {
        static SlowStartEnd of(final String controller, final ControllerParameters parameters, final Path traces)
        {
            return of(controller, parameters, 1, traces, true);
        }

        static SlowStartEnd of(
            final String controller,
            final ControllerParameters parameters,
            final long seed,
            final Path traces,
            final boolean isPacketNumberSkipping)
        {
            deepBuffer(controller, parameters, seed, 5 * SECOND_NS, traces, isPacketNumberSkipping);
            final CubicTrace trace = CubicTrace.read(traces, 0, controller);
            final int endRow = trace.firstRowNotIn(WindowController.STATE_SLOW_START, 0);
            final String endedBy = trace.state(endRow);
            final boolean isLoss = WindowController.STATE_RECOVERY.equals(endedBy);
            final long droppedPackets = deepBuffer(controller, parameters, seed, trace.timeNs(endRow),
                traces.resolve("until-slow-start-ends"), isPacketNumberSkipping).forward().queueDropPackets();
            return new SlowStartEnd(endedBy, trace.timeNs(endRow),
                trace.congestionWindowBytes(isLoss ? endRow - 1 : endRow) / DEEP_BUFFER_BDP_BYTES, droppedPackets);
        }
    }

    /**
     * Item 7's figures from an {@link #appLimitedThenBulk} run.
     *
     * @param cwndAtSwitchBytes        cwnd just before the application turned bulk.
     * @param maxInFlightBytes         the most bytes in flight while it was application-limited.
     * @param recentMaxInFlightBytes   the same over its last 5 s.
     * @param appLimitedBitsPerSecond  goodput over the 20 s before the switch.
     */
    record AppLimitedWindow(
        long cwndAtSwitchBytes, long maxInFlightBytes, long recentMaxInFlightBytes, double appLimitedBitsPerSecond)
    {
        static AppLimitedWindow of(final String controller, final Path traces)
        {
            final ScenarioResult result = appLimitedThenBulk(controller, traces);
            final CubicTrace trace = CubicTrace.read(traces, 0, controller);
            final int switchRow = trace.rowAt(APP_LIMITED_SWITCH_NS - 1);
            return new AppLimitedWindow(
                trace.congestionWindowBytes(switchRow),
                maxBytesInFlight(trace, 0, switchRow),
                maxBytesInFlight(trace, trace.rowAt(APP_LIMITED_SWITCH_NS - 5 * SECOND_NS), switchRow),
                result.flow(0).goodputBitsPerSecond(APP_LIMITED_SWITCH_NS - 20 * SECOND_NS, APP_LIMITED_SWITCH_NS));
        }

        private static long maxBytesInFlight(final CubicTrace trace, final int fromRow, final int toRow)
        {
            long maxBytes = 0;
            for (int row = fromRow; row <= toRow; row++)
            {
                maxBytes = Math.max(maxBytes, trace.bytesInFlight(row));
            }
            return maxBytes;
        }

        @Override
        public String toString()
        {
            return String.format("cwnd at the switch %.1f packets, largest in flight while application-limited " +
                "%.1f packets (ratio %.2f), over its last 5 s %.1f packets (ratio %.2f); goodput before the switch " +
                "%.2f Mbit/s",
                cwndAtSwitchBytes / (double)PACKET_BYTES, maxInFlightBytes / (double)PACKET_BYTES,
                cwndAtSwitchBytes / (double)maxInFlightBytes, recentMaxInFlightBytes / (double)PACKET_BYTES,
                cwndAtSwitchBytes / (double)recentMaxInFlightBytes, appLimitedBitsPerSecond / 1e6);
        }
    }

    /**
     * @return K = cbrt(W_max (1 − β) / C) in seconds, for W_max in packets (RFC 9438 section 4.2, no fast convergence).
     */
    static double kSeconds(final double wMaxPackets)
    {
        return Math.cbrt(wMaxPackets * (1 - BETA) / C_SEGMENTS_PER_SECOND_CUBED);
    }

    /**
     * @return W_cubic(t) = C (t − K)³ + W_max in packets.
     */
    static double cubicWindowPackets(final double tSeconds, final double kSeconds, final double wMaxPackets)
    {
        final double offsetSeconds = tSeconds - kSeconds;
        return C_SEGMENTS_PER_SECOND_CUBED * offsetSeconds * offsetSeconds * offsetSeconds + wMaxPackets;
    }

    /**
     * @return how long after the latecomer started its goodput first reached half its fair share (half of what both
     * flows got together from its start to the end, halved), in whole one-second bins; -1 if never.
     */
    static long latecomerHalfShareNs(final ScenarioResult result)
    {
        final FlowOutcome first = result.flow(0);
        final FlowOutcome latecomer = result.flow(1);
        final double fairShareBitsPerSecond = (first.goodputBitsPerSecond(LATECOMER_START_NS, FAIRNESS_DURATION_NS) +
            latecomer.goodputBitsPerSecond(LATECOMER_START_NS, FAIRNESS_DURATION_NS)) / 2;
        for (long startNs = LATECOMER_START_NS; startNs < FAIRNESS_DURATION_NS; startNs += SECOND_NS)
        {
            if (latecomer.goodputBitsPerSecond(startNs, startNs + SECOND_NS) >= fairShareBitsPerSecond / 2)
            {
                return startNs + SECOND_NS - LATECOMER_START_NS;
            }
        }
        return -1;
    }

    /**
     * @return Jain's index of the two flows' goodput over the last 60 s.
     */
    static double lastMinuteJainIndex(final ScenarioResult result)
    {
        return result.jainIndex(FAIRNESS_DURATION_NS - 60 * SECOND_NS, FAIRNESS_DURATION_NS);
    }

    static ControllerParameters parameters(final String name, final String value)
    {
        return ControllerParameters.of(Map.of(name, value));
    }

    private static ScenarioResult bulk(
        final String controller,
        final String forward,
        final String reverse,
        final long seed,
        final long durationNs)
    {
        return Scenario.builder()
            .seed(seed)
            .path(PathSpec.Pair.parse(forward, reverse))
            .durationNs(durationNs)
            .flow(FlowSpec.bulk(controller))
            .build()
            .run();
    }
}
