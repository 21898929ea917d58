package io.pacelink.cli;

import io.pacelink.cli.net.TransportFailure;
import io.pacelink.cli.perf.LoopbackTraining;
import io.pacelink.cli.perf.PerfClient;
import io.pacelink.cli.perf.PerfParameters;
import io.pacelink.cli.perf.PerfRun;
import io.pacelink.cli.perf.PerfServer;
import io.pacelink.sim.scenario.TransferPrimer;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.cc.ControllerParameters;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code pacelink perf}: iperf3 for Pacelink. {@code -s} serves tests and pings; {@code -c HOST} runs a test against
 * a server and prints iperf3's interval lines and summary (or its JSON with {@code -J}), exiting non-zero when the
 * transfer failed.
 */
@Command(
    name = "perf",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Measure throughput between two processes, as iperf3 does: a server (-s) and a client (-c HOST) that sends " +
            "to it (or receives with -R, or both with --bidir) for a time or a byte count, printing per interval " +
            "transfer, bandwidth, retransmits, cwnd, pacing rate, RTT and bandwidth estimate, then sender and " +
            "receiver totals. The server also answers pacelink ping.",
        "Example: pacelink perf -s        and        pacelink perf -c 192.0.2.7 -C bbr -t 30 -P 4%n"
    })
public final class PerfCommand implements Callable<Integer>
{
    /**
     * iperf3's port.
     */
    static final int DEFAULT_PORT = 5201;

    private static final long MAX_PRIME_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long DEFAULT_CLIENT_PRIME_NS = TimeUnit.SECONDS.toNanos(5);

    private static final List<String> CLIENT_OPTIONS = List.of("-t", "-n", "-O", "-i", "-P", "-R", "--bidir", "-C",
        "-l", "-b", "-J", "--logfile", "--get-server-output", "--plot", "--connect-timeout");

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = { "-s", "--server" }, description = "Run as the server.")
    private boolean server;

    @Option(names = { "-c", "--client" }, paramLabel = "HOST", description = "Run as a client of the server on HOST.")
    private String host;

    @Option(names = { "-p", "--port" }, defaultValue = "" + DEFAULT_PORT, paramLabel = "PORT",
        description = "The server's port (default ${DEFAULT-VALUE}; a server given 0 takes a free port and says " +
            "which).")
    private int port;

    @Option(names = { "-B", "--bind" }, paramLabel = "ADDRESS",
        description = "Bind to this local address (default: the server listens on every address; a client binds " +
            "to 127.0.0.1 for a loopback server, else to every address).")
    private String bind;

    @Option(names = { "-1", "--one-off" }, description = "Server: serve one test, then exit (status 1 if it failed).")
    private boolean oneOff;

    @Option(names = { "-t", "--time" }, paramLabel = "SECONDS",
        description = "How long to send, in seconds or with a unit, at most a day (default 10).")
    private String time;

    @Option(names = { "-n", "--bytes" }, paramLabel = "BYTES",
        description = "Send this many bytes per direction instead of for a time (e.g. 100M, 1G).")
    private ByteSize bytes;

    @Option(names = { "-O", "--omit" }, defaultValue = "0", paramLabel = "SECONDS",
        description = "Run this long first and leave it out of the totals and the CPU figures, as iperf3's -O: " +
            "the steady state without the JVM's warm-up (the whole test's CPU is printed too; default " +
            "${DEFAULT-VALUE}; needs -t, which it precedes).")
    private String omit;

    @Option(names = { "-i", "--interval" }, defaultValue = "1", paramLabel = "SECONDS",
        description = "Seconds between interval reports, 0.1 to 60, or 0 for none (default ${DEFAULT-VALUE}).")
    private String interval;

    @Option(names = { "-P", "--parallel" }, defaultValue = "1", paramLabel = "N",
        description = "Parallel connections per direction, with [SUM] lines (1-" + PerfParameters.MAX_STREAMS +
            ", default ${DEFAULT-VALUE}).")
    private int parallel;

    @Option(names = { "-R", "--reverse" }, description = "The server sends, the client receives.")
    private boolean reverse;

    @Option(names = "--bidir", description = "Both send at once, each over its own -P connections.")
    private boolean bidir;

    @Option(names = { "-C", "--congestion" }, paramLabel = "CC",
        description = "Congestion controller of every connection, at both ends (default: the transport's, cubic).")
    private String congestionControl;

    @Option(names = { "-l", "--length" }, defaultValue = "128K", paramLabel = "MSG_BYTES",
        description = "Length of each message offered (default ${DEFAULT-VALUE}).")
    private ByteSize length;

    @Option(names = { "-b", "--bitrate" }, defaultValue = "0", paramLabel = "RATE",
        description = "Keep each sender application-limited at RATE bits/s, e.g. 50M (default ${DEFAULT-VALUE}: " +
            "as fast as the connection goes).")
    private BitRate bitrate;

    @Option(names = "--qdisc", paramLabel = "fq|fifo|rr", description = SchedulerArgument.HELP)
    private String qdisc;

    @Mixin
    private SecurityOptions security;

    @Mixin
    private IoOptions ioOptions;

    @Option(names = { "-J", "--json" }, description = "Client: one JSON document shaped like iperf3's. Server: " +
        "one JSON document per test, each on one line.")
    private boolean json;

    @Option(names = "--logfile", paramLabel = "FILE", description = "Write the report to FILE instead of stdout.")
    private Path logfile;

    @Option(names = "--get-server-output", description = "Also print the server's report of the test.")
    private boolean serverOutput;

    @Option(names = "--plot", paramLabel = "FILE.svg",
        description = "Also draw every stream's interval series (goodput, cwnd, pacing rate, RTT) to this SVG file.")
    private Path plot;

    @Option(names = "--connect-timeout", defaultValue = "10s", paramLabel = "TIME",
        description = "Give up on a connection the server does not answer within this long (default " +
            "${DEFAULT-VALUE}).")
    private Duration connectTimeout;

    @Option(names = "--prime", paramLabel = "TIME",
        description = "Before the endpoint opens, run a short simulated transfer with 1 %% loss through the same " +
            "engine, controller and scheduler in virtual time (about a second), then let the JIT finish what it " +
            "started, all within TIME (0s for none), so the JIT has seen loss recovery and BBR's PROBE_RTT before " +
            "it compiles the hot path, as in a process that has run for a while (default: 5s for a client, 0s " +
            "for a server, which mostly receives).")
    private Duration prime;

    @Option(names = "--aot-training", hidden = true, split = ",", paramLabel = "CC[,CC...]",
        description = "Client of 127.0.0.1 only: serve the test in this process too (a one-off server on a free " +
            "loopback port), once per controller named, each as -C would: the training run of the JDK 25 " +
            "ahead-of-time cache (config/aot/build-perf-cache.sh), whose method profiles then hold both ends' paths.")
    private List<String> trainingControllers;

    @Option(names = "--cc-params", hidden = true, paramLabel = "NAME=VALUE[,...]",
        description = "This end's controller parameters (docs/bbr.md, docs/cubic.md), e.g. bbr.extraAckedGain=0: " +
            "for diagnostics, one build measured with and without a setting.")
    private String controllerParameters;

    @Option(names = "--qdisc-params", hidden = true, paramLabel = "NAME=VALUE[,...]",
        description = "This end's packet scheduler parameters (docs/fq.md), e.g. fq.catchUpHorizonUs=10000: for " +
            "diagnostics, one build measured with and without a setting.")
    private String schedulerParameters;

    public Integer call() throws FileNotFoundException
    {
        if (server == (null != host))
        {
            throw new IllegalArgumentException("give either -s (server) or -c HOST (client)");
        }
        if (port < (server ? 0 : 1) || port > 65_535)
        {
            throw new IllegalArgumentException("-p must be 1-65535 (a server may take 0: any free port, which it " +
                "prints), got " + port);
        }
        final String scheduler = null == qdisc ? null : SchedulerArgument.resolve(qdisc);
        ioOptions.validate();
        ControllerParameters.parse(controllerParameters); // fail fast on a pair that is not name=value
        ControllerParameters.parse(schedulerParameters);
        if (null == prime)
        {
            // A server receives unless a client asks for -R or --bidir; priming the sending path there made a
            // 1 Gbit/s receiver compile sending code it hardly runs, inside the test (perf/FINDINGS.md, thr12). None
            // in a JVM started with -Dpacelink.launchPriming=off (PacelinkContext.LAUNCH_PRIMING_PROPERTY).
            prime = new Duration(server || !PacelinkContext.isLaunchPrimingByDefault() ? 0 : DEFAULT_CLIENT_PRIME_NS);
        }
        if (prime.nanos() < 0 || prime.nanos() > MAX_PRIME_NS)
        {
            throw new IllegalArgumentException("--prime must be 0..60 seconds, got " + prime.nanos() + " ns");
        }
        return server ? serve(scheduler) : runClient(scheduler);
    }

    private int serve(final String scheduler)
    {
        for (final String option : CLIENT_OPTIONS)
        {
            if (spec.commandLine().getParseResult().hasMatchedOption(option) && !"-J".equals(option))
            {
                throw new IllegalArgumentException(option + " is a client option; the client sends it to the server");
            }
        }
        final InetSocketAddress address = new InetSocketAddress(null == bind ? "0.0.0.0" : bind, port);
        if (address.isUnresolved())
        {
            throw new IllegalArgumentException("-B: unknown address '" + bind + "'");
        }
        security.apply(new PacelinkContext(), address, "listening on"); // fail fast on a key or plaintext problem
        final PerfServer.Options options = new PerfServer.Options(address, oneOff, json, scheduler, false,
            (context) -> security.apply(applyParameters(ioOptions.apply(context)), address, "listening on"));
        // The server's own controller (only with --prime: it receives unless a client asks for -R or --bidir).
        primeTransfer(new PacelinkContext().congestionControl(), scheduler, address, "listening on");
        return PerfRun.serve(options, System.out, System.err);
    }

    private int runClient(final String scheduler) throws FileNotFoundException
    {
        if (oneOff)
        {
            throw new IllegalArgumentException("-1 is a server option");
        }
        final long durationNs = null != time ? DurationCap.capNs("-t", seconds("-t", time)) :
            null == bytes ? DurationCap.capNs("-t", seconds("-t", "10")) : 0;
        if (null != time && null != bytes)
        {
            throw new IllegalArgumentException("give -t or -n, not both");
        }
        final long intervalNs = seconds("-i", interval);
        final long omitNs = Duration.parseSeconds("--omit", omit).nanos();
        if (omitNs > 0 && null != bytes)
        {
            throw new IllegalArgumentException("--omit needs a timed test (-t), not -n: a byte count has no " +
                "steady state to start");
        }
        final String cc = null == congestionControl ? new PacelinkContext().congestionControl() : congestionControl;
        final List<String> controllers = null == trainingControllers ? List.of(cc) : trainingControllers;
        if (null != trainingControllers && null != congestionControl)
        {
            throw new IllegalArgumentException("--aot-training names the controllers: give it or -C, not both");
        }
        final List<PerfParameters> tests = new ArrayList<>();
        for (final String controller : controllers)
        {
            CongestionControlRegistry.load().factory(controller); // fail fast on a typo, listing what there is
            final PerfParameters parameters = new PerfParameters(controller, durationNs,
                null == bytes ? 0 : bytes.bytes(), parallel, reverse, bidir, length.intBytes(),
                bitrate.bitsPerSecond(), intervalNs, serverOutput, null != plot,
                0 == omitNs ? 0 : DurationCap.capNs("--omit", omitNs));
            final String problem = parameters.problem();
            if (null != problem)
            {
                throw new IllegalArgumentException(problem);
            }
            tests.add(parameters);
        }
        if (null != plot && 0 == intervalNs)
        {
            throw new IllegalArgumentException("--plot draws the interval reports: give -i above 0");
        }
        if (connectTimeout.nanos() <= 0)
        {
            throw new IllegalArgumentException("--connect-timeout must be positive, e.g. 5s");
        }
        final InetSocketAddress target = SocketAddresses.parse("-c", host + ":" + port, null);
        if (null != trainingControllers && !target.getAddress().isLoopbackAddress())
        {
            throw new IllegalArgumentException("--aot-training serves on loopback: give -c 127.0.0.1, not " + host);
        }
        final String bindHost = null != bind ? bind : target.getAddress().isLoopbackAddress() ? "127.0.0.1" : "0.0.0.0";
        final InetSocketAddress bindAddress = new InetSocketAddress(bindHost, 0);
        if (bindAddress.isUnresolved())
        {
            throw new IllegalArgumentException("-B: unknown address '" + bind + "'");
        }
        PerfRun.checkPlotFolder(plot);
        security.apply(new PacelinkContext(), target, "toward");

        final PrintStream out = null == logfile ? System.out :
            new PrintStream(new FileOutputStream(logfile.toFile()), true, StandardCharsets.UTF_8);
        try
        {
            for (final PerfParameters parameters : tests)
            {
                final String error = null == trainingControllers ?
                    runTest(parameters, target, bindAddress, scheduler, out) :
                    LoopbackTraining.runOneTest(trainingServer(target, scheduler),
                        (address) -> runTest(parameters, address, bindAddress, scheduler, out));
                if (null != error)
                {
                    spec.commandLine().getErr().println("pacelink perf: " + error);
                    return 1;
                }
            }
            return 0;
        }
        catch (final TransportFailure ex)
        {
            spec.commandLine().getErr().println("pacelink perf: " + ex.getMessage());
            return 1;
        }
        finally
        {
            if (null != logfile)
            {
                out.close();
            }
        }
    }

    private String runTest(
        final PerfParameters parameters, final InetSocketAddress target, final InetSocketAddress bindAddress,
        final String scheduler, final PrintStream out)
    {
        final PerfClient.Options options = new PerfClient.Options(target, bindAddress, parameters, scheduler,
            connectTimeout.nanos(),
            (context) -> security.apply(applyParameters(ioOptions.apply(context)), target, "toward"));
        primeTransfer(parameters.congestionControl(), scheduler, target, "toward");
        return PerfRun.runClient(options, json, plot, out);
    }

    /**
     * The one-off server of {@code --aot-training}, as {@code perf -s -1 -B 127.0.0.1 -p 0} with this command's
     * security and I/O options (a server runs with its own default controller: the client names the test's).
     */
    private PerfServer.Options trainingServer(final InetSocketAddress target, final String scheduler)
    {
        final InetSocketAddress address = new InetSocketAddress(target.getAddress(), 0);
        return new PerfServer.Options(address, true, false, scheduler, false,
            (context) -> security.apply(applyParameters(ioOptions.apply(context)), address, "listening on"));
    }

    private static long seconds(final String option, final String text)
    {
        final long ns = Duration.parseSeconds(option, text).nanos();
        if ("-t".equals(option) && 0 == ns)
        {
            throw new IllegalArgumentException("-t must be positive, e.g. 10");
        }
        return ns;
    }

    /**
     * @param context an endpoint's context.
     * @return the context with the hidden {@code --cc-params} and {@code --qdisc-params}, if given.
     */
    private PacelinkContext applyParameters(final PacelinkContext context)
    {
        if (null != controllerParameters)
        {
            context.controllerParameters(ControllerParameters.parse(controllerParameters));
        }
        if (null != schedulerParameters)
        {
            context.schedulerParameters(ControllerParameters.parse(schedulerParameters));
        }
        return context;
    }

    /**
     * The transfer path run once in virtual time before the endpoint opens ({@link TransferPrimer}), in the
     * endpoint's security mode, unless {@code --prime 0s}, and then the compilations it started left to finish
     * (within the same budget), so they do not run beside the test.
     */
    private void primeTransfer(
        final String congestionControl, final String scheduler, final InetSocketAddress address, final String role)
    {
        final PacelinkContext context = new PacelinkContext()
            .congestionControl(congestionControl)
            .packetScheduler(scheduler);
        security.apply(context, address, role);
        final long startNs = System.nanoTime();
        if (null != TransferPrimer.primeOnce(context, prime.nanos(), SystemNanoClock.INSTANCE))
        {
            JitSettling.await(prime.nanos() - (System.nanoTime() - startNs));
        }
    }
}
