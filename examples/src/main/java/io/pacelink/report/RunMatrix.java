package io.pacelink.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The runs of a report: every scenario of a suite for each controller under test (or once, if its flows name their
 * controllers) and each seed.
 *
 * @param runs    the runs, in report order (scenario, configuration, seed).
 * @param skipped a sentence for each scenario or controller left out, and why.
 */
public record RunMatrix(List<RunSpec> runs, List<String> skipped)
{
    /**
     * @param suite       the suite.
     * @param controllers the controllers under test.
     * @param seeds       seeds 1 to this for every scenario and configuration.
     * @return the matrix.
     */
    public static RunMatrix of(final Suite suite, final List<String> controllers, final int seeds)
    {
        final List<RunSpec> runs = new ArrayList<>();
        final List<String> skipped = new ArrayList<>();
        for (final SuiteScenario scenario : suite.scenarios())
        {
            final List<String> configurations = new ArrayList<>();
            if (scenario.crossesControllers())
            {
                for (final String controller : controllers)
                {
                    if (null == scenario.controllers() || scenario.controllers().contains(controller))
                    {
                        configurations.add(controller);
                    }
                }
                if (configurations.isEmpty())
                {
                    skipped.add(scenario.name() + ": runs only " + scenario.controllers() + ", none of " +
                        controllers);
                }
            }
            else if (controllers.containsAll(scenario.fixedControllers()))
            {
                configurations.add(String.join(" vs ", scenario.fixedControllers()));
            }
            else
            {
                skipped.add(scenario.name() + ": its flows use " + scenario.fixedControllers() +
                    ", not all of which are among " + controllers);
            }

            for (final String configuration : configurations)
            {
                for (int seed = 1; seed <= seeds; seed++)
                {
                    runs.add(new RunSpec(runs.size(), scenario, configuration,
                        scenario.flowControllers(configuration), seed));
                }
            }
        }
        return new RunMatrix(runs, skipped);
    }
}
