package io.pacelink.sim.scenario;

import io.pacelink.sim.results.Fairness;
import io.pacelink.sim.results.LatencySummary;
import io.pacelink.sim.results.LinkReport;

import java.util.List;

/**
 * What a scenario produced: per-flow outcomes, both bottleneck directions' reports, the ping probe's RTTs, and
 * figures that prove determinism (trace hash, events fired).
 *
 * @param flows         per-flow outcomes, in scenario order.
 * @param forward       the data direction's bottleneck (utilisation, drops, queueing delay).
 * @param reverse       the ACK direction's bottleneck.
 * @param ping          RTT of the ping probe, or null without one.
 * @param durationNs    simulated time the results cover: the scenario's duration, or less if the run was stopped.
 * @param isComplete    true if the run reached the scenario's end; false if a {@link io.pacelink.sim.RunWatcher}
 *                      stopped it (the results then cover the whole goodput bins simulated until then).
 * @param traceHash     hash of every trace row of every flow: equal runs have equal hashes.
 * @param eventsFired   simulator events.
 * @param warnings      what in the scenario leaves flows with (almost) nothing ({@link Scenario#warnings()}).
 */
public record ScenarioResult(
    List<FlowOutcome> flows,
    LinkReport forward,
    LinkReport reverse,
    LatencySummary ping,
    long durationNs,
    boolean isComplete,
    long traceHash,
    long eventsFired,
    List<String> warnings)
{
    /**
     * @param fromNs window start.
     * @param toNs   window end.
     * @return Jain's fairness index of the flows' goodput over the window.
     */
    public double jainIndex(final long fromNs, final long toNs)
    {
        final double[] goodputs = new double[flows.size()];
        for (int i = 0; i < goodputs.length; i++)
        {
            goodputs[i] = flows.get(i).goodputBitsPerSecond(fromNs, toNs);
        }
        return Fairness.jainIndex(goodputs);
    }

    /**
     * @return Jain's fairness index over each flow's own active window.
     */
    public double jainIndex()
    {
        final double[] goodputs = new double[flows.size()];
        for (int i = 0; i < goodputs.length; i++)
        {
            goodputs[i] = flows.get(i).goodputBitsPerSecond();
        }
        return Fairness.jainIndex(goodputs);
    }

    /**
     * @return the flows one of whose connections closed abnormally during the run, in scenario order.
     */
    public List<FlowOutcome> failedFlows()
    {
        return flows.stream().filter(FlowOutcome::isFailed).toList();
    }

    /**
     * @param index flow number.
     * @return the flow with that index.
     */
    public FlowOutcome flow(final int index)
    {
        return flows.get(index);
    }
}
