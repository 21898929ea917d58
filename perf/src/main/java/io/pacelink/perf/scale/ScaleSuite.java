package io.pacelink.perf.scale;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.pacelink.perf.loopback.ChildJvm;
import io.pacelink.perf.loopback.ResultLine;
import io.pacelink.perf.loopback.Spread;
import io.pacelink.transport.PacelinkContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Scale and setup on loopback, one server endpoint and one client endpoint in two processes (see {@link ScaleRole}):
 * for each connection count, the latency of {@code --concurrent} simultaneous connects, the handshake rate of the
 * rest, the latency of {@code --one-at-a-time} connects each alone on warm ends, the server's memory per connection
 * (resident, heap after a collection, direct) and the idle CPU of both ends once every connection is open. Sizes
 * left at 0 are the transport's defaults. See perf/README.md.
 */
@Command(
    name = "scale-suite",
    mixinStandardHelpOptions = true,
    description = "Connections per endpoint: connect latency, handshake rate, memory per connection, idle CPU.")
public final class ScaleSuite implements Callable<Integer>
{
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long READY_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    @Option(names = "--connections", split = ",", defaultValue = "1000",
        description = "Connection counts to try, comma-separated (default ${DEFAULT-VALUE}).")
    private List<Integer> counts;

    @Option(names = "--concurrent", defaultValue = "100",
        description = "Connects timed together first (default ${DEFAULT-VALUE}).")
    private int concurrent;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--one-at-a-time", defaultValue = "20",
        description = "Connects then timed one after another on warm ends, each alone (default ${DEFAULT-VALUE}).")
    private int oneAtATime;

    @Option(names = "--client-priming-ms", defaultValue = "1000", description = "How long the client's launch primes " +
        "its handshake path (PacelinkContext.handshakePrimingNs), as a client that opens many connections would; 0: " +
        "a client's default, none (default ${DEFAULT-VALUE}; the server primes by default).")
    private int clientPrimingMs;

    @Option(names = "--idle", defaultValue = "10", description = "Seconds of idleness measured (default " +
        "${DEFAULT-VALUE}).")
    private int idleSeconds;

    @Option(names = "--active", defaultValue = "0", description = "Seconds every connection then sends at once, for " +
        "the share of each and Jain's index (default ${DEFAULT-VALUE}: no active phase).")
    private int activeSeconds;

    @Option(names = "--scheduler", defaultValue = "default",
        description = "Packet scheduler of both endpoints, e.g. fq (default: the transport's).")
    private String scheduler;

    @Option(names = "--max-connections", defaultValue = "0",
        description = "maxConnections of the server (0: the transport's default).")
    private int maxConnections;

    @Option(names = "--send-buffer", defaultValue = "0", description = "sendBufferBytes (0: default).")
    private int sendBufferBytes;

    @Option(names = "--receive-buffer", defaultValue = "0", description = "receiveBufferBytes (0: default).")
    private int receiveBufferBytes;

    @Option(names = "--sent-packet-capacity", defaultValue = "0", description = "sentPacketCapacity (0: default).")
    private int sentPacketCapacity;

    @Option(names = "--counters-buffer", defaultValue = "0", description = "countersBufferBytes (0: default).")
    private int countersBufferBytes;

    @Option(names = "--jvm-arg", description = "Extra option for both child JVMs (repeatable), e.g. -Xmx1g.")
    private List<String> jvmArgs = new ArrayList<>();

    @Option(names = "--out", description = "Folder for the children's logs (default: a new temporary folder).")
    private Path out;

    private final PrintStream report;

    /**
     * @param report where the table goes.
     */
    ScaleSuite(final PrintStream report)
    {
        this.report = report;
    }

    /**
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new ScaleSuite(System.out)).execute(args));
    }

    public Integer call() throws IOException, InterruptedException
    {
        if (clientPrimingMs < 0 || clientPrimingMs > 10_000)
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--client-priming-ms must be 0..10000, not " + clientPrimingMs);
        }
        if (oneAtATime < 0)
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--one-at-a-time must be 0 (no such phase) or more, not " + oneAtATime);
        }
        if (null == out)
        {
            out = Files.createTempDirectory("pacelink-scale-");
        }
        Files.createDirectories(out);
        final EndpointSizing sizing =
            new EndpointSizing(sendBufferBytes, receiveBufferBytes, sentPacketCapacity, countersBufferBytes);
        final PacelinkContext check = sizing.applyTo(new PacelinkContext()); // fail fast on what the transport refuses
        if (maxConnections > 0)
        {
            check.maxConnections(maxConnections);
        }
        if (!"default".equals(scheduler))
        {
            check.packetScheduler(scheduler);
        }
        report.printf("scale suite: connections %s, sizes %s (0 = default), maxConnections %s, scheduler %s, " +
            "active %d s, JVM %s, load %s, output %s%n", counts, sizing, 0 == maxConnections ? "default" :
            maxConnections, scheduler, activeSeconds, jvmArgs, ChildJvm.loadAverage(), out);
        report.println();
        report.println("| connections | connected | concurrent connects, cold: all within ms (p50 / p99 / max per " +
            "connect ms) | warm: all within ms (p50 / p99 / max) | loopback min RTT µs | one at a time: p50 / p99 / " +
            "max ms (least / median RTT µs) ping udp / echo p50 µs (median of each connect - its ping µs) | " +
            "handshakes/s | server memory per connection: resident / heap / direct | server idle CPU %: process " +
            "(its agent thread) | " +
            "client idle CPU % | refused (limit / counters) | active: Jain / total Mbit/s / least-most Mbit/s / " +
            "client CPU % | first failure |");
        report.println("|---:|---:|---|---|---:|---|---:|---|---:|---:|---|---|---|");
        for (final int count : counts)
        {
            runOne(count, sizing);
        }
        return 0;
    }

    private void runOne(final int count, final EndpointSizing sizing) throws IOException, InterruptedException
    {
        final String classPath = System.getProperty("java.class.path");
        final Path serverLog = out.resolve("scale-" + count + "-server.log");
        final Path clientLog = out.resolve("scale-" + count + "-client.log");
        final List<String> serverArgs = new ArrayList<>(List.of(ScaleRole.class.getName(), "server", "0",
            Integer.toString(count), Integer.toString(maxConnections), scheduler));
        serverArgs.addAll(List.of(sizing.toArgs()));
        final Process server = ChildJvm.start(classPath, jvmArgs, serverArgs, serverLog);
        try
        {
            final String ready = ChildJvm.awaitLine(server, serverLog, ResultLine.READY, READY_TIMEOUT_NS);
            if (null == ready)
            {
                final List<String> lines = Files.readAllLines(serverLog, StandardCharsets.UTF_8);
                report.printf("| %d |" + " - |".repeat(11) + " the server did not start: %s (%s) |%n", count,
                    lines.size() > 1 ? lines.get(1) : "no output", serverLog);
                return;
            }
            final String port = value(ready, " port=");
            final String pingPort = value(ready, " ping_port=");
            final List<String> clientArgs = new ArrayList<>(List.of(ScaleRole.class.getName(), "client", port,
                Integer.toString(count), Integer.toString(concurrent), Integer.toString(oneAtATime),
                Integer.toString(clientPrimingMs),
                Integer.toString(idleSeconds),
                Integer.toString(activeSeconds), scheduler));
            clientArgs.addAll(List.of(sizing.toArgs()));
            if (null != pingPort)
            {
                clientArgs.add(pingPort);
            }
            final Process client = ChildJvm.start(classPath, jvmArgs, clientArgs, clientLog);
            if (!client.waitFor(idleSeconds + activeSeconds + 300L, TimeUnit.SECONDS))
            {
                client.destroyForcibly();
            }
            // A few more server lines of the idle phase, after the client's result.
            TimeUnit.SECONDS.sleep(2);
            summarize(count, serverLog, clientLog);
        }
        finally
        {
            server.destroyForcibly();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @SuppressWarnings("unchecked")
    private void summarize(final int count, final Path serverLog, final Path clientLog) throws IOException
    {
        Map<String, Object> client = null;
        for (final String line : Files.readAllLines(clientLog, StandardCharsets.UTF_8))
        {
            final Map<String, Object> parsed = ResultLine.parse(line);
            client = null != parsed ? parsed : client;
        }
        final List<Map<String, Object>> status = new ArrayList<>();
        for (final String line : Files.readAllLines(serverLog, StandardCharsets.UTF_8))
        {
            if (line.startsWith("STATUS "))
            {
                status.add(MAPPER.readValue(line.substring("STATUS ".length()), Map.class));
            }
        }
        if (null == client || status.isEmpty())
        {
            report.printf("| %d |" + " - |".repeat(11) + " no result: see %s and %s |%n", count, clientLog,
                serverLog);
            return;
        }
        final Map<String, Object> base = status.get(0);
        Map<String, Object> collected = null;
        final List<Double> idleCpu = new ArrayList<>();
        final List<Double> agentIdleCpu = new ArrayList<>();
        for (final Map<String, Object> line : status)
        {
            if (null != collected)
            {
                idleCpu.add(number(line, "cpu_percent"));
                agentIdleCpu.add(number(line, "agent_cpu_percent"));
            }
            if (number(line, "after_gc") > 0)
            {
                collected = line;
            }
        }
        final double accepted = null == collected ? Double.NaN : number(collected, "accepted");
        final String perConnection = null == collected || accepted <= 0 ? "-" : String.format(Locale.ROOT,
            "%.0f KB / %.0f KB / %.0f KB",
            (number(collected, "resident_bytes") - number(base, "resident_bytes")) / accepted / 1e3,
            (number(collected, "heap_used_bytes") - number(base, "heap_used_bytes")) / accepted / 1e3,
            (number(collected, "direct_bytes") - number(base, "direct_bytes")) / accepted / 1e3);
        final String failure = client.containsKey("error") ? String.valueOf(client.get("error")) :
            client.containsKey("connect_error") ? String.valueOf(client.get("connect_error")) :
            String.valueOf(client.getOrDefault("first_failure", "-"));
        final Map<String, Object> last = status.get(status.size() - 1);
        final String active = client.containsKey("active_jain") ? String.format(Locale.ROOT,
            "%.4f / %.0f / %.2f-%.2f / %.0f", number(client, "active_jain"), number(client, "active_total_mbps"),
            number(client, "active_least_mbps"), number(client, "active_most_mbps"),
            number(client, "active_client_cpu_percent")) : "-";
        report.printf(Locale.ROOT,
            "| %d | %.0f | %s | %s | %.0f | %s | %.0f | %s | %s | %.1f | %.0f / %.0f | %s | %s |%n",
            count, number(client, "connected"), burst(client, ""), burst(client, "warm_"),
            number(client, "warm_min_rtt_us"), oneAtATime(client), number(client, "handshakes_per_second"),
            perConnection,
            Spread.format(Spread.of(idleCpu), 1, "%.1f") + " (" +
                Spread.format(Spread.of(agentIdleCpu), 1, "%.1f") + ")",
            number(client, "idle_cpu_percent"), number(last, "connections_refused_limit"),
            number(last, "connections_refused_counters"), active, failure);
    }

    /**
     * @return the value after {@code key} in a READY line, up to the next space, or null if the line has none.
     */
    static String value(final String line, final String key)
    {
        final int at = line.indexOf(key);
        if (at < 0)
        {
            return null;
        }
        final int from = at + key.length();
        final int to = line.indexOf(' ', from);
        return (to < 0 ? line.substring(from) : line.substring(from, to)).trim();
    }

    private static String oneAtATime(final Map<String, Object> client)
    {
        return number(client, "one_connect_count") > 0 ? String.format(Locale.ROOT,
            "%.2f / %.2f / %.2f (%.0f / %.0f) ping udp %.0f (%+.0f), echo %.0f (%+.0f)",
            number(client, "one_connect_p50_ms"), number(client, "one_connect_p99_ms"),
            number(client, "one_connect_max_ms"), number(client, "one_connect_min_rtt_us"),
            number(client, "one_connect_median_rtt_us"), number(client, "one_connect_udp_ping_p50_us"),
            number(client, "one_connect_over_udp_ping_p50_us"), number(client, "one_connect_ping_p50_us"),
            number(client, "one_connect_over_ping_p50_us")) : "-";
    }

    private static String burst(final Map<String, Object> client, final String prefix)
    {
        return String.format(Locale.ROOT, "%.1f (%.1f / %.1f / %.1f)",
            number(client, prefix + "concurrent_all_connected_ms"),
            number(client, prefix + "concurrent_latency_p50_ms"),
            number(client, prefix + "concurrent_latency_p99_ms"), number(client, prefix + "concurrent_latency_max_ms"));
    }

    private static double number(final Map<String, Object> values, final String key)
    {
        return values.get(key) instanceof Number n ? n.doubleValue() : Double.NaN;
    }
}
