package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import io.pacelink.report.ParallelRunner;
import io.pacelink.report.RunRecorder;
import io.pacelink.report.RunSheet;
import io.pacelink.sim.scenario.AgentWakes;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.cc.ControllerParameters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

/**
 * {@code pacelink sim}: runs flows of the real transport over a simulated path in virtual time and prints what they
 * achieved, as a table or as one JSON object. Same arguments and seed, same numbers. A run longer than a few seconds
 * prints its progress to stderr; Ctrl-C stops it and prints the results so far (exit status 130).
 */
@Command(
    name = "sim",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Run flows of the real transport over a simulated path in virtual time and report goodput, losses, RTT, " +
            "fairness, bottleneck utilisation and queueing delay. Same arguments and seed, same numbers.",
        "Example: pacelink sim --cc reno --path \"rate=10mbit delay=20ms queue=1bdp\" --duration 60s%n",
        "A run longer than a few seconds shows its progress on stderr; Ctrl-C stops it and prints the results so " +
            "far.%n",
        "Exit status 1 if a flow's connection closed abnormally during the run (a protocol violation, a timeout, " +
            "...): the table and JSON say which, when and why.%n"
    })
public final class SimCommand implements Callable<Integer>
{
    /**
     * Exit status of a run stopped by Ctrl-C (128 + SIGINT, as the shell reports it).
     */
    static final int INTERRUPTED_EXIT_STATUS = 130;

    /**
     * Exit status of a run in which a flow's connection closed abnormally (a protocol violation, a timeout, ...): its
     * figures stop where it closed, so they are not what the path gives.
     */
    static final int FAILED_FLOW_EXIT_STATUS = 1;

    private static final long MAX_WAIT_FOR_PARTIAL_RESULTS_SECONDS = 30;

    @Spec
    private CommandSpec spec;

    @Option(names = "--cc", split = ",", paramLabel = "CC",
        description = "Controllers, one flow each (repeatable or comma separated; default " +
            FlowArguments.DEFAULT_CONTROLLER + ").")
    private List<String> controllers;

    @Option(names = "--path", required = true, paramLabel = "SPEC", description = PathArguments.PATH_HELP)
    private String path;

    @Mixin
    private PathRunOptions pathRunOptions;

    @Option(names = "--duration", defaultValue = "60s", paramLabel = "TIME",
        description = "Simulated time (default ${DEFAULT-VALUE}).")
    private Duration duration;

    @Option(names = "--flows", paramLabel = "N|CC,CC...",
        description = "N flows with the one --cc controller (or the N --cc gives), or the flows' controllers as a " +
            "list.")
    private String flows;

    @Option(names = "--start", split = ",", paramLabel = "TIME",
        description = "Start time of each flow, in flow order (default 0s).")
    private List<Duration> starts;

    @Option(names = "--stop", split = ",", paramLabel = "TIME",
        description = "Time each flow stops sending, in flow order (default: the end of the run).")
    private List<Duration> stops;

    @Option(names = "--access-delay", split = ",", paramLabel = "TIME",
        description = "One-way delay of each flow's access links, in flow order, added at both of its hosts in " +
            "both directions (its RTT grows by 4x the value; default 0ms).")
    private List<Duration> accessDelays;

    @Option(names = "--ping", paramLabel = "INTERVAL",
        description = "Also send a ping probe through the bottleneck this often and report its RTT.")
    private Duration pingInterval;

    @Option(names = "--ecn",
        description = "The simulated hosts carry ECN (as sockets with IP_RECVTOS do): the endpoints send ECN-capable " +
            "packets and a marking queue (red ecn=on, sfqred, fq_codel) marks them instead of dropping.")
    private boolean ecn;

    @Option(names = "--ack-frequency", paramLabel = "on|off", defaultValue = "on",
        description = "Both ends offer ACK frequency (draft-ietf-quic-ack-frequency; docs/architecture.md, \"ACK " +
            "policy\"): past slow start a sender asks for an ACK per 10 packets or per quarter RTT; off, both ends " +
            "behave as builds without it (default ${DEFAULT-VALUE}, as the library's).")
    private String ackFrequency;

    @Option(names = "--wakes", paramLabel = "exact|coalesced", defaultValue = "coalesced",
        description = "When each endpoint's duty cycle runs: coalesced (default), as the real agent's default " +
            "profile wakes (docs/io.md, \"Waits in time quanta\"): pacing releases served in quanta with what fell " +
            "due meanwhile, arrivals of a stream held for a few arrival gaps, receive interrupts moderated; exact, " +
            "at every pacing release, timer and datagram arrival, as a busy-spinning agent would run (the library's " +
            "Scenario default, and what results before this default were taken with). Coalesced takes fewer duty " +
            "cycles, so a faster run, with different results.")
    private String wakes;

    @Option(names = "--release-ahead",
        description = "The senders' pacer releases ahead of its schedule, as it does under the real agent's default " +
            "profile (docs/fq.md, fq.releaseAhead: up to a pacing quantum, at most 64 KiB, per release), with " +
            "--wakes coalesced served on time as the real agent serves it; without it (the default, and what results " +
            "before this option were taken with) only what is due is sent.")
    private boolean releaseAhead;

    @Option(names = "--qdisc-params", hidden = true, paramLabel = "NAME=VALUE[,...]",
        description = "The packet scheduler's parameters (docs/fq.md), e.g. fq.releaseAheadMaxBytes=32768: for " +
            "diagnostics, one run with and one without a setting.")
    private String schedulerParameters;

    @Option(names = "--trace", paramLabel = "DIR",
        description = "Write each flow's time series (cwnd, pacing rate, RTT, ...) there as CSV and JSON lines.")
    private Path traceDirectory;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    private boolean json;

    @Option(names = "--plot", paramLabel = "FILE.svg",
        description = "Also draw the run's charts (throughput against delay, shares, time series) to this SVG file.")
    private Path plot;

    @Option(names = "--seeds", defaultValue = "1", paramLabel = "N",
        description = "Run the scenario with N seeds, --seed to --seed + N - 1, and print each run's results (with " +
            "--json one object per line), then how many data packets all of them simulated per wall second " +
            "(default ${DEFAULT-VALUE}).")
    private int seeds;

    @Option(names = "--jobs", paramLabel = "N",
        description = "With --seeds, how many runs go at once, one thread each (default: the number of cores).")
    private Integer jobs;

    public Integer call()
    {
        final PathSpec.Pair pair = pathRunOptions.pair(path);
        IoOptions.onOff("--ack-frequency", ackFrequency);
        agentWakes();
        if (duration.nanos() <= 0)
        {
            throw new IllegalArgumentException("--duration must be positive, e.g. 60s");
        }
        if (null != traceDirectory)
        {
            checkWritable(traceDirectory);
        }
        if (seeds < 1)
        {
            throw new IllegalArgumentException("--seeds must be at least 1, got " + seeds);
        }
        if (seeds > 1)
        {
            return runSeeds(pair);
        }
        final String scheduler = pathRunOptions.scheduler();
        final Scenario.Builder builder = newScenario(pair, pathRunOptions.seed())
            .traceDirectory(traceDirectory);
        final List<String> flowControllers = flowSpecs().stream().map(FlowSpec::congestionControl).toList();
        final RunRecorder recorder = null == plot ? null : RunSheet.recorderFor(plot, flowControllers,
            duration.nanos(), pair.baseRttNs());
        if (null != recorder)
        {
            recorder.attachTo(builder);
        }
        final Scenario scenario = builder.build();
        printWarnings(scenario.warnings());

        // Ctrl-C runs the shutdown hook, which stops the run at its next look and waits until the results so far
        // have been printed: the JVM exits when the hook returns.
        final SimProgress progress = new SimProgress(System.err, duration.nanos());
        final CountDownLatch printed = new CountDownLatch(1);
        final Thread onCtrlC = new Thread(() ->
        {
            progress.requestStop();
            awaitQuietly(printed);
        }, "pacelink-sim-shutdown");
        Runtime.getRuntime().addShutdownHook(onCtrlC);
        try
        {
            final ScenarioResult result = scenario.run(progress);
            final ScenarioReport report = new ScenarioReport(
                pair, scheduler, pathRunOptions.seed(), result, progress.timer().elapsedWallNs(),
                progress.timer().setupWallNs(), agentWakes());
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
            out.flush();
            if (!result.isComplete())
            {
                return INTERRUPTED_EXIT_STATUS;
            }
            return reportFailures(List.of(report)) ? FAILED_FLOW_EXIT_STATUS : 0;
        }
        finally
        {
            printed.countDown();
            ShutdownHooks.remove(onCtrlC);
        }
    }

    /**
     * The scenario's runs with seeds {@code --seed} to {@code --seed + --seeds - 1}, {@code --jobs} at once; each
     * report as it would be for one seed, in seed order, then how fast all of them went together.
     */
    private int runSeeds(final PathSpec.Pair pair)
    {
        if (null != plot || null != traceDirectory)
        {
            throw new IllegalArgumentException("--plot and --trace record one run: give them without --seeds");
        }
        final int jobCount = null != jobs ? jobs : Runtime.getRuntime().availableProcessors();
        if (jobCount < 1)
        {
            throw new IllegalArgumentException("--jobs must be at least 1, got " + jobCount);
        }
        final String scheduler = pathRunOptions.scheduler();
        printWarnings(newScenario(pair, pathRunOptions.seed()).build().warnings());
        final List<Long> seedList = LongStream.range(0, seeds).map((i) -> pathRunOptions.seed() + i).boxed().toList();
        final long startNs = System.nanoTime();
        final List<ScenarioReport> reports = ParallelRunner.run(seedList, jobCount, Comparator.naturalOrder(),
            (seed) ->
            {
                final Scenario scenario = newScenario(pair, seed).build();
                final SetupTimer timer = new SetupTimer();
                final ScenarioResult result = scenario.run(timer);
                return new ScenarioReport(pair, scheduler, seed, result, timer.elapsedWallNs(), timer.setupWallNs(),
                    agentWakes());
            },
            (report) -> System.err.printf(Locale.ROOT, "seed %d done in %.1f s%n", report.seed(),
                report.wallNs() / 1e9));
        final long wallNs = System.nanoTime() - startNs;
        final PrintStream out = System.out;
        double packets = 0;
        for (final ScenarioReport report : reports)
        {
            packets += report.packetsPerWallSecond() * report.wallNs() / 1e9;
            if (json)
            {
                out.println(report.toJson());
            }
            else
            {
                report.printTable(out);
                out.println();
            }
        }
        if (!json)
        {
            out.printf(Locale.ROOT, "%d runs (seeds %d-%d), %d at once: %.1f s wall, %.0f data packets per wall " +
                "second in all%n", seeds, seedList.get(0), seedList.get(seeds - 1), Math.min(jobCount, seeds),
                wallNs / 1e9, packets * 1e9 / wallNs);
        }
        out.flush();
        return reportFailures(reports) ? FAILED_FLOW_EXIT_STATUS : 0;
    }

    /**
     * Say on stderr, before the run, what in the scenario leaves flows with (almost) nothing.
     */
    private void printWarnings(final List<String> warnings)
    {
        final PrintWriter err = spec.commandLine().getErr();
        for (final String warning : warnings)
        {
            err.println("pacelink sim: warning: " + warning);
        }
        err.flush();
    }

    /**
     * Say on stderr, one line per flow, which flows' connections closed abnormally.
     *
     * @return true if any did.
     */
    private boolean reportFailures(final List<ScenarioReport> reports)
    {
        final PrintWriter err = spec.commandLine().getErr();
        boolean isAnyFailed = false;
        for (final ScenarioReport report : reports)
        {
            for (final String line : report.failureLines())
            {
                err.println("pacelink sim: seed " + report.seed() + ", " + line);
                isAnyFailed = true;
            }
        }
        err.flush();
        return isAnyFailed;
    }

    private Scenario.Builder newScenario(final PathSpec.Pair pair, final long seed)
    {
        final ControllerParameters qdiscParameters =
            null == schedulerParameters ? ControllerParameters.EMPTY : ControllerParameters.parse(schedulerParameters);
        final Scenario.Builder builder = Scenario.builder()
            .seed(seed)
            .path(pair)
            .durationNs(duration.nanos())
            .scheduler(pathRunOptions.scheduler(), qdiscParameters)
            .ecn(ecn)
            .agentWakes(agentWakes())
            .releaseAhead(releaseAhead);
        if (!IoOptions.onOff("--ack-frequency", ackFrequency))
        {
            builder.contextCustomizer((context) -> context.ackFrequency(false));
        }
        flowSpecs().forEach(builder::flow);
        if (null != pingInterval)
        {
            if (pingInterval.nanos() <= 0)
            {
                throw new IllegalArgumentException("--ping must be a positive interval, e.g. 100ms");
            }
            builder.pingIntervalNs(pingInterval.nanos());
        }
        return builder;
    }

    private AgentWakes agentWakes()
    {
        return switch (wakes)
        {
            case "exact" -> AgentWakes.EXACT;
            case "coalesced" -> AgentWakes.COALESCED;
            default -> throw new IllegalArgumentException("--wakes takes exact or coalesced, got '" + wakes + "'");
        };
    }

    private List<FlowSpec> flowSpecs()
    {
        return FlowArguments.flows(controllers, flows, starts, stops, accessDelays, duration.nanos());
    }

    /**
     * Fail before the run, with the reason, if the trace directory cannot be created or written.
     */
    private static void checkWritable(final Path directory)
    {
        try
        {
            Files.createDirectories(directory);
            Files.delete(Files.createTempFile(directory, ".pacelink-sim-", ".probe"));
        }
        catch (final IOException | SecurityException ex)
        {
            throw new IllegalArgumentException("--trace " + directory + ": cannot write there (" + reason(ex) +
                "); give a directory you can write to", ex);
        }
    }

    private static String reason(final Exception ex)
    {
        if (ex instanceof FileSystemException fileSystemException && null != fileSystemException.getReason())
        {
            return fileSystemException.getFile() + ": " + fileSystemException.getReason();
        }
        return ex.getClass().getSimpleName() + (null == ex.getMessage() ? "" : ": " + ex.getMessage());
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await(MAX_WAIT_FOR_PARTIAL_RESULTS_SECONDS, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
