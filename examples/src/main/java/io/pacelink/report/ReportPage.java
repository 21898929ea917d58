package io.pacelink.report;

import org.jfree.chart.JFreeChart;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's page, {@code index.html}: the overview table, then per scenario its path, the throughput-delay plot,
 * the share chart (several flows) or the controllers' goodput over time (one flow), the summary table with reference
 * rows, and each configuration's time series, every chart an embedded SVG; links point at the data files
 * {@link ReportWriter} writes next to it. No script, no network.
 */
final class ReportPage
{
    private static final int HALF_WIDTH = 600;
    private static final int SCATTER_HEIGHT = 460;
    private static final int SERIES_HEIGHT = 860;

    /**
     * The file, in a scenario's folder, of its goodput comparison chart.
     */
    static final String COMPARISON_FILE = "goodput.svg";

    private final ReportRun report;
    private final Palette palette = new Palette();
    private int chartNumber;

    /**
     * @param report the finished report.
     */
    ReportPage(final ReportRun report)
    {
        this.report = report;
        report.allControllers().forEach(palette::indexOf);
    }

    /**
     * @return the page.
     */
    String html()
    {
        final StringBuilder page = new StringBuilder(1 << 20);
        final String title = report.suite().title();
        page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
            .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
            .append("<title>").append(Html.escape(title)).append("</title>\n<style>\n").append(STYLE)
            .append("</style>\n</head>\n<body>\n<header>\n<h1>").append(Html.escape(title)).append("</h1>\n");
        if (!report.suite().description().isEmpty())
        {
            page.append("<p>").append(Html.escape(report.suite().description())).append("</p>\n");
        }
        page.append(String.format(Locale.ROOT, "<p class=\"meta\">%d runs (%d scenarios × controllers × %d seed%s), " +
                "%.0f s simulated in %.1f s of wall time on %d parallel job%s. Controllers: %s. " +
                "Every run is deterministic: the same seed gives the same result (trace hashes in the data). " +
                "Made by <code>%s</code>.</p>\n",
            report.runCount(), report.scenarios().size(), report.seeds(), report.seeds() == 1 ? "" : "s",
            report.simulatedSeconds(), report.wallNs() / 1e9, report.jobs(), report.jobs() == 1 ? "" : "s",
            Html.escape(String.join(", ", report.controllers())), Html.escape(report.commandLine())));
        page.append("<p class=\"data\">Data: ").append(links("runs", "every flow of every run"))
            .append(" · ").append(links("summary", "every summary row")).append(" · <a href=\"suite.json\">suite.json")
            .append("</a> (the scenarios as run)</p>\n");
        for (final String skipped : report.skipped())
        {
            page.append("<p class=\"skipped\">Skipped: ").append(Html.escape(skipped)).append("</p>\n");
        }
        page.append("</header>\n");
        overview(page);
        for (final ScenarioSummary scenario : report.scenarios())
        {
            section(page, scenario);
        }
        page.append("<footer><p>Pacelink scenario report. Charts: JFreeChart rendered to SVG by JFreeSVG; colours: " +
            "Okabe–Ito. RTTs are the senders' samples; goodput counts message bytes delivered to the receiving " +
            "application over each flow's own active window. See docs/report.md.</p></footer>\n</body>\n</html>\n");
        return page.toString();
    }

    private void overview(final StringBuilder page)
    {
        page.append("<section id=\"overview\">\n<h2>Overview</h2>\n<p>Throughput (sum of a controller's flows, " +
            "mean over seeds) and 95th percentile RTT per scenario. Select a scenario for its charts.</p>\n")
            .append("<table class=\"overview\">\n<thead><tr><th>scenario</th>");
        for (final String controller : report.allControllers())
        {
            page.append("<th>").append(swatch(controller)).append(Html.escape(controller)).append("</th>");
        }
        page.append("</tr></thead>\n<tbody>\n");
        for (final ScenarioSummary scenario : report.scenarios())
        {
            final List<SummaryRow> rows = scenario.rows();
            page.append("<tr><th scope=\"row\"><a href=\"#").append(scenario.scenario().name()).append("\">")
                .append(Html.escape(scenario.scenario().title())).append("</a></th>");
            for (final String controller : report.allControllers())
            {
                final SummaryRow row = rows.stream().filter((r) -> r.controller().equals(controller)).findFirst()
                    .orElse(null);
                page.append(null == row ? "<td class=\"none\">—</td>" : String.format(Locale.ROOT,
                    "<td>%s Mbit/s<br><span class=\"minor\">%s ms</span></td>",
                    number(row.throughputMbps().mean()), number(row.p95RttMs().mean())));
            }
            page.append("</tr>\n");
        }
        page.append("</tbody>\n</table>\n</section>\n");
    }

    private void section(final StringBuilder page, final ScenarioSummary summary)
    {
        final SuiteScenario scenario = summary.scenario();
        final String name = scenario.name();
        page.append("<section class=\"scenario\" id=\"").append(name).append("\">\n<h2>")
            .append(Html.escape(scenario.title())).append("</h2>\n");
        page.append("<p class=\"path\">Path <code>").append(Html.escape(scenario.path().forward().toString()))
            .append("</code>, ACKs <code>").append(Html.escape(scenario.path().reverse().toString()))
            .append("</code> · ").append(facts(scenario)).append("</p>\n");
        if (!scenario.description().isEmpty())
        {
            page.append("<p>").append(Html.escape(scenario.description())).append("</p>\n");
        }

        page.append("<div class=\"charts\">\n<figure class=\"scatter\">\n");
        final JFreeChart scatter = ThroughputDelayChart.create(
            "Throughput against delay", summary.pointsByController(), palette);
        page.append(ChartStyle.svg(scatter, HALF_WIDTH, SCATTER_HEIGHT, nextChartId(), scenario.title() +
            ": throughput against 95th percentile RTT"));
        page.append("<figcaption>").append(links(name + "/points", "points")).append("</figcaption>\n</figure>\n");
        final List<ShareChart.ShareBar> bars = summary.shareBars();
        if (!bars.isEmpty())
        {
            final int legendRows = (bars.get(0).flowLabels().size() + 3) / 4;
            final int height = 150 + 48 * bars.size() + 24 * legendRows;
            page.append("<figure class=\"shares\">\n").append(ChartStyle.svg(
                ShareChart.create("Shares of goodput", bars,
                    FlowColors.of(summary.firstRun().spec().flowControllers(), palette), "mean over seeds"),
                HALF_WIDTH, height, nextChartId(),
                scenario.title() + ": each flow's share of goodput, with Jain's index"));
            page.append("<figcaption>").append(links(name + "/shares", "shares")).append("</figcaption>\n</figure>\n");
        }
        final JFreeChart comparison = goodputComparison(summary);
        if (null != comparison)
        {
            page.append("<figure class=\"comparison\">\n").append(ChartStyle.svg(comparison, HALF_WIDTH, SCATTER_HEIGHT,
                nextChartId(), comparisonLabel(summary)));
            page.append("<figcaption><a href=\"").append(name).append("/").append(COMPARISON_FILE)
                .append("\">SVG</a></figcaption>\n</figure>\n");
        }
        page.append("</div>\n");

        summaryTable(page, summary);

        page.append("<h3>Over time (seed 1 of each configuration)</h3>\n<div class=\"series\">\n");
        summary.runsByConfiguration().forEach((configuration, runs) ->
        {
            final RunResult first = runs.get(0);
            final JFreeChart chart = TimeSeriesChart.create(configuration + ", seed " + first.spec().seed(),
                first.series(), FlowColors.of(first.spec().flowControllers(), palette));
            page.append("<figure class=\"timeseries\">\n").append(ChartStyle.svg(chart, HALF_WIDTH, SERIES_HEIGHT,
                nextChartId(), scenario.title() + ", " + configuration + ": goodput, cwnd, pacing rate, RTT and " +
                "queueing delay over time"));
            page.append("<figcaption>Time series: ");
            for (int i = 0; i < runs.size(); i++)
            {
                final String file = name + "/series/" + ReportWriter.seriesName(runs.get(i));
                page.append(i == 0 ? "" : " · ").append("seed ").append(runs.get(i).spec().seed()).append(' ')
                    .append(links(file, null));
            }
            page.append("</figcaption>\n</figure>\n");
        });
        page.append("</div>\n</section>\n");
    }

    /**
     * @param summary a scenario.
     * @return its controllers' goodput over time in one plot (seed 1 of each), or null unless it runs one flow and
     * more than one controller: with several flows each run's own time series says more.
     */
    JFreeChart goodputComparison(final ScenarioSummary summary)
    {
        if (summary.scenario().flowCount() != 1 || summary.runsByConfiguration().size() < 2)
        {
            return null;
        }
        final List<FlowSeries> flows = new ArrayList<>();
        summary.runsByConfiguration().forEach((configuration, runs) -> flows.add(runs.get(0).series().get(0)));
        return GoodputComparisonChart.create("Goodput over time, seed " + summary.firstRun().spec().seed(), flows,
            palette);
    }

    /**
     * @param summary a scenario with a {@link #goodputComparison(ScenarioSummary) goodput comparison}.
     * @return the chart as a standalone SVG document.
     */
    String goodputComparisonSvg(final ScenarioSummary summary)
    {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + ChartStyle.svg(goodputComparison(summary),
            HALF_WIDTH, SCATTER_HEIGHT, "goodput", comparisonLabel(summary)) + "\n";
    }

    private static String comparisonLabel(final ScenarioSummary summary)
    {
        return summary.scenario().title() + ": each controller's goodput over time";
    }

    private static String facts(final SuiteScenario scenario)
    {
        final StringBuilder facts = new StringBuilder();
        facts.append(number(scenario.durationNs() / 1e9)).append(" s per run · ");
        final List<String> flows = new ArrayList<>();
        for (final FlowTemplate flow : scenario.flows())
        {
            final StringBuilder text = new StringBuilder();
            text.append(flow.count()).append(' ').append(flow.takesControllerUnderTest() ? "× controller under test" :
                "× " + flow.congestionControl());
            if (flow.startNs() > 0 || flow.stopNs() != Long.MAX_VALUE)
            {
                text.append(" (").append(number(flow.startNs() / 1e9)).append("–")
                    .append(flow.stopNs() == Long.MAX_VALUE ? "end" : number(flow.stopNs() / 1e9) + " s").append(')');
            }
            if (flow.accessDelayNs() > 0)
            {
                text.append(" +").append(number(4 * flow.accessDelayNs() / 1e6)).append(" ms RTT");
            }
            flows.add(text.toString());
        }
        facts.append(Html.escape(String.join(", ", flows)));
        facts.append(" · sender scheduler <code>").append(Html.escape(scenario.senderQdisc())).append("</code>");
        facts.append(scenario.ecn() ? " · ECN on" : " · ECN off");
        if (scenario.pingIntervalNs() > 0)
        {
            facts.append(" · ping every ").append(number(scenario.pingIntervalNs() / 1e6)).append(" ms");
        }
        return facts.toString();
    }

    private void summaryTable(final StringBuilder page, final ScenarioSummary summary)
    {
        final SuiteScenario scenario = summary.scenario();
        final boolean hasPing = scenario.pingIntervalNs() > 0;
        final boolean hasJain = scenario.flowCount() > 1;
        page.append("<table class=\"summary\">\n<thead><tr><th>controller</th><th>runs</th>" +
            "<th>throughput (Mbit/s)<br><span class=\"minor\">mean [min–max]</span></th>" +
            "<th>p95 RTT (ms)<br><span class=\"minor\">mean [min–max]</span></th><th>p50 RTT (ms)</th>" +
            "<th>retransmitted (%)</th><th>link utilisation (%)</th>")
            .append(hasJain ? "<th>Jain index</th>" : "")
            .append(hasPing ? "<th>ping p50 / p99 (ms)</th>" : "")
            .append("<th>queue drops / CE marks<br><span class=\"minor\">% of packets offered</span></th>")
            .append("<th>data</th></tr></thead>\n<tbody>\n");
        final int columns = 9 + (hasJain ? 1 : 0) + (hasPing ? 1 : 0);
        final List<ReferenceRow> shown = new ArrayList<>();
        for (final SummaryRow row : summary.rows())
        {
            final String label = row.configuration().equals(row.controller()) ? row.controller() :
                row.controller() + " (in " + row.configuration() + ")";
            page.append("<tr><th scope=\"row\">").append(swatch(row.controller())).append(Html.escape(label))
                .append("</th><td>").append(row.runs()).append("</td><td>").append(spread(row.throughputMbps()))
                .append("</td><td>").append(spread(row.p95RttMs())).append("</td><td>").append(number(row.p50RttMs()))
                .append("</td><td>").append(number(row.retransmittedPercent())).append("</td><td>")
                .append(number(row.utilisationPercent())).append("</td>");
            if (hasJain)
            {
                page.append("<td>").append(fixed(row.jainIndex(), 3)).append("</td>");
            }
            if (hasPing)
            {
                page.append("<td>").append(number(row.pingP50Ms())).append(" / ").append(number(row.pingP99Ms()))
                    .append("</td>");
            }
            page.append("<td>").append(number(row.queueDropPercent())).append(" / ")
                .append(number(row.queueMarkPercent())).append("</td>");
            page.append("<td>").append(links(scenario.name() + "/summary", null)).append("</td></tr>\n");
            for (final ReferenceRow reference : scenario.references())
            {
                if (reference.congestionControl().equals(row.controller()) && !shown.contains(reference))
                {
                    shown.add(reference);
                    referenceRow(page, reference, columns);
                }
            }
        }
        for (final ReferenceRow reference : scenario.references())
        {
            if (!shown.contains(reference))
            {
                referenceRow(page, reference, columns);
            }
        }
        page.append("</tbody>\n</table>\n");
        page.append("<p class=\"data\">Data: ").append(links(scenario.name() + "/summary", "this table"))
            .append(" · ").append(links(scenario.name() + "/points", "per run and controller"))
            .append(" · ").append(links(scenario.name() + "/shares", "per flow")).append("</p>\n");
    }

    private static void referenceRow(final StringBuilder page, final ReferenceRow reference, final int columns)
    {
        String goodput = number(reference.goodputMbps());
        if (!Double.isNaN(reference.goodputMinMbps()) && !Double.isNaN(reference.goodputMaxMbps()))
        {
            goodput += " <span class=\"minor\">[" + number(reference.goodputMinMbps()) + "–" +
                number(reference.goodputMaxMbps()) + "]</span>";
        }
        page.append("<tr class=\"reference\"><th scope=\"row\">").append(Html.escape(reference.label()))
            .append("</th><td>ref.</td><td>").append(goodput).append(" <span class=\"minor\">median</span></td>")
            .append("<td colspan=\"").append(columns - 3).append("\">").append(Html.escape(reference.note()))
            .append(reference.note().isEmpty() ? "" : " ").append("<span class=\"source\">Source: ")
            .append(Html.escape(reference.source())).append("</span></td></tr>\n");
    }

    private String swatch(final String controller)
    {
        final java.awt.Color color = Palette.color(palette.indexOf(controller));
        return String.format(Locale.ROOT, "<span class=\"swatch\" style=\"background:#%06x\"></span>",
            color.getRGB() & 0xFFFFFF);
    }

    private String nextChartId()
    {
        return "chart" + ++chartNumber;
    }

    private static String links(final String base, final String what)
    {
        return (null == what ? "" : Html.escape(what) + " ") + "<a href=\"" + Html.escape(base) + ".csv\">CSV</a> " +
            "<a href=\"" + Html.escape(base) + ".json\">JSON</a>";
    }

    private static String spread(final Spread spread)
    {
        return Double.isNaN(spread.mean()) ? "—" : number(spread.mean()) + " <span class=\"minor\">[" +
            number(spread.min()) + "–" + number(spread.max()) + "]</span>";
    }

    /**
     * Three significant digits (at least a thousandth); a dash for a value that does not exist.
     */
    static String number(final double value)
    {
        if (Double.isNaN(value))
        {
            return "—";
        }
        final double magnitude = Math.abs(value);
        final int decimals = magnitude >= 100 || magnitude == 0 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3;
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    private static String fixed(final double value, final int decimals)
    {
        return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    private static final String STYLE = String.join("\n",
        "body { font-family: 'Liberation Sans', 'DejaVu Sans', Arial, sans-serif; color: #222; margin: 0 auto; " +
            "max-width: 1240px; padding: 0 20px 40px; line-height: 1.45; font-size: 15px; }",
        "h1 { font-size: 26px; margin: 24px 0 8px; } h2 { font-size: 21px; margin: 36px 0 6px; " +
            "border-top: 2px solid #ddd; padding-top: 18px; } h3 { font-size: 16px; margin: 18px 0 6px; }",
        "code { font-family: 'DejaVu Sans Mono', monospace; font-size: 13px; background: #f3f3f3; padding: 1px 3px; }",
        ".meta, .data, .path, figcaption { color: #444; font-size: 14px; } .skipped { color: #a33; }",
        ".charts, .series { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 16px; " +
            "align-items: start; }",
        "figure { margin: 0; } svg { display: block; width: 100%; height: auto; }",
        "table { border-collapse: collapse; margin: 12px 0 4px; font-size: 14px; } " +
            "th, td { padding: 4px 10px; border-bottom: 1px solid #e2e2e2; text-align: right; vertical-align: top; }",
        "th[scope=row], thead th:first-child { text-align: left; } thead th { background: #f5f5f5; " +
            "border-bottom: 2px solid #ccc; }",
        "table.overview td { font-variant-numeric: tabular-nums; } .minor { color: #666; font-size: 12px; }",
        "tr.reference th, tr.reference td { background: #f7f7f2; font-style: italic; color: #333; text-align: left; }",
        "tr.reference td:nth-child(3) { text-align: right; } .source { color: #555; font-style: normal; }",
        ".swatch { display: inline-block; width: 11px; height: 11px; margin-right: 6px; border-radius: 2px; }",
        "td.none { color: #aaa; text-align: center; }",
        "footer { margin-top: 40px; color: #555; font-size: 13px; border-top: 1px solid #ddd; }",
        "");
}
