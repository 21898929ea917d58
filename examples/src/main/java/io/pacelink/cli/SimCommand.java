package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import io.pacelink.report.RunRecorder;
import io.pacelink.report.RunSheet;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.cc.ControllerParameters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pacelink sim}: runs flows of the real transport over a simulated path in virtual time and prints what they
 * achieved, as a table or as one JSON object. Same arguments and seed, same numbers.
 */
@Command(
    name = "sim",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Run flows of the real transport over a simulated path in virtual time and report goodput, losses, RTT, " +
            "fairness, bottleneck utilisation and queueing delay. Same arguments and seed, same numbers.",
        "Example: pacelink sim --cc reno --path \"rate=10mbit delay=20ms queue=1bdp\" --duration 60s%n"
    })
public final class SimCommand implements Callable<Integer>
{
    @Option(names = "--cc", split = ",", defaultValue = "reno", paramLabel = "CC",
        description = "Controllers, one flow each (repeatable or comma separated; default ${DEFAULT-VALUE}).")
    private List<String> controllers;

    @Option(names = "--path", required = true, paramLabel = "SPEC", description = PathArguments.PATH_HELP)
    private String path;

    @Mixin
    private PathRunOptions pathRunOptions;

    @Option(names = "--duration", defaultValue = "60s", paramLabel = "TIME",
        description = "Simulated time (default ${DEFAULT-VALUE}).")
    private Duration duration;

    @Option(names = "--flows", paramLabel = "N|CC,CC...",
        description = "N flows taking the --cc controllers in turn, or the flows' controllers as a list.")
    private String flows;

    @Option(names = "--start", split = ",", paramLabel = "TIME",
        description = "Start time of each flow, in flow order (default 0s).")
    private List<Duration> starts;

    @Option(names = "--stop", split = ",", paramLabel = "TIME",
        description = "Time each flow stops sending, in flow order (default: the end of the run).")
    private List<Duration> stops;

    @Option(names = "--ping", paramLabel = "INTERVAL",
        description = "Also send a ping probe through the bottleneck this often and report its RTT.")
    private Duration pingInterval;

    @Option(names = "--trace", paramLabel = "DIR",
        description = "Write each flow's time series (cwnd, pacing rate, RTT, ...) there as CSV and JSON lines.")
    private Path traceDirectory;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    private boolean json;

    @Option(names = "--plot", paramLabel = "FILE.svg",
        description = "Also draw the run's charts (throughput against delay, shares, time series) to this SVG file.")
    private Path plot;

    public Integer call()
    {
        final PathSpec.Pair pair = pathRunOptions.pair(path);
        if (duration.nanos() <= 0)
        {
            throw new IllegalArgumentException("--duration must be positive, e.g. 60s");
        }
        final String scheduler = pathRunOptions.scheduler();
        final Scenario.Builder builder = Scenario.builder()
            .seed(pathRunOptions.seed())
            .path(pair)
            .durationNs(duration.nanos())
            .scheduler(scheduler, ControllerParameters.EMPTY)
            .traceDirectory(traceDirectory);
        final List<FlowSpec> flowSpecs = FlowArguments.flows(controllers, flows, starts, stops, duration.nanos());
        flowSpecs.forEach(builder::flow);
        final List<String> flowControllers = flowSpecs.stream().map(FlowSpec::congestionControl).toList();
        final RunRecorder recorder = null == plot ? null : RunSheet.recorderFor(plot, flowControllers,
            duration.nanos(), pair.baseRttNs());
        if (null != recorder)
        {
            recorder.attachTo(builder);
        }
        if (null != pingInterval)
        {
            if (pingInterval.nanos() <= 0)
            {
                throw new IllegalArgumentException("--ping must be a positive interval, e.g. 100ms");
            }
            builder.pingIntervalNs(pingInterval.nanos());
        }
        final Scenario scenario = builder.build();

        final long startNs = System.nanoTime();
        final ScenarioResult result = scenario.run();
        final ScenarioReport report =
            new ScenarioReport(pair, scheduler, pathRunOptions.seed(), result, System.nanoTime() - startNs);

        if (null != recorder)
        {
            RunSheet.write(plot, pair.toString(), result, recorder.series(), flowControllers);
        }
        final PrintStream out = System.out;
        if (json)
        {
            out.println(report.toJson());
        }
        else
        {
            report.printTable(out);
        }
        return 0;
    }
}
