package io.pacelink.cli;

import io.pacelink.report.ParallelRunner;
import io.pacelink.report.ProgressMeter;
import io.pacelink.report.ReportRun;
import io.pacelink.report.ReportWriter;
import io.pacelink.report.RunMatrix;
import io.pacelink.report.RunResult;
import io.pacelink.report.Suite;
import io.pacelink.report.SuiteLoader;
import io.pacelink.report.SuiteScenario;
import io.pacelink.transport.cc.CongestionControlRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pacelink report}: runs a suite of simulated scenarios for every controller and seed, in parallel, and
 * writes a page of charts (throughput against delay, time series, shares) with the data behind them.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Run a suite of simulated scenarios for every controller and seed, in parallel, and write DIR/index.html " +
            "with throughput-delay plots, time series, shares and summary tables, plus the data as CSV and JSON.",
        "Example: pacelink report --suite quick --out report && open report/index.html%n"
    })
public final class ReportCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = "--suite", defaultValue = "standard", paramLabel = "standard|quick|lineup|sfqred|FILE",
        description = "A built-in suite or a YAML/JSON suite file (see docs/report.md; default ${DEFAULT-VALUE}).")
    private String suiteName;

    @Option(names = "--cc", split = ",", paramLabel = "CC",
        description = "Controllers under test (default: the suite's, else every registered one).")
    private List<String> controllers;

    @Option(names = "--seeds", paramLabel = "N", description = "Seeds 1..N per scenario and controller " +
        "(default: the suite's).")
    private Integer seeds;

    @Option(names = "--jobs", paramLabel = "N", description = "Simulations run at once (default: the number of " +
        "cores).")
    private Integer jobs;

    @Option(names = "--out", defaultValue = "pacelink-report", paramLabel = "DIR",
        description = "Where index.html and the data go (default ${DEFAULT-VALUE}).")
    private Path out;

    @Option(names = "--open", description = "Open the page in a browser when it is written.")
    private boolean open;

    public Integer call()
    {
        final Suite suite = SuiteLoader.load(suiteName);
        final CongestionControlRegistry registry = CongestionControlRegistry.load();
        final List<String> underTest = controllersUnderTest(suite, registry);
        final int seedCount = null != seeds ? seeds : suite.seeds();
        if (seedCount < 1 || seedCount > 1000)
        {
            throw new IllegalArgumentException("--seeds must be 1 to 1000, got " + seedCount);
        }
        final int jobCount = null != jobs ? jobs : Runtime.getRuntime().availableProcessors();
        if (jobCount < 1)
        {
            throw new IllegalArgumentException("--jobs must be at least 1, got " + jobCount);
        }
        checkFixedControllers(suite, registry);

        final RunMatrix matrix = RunMatrix.of(suite, underTest, seedCount);
        final PrintWriter err = spec.commandLine().getErr();
        for (final String skipped : matrix.skipped())
        {
            err.println("pacelink report: skipping " + skipped);
        }
        if (matrix.runs().isEmpty())
        {
            throw new IllegalArgumentException("nothing to run: every scenario of suite " + suite.name() +
                " was skipped for --cc " + underTest);
        }
        err.printf("pacelink report: suite %s, %d runs (%d scenarios, controllers %s, %d seed%s) on %d job%s%n",
            suite.name(), matrix.runs().size(), suite.scenarios().size(), String.join(",", underTest), seedCount,
            seedCount == 1 ? "" : "s", jobCount, jobCount == 1 ? "" : "s");
        err.flush();

        final long startNs = System.nanoTime();
        final List<RunResult> results = ParallelRunner.run(matrix.runs(), jobCount,
            new ProgressMeter(err, matrix.runs().size(), System::nanoTime));
        final long wallNs = System.nanoTime() - startNs;

        final String commandLine = "pacelink " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
        final Path page = ReportWriter.write(
            ReportRun.of(suite, matrix, results, underTest, seedCount, jobCount, commandLine, wallNs), out);
        System.out.printf("report written to %s (%d runs, %s of wall time)%n", page, results.size(),
            Units.seconds(wallNs));
        if (open)
        {
            final String problem = BrowserOpener.open(page.toAbsolutePath().toUri(), System.getenv("PATH"));
            if (null != problem)
            {
                err.println("pacelink report: --open: " + problem);
            }
        }
        return 0;
    }

    private List<String> controllersUnderTest(final Suite suite, final CongestionControlRegistry registry)
    {
        final List<String> names = new ArrayList<>(null != controllers ? controllers :
            suite.controllers().isEmpty() ? registry.names() : suite.controllers());
        for (final String name : names)
        {
            checkRegistered(registry, name, null != controllers ? "--cc" : "suite " + suite.name());
        }
        return names;
    }

    private static void checkFixedControllers(final Suite suite, final CongestionControlRegistry registry)
    {
        for (final SuiteScenario scenario : suite.scenarios())
        {
            for (final String name : scenario.fixedControllers())
            {
                checkRegistered(registry, name, "suite " + suite.name() + ": scenario \"" + scenario.name() + "\"");
            }
        }
    }

    private static void checkRegistered(final CongestionControlRegistry registry, final String name, final String where)
    {
        try
        {
            registry.factory(name);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(where + ": " + ex.getMessage(), ex);
        }
    }
}
