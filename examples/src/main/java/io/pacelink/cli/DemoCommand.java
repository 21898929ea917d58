package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.ControllerParameters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * {@code pacelink demo}: every registered congestion controller in turn on the classic lossy long path (100 Mbit/s,
 * 150 ms +- 15 ms RTT, 8 % loss): through the real-time relay on loopback sockets by default, in the simulator with
 * {@code --virtual}, or as a plain loopback transfer next to a raw-UDP baseline with {@code --loopback}.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Run each congestion controller on an emulated lossy long path (100 Mbit/s, 150 ms +- 15 ms RTT, 8%% " +
            "loss) through the netem relay on loopback sockets, or in the simulator with --virtual, and compare them.",
        "--loopback instead moves --size bytes over plain loopback next to a raw-UDP baseline.%n"
    })
public final class DemoCommand implements Callable<Integer>
{
    /**
     * The demo's forward direction: a long, lossy 100 Mbit/s path with a one-BDP drop-tail queue.
     */
    static final String DEFAULT_PATH = "rate=100mbit delay=75ms jitter=7.5ms loss=8% queue=1bdp";

    private static final long REPORT_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    @Option(names = "--cc", split = ",",
        description = "Controllers to run, comma separated (default: every one on the class path).")
    private List<String> controllers;

    @Option(names = "--path", defaultValue = DEFAULT_PATH, paramLabel = "SPEC",
        description = "Forward (data) direction (default \"${DEFAULT-VALUE}\"). " + PathArguments.SPEC_HELP)
    private String path;

    @Mixin
    private PathRunOptions pathRunOptions;

    @Mixin
    private IoOptions ioOptions;

    @Option(names = "--duration", defaultValue = "10s", paramLabel = "TIME",
        description = "How long each controller sends on the emulated path (default ${DEFAULT-VALUE}).")
    private Duration duration;

    @Option(names = "--virtual", description = "Run the same paths in the simulator instead of through the relay.")
    private boolean virtual;

    @Option(names = "--loopback",
        description = "Plain loopback instead of an emulated path: move --size bytes and compare with raw UDP.")
    private boolean loopback;

    @Option(names = "--size", defaultValue = "256MiB",
        description = "With --loopback: bytes to move per controller (default ${DEFAULT-VALUE}).")
    private ByteSize size;

    @Option(names = "--message-size", defaultValue = "64KiB",
        description = "Size of each message offered (default ${DEFAULT-VALUE}).")
    private ByteSize messageSize;

    @Option(names = "--timeout", defaultValue = "120s",
        description = "With --loopback: give up on a transfer after this long (default ${DEFAULT-VALUE}).")
    private Duration timeout;

    @Option(names = "--baseline", defaultValue = "2s",
        description = "With --loopback: how long to run the raw-UDP baseline; 0s skips it (default ${DEFAULT-VALUE}).")
    private Duration baseline;

    @Option(names = "--counters", defaultValue = "file", paramLabel = "file|memory",
        description = "Keep each endpoint's counters in the mapped file `pacelink stat` reads, as " +
            "every endpoint binding a socket does by default, or in memory only, to see what the file costs " +
            "(default ${DEFAULT-VALUE}).")
    private String counters;

    private boolean countersInFile()
    {
        switch (counters.trim().toLowerCase(Locale.ROOT))
        {
            case "file":
                return true;
            case "memory":
                return false;
            default:
                throw new IllegalArgumentException("--counters must be file or memory, got '" + counters + "'");
        }
    }

    public Integer call()
    {
        final PrintStream out = System.out;
        final CongestionControlRegistry registry = CongestionControlRegistry.load();
        final List<String> names = null == controllers ? new ArrayList<>(registry.names()) : controllers;
        for (final String name : names)
        {
            registry.factory(name); // fail fast on a typo, listing what is available
        }
        if (messageSize.bytes() < 1 || messageSize.bytes() > 1 << 20)
        {
            throw new IllegalArgumentException("--message-size must be 1 B..1 MiB; got " + messageSize.bytes());
        }
        final String scheduler = pathRunOptions.scheduler();
        ioOptions.validate();
        final boolean countersInFile = countersInFile();
        if (virtual && !countersInFile)
        {
            throw new IllegalArgumentException("--counters memory chooses where the real endpoints keep their " +
                "counters; --virtual runs none (simulated endpoints keep them in memory)");
        }
        final UnaryOperator<PacelinkContext> configure =
            context -> ioOptions.apply(context).countersFile(countersInFile);
        if (virtual && ioOptions.isCustomised())
        {
            throw new IllegalArgumentException("--io, --gso and --ecn choose the real endpoints' port; --virtual " +
                "runs no sockets");
        }
        if (loopback)
        {
            if (virtual)
            {
                throw new IllegalArgumentException("--virtual and --loopback exclude each other: the simulator " +
                    "always emulates a path");
            }
            return runOverLoopback(out, names, scheduler, configure);
        }

        if (duration.nanos() <= 0)
        {
            throw new IllegalArgumentException("--duration must be positive, e.g. 10s");
        }
        if (!virtual)
        {
            duration = new Duration(DurationCap.capNs("--duration", duration.nanos()));
        }
        final PathSpec.Pair pair = pathRunOptions.pair(path);
        PathArguments.printWarnings(System.err, "demo", pair);
        return virtual ? runSimulated(out, names, pair, scheduler) :
            runThroughRelay(out, names, pair, scheduler, configure);
    }

    private int runThroughRelay(
        final PrintStream out, final List<String> names, final PathSpec.Pair pair, final String scheduler,
        final UnaryOperator<PacelinkContext> configure)
    {
        final List<DemoTable.Row> rows = new ArrayList<>();
        for (final String name : names)
        {
            out.printf(Locale.ROOT, "== %s: %s through the netem relay on %s ==%n", name,
                Units.seconds(duration.nanos()), pair);
            final LoopbackTransfer.Result result = LoopbackTransfer.run(LoopbackTransfer.Plan.timedThroughRelay(
                name, duration.nanos(), messageSize.intBytes(), pair, pathRunOptions.seed()).withScheduler(scheduler),
                out, configure);
            out.println(result.relaySummary());
            out.println();
            rows.add(DemoTable.Row.of(result));
        }
        out.printf(Locale.ROOT, "Through the relay on %s, %s per controller:%n", pair, Units.seconds(duration.nanos()));
        return DemoTable.print(out, rows) ? 0 : 1;
    }

    private int runSimulated(
        final PrintStream out, final List<String> names, final PathSpec.Pair pair, final String scheduler)
    {
        final List<DemoTable.Row> rows = new ArrayList<>();
        for (final String name : names)
        {
            out.printf(Locale.ROOT, "== %s: %s simulated on %s ==%n", name, Units.seconds(duration.nanos()), pair);
            final TransferReporter reporter = new TransferReporter(out, name, 0);
            reporter.header();
            final long wallStartNs = System.nanoTime();
            final ScenarioResult result = Scenario.builder()
                .seed(pathRunOptions.seed())
                .path(pair)
                .durationNs(duration.nanos())
                .scheduler(scheduler, ControllerParameters.EMPTY)
                .flow(FlowSpec.bulk(name))
                .progress(REPORT_INTERVAL_NS, (flowIndex, nowNs, deliveredBytes, stats) ->
                    reportInterval(reporter, nowNs, deliveredBytes, stats))
                .build()
                .run();
            out.printf(Locale.ROOT, "(simulated in %s wall)%n%n", Units.seconds(System.nanoTime() - wallStartNs));
            rows.add(DemoTable.Row.of(result.flow(0)));
        }
        out.printf(Locale.ROOT, "Simulated on %s, %s per controller:%n", pair, Units.seconds(duration.nanos()));
        return DemoTable.print(out, rows) ? 0 : 1;
    }

    private static void reportInterval(
        final TransferReporter reporter, final long nowNs, final long deliveredBytes, final ConnectionStats stats)
    {
        if (null != stats)
        {
            reporter.interval(nowNs, deliveredBytes, stats);
        }
    }

    private int runOverLoopback(
        final PrintStream out, final List<String> names, final String scheduler,
        final UnaryOperator<PacelinkContext> configure)
    {
        RawUdpBlast.Result raw = null;
        if (baseline.nanos() > 0)
        {
            raw = RawUdpBlast.run(baseline.nanos(), 1472);
            out.printf(Locale.ROOT, "raw UDP baseline (1472-byte datagrams, %.0f s): %s received, %d of %d " +
                "datagrams%n%n", baseline.seconds(), Units.bitsPerSecond(raw.receivedBitsPerSecond()),
                raw.datagramsReceived(), raw.datagramsSent());
        }

        final List<LoopbackTransfer.Result> results = new ArrayList<>();
        for (final String name : names)
        {
            out.printf(Locale.ROOT, "== %s: %s over loopback ==%n", name, Units.bytes(size.bytes()));
            results.add(LoopbackTransfer.run(
                LoopbackTransfer.Plan.bySize(name, size.bytes(), messageSize.intBytes(), timeout.nanos())
                    .withScheduler(scheduler), out, configure));
            out.println();
        }

        out.printf(Locale.ROOT, "%-8s %12s %16s %10s %10s %10s %s%n",
            "cc", "delivered", "goodput", "vs raw", "sent pkts", "retr pkts", "result");
        boolean allDelivered = true;
        for (final LoopbackTransfer.Result result : results)
        {
            allDelivered &= null == result.failure();
            out.printf(Locale.ROOT, "%-8s %12s %16s %10s %10d %10d %s%n",
                result.congestionControl(),
                Units.bytes(result.bytesDelivered()),
                Units.bitsPerSecond(result.goodputBitsPerSecond()),
                null == raw ? "-" : String.format(Locale.ROOT, "%.2f", result.goodputBitsPerSecond() /
                    raw.receivedBitsPerSecond()),
                result.packetsSent(),
                result.packetsRetransmitted(),
                null == result.failure() ? "ok" : "FAILED: " + result.failure());
        }
        return allDelivered ? 0 : 1;
    }
}
