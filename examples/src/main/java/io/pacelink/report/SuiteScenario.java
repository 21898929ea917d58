package io.pacelink.report;

import io.pacelink.link.PathSpec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One named scenario of a suite: a path (in path-spec vocabulary), flows, a duration and what else to measure.
 *
 * @param name           short identifier, used in file names ({@code [a-z0-9][a-z0-9.-]*}).
 * @param title          the heading shown in the report.
 * @param description    a sentence on what the scenario shows (may be empty).
 * @param path           both directions of the bottleneck.
 * @param durationNs     simulated time of each run.
 * @param flows          the flows, in order.
 * @param pingIntervalNs a ping probe through the bottleneck this often (0: none).
 * @param senderQdisc    the senders' packet scheduler ({@code fq}, {@code fifo}, {@code rr}).
 * @param ecn            true if the hosts carry ECN (the endpoints send ECN-capable packets; marking queues mark).
 * @param controllers    the controllers under test for this scenario (null: the report's list).
 * @param references     figures measured elsewhere, shown next to ours.
 */
public record SuiteScenario(
    String name,
    String title,
    String description,
    PathSpec.Pair path,
    long durationNs,
    List<FlowTemplate> flows,
    long pingIntervalNs,
    String senderQdisc,
    boolean ecn,
    List<String> controllers,
    List<ReferenceRow> references)
{
    /**
     * @return true if some flows take the controller under test, so the scenario runs once per controller; false if
     * every flow names its controller (e.g. BBR against CUBIC), so it runs once.
     */
    public boolean crossesControllers()
    {
        for (final FlowTemplate flow : flows)
        {
            if (flow.takesControllerUnderTest())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @return the number of flows in a run.
     */
    public int flowCount()
    {
        int count = 0;
        for (final FlowTemplate flow : flows)
        {
            count += flow.count();
        }
        return count;
    }

    /**
     * @return the controllers the flows name themselves, in order of first appearance.
     */
    public Set<String> fixedControllers()
    {
        final Set<String> names = new LinkedHashSet<>();
        for (final FlowTemplate flow : flows)
        {
            if (!flow.takesControllerUnderTest())
            {
                names.add(flow.congestionControl());
            }
        }
        return names;
    }

    /**
     * @param underTest the controller under test (ignored by flows that name theirs).
     * @return each flow's controller, in flow order.
     */
    public List<String> flowControllers(final String underTest)
    {
        final List<String> names = new ArrayList<>();
        for (final FlowTemplate flow : flows)
        {
            for (int i = 0; i < flow.count(); i++)
            {
                names.add(flow.takesControllerUnderTest() ? underTest : flow.congestionControl());
            }
        }
        return names;
    }
}
