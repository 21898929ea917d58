package io.pacelink.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.pacelink.scenario.BbrScenarios.BASE_RTT_NS;
import static io.pacelink.scenario.BbrScenarios.MS;
import static io.pacelink.scenario.BbrScenarios.REVERSE_20MS;
import static io.pacelink.scenario.BbrScenarios.SECOND;
import static io.pacelink.scenario.BbrScenarios.figure;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 4 item 6: the bottleneck of a 40 ms path steps between 100 and 50 Mbit/s; its buffer is one BDP of the
 * rate before the step. Down: the standing queue (sampled at the bottleneck every 10 ms) falls below one BDP of the new
 * rate within 20 (v3) or 30 (v1) round trips. Up: the bandwidth estimate reaches 90 Mbit/s within 3 bandwidth-probing
 * cycles (v1: 8 rounds each; v3: ProbeBW_UP phases). Round trips are the controller's packet-timed rounds. The
 * steps are placed between PROBE_RTTs, which would otherwise drain the queue for the controller.
 */
@Timeout(90)
class BbrRateChangeTest
{
    private static final long QUEUE_SAMPLE_NS = 10 * MS;
    private static final long V1_CYCLE_ROUNDS = 8;

    @ParameterizedTest
    @CsvSource({ "bbr,1,30,4", "bbr,2,30,4", "bbr3,1,20,7", "bbr3,2,20,7" })
    void standingQueueDrainsAfterTheRateHalves(
        final String controller, final long seed, final long maxRounds, final long stepSeconds)
    {
        final long stepNs = stepSeconds * SECOND;
        final long durationNs = stepNs + 3 * SECOND;
        final double newBdpBytes = 50e6 / 8 * BASE_RTT_NS / 1e9;
        final long[] queueBytes = new long[(int)(durationNs / QUEUE_SAMPLE_NS)];
        final BbrTelemetry.Recorder bbr =
            run(controller, seed, "rate=100mbit,50mbit@" + stepSeconds + "s", durationNs, queueBytes);

        // The step leaves the flow sending twice what the link drains: a queue of more than a new BDP builds at once.
        final int from = (int)((stepNs + 2 * BASE_RTT_NS) / QUEUE_SAMPLE_NS);
        assertTrue(queueBytes[from] >= newBdpBytes, "no standing queue after the step: " + queueBytes[from]);
        int drained = -1;
        for (int i = from; i < queueBytes.length && drained < 0; i++)
        {
            if (queueBytes[i] < newBdpBytes)
            {
                drained = i;
            }
        }
        assertTrue(drained >= 0, "the queue never fell below one BDP");
        final long drainedNs = drained * QUEUE_SAMPLE_NS;
        final long rounds = roundAt(bbr, drainedNs) - roundAt(bbr, stepNs);
        figure(6, controller, seed, "down_rounds_to_queue_below_bdp", rounds);
        figure(6, controller, seed, "down_ms_to_queue_below_bdp", (drainedNs - stepNs) / 1e6);
        assertTrue(rounds <= maxRounds, "queue below one BDP after " + rounds + " rounds");
    }

    @ParameterizedTest
    @CsvSource({ "bbr,1,4", "bbr,2,4", "bbr3,1,7", "bbr3,2,7" })
    void bandwidthEstimateFollowsTheRateDoubling(final String controller, final long seed, final long stepSeconds)
    {
        final long stepNs = stepSeconds * SECOND;
        final long durationNs = stepNs + 10 * SECOND;
        final BbrTelemetry.Recorder bbr = run(controller, seed, "rate=50mbit,100mbit@" + stepSeconds + "s", durationNs,
            new long[0]);

        final int reached = bbr.firstSampleWithBandwidth(stepNs, 90_000_000 / 8);
        assertTrue(reached >= 0, "the estimate never reached 90 Mbit/s");
        final long reachedNs = bbr.sampleNs(reached);
        final long rounds = bbr.sampleRound(reached) - roundAt(bbr, stepNs);
        figure(6, controller, seed, "up_rounds_to_90_mbit", rounds);
        figure(6, controller, seed, "up_ms_to_90_mbit", (reachedNs - stepNs) / 1e6);
        if ("bbr".equals(controller))
        {
            assertTrue(rounds <= 3 * V1_CYCLE_ROUNDS, "90 Mbit/s after " + rounds + " rounds");
        }
        else
        {
            int probes = 0;
            for (final long upNs : bbr.entriesNs("PROBE_BW_UP"))
            {
                if (upNs >= stepNs && upNs <= reachedNs)
                {
                    probes++;
                }
            }
            figure(6, controller, seed, "up_probe_cycles_to_90_mbit", probes);
            assertTrue(probes >= 1 && probes <= 3, "90 Mbit/s after " + probes + " ProbeBW_UP phases");
        }
    }

    private static BbrTelemetry.Recorder run(
        final String controller, final long seed, final String rate, final long durationNs, final long[] queueBytes)
    {
        final BbrTelemetry telemetry = new BbrTelemetry(MS);
        final Scenario.Builder builder = Scenario.builder()
            .seed(seed)
            .path(PathSpec.Pair.parse(rate + " delay=20ms queue=1bdp", REVERSE_20MS))
            .durationNs(durationNs)
            .flow(FlowSpec.bulk(controller))
            .registry(telemetry.registry());
        for (int i = 0; i < queueBytes.length; i++)
        {
            final int sample = i;
            builder.pathChange(
                i * QUEUE_SAMPLE_NS, (dumbbell) -> queueBytes[sample] = dumbbell.forward().queuedBytes());
        }
        builder.build().run();
        return telemetry.sender();
    }

    private static long roundAt(final BbrTelemetry.Recorder bbr, final long nowNs)
    {
        return bbr.sampleRound(bbr.sampleAt(nowNs));
    }
}
