package io.pacelink.report;

import io.pacelink.sim.results.LatencySummary;
import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.ScenarioResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything a report says about one scenario, computed from its runs: the points of the throughput-delay plot, the
 * summary table's rows, the flows' shares, and the data tables behind them.
 */
public final class ScenarioSummary
{
    private final SuiteScenario scenario;
    private final Map<String, List<RunResult>> runsByConfiguration = new LinkedHashMap<>();

    /**
     * @param scenario the scenario.
     * @param runs     its runs, in report order.
     */
    public ScenarioSummary(final SuiteScenario scenario, final List<RunResult> runs)
    {
        this.scenario = scenario;
        for (final RunResult run : runs)
        {
            runsByConfiguration.computeIfAbsent(run.spec().configuration(), (name) -> new ArrayList<>()).add(run);
        }
    }

    /**
     * @return the scenario.
     */
    public SuiteScenario scenario()
    {
        return scenario;
    }

    /**
     * @return the configurations run, in report order, each with its runs in seed order.
     */
    public Map<String, List<RunResult>> runsByConfiguration()
    {
        return runsByConfiguration;
    }

    /**
     * @return the first run of the first configuration.
     */
    public RunResult firstRun()
    {
        return runsByConfiguration.values().iterator().next().get(0);
    }

    /**
     * @param configuration a configuration, e.g. {@code bbr vs cubic}.
     * @return it as a file name part, e.g. {@code bbr-vs-cubic}.
     */
    public static String slug(final String configuration)
    {
        return configuration.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }

    /**
     * @return each controller's points (one per run), in order of first appearance.
     */
    public Map<String, List<ControllerFigures>> pointsByController()
    {
        final Map<String, List<ControllerFigures>> points = new LinkedHashMap<>();
        for (final List<RunResult> runs : runsByConfiguration.values())
        {
            for (final RunResult run : runs)
            {
                for (final ControllerFigures figures : run.controllers())
                {
                    points.computeIfAbsent(figures.congestionControl(), (name) -> new ArrayList<>()).add(figures);
                }
            }
        }
        return points;
    }

    /**
     * @return the summary table's rows: each configuration's controllers, over the seeds.
     */
    public List<SummaryRow> rows()
    {
        final List<SummaryRow> rows = new ArrayList<>();
        runsByConfiguration.forEach((configuration, runs) ->
        {
            final Map<String, List<ControllerFigures>> byController = new LinkedHashMap<>();
            for (final RunResult run : runs)
            {
                for (final ControllerFigures figures : run.controllers())
                {
                    byController.computeIfAbsent(figures.congestionControl(), (name) -> new ArrayList<>())
                        .add(figures);
                }
            }
            byController.forEach((controller, figures) -> rows.add(row(configuration, controller, figures, runs)));
        });
        return rows;
    }

    private SummaryRow row(
        final String configuration,
        final String controller,
        final List<ControllerFigures> figures,
        final List<RunResult> runs)
    {
        final int n = figures.size();
        final double[] throughput = new double[n];
        final double[] p95 = new double[n];
        final double[] p50 = new double[n];
        final double[] retransmitted = new double[n];
        for (int i = 0; i < n; i++)
        {
            throughput[i] = figures.get(i).throughputMbps();
            p95[i] = figures.get(i).p95RttMs();
            p50[i] = figures.get(i).p50RttMs();
            retransmitted[i] = figures.get(i).retransmittedPercent();
        }
        final double[] utilisation = new double[runs.size()];
        final double[] jain = new double[runs.size()];
        final double[] pingP50 = new double[runs.size()];
        final double[] pingP99 = new double[runs.size()];
        final double[] dropPercent = new double[runs.size()];
        final double[] markPercent = new double[runs.size()];
        for (int i = 0; i < runs.size(); i++)
        {
            final ScenarioResult result = runs.get(i).result();
            final long offered = Math.max(1, result.forward().offeredPackets());
            dropPercent[i] = 100.0 * result.forward().queueDropPackets() / offered;
            markPercent[i] = 100.0 * result.forward().queueMarkPackets() / offered;
            utilisation[i] = utilisationPercent(result);
            jain[i] = result.flows().size() > 1 ? result.jainIndex() : Double.NaN;
            pingP50[i] = null == result.ping() ? Double.NaN : result.ping().p50Ns() / 1e6;
            pingP99[i] = null == result.ping() ? Double.NaN : result.ping().p99Ns() / 1e6;
        }
        return new SummaryRow(configuration, controller, n, Spread.of(throughput), Spread.of(p95),
            Spread.of(p50).mean(), Spread.of(retransmitted).mean(), Spread.of(utilisation).mean(),
            Spread.of(jain).mean(), Spread.of(pingP50).mean(), Spread.of(pingP99).mean(), Spread.of(dropPercent).mean(),
            Spread.of(markPercent).mean());
    }

    /**
     * @return one bar per configuration with its flows' mean shares, or an empty list for a one-flow scenario.
     */
    public List<ShareChart.ShareBar> shareBars()
    {
        final List<ShareChart.ShareBar> bars = new ArrayList<>();
        if (scenario.flowCount() < 2)
        {
            return bars;
        }
        runsByConfiguration.forEach((configuration, runs) ->
        {
            final int flows = scenario.flowCount();
            final double[] shares = new double[flows];
            final double[] jain = new double[runs.size()];
            for (int r = 0; r < runs.size(); r++)
            {
                final double[] runShares = sharesPercent(runs.get(r).result());
                for (int f = 0; f < flows; f++)
                {
                    shares[f] += runShares[f] / runs.size();
                }
                jain[r] = runs.get(r).result().jainIndex();
            }
            final List<String> labels = new ArrayList<>();
            final List<String> controllers = runs.get(0).spec().flowControllers();
            for (int f = 0; f < flows; f++)
            {
                labels.add(scenario.crossesControllers() && scenario.fixedControllers().isEmpty() ?
                    "flow " + f : "flow " + f + " " + controllers.get(f));
            }
            bars.add(new ShareChart.ShareBar(
                String.format(Locale.ROOT, "%s   J = %.3f", configuration, Spread.of(jain).mean()), labels, shares));
        });
        return bars;
    }

    private static double[] sharesPercent(final ScenarioResult result)
    {
        final double[] shares = new double[result.flows().size()];
        double total = 0;
        for (final FlowOutcome flow : result.flows())
        {
            total += flow.goodputBitsPerSecond();
        }
        for (int f = 0; f < shares.length; f++)
        {
            shares[f] = total > 0 ? 100 * result.flow(f).goodputBitsPerSecond() / total : 0;
        }
        return shares;
    }

    private static double utilisationPercent(final ScenarioResult result)
    {
        return result.forward().capacityBits() == Double.POSITIVE_INFINITY ? Double.NaN :
            100 * result.forward().utilisation();
    }

    /**
     * @return the throughput-delay plot's points: one row per run and controller.
     */
    public DataTable pointsTable()
    {
        final DataTable table = new DataTable("scenario", "configuration", "seed", "cc", "flows", "throughput_mbps",
            "rtt_p50_ms", "rtt_p95_ms", "retransmitted_percent", "lost_packets");
        runsByConfiguration.forEach((configuration, runs) ->
        {
            for (final RunResult run : runs)
            {
                for (final ControllerFigures figures : run.controllers())
                {
                    table.add(scenario.name(), configuration, run.spec().seed(), figures.congestionControl(),
                        figures.flows(), figures.throughputMbps(), figures.p50RttMs(), figures.p95RttMs(),
                        figures.retransmittedPercent(), figures.lostPackets());
                }
            }
        });
        return table;
    }

    /**
     * @return the share chart's data: every flow of every run with its goodput, share and the run's Jain index.
     */
    public DataTable sharesTable()
    {
        final DataTable table = new DataTable("scenario", "configuration", "seed", "flow", "cc", "goodput_mbps",
            "share_percent", "jain_index");
        runsByConfiguration.forEach((configuration, runs) ->
        {
            for (final RunResult run : runs)
            {
                final double[] shares = sharesPercent(run.result());
                for (final FlowOutcome flow : run.result().flows())
                {
                    table.add(scenario.name(), configuration, run.spec().seed(), flow.index(),
                        flow.congestionControl(), flow.goodputBitsPerSecond() / 1e6, shares[flow.index()],
                        run.result().jainIndex());
                }
            }
        });
        return table;
    }

    /**
     * @return the summary table's data.
     */
    public DataTable summaryTable()
    {
        final DataTable table = new DataTable("scenario", "configuration", "cc", "runs", "throughput_mbps_mean",
            "throughput_mbps_min", "throughput_mbps_max", "rtt_p95_ms_mean", "rtt_p95_ms_min", "rtt_p95_ms_max",
            "rtt_p50_ms_mean", "retransmitted_percent", "link_utilization_percent", "jain_index", "ping_p50_ms",
            "ping_p99_ms", "queue_drop_percent", "queue_mark_percent");
        for (final SummaryRow row : rows())
        {
            table.add(scenario.name(), row.configuration(), row.controller(), row.runs(), row.throughputMbps().mean(),
                row.throughputMbps().min(), row.throughputMbps().max(), row.p95RttMs().mean(), row.p95RttMs().min(),
                row.p95RttMs().max(), row.p50RttMs(), row.retransmittedPercent(), row.utilisationPercent(),
                row.jainIndex(), row.pingP50Ms(), row.pingP99Ms(), row.queueDropPercent(), row.queueMarkPercent());
        }
        return table;
    }

    /**
     * @param table where every flow of every run of this scenario is added: what the run and the flow did.
     */
    public void addRunRows(final DataTable table)
    {
        runsByConfiguration.forEach((configuration, runs) ->
        {
            for (final RunResult run : runs)
            {
                final ScenarioResult result = run.result();
                final LatencySummary queueDelay = result.forward().queueDelay();
                for (final FlowOutcome flow : result.flows())
                {
                    table.add(scenario.name(), configuration, run.spec().seed(), flow.index(),
                        flow.congestionControl(), flow.startNs() / 1e9, flow.endNs() / 1e9,
                        flow.goodputBitsPerSecond() / 1e6, flow.deliveredBytes(), flow.sentBytes(),
                        flow.retransmittedBytes(), flow.lostPackets(), flow.spuriousLosses(), flow.rtt().minNs() / 1e6,
                        flow.rtt().p50Ns() / 1e6, flow.rtt().p95Ns() / 1e6, flow.rtt().p99Ns() / 1e6,
                        result.flows().size() > 1 ? result.jainIndex() : Double.NaN, utilisationPercent(result),
                        queueDelay.p50Ns() / 1e6, queueDelay.p95Ns() / 1e6,
                        null == result.ping() ? Double.NaN : result.ping().p50Ns() / 1e6,
                        null == result.ping() ? Double.NaN : result.ping().p99Ns() / 1e6,
                        result.forward().offeredPackets(), result.forward().queueDropPackets(),
                        result.forward().queueMarkPackets(), Long.toHexString(result.traceHash()),
                        run.wallNs() / 1e9);
                }
            }
        });
    }

    /**
     * @return an empty table with the columns {@link #addRunRows} fills.
     */
    public static DataTable newRunsTable()
    {
        return new DataTable("scenario", "configuration", "seed", "flow", "cc", "start_s", "end_s", "goodput_mbps",
            "delivered_bytes", "sent_bytes", "retransmitted_bytes", "lost_packets", "spurious_losses", "rtt_min_ms",
            "rtt_p50_ms", "rtt_p95_ms", "rtt_p99_ms", "jain_index", "link_utilization_percent",
            "queue_delay_p50_ms", "queue_delay_p95_ms", "ping_p50_ms", "ping_p99_ms", "queue_offered_packets",
            "queue_drop_packets", "queue_mark_packets", "trace_hash", "wall_s");
    }

    /**
     * @param run a run.
     * @return its flows' time series as one table (one row per flow and sample).
     */
    public static DataTable seriesTable(final RunResult run)
    {
        final List<String> columns = new ArrayList<>(List.of("time_s", "flow", "cc"));
        for (final FlowSeries.Quantity quantity : FlowSeries.Quantity.values())
        {
            columns.add(quantity.column());
        }
        final DataTable table = new DataTable(columns.toArray(new String[0]));
        final Object[] row = new Object[columns.size()];
        for (final FlowSeries flow : run.series())
        {
            for (int i = 0; i < flow.size(); i++)
            {
                row[0] = flow.timeSeconds(i);
                row[1] = flow.flowIndex();
                row[2] = flow.congestionControl();
                for (final FlowSeries.Quantity quantity : FlowSeries.Quantity.values())
                {
                    row[3 + quantity.ordinal()] = flow.value(i, quantity);
                }
                table.add(row);
            }
        }
        return table;
    }
}
