package io.pacelink.report;

import io.pacelink.link.RateSchedule;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.transport.cc.ControllerParameters;

import java.util.List;

/**
 * One simulation of a report: a scenario with its flows' controllers decided, and a seed.
 *
 * @param index           position in the report's run list.
 * @param scenario        the suite scenario.
 * @param configuration   what this run compares: the controller under test, or e.g. {@code bbr vs cubic} for a
 *                        scenario whose flows name their controllers.
 * @param flowControllers each flow's controller, in flow order.
 * @param seed            the run's seed.
 */
public record RunSpec(int index, SuiteScenario scenario, String configuration, List<String> flowControllers, long seed)
{
    /**
     * @return a builder for the run's scenario (add listeners, then build).
     */
    public Scenario.Builder newScenario()
    {
        final Scenario.Builder builder = Scenario.builder()
            .seed(seed)
            .path(scenario.path())
            .durationNs(scenario.durationNs())
            .scheduler(scenario.senderQdisc(), ControllerParameters.EMPTY)
            .pingIntervalNs(scenario.pingIntervalNs())
            .ecn(scenario.ecn());
        int flowIndex = 0;
        for (final FlowTemplate template : scenario.flows())
        {
            for (int i = 0; i < template.count(); i++)
            {
                builder.flow(FlowSpec.bulk(flowControllers.get(flowIndex++))
                    .during(template.startNs(), template.stopNs())
                    .withAccessDelay(template.accessDelayNs()));
            }
        }
        return builder;
    }

    /**
     * @return roughly how many packets the run simulates (rate times duration), to start the longest runs first.
     */
    public double estimatedCost()
    {
        final long rate = scenario.path().forward().rate().nominalBitsPerSecond();
        final double bitsPerSecond = rate == RateSchedule.UNLIMITED_BITS_PER_SECOND ? 1e9 : rate;
        return bitsPerSecond * scenario.durationNs() / 1e9 + scenario.flowCount() * 1e5;
    }

    /**
     * @return e.g. {@code deep-buffer bbr seed 2}.
     */
    public String describe()
    {
        return scenario.name() + " " + configuration + " seed " + seed;
    }
}
