package io.pacelink.report;

import java.util.List;

/**
 * A named set of scenarios to run for every controller and seed, as read from a suite file.
 *
 * @param name        the suite's name ({@code standard}, {@code quick}, or the file's).
 * @param title       the report's heading.
 * @param description what the suite is for (may be empty).
 * @param controllers the controllers under test unless {@code --cc} says otherwise (empty: every registered one).
 * @param seeds       seeds per scenario and controller unless {@code --seeds} says otherwise.
 * @param scenarios   the scenarios, in report order.
 */
public record Suite(
    String name,
    String title,
    String description,
    List<String> controllers,
    int seeds,
    List<SuiteScenario> scenarios)
{
}
