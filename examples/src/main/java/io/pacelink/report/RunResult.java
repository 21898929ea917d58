package io.pacelink.report;

import io.pacelink.sim.scenario.ScenarioResult;

import java.util.List;

/**
 * A finished run of a report.
 *
 * @param spec   what ran.
 * @param result what the scenario produced.
 * @param series every flow's time series.
 * @param wallNs how long the simulation took in real time (measured around it: simulator code reads no clock).
 */
public record RunResult(RunSpec spec, ScenarioResult result, List<FlowSeries> series, long wallNs)
{
    /**
     * Run one simulation, recording its time series.
     *
     * @param spec the run.
     * @return its result.
     */
    public static RunResult run(final RunSpec spec)
    {
        final RunRecorder recorder = new RunRecorder(
            spec.flowControllers(), spec.scenario().durationNs(), spec.scenario().path().baseRttNs());
        final long startNs = System.nanoTime();
        final ScenarioResult result = recorder.attachTo(spec.newScenario()).build().run();
        return new RunResult(spec, result, recorder.series(), System.nanoTime() - startNs);
    }

    /**
     * @return the figures of each controller in the run, in order of first appearance among the flows.
     */
    public List<ControllerFigures> controllers()
    {
        return ControllerFigures.of(result);
    }
}
