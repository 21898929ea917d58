package io.pacelink.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.pacelink.scenario.BbrScenarios.REVERSE_20MS;
import static io.pacelink.scenario.BbrScenarios.SECOND;
import static io.pacelink.scenario.BbrScenarios.figure;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 4 item 8: two flows of the same BBR version, same RTT, starting together, 60 s on 100 Mbit/s, 40 ms, two BDP of
 * buffer: Jain's index over their goodputs at least 0.95 (v3) or 0.9 (v1). And, reported without a threshold, the share
 * one BBR flow takes from one NewReno flow at 1, 4 and 16 BDP of buffer (what the literature expects, Cao et al. IMC
 * 2019 and Hock et al. ICNP 2017: BBRv1 dominates shallow buffers and loses deep ones).
 */
@Timeout(240)
class BbrFairnessTest
{
    private static final long DURATION_NS = 60 * SECOND;

    @ParameterizedTest
    @CsvSource({ "bbr,1,0.9", "bbr,2,0.9", "bbr3,1,0.95", "bbr3,2,0.95", "bbrplus,1,0.9", "bbrplus,2,0.9", "bbr2,1,0.9",
        "bbr2,2,0.9" })
    void twoFlowsOfTheSameVersionShareFairly(final String controller, final long seed, final double minJain)
    {
        final ScenarioResult result = run(controller, controller, "2bdp", seed);
        final double jain = result.jainIndex();
        figure(8, controller, seed, "jain_2_flows", jain);
        figure(8, controller, seed, "flow_0_mbit", result.flow(0).goodputBitsPerSecond() / 1e6);
        figure(8, controller, seed, "flow_1_mbit", result.flow(1).goodputBitsPerSecond() / 1e6);
        assertTrue(jain >= minJain, "Jain index " + jain);
        assertTrue(result.forward().utilisation() >= 0.9, "utilisation " + result.forward().utilisation());
    }

    @ParameterizedTest
    @CsvSource({ "bbr,1bdp", "bbr,4bdp", "bbr,16bdp", "bbr3,1bdp", "bbr3,4bdp", "bbr3,16bdp" })
    void shareAgainstNewReno(final String controller, final String queue)
    {
        final ScenarioResult result = run(controller, "reno", queue, 1);
        final double bbr = result.flow(0).goodputBitsPerSecond();
        final double reno = result.flow(1).goodputBitsPerSecond();
        figure(8, controller, 1, "share_vs_reno_" + queue + "_percent", 100 * bbr / (bbr + reno));
        // No threshold yet (the issue asks for the figures); both flows run and together they fill the link.
        assertTrue(bbr > 0 && reno > 0, "bbr " + bbr + " reno " + reno);
        assertTrue(result.forward().utilisation() >= 0.9, "utilisation " + result.forward().utilisation());
    }

    private static ScenarioResult run(final String first, final String second, final String queue, final long seed)
    {
        return Scenario.builder()
            .seed(seed)
            .path(PathSpec.Pair.parse("rate=100mbit delay=20ms queue=" + queue, REVERSE_20MS))
            .durationNs(DURATION_NS)
            .flow(FlowSpec.bulk(first))
            .flow(FlowSpec.bulk(second))
            .build()
            .run();
    }
}
