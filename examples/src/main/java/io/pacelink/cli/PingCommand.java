package io.pacelink.cli;

import io.pacelink.cli.net.TransportFailure;
import io.pacelink.cli.perf.PerfRun;
import io.pacelink.cli.perf.PerfServer;
import io.pacelink.cli.ping.PingClient;
import io.pacelink.cli.ping.UdpEcho;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;

/**
 * {@code pacelink ping}: round trips over an established Pacelink connection to {@code pacelink perf -s} or
 * {@code pacelink ping --echo}, with percentiles from HdrHistogram; {@code --raw-udp} measures the same over bare UDP
 * datagrams, the baseline.
 */
@Command(
    name = "ping",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Measure request/response round trips over one established connection to `pacelink perf -s` or " +
            "`pacelink ping --echo`: one line per echo as ping prints them, then min/p50/p90/p99/p99.9/max " +
            "(corrected for coordinated omission when requests follow an interval).",
        "Example: pacelink ping 192.0.2.7 -c 10     or, lowest latency:  pacelink ping 127.0.0.1 -c 100000 -i 0 " +
            "-q --busy-spin%n"
    })
public final class PingCommand implements Callable<Integer>
{
    private static final long MAX_WRAP_UP_SECONDS = 15;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "HOST[:PORT]",
        description = "The server (port " + PerfCommand.DEFAULT_PORT + " unless given).")
    private String target;

    @Option(names = "--echo", description = "Be the server: echo every request (Pacelink, or UDP with --raw-udp).")
    private boolean echo;

    @Option(names = { "-p", "--port" }, defaultValue = "" + PerfCommand.DEFAULT_PORT, paramLabel = "PORT",
        description = "With --echo: the port to listen on; else the server's port, as HOST:PORT gives it " +
            "(default ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = { "-B", "--bind" }, paramLabel = "ADDRESS",
        description = "Bind to this local address (default: --echo listens on every address; a client binds to " +
            "127.0.0.1 for a loopback server, else to every address).")
    private String bind;

    @Option(names = { "-c", "--count" }, defaultValue = "0", paramLabel = "COUNT",
        description = "Stop after COUNT echoes (default ${DEFAULT-VALUE}: until Ctrl-C).")
    private long count;

    @Option(names = { "-i", "--interval" }, defaultValue = "1", paramLabel = "SECONDS",
        description = "Time from one request to the next, in seconds or with a unit; 0 sends each request as soon " +
            "as the previous echo arrived (default ${DEFAULT-VALUE}).")
    private String interval;

    @Option(names = { "-s", "--size" }, defaultValue = "56", paramLabel = "SIZE",
        description = "Bytes per request and echo, at least 8 (default ${DEFAULT-VALUE}).")
    private ByteSize size;

    @Option(names = "--busy-spin",
        description = "Low-latency profile: spin while waiting instead of backing off (one core always busy; with " +
            "the server's --busy-spin that is two spinning threads, all a 2-core machine has).")
    private boolean busySpin;

    @Option(names = { "-q", "--quiet" }, description = "Print only the summary.")
    private boolean quiet;

    @Mixin
    private SecurityOptions security;

    @Mixin
    private IoOptions ioOptions;

    @Option(names = "--json", description = "Print one JSON object with the summary instead of text.")
    private boolean json;

    @Option(names = "--warmup", defaultValue = "0", paramLabel = "N",
        description = "Send N requests first that are not counted (default ${DEFAULT-VALUE}).")
    private int warmup;

    @Option(names = "--warmup-time", defaultValue = "0s", paramLabel = "TIME",
        description = "Keep sending uncounted requests for at least this long too (default ${DEFAULT-VALUE}): the " +
            "JIT compiles in wall time, and beside two spinning threads it gets a third of a core.")
    private Duration warmupTime;

    @Option(names = { "-C", "--congestion" }, paramLabel = "CC",
        description = "The connection's congestion controller (default: the transport's, cubic).")
    private String congestionControl;

    @Option(names = { "-W", "--timeout" }, defaultValue = "10s", paramLabel = "TIME",
        description = "Fail when an echo takes longer than this (default ${DEFAULT-VALUE}).")
    private Duration timeout;

    @Option(names = "--raw-udp",
        description = "Bare UDP datagrams instead of Pacelink, against `pacelink ping --echo --raw-udp`: the " +
            "baseline a transport's round trip is compared with.")
    private boolean rawUdp;

    public Integer call()
    {
        if (echo == (null != target))
        {
            throw new IllegalArgumentException("give either HOST[:PORT] to ping, or --echo to answer pings");
        }
        ioOptions.validate();
        if (rawUdp && ioOptions.isCustomised())
        {
            throw new IllegalArgumentException("--io, --gso and --ecn choose a Pacelink endpoint's port; --raw-udp " +
                "uses a plain blocking socket: give one or the other");
        }
        return echo ? serveEchoes() : ping();
    }

    private int serveEchoes()
    {
        if (port < 0 || port > 65_535)
        {
            throw new IllegalArgumentException("-p must be 0-65535 (0: any free port, printed), got " + port);
        }
        final InetSocketAddress address = new InetSocketAddress(null == bind ? "0.0.0.0" : bind, port);
        if (address.isUnresolved())
        {
            throw new IllegalArgumentException("-B: unknown address '" + bind + "'");
        }
        try
        {
            if (rawUdp)
            {
                return ShutdownHooks.runStoppable("pacelink-ping-shutdown", MAX_WRAP_UP_SECONDS, (stop) ->
                    UdpEcho.run(address, busySpin, System.out::println, stop));
            }
            security.apply(new PacelinkContext(), address, "listening on");
            return PerfRun.serve(new PerfServer.Options(address, false, false, null, busySpin,
                (context) -> security.apply(ioOptions.apply(context), address, "listening on")), System.out,
                System.err);
        }
        catch (final TransportFailure ex)
        {
            spec.commandLine().getErr().println("pacelink ping: " + ex.getMessage());
            return 1;
        }
    }

    private int ping()
    {
        if (count < 0 || warmup < 0)
        {
            throw new IllegalArgumentException("-c and --warmup must not be negative");
        }
        if (size.bytes() < Long.BYTES || size.bytes() > 65_000)
        {
            throw new IllegalArgumentException("-s must be 8..65000 bytes (a request carries its 8-byte sequence " +
                "number), got " + size.bytes());
        }
        if (timeout.nanos() <= 0)
        {
            throw new IllegalArgumentException("-W must be positive, e.g. 2s");
        }
        final long intervalNs = Duration.parseSeconds("-i", interval).nanos();
        final String cc = null == congestionControl ? new PacelinkContext().congestionControl() : congestionControl;
        CongestionControlRegistry.load().factory(cc);
        final boolean hasPort = target.contains(":");
        if (hasPort && spec.commandLine().getParseResult().hasMatchedOption("-p"))
        {
            throw new IllegalArgumentException("give the server's port once: " + target + " already names one, " +
                "so -p " + port + " is not used (-p is the port to listen on only with --echo)");
        }
        final InetSocketAddress server = SocketAddresses.parse("HOST[:PORT]",
            hasPort ? target : target + ":" + port, null);
        final String bindHost = null != bind ? bind : server.getAddress().isLoopbackAddress() ? "127.0.0.1" : "0.0.0.0";
        final InetSocketAddress bindAddress = new InetSocketAddress(bindHost, 0);
        if (bindAddress.isUnresolved())
        {
            throw new IllegalArgumentException("-B: unknown address '" + bind + "'");
        }
        if (!rawUdp)
        {
            security.apply(new PacelinkContext(), server, "toward"); // raw UDP is the baseline, not Pacelink
        }
        final PingClient.Options options = new PingClient.Options(SocketAddresses.format(server), server,
            bindAddress, rawUdp, cc, count, intervalNs, size.intBytes(), warmup, warmupTime.nanos(), busySpin, quiet,
            json, timeout.nanos(), PacelinkContext.DEFAULT_HANDSHAKE_TIMEOUT_NS,
            (context) -> security.apply(ioOptions.apply(context), server, "toward"));
        try
        {
            return ShutdownHooks.runStoppable("pacelink-ping-shutdown", MAX_WRAP_UP_SECONDS, (stop) ->
                PingClient.run(options, System.out, stop));
        }
        catch (final TransportFailure ex)
        {
            spec.commandLine().getErr().println("pacelink ping: " + ex.getMessage());
            return 1;
        }
    }
}
