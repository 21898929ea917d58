package io.pacelink.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a report's folder: {@code index.html} with every chart embedded as SVG, and the data behind each chart and
 * table as CSV and JSON next to it.
 * <pre>
 * index.html                  the page
 * runs.csv, runs.json         every flow of every run: goodput, bytes, losses, RTT, fairness, queue, ping, trace hash
 * summary.csv, summary.json   every summary table row
 * suite.json                  the suite as it ran (scenarios, path specs, flows, references)
 * SCENARIO/points.*           the throughput-delay plot: one row per run and controller
 * SCENARIO/shares.*           the share chart: every flow's goodput and share, per run
 * SCENARIO/summary.*          the scenario's summary table
 * SCENARIO/goodput.svg        one-flow scenarios: the controllers' goodput over time, as on the page
 * SCENARIO/series/CONFIGURATION-seedN.*   one run's time series (one row per flow and sample)
 * </pre>
 */
public final class ReportWriter
{
    private final ReportRun report;
    private final Path directory;

    private ReportWriter(final ReportRun report, final Path directory)
    {
        this.report = report;
        this.directory = directory;
    }

    /**
     * @param report    the finished report.
     * @param directory the folder to write (created if needed; files of an earlier report are overwritten).
     * @return the page's path.
     */
    public static Path write(final ReportRun report, final Path directory)
    {
        return new ReportWriter(report, directory).write();
    }

    private Path write()
    {
        final ReportPage page = new ReportPage(report);
        final DataTable runs = ScenarioSummary.newRunsTable();
        DataTable summary = null;
        for (final ScenarioSummary scenario : report.scenarios())
        {
            final Path folder = directory.resolve(scenario.scenario().name());
            scenario.pointsTable().write(folder, "points");
            scenario.sharesTable().write(folder, "shares");
            final DataTable scenarioSummary = scenario.summaryTable();
            scenarioSummary.write(folder, "summary");
            summary = append(summary, scenarioSummary);
            scenario.addRunRows(runs);
            if (null != page.goodputComparison(scenario))
            {
                writeString(folder.resolve(ReportPage.COMPARISON_FILE), page.goodputComparisonSvg(scenario));
            }
            scenario.runsByConfiguration().forEach((configuration, configurationRuns) ->
            {
                for (final RunResult run : configurationRuns)
                {
                    ScenarioSummary.seriesTable(run).write(folder.resolve("series"), seriesName(run));
                }
            });
        }
        runs.write(directory, "runs");
        if (null != summary)
        {
            summary.write(directory, "summary");
        }
        writeSuite();

        final Path index = directory.resolve("index.html");
        writeString(index, page.html());
        return index;
    }

    private static void writeString(final Path file, final String text)
    {
        try
        {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    private static DataTable append(final DataTable all, final DataTable part)
    {
        final DataTable table = null == all ? new DataTable(part.columns().toArray(new String[0])) : all;
        part.rows().forEach(table::add);
        return table;
    }

    /**
     * @param run a run.
     * @return its time series' file name without extension, e.g. {@code bbr-vs-cubic-seed2}.
     */
    static String seriesName(final RunResult run)
    {
        return ScenarioSummary.slug(run.spec().configuration()) + "-seed" + run.spec().seed();
    }

    private void writeSuite()
    {
        final Map<String, Object> suite = new LinkedHashMap<>();
        suite.put("name", report.suite().name());
        suite.put("title", report.suite().title());
        suite.put("controllers", report.controllers());
        suite.put("seeds", report.seeds());
        final List<Map<String, Object>> scenarios = new ArrayList<>();
        for (final ScenarioSummary summary : report.scenarios())
        {
            final SuiteScenario scenario = summary.scenario();
            final Map<String, Object> node = new LinkedHashMap<>();
            node.put("name", scenario.name());
            node.put("title", scenario.title());
            node.put("path", scenario.path().forward().toString());
            node.put("reverse", scenario.path().reverse().toString());
            node.put("duration_s", scenario.durationNs() / 1e9);
            node.put("sender_qdisc", scenario.senderQdisc());
            node.put("ping_interval_ms", scenario.pingIntervalNs() / 1e6);
            node.put("ecn", scenario.ecn());
            final List<Map<String, Object>> flows = new ArrayList<>();
            for (final FlowTemplate flow : scenario.flows())
            {
                final Map<String, Object> flowNode = new LinkedHashMap<>();
                flowNode.put("cc", flow.takesControllerUnderTest() ? "(under test)" : flow.congestionControl());
                flowNode.put("count", flow.count());
                flowNode.put("start_s", flow.startNs() / 1e9);
                flowNode.put("stop_s", flow.stopNs() == Long.MAX_VALUE ? null : flow.stopNs() / 1e9);
                flowNode.put("access_delay_ms", flow.accessDelayNs() / 1e6);
                flows.add(flowNode);
            }
            node.put("flows", flows);
            node.put("configurations", new ArrayList<>(summary.runsByConfiguration().keySet()));
            node.put("reference", scenario.references());
            scenarios.add(node);
        }
        suite.put("scenarios", scenarios);
        suite.put("skipped", report.skipped());
        try
        {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(directory.resolve("suite.json").toFile(), suite);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write suite.json", ex);
        }
    }
}
