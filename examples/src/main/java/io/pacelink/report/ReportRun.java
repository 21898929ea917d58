package io.pacelink.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A finished report: the suite, what was asked for, and every scenario's runs.
 *
 * @param suite       the suite.
 * @param controllers the controllers under test.
 * @param seeds       seeds per scenario and configuration.
 * @param jobs        simulations run at once.
 * @param commandLine the command that made the report, shown on the page.
 * @param scenarios   every scenario that ran, in suite order.
 * @param skipped     scenarios or controllers left out, and why.
 * @param wallNs      wall time of all the runs.
 */
public record ReportRun(
    Suite suite,
    List<String> controllers,
    int seeds,
    int jobs,
    String commandLine,
    List<ScenarioSummary> scenarios,
    List<String> skipped,
    long wallNs)
{
    /**
     * @param suite       the suite.
     * @param matrix      its runs.
     * @param results     the runs' results, in matrix order.
     * @param controllers the controllers under test.
     * @param seeds       seeds per configuration.
     * @param jobs        simulations run at once.
     * @param commandLine the command that made the report.
     * @param wallNs      wall time of all the runs.
     * @return the report, results grouped by scenario.
     */
    public static ReportRun of(
        final Suite suite,
        final RunMatrix matrix,
        final List<RunResult> results,
        final List<String> controllers,
        final int seeds,
        final int jobs,
        final String commandLine,
        final long wallNs)
    {
        final List<ScenarioSummary> scenarios = new ArrayList<>();
        for (final SuiteScenario scenario : suite.scenarios())
        {
            final List<RunResult> runs = new ArrayList<>();
            for (final RunResult result : results)
            {
                if (result.spec().scenario() == scenario)
                {
                    runs.add(result);
                }
            }
            if (!runs.isEmpty())
            {
                scenarios.add(new ScenarioSummary(scenario, runs));
            }
        }
        return new ReportRun(suite, controllers, seeds, jobs, commandLine, scenarios, matrix.skipped(), wallNs);
    }

    /**
     * @return every controller that appears in a run, the ones under test first, in order.
     */
    public Set<String> allControllers()
    {
        final Set<String> names = new LinkedHashSet<>(controllers);
        for (final ScenarioSummary scenario : scenarios)
        {
            names.addAll(scenario.scenario().fixedControllers());
        }
        return names;
    }

    /**
     * @return runs in all.
     */
    public int runCount()
    {
        int runs = 0;
        for (final ScenarioSummary scenario : scenarios)
        {
            for (final List<RunResult> configurationRuns : scenario.runsByConfiguration().values())
            {
                runs += configurationRuns.size();
            }
        }
        return runs;
    }

    /**
     * @return simulated seconds over all runs.
     */
    public double simulatedSeconds()
    {
        double seconds = 0;
        for (final ScenarioSummary scenario : scenarios)
        {
            for (final List<RunResult> configurationRuns : scenario.runsByConfiguration().values())
            {
                seconds += configurationRuns.size() * scenario.scenario().durationNs() / 1e9;
            }
        }
        return seconds;
    }
}
