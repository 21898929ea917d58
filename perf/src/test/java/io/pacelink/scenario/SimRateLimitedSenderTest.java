package io.pacelink.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.AppPattern;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scenario runner's rate-limited application when it offers more than the path carries.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SimRateLimitedSenderTest
{
    /**
     * It falls behind its rate and finds the send buffer full. It must then wait for acknowledgements to make room
     * rather than ask to run again at the instant its next message was due (already past), which made the simulated
     * host rerun it forever at one instant ("ran 1000000 times ... without its deadline moving on").
     */
    @Test
    void anApplicationOfferingMoreThanThePathCarriesBecomesNetworkLimited()
    {
        final ScenarioResult result = Scenario.builder()
            .seed(1)
            .path(PathSpec.Pair.parse("rate=10mbit delay=20ms queue=1bdp", "delay=20ms"))
            .durationNs(TimeUnit.SECONDS.toNanos(10))
            .flow(FlowSpec.bulk("cubic").with(AppPattern.rateLimited(50_000_000 / 8)))
            .build()
            .run();

        assertTrue(result.forward().utilisation() > 0.9, "utilisation " + result.forward().utilisation());
        assertTrue(result.flow(0).goodputBitsPerSecond() > 9e6, "goodput " + result.flow(0).goodputBitsPerSecond());
    }
}
