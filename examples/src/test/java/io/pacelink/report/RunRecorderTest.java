package io.pacelink.report;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunRecorderTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    @Test
    void intervalIsAMultipleOfTenMillisecondsGivingAboutFourHundredSamples()
    {
        assertEquals(150_000_000L, RunRecorder.intervalFor(60 * SECOND_NS));
        assertEquals(70_000_000L, RunRecorder.intervalFor(30 * SECOND_NS));
        assertEquals(10_000_000L, RunRecorder.intervalFor(SECOND_NS), "never below 10 ms");
    }

    @Test
    void goodputWindowCoversFourBaseRttsOrFourIntervals()
    {
        assertEquals(600_000_000L, new RunRecorder(List.of("reno"), 60 * SECOND_NS, 150_000_000L).goodputWindowNs());
        assertEquals(120_000_000L, new RunRecorder(List.of("reno"), 10 * SECOND_NS, 30_000_000L).goodputWindowNs());
        assertEquals(40_000_000L, new RunRecorder(List.of("reno"), 4 * SECOND_NS, 2_000_000L).goodputWindowNs());
    }

    @Test
    void seriesFollowEachFlowAndItsQueueingDelayAtTheBottleneck()
    {
        final PathSpec.Pair path = PathSpec.Pair.parse("rate=10mbit delay=10ms queue=1bdp", "delay=10ms");
        final List<String> controllers = List.of("reno", "cubic");
        final RunRecorder recorder = new RunRecorder(controllers, 10 * SECOND_NS, path.baseRttNs());
        final Scenario.Builder builder = Scenario.builder()
            .seed(3)
            .path(path)
            .durationNs(10 * SECOND_NS)
            .flow(FlowSpec.bulk("reno"))
            .flow(FlowSpec.bulk("cubic").during(2 * SECOND_NS, Long.MAX_VALUE));
        recorder.attachTo(builder);
        final ScenarioResult result = builder.build().run();

        final List<FlowSeries> series = recorder.series();
        assertEquals(2, series.size());
        // The handshake takes two round trips (address validation), one 20 ms row of the 10 s.
        assertTrue(Math.abs(series.get(0).size() - 499) <= 2, "a row every 20 ms of the 10 s from the handshake: " +
            series.get(0).size());
        // The latecomer's rows begin with its handshake, at 2 s or (its first packet dropped by the full queue) later.
        final double latecomerStart = series.get(1).timeSeconds(0);
        assertTrue(latecomerStart > 2.0 && latecomerStart < 3.5, "latecomer from " + latecomerStart + " s");
        assertTrue(Math.abs(series.get(1).size() - (10 - latecomerStart) / 0.02) <= 2, "rows " + series.get(1).size());
        for (final FlowSeries flow : series)
        {
            final FlowOutcome outcome = result.flow(flow.flowIndex());
            double delivered = 0;
            double maxQueueDelayMs = 0;
            for (int row = 0; row < flow.size(); row++)
            {
                assertTrue(flow.value(row, FlowSeries.Quantity.CWND) > 0,
                    flow.label() + " at " + flow.timeSeconds(row));
                final double queueDelayMs = flow.value(row, FlowSeries.Quantity.QUEUE_DELAY);
                if (!Double.isNaN(queueDelayMs))
                {
                    maxQueueDelayMs = Math.max(maxQueueDelayMs, queueDelayMs);
                }
                delivered += flow.value(row, FlowSeries.Quantity.GOODPUT);
            }
            // A 1-BDP queue at 10 Mbit/s holds 20 ms; the flows took turns, so each saw a good part of it.
            assertTrue(maxQueueDelayMs > 5 && maxQueueDelayMs <= 20.5, "queue delay up to " + maxQueueDelayMs);
            // Windowed goodput averages to what was delivered over the rows' span (within the windows at the edges).
            final double meanMbps = delivered / flow.size();
            final double deliveredMbps = outcome.deliveredBytes() * 8 / 1e6 / (flow.size() * 0.02);
            assertTrue(Math.abs(meanMbps - deliveredMbps) < 0.1 * deliveredMbps, meanMbps + " vs " + deliveredMbps);
            assertEquals(outcome.rtt().count(), outcome.rttHistogram().getTotalCount());
        }
    }

    @Test
    void everyDataPacketServedAtTheBottleneckIsHeardForItsFlow()
    {
        final long[] heard = new long[2];
        final ScenarioResult result = Scenario.builder()
            .seed(1)
            .path(PathSpec.Pair.parse("rate=20mbit delay=5ms queue=100p qdisc=fq", "delay=5ms"))
            .durationNs(3 * SECOND_NS)
            .flow(FlowSpec.bulk("reno"))
            .flow(FlowSpec.bulk("reno"))
            .queueDelays((flowIndex, queueDelayNs, nowNs) -> heard[flowIndex]++)
            .build()
            .run();

        // The link records each packet's queueing delay when its serialization starts, as the listener hears it.
        assertTrue(heard[0] > 1000 && heard[1] > 1000, "both flows sent: " + heard[0] + ", " + heard[1]);
        assertEquals(result.forward().queueDelay().count(), heard[0] + heard[1]);
    }
}
