package io.pacelink.perf.loopback;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pacelink.cli.PacelinkCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Loopback baselines, two processes per run, every contender of a case run in the same session with interleaved
 * repetitions (the order rotates from one repetition to the next), reported as medians with their range:
 * <ul>
 *     <li>{@code bulk} — 1472-byte datagrams: raw NIO UDP (the baseline), Pacelink in the default profile
 *     ({@code dedicated}) and in {@code invoker} mode, {@code pacelink perf}, Aeron; goodput at the receiver;</li>
 *     <li>{@code bulk64k} — 65000-byte datagrams ({@code maxDatagramSizeBytes} 65000) against raw UDP at 65000 B;</li>
 *     <li>{@code small} — 32-byte messages over one connection against Aeron (the baseline), messages per second;</li>
 *     <li>{@code ping} — ping-pong of 32 bytes, client and echo server busy-spinning: raw UDP (the baseline) against
 *     Pacelink in INVOKER mode ({@code pacelink ping --busy-spin}), p50 and p99.</li>
 * </ul>
 * {@code bulk} and {@code small} count the steady state by default, after a settle-based warm-up ({@link WarmUp}) that
 * follows the same rule for every contender; {@code --warmup 0} counts them from the first message instead.
 * Each child JVM prints a {@link ResultLine}; they are kept, one JSON object per line, in {@code results.jsonl} in the
 * output folder, beside every child's log. See perf/README.md.
 */
@Command(
    name = "loopback-suite",
    mixinStandardHelpOptions = true,
    description = "Loopback baselines: Pacelink against raw UDP and Aeron, two processes, interleaved repetitions.")
public final class LoopbackSuite implements Callable<Integer>
{
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long READY_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long EXIT_GRACE_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long QUIET_MS = 1000;
    private static final int BULK_MESSAGE_BYTES = 128 * 1024;
    private static final int SMALL_MESSAGE_BYTES = 32;
    private static final int PING_BYTES = 32;

    /**
     * The shortest warm-up of the cases that count the steady state by default ({@code bulk} and {@code small}): a
     * throughput figure of two long-lived processes, as iperf3's {@code --omit} and {@code pacelink perf -O} take
     * one. In a 3-s run from a fresh JVM a Pacelink sender's C2 compiler thread took half a core beside its sending
     * thread on two cores, so the count measured the JIT's warm-up as much as the transport (perf/FINDINGS.md,
     * branches {@code bulk16} and {@code bulk17}); with 32-byte messages counted from the first message, C2 took
     * 25–35 % of a core at both Pacelink ends against Aeron's 3–6 % (branch {@code acc25}). The same seconds are left
     * out for every contender of a case, the raw UDP and Aeron baselines included.
     */
    static final double STEADY_STATE_WARMUP_SECONDS = 3;

    /**
     * The longest settle-based warm-up by default ({@link WarmUp}): counted then whatever the compilers do, so that a
     * JVM whose compilers never fall quiet still gives a figure (its runs say so: {@code warmup_quiet} false).
     */
    static final double SETTLE_MAX_SECONDS = 15;

    /**
     * How long both processes' compilers must have been idle before the settle-based warm-up ends, by default.
     */
    static final double SETTLE_QUIET_SECONDS = 1;

    private static final long SETTLE_GRACE_NS = TimeUnit.SECONDS.toNanos(60);

    /**
     * One thing measured in a case.
     *
     * @param label         the row's name.
     * @param kind          {@code pacelink}, {@code raw-udp}, {@code aeron}, {@code pacelink-perf}, {@code ping-raw}
     *                      or {@code ping-pacelink}.
     * @param mode          the threading mode ({@code dedicated}, {@code invoker}; Aeron {@code invoker},
     *                      {@code shared}).
     * @param datagramBytes Pacelink's {@code maxDatagramSizeBytes}, raw UDP's datagram, Aeron's MTU.
     * @param messageBytes  bytes per message offered.
     */
    record Contender(String label, String kind, String mode, int datagramBytes, int messageBytes)
    {
    }

    /**
     * @param name       the case's name.
     * @param metric     the receiver's figure compared ({@code bits_per_second}, {@code messages_per_second},
     *                   {@code p50_us}).
     * @param contenders the first is the baseline of the ratios.
     * @param warmupSeconds how long every throughput sender sends before its receiver counts, unless
     *                      {@code --warmup} says otherwise; with {@code settle}, the shortest warm-up.
     * @param settle        true if the warm-up ends only when both processes' compilers are idle ({@link WarmUp}),
     *                      unless {@code --warmup} gives a fixed one.
     */
    record Case(String name, String metric, List<Contender> contenders, double warmupSeconds, boolean settle)
    {
        /**
         * A case counted from the first message by default.
         */
        Case(final String name, final String metric, final List<Contender> contenders)
        {
            this(name, metric, contenders, 0, false);
        }
    }

    static final List<Case> CASES = List.of(
        new Case("bulk", "bits_per_second", List.of(
            new Contender("raw UDP, 1472 B", "raw-udp", "-", 1472, 1472),
            new Contender("Pacelink default profile (DEDICATED)", "pacelink", "dedicated", 1472, BULK_MESSAGE_BYTES),
            new Contender("Pacelink default profile, GSO off", "pacelink", "dedicated-nogso", 1472,
                BULK_MESSAGE_BYTES),
            new Contender("Pacelink default profile, NIO port", "pacelink", "dedicated-nio", 1472,
                BULK_MESSAGE_BYTES),
            new Contender("Pacelink INVOKER", "pacelink", "invoker", 1472, BULK_MESSAGE_BYTES),
            new Contender("Pacelink INVOKER, GSO off", "pacelink", "invoker-nogso", 1472, BULK_MESSAGE_BYTES),
            new Contender("pacelink perf (INVOKER)", "pacelink-perf", "invoker", 1472, BULK_MESSAGE_BYTES),
            new Contender("Aeron INVOKER, mtu 1472", "aeron", "invoker", 1472, BULK_MESSAGE_BYTES),
            new Contender("Aeron SHARED, mtu 1472", "aeron", "shared", 1472, BULK_MESSAGE_BYTES)),
            STEADY_STATE_WARMUP_SECONDS, true),
        new Case("port", "bits_per_second", List.of(
            new Contender("raw UDP, 1472 B, one datagram per call", "raw-udp", "-", 1472, 1472),
            new Contender("NIO port, 1472 B, batches of 64", "port", "nio", 1472, 1472),
            new Contender("batched port, GSO off, 1472 B", "port", "batched-nogso", 1472, 1472),
            new Contender("batched port, GSO on, 1472 B", "port", "batched", 1472, 1472))),
        new Case("bulk64k", "bits_per_second", List.of(
            new Contender("raw UDP, 65000 B", "raw-udp", "-", 65_000, 65_000),
            new Contender("Pacelink default profile, 65000 B", "pacelink", "dedicated", 65_000, BULK_MESSAGE_BYTES),
            new Contender("Pacelink INVOKER, 65000 B", "pacelink", "invoker", 65_000, BULK_MESSAGE_BYTES),
            new Contender("Aeron INVOKER, mtu 64992", "aeron", "invoker", 64_992, BULK_MESSAGE_BYTES))),
        new Case("small", "messages_per_second", List.of(
            new Contender("Aeron INVOKER, 32 B", "aeron", "invoker", 1472, SMALL_MESSAGE_BYTES),
            new Contender("Aeron SHARED, 32 B", "aeron", "shared", 1472, SMALL_MESSAGE_BYTES),
            new Contender("Pacelink INVOKER, 32 B", "pacelink", "invoker", 1472, SMALL_MESSAGE_BYTES),
            new Contender("Pacelink default profile, 32 B", "pacelink", "dedicated", 1472, SMALL_MESSAGE_BYTES)),
            STEADY_STATE_WARMUP_SECONDS, true),
        new Case("ping", "p50_us", List.of(
            new Contender("raw UDP busy-spin", "ping-raw", "busy-spin", PING_BYTES, PING_BYTES),
            new Contender("Pacelink INVOKER busy-spin", "ping-pacelink", "busy-spin", PING_BYTES, PING_BYTES),
            new Contender("Pacelink DEDICATED, agent and application busy-spin", DedicatedPingPong.SYSTEM, "spin",
                PING_BYTES, PING_BYTES),
            new Contender("Pacelink DEDICATED, agent and application yield, one core per process",
                DedicatedPingPong.SYSTEM, "yield", PING_BYTES, PING_BYTES))),
        new Case("ping-default", "p50_us", List.of(
            new Contender("raw UDP, blocking receives", "ping-raw", "blocking", PING_BYTES, PING_BYTES),
            new Contender("Pacelink default profile (sleeps in the port)", "ping-pacelink", "default", PING_BYTES,
                PING_BYTES))));

    @Option(names = "--cases", split = ",", defaultValue = "bulk,port,bulk64k,small,ping,ping-default",
        description = "Cases to run, comma-separated (default ${DEFAULT-VALUE}).")
    private List<String> caseNames;

    @Option(names = "--only", split = ",", paramLabel = "KIND[:MODE]",
        description = "Run only these contenders (and each case's baseline), e.g. pacelink:invoker,aeron.")
    private List<String> only;

    @Option(names = "--runs", defaultValue = "3", description = "Repetitions (default ${DEFAULT-VALUE}).")
    private int runs;

    @Option(names = "--duration", defaultValue = "5", description = "Seconds each sender sends (default " +
        "${DEFAULT-VALUE}).")
    private double durationSeconds;

    @Option(names = "--pings", defaultValue = "200000", description = "Round trips counted per ping run, after " +
        "a quarter as many not counted (default ${DEFAULT-VALUE}).")
    private int pings;

    @Option(names = "--ping-warmup", defaultValue = "6", paramLabel = "SECONDS",
        description = "Seconds of round trips each `pacelink ping` client sends, beside the quarter of --pings, " +
            "before it counts (default ${DEFAULT-VALUE}): with two spinning threads on two cores the JIT gets a " +
            "third of a core and compiles Pacelink's duty cycle for about four seconds, so a count alone measures " +
            "the compiler (perf/FINDINGS.md, branch lat9). 0 for the count alone.")
    private double pingWarmupSeconds;

    @Option(names = "--warmup", paramLabel = "SECONDS",
        description = "Seconds every throughput sender (bulk, port, bulk64k, small; pacelink perf with -O) sends " +
            "before it and its receiver start counting, added to --duration; the same for every contender of a " +
            "case (default: bulk and small until both processes' JIT compilers have been idle for " +
            "--settle-quiet, at least --settle-min and at most --settle-max, the steady state of two long-lived " +
            "processes; the others 0). 0 counts from the first message, the JIT's compiling included (small's " +
            "figures before this default).")
    private Double warmupOption;

    @Option(names = "--settle-min", defaultValue = "" + STEADY_STATE_WARMUP_SECONDS, paramLabel = "SECONDS",
        description = "The settle-based warm-up's shortest (bulk's and small's default warm-up; default " +
            "${DEFAULT-VALUE}).")
    private double settleMinSeconds;

    @Option(names = "--settle-max", defaultValue = "" + SETTLE_MAX_SECONDS, paramLabel = "SECONDS",
        description = "The settle-based warm-up's longest: counted then, compilers idle or not (default " +
            "${DEFAULT-VALUE}).")
    private double settleMaxSeconds;

    @Option(names = "--settle-quiet", defaultValue = "" + SETTLE_QUIET_SECONDS, paramLabel = "SECONDS",
        description = "How long both processes' JIT compilers must have been idle to end the settle-based " +
            "warm-up (default ${DEFAULT-VALUE}).")
    private double settleQuietSeconds;

    @Option(names = "--out", description = "Folder for the children's logs and results.jsonl (default: a new " +
        "temporary folder).")
    private Path out;

    @Option(names = "--aeron-jar", description = "aeron-all 1.46.7 (default: the one on this class path, or " +
        "perf/target/aeron/aeron-all.jar beside the benchmarks jar).")
    private Path aeronJar;

    @Option(names = "--jfr", paramLabel = "DIR", description = "Record every child with Java Flight Recorder " +
        "(settings=profile) into DIR.")
    private Path jfrDirectory;

    @Option(names = "--report", paramLabel = "RESULTS.jsonl",
        description = "Print the tables of an earlier run's results.jsonl (of the cases given) instead of running.")
    private Path previousResults;

    @Option(names = "--jvm-arg", description = "Extra option for every child JVM (repeatable).")
    private List<String> jvmArgs = new ArrayList<>();

    private final PrintStream report;

    /**
     * @param report where the progress lines and tables go.
     */
    LoopbackSuite(final PrintStream report)
    {
        this.report = report;
    }

    /**
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new LoopbackSuite(System.out)).execute(args));
    }

    public Integer call() throws IOException, InterruptedException
    {
        if (runs < 1 || durationSeconds <= 0 || pings < 1 || pingWarmupSeconds < 0 ||
            null != warmupOption && warmupOption < 0 || settleMinSeconds < 0 || settleQuietSeconds <= 0 ||
            settleMaxSeconds < settleMinSeconds)
        {
            throw new CommandLine.ParameterException(new CommandLine(this),
                "--runs, --duration, --pings and --settle-quiet must be positive, --ping-warmup, --warmup and " +
                    "--settle-min not negative, --settle-max not below --settle-min");
        }
        final List<Case> cases = new ArrayList<>();
        for (final String name : caseNames)
        {
            cases.add(CASES.stream().filter((c) -> c.name().equals(name)).findFirst().orElseThrow(() ->
                new CommandLine.ParameterException(new CommandLine(this), "unknown case '" + name +
                    "' (bulk, port, bulk64k, small, ping, ping-default)")));
        }
        if (null != previousResults)
        {
            final Map<String, Map<Contender, List<Map<String, Object>>>> results = new LinkedHashMap<>();
            for (final String line : Files.readAllLines(previousResults, StandardCharsets.UTF_8))
            {
                @SuppressWarnings("unchecked")
                final Map<String, Object> result = MAPPER.readValue(line, Map.class);
                for (final Case c : cases)
                {
                    c.contenders().stream().filter((k) -> c.name().equals(result.get("case")) &&
                        k.label().equals(result.get("contender"))).findFirst().ifPresent((k) -> results
                        .computeIfAbsent(c.name(), (n) -> new LinkedHashMap<>())
                        .computeIfAbsent(k, (n) -> new ArrayList<>()).add(result));
                }
            }
            for (final Case c : cases)
            {
                printTable(c, results.getOrDefault(c.name(), Map.of()));
            }
            return 0;
        }
        if (null == out)
        {
            out = Files.createTempDirectory("pacelink-loopback-");
        }
        Files.createDirectories(out);
        if (null != jfrDirectory)
        {
            Files.createDirectories(jfrDirectory);
        }
        final Path resultsFile = out.resolve("results.jsonl");
        report.printf("loopback suite: cases %s, %d runs of %.1f s, load average %s, output %s%n", caseNames, runs,
            durationSeconds, ChildJvm.loadAverage(), out);
        for (final Case c : cases)
        {
            if (!"p50_us".equals(c.metric()))
            {
                report.printf("  %s: %s%n", c.name(), c.settle() && null == warmupOption ? settlePhrase(settleRule()) :
                    warmupPhrase(warmupSeconds(c)));
            }
        }
        final Map<String, Map<Contender, List<Map<String, Object>>>> results = new LinkedHashMap<>();
        for (int run = 1; run <= runs; run++)
        {
            for (final Case c : cases)
            {
                final List<Contender> contenders = selected(c);
                for (int i = 0; i < contenders.size(); i++)
                {
                    final Contender contender = contenders.get((i + run - 1) % contenders.size());
                    final Map<String, Object> result = runOne(c, contender, run);
                    results.computeIfAbsent(c.name(), (k) -> new LinkedHashMap<>())
                        .computeIfAbsent(contender, (k) -> new ArrayList<>()).add(result);
                    Files.writeString(resultsFile, MAPPER.writeValueAsString(result) + System.lineSeparator(),
                        StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
                    report.printf("  run %d %-8s %-40s %s%n", run, c.name(), contender.label(), headline(c, result));
                }
            }
        }
        report.printf("load average at the end: %s%n%n", ChildJvm.loadAverage());
        for (final Case c : cases)
        {
            printTable(c, results.getOrDefault(c.name(), Map.of()));
        }
        return 0;
    }

    private List<Contender> selected(final Case c)
    {
        final List<Contender> contenders = new ArrayList<>();
        for (final Contender contender : c.contenders())
        {
            if (null == only || contender == c.contenders().get(0) || only.stream().anyMatch((o) ->
                o.equals(contender.kind()) || o.equals(contender.kind() + ":" + contender.mode())))
            {
                contenders.add(contender);
            }
        }
        return contenders;
    }

    private Map<String, Object> runOne(final Case c, final Contender contender, final int run)
        throws IOException, InterruptedException
    {
        final int port = freePort();
        final String name = c.name() + "-" + contender.kind() + "-" + contender.mode() + "-" +
            contender.datagramBytes() + "-run" + run;
        final Path serverLog = out.resolve(name + "-receiver.log");
        final Path clientLog = out.resolve(name + "-sender.log");
        final long warmupMs = warmupMillis(c);
        final boolean settle = settles(c, contender);
        final Process server = start(contender, name + "-receiver", serverArgs(contender, port), serverLog,
            warmupMs, settle);
        pinIfYielding(contender, server, 0);
        final Map<String, Object> result = new LinkedHashMap<>();
        result.put("case", c.name());
        result.put("contender", contender.label());
        result.put("run", run);
        result.put("load_average", ChildJvm.loadAverage());
        if (settle)
        {
            result.put("warmup_rule", settleRule());
        }
        else if (warmupMs > 0)
        {
            result.put("warmup_s", warmupSeconds(c));
        }
        try
        {
            if (null == ChildJvm.awaitLine(server, serverLog, contender.kind().startsWith("ping") ||
                "pacelink-perf".equals(contender.kind()) ? "listening" : ResultLine.READY, READY_TIMEOUT_NS))
            {
                result.put("error", "the receiver did not start: see " + serverLog);
                return result;
            }
            final Process client = start(contender, name + "-sender", clientArgs(contender, port, warmupMs),
                clientLog, warmupMs, settle);
            pinIfYielding(contender, client, 1);
            if (settle)
            {
                startCountingWhenSettled(server, serverLog, client, clientLog, settleTimeoutNs());
            }
            final long durationNs = (long)(durationSeconds * 1e9) + (settle ? settleTimeoutNs() :
                TimeUnit.MILLISECONDS.toNanos(warmupMs));
            if (!client.waitFor(durationNs + EXIT_GRACE_NS + (contender.kind().startsWith("ping") ?
                TimeUnit.MINUTES.toNanos(5) : 0), TimeUnit.NANOSECONDS))
            {
                client.destroyForcibly();
                result.put("error", "the sender did not finish: see " + clientLog);
            }
            if (contender.kind().startsWith("ping"))
            {
                server.destroy();
            }
            if (!server.waitFor(EXIT_GRACE_NS, TimeUnit.NANOSECONDS))
            {
                server.destroyForcibly();
                result.put("error", "the receiver did not finish: see " + serverLog);
            }
            collect(contender, serverLog, clientLog, result);
        }
        finally
        {
            server.destroyForcibly();
        }
        return result;
    }

    /**
     * The settle-based warm-up's hand-over: once both processes of a run have printed {@link WarmUp#SETTLED} (each
     * after its own compilers fell idle, or at the maximum), both are told to count from now.
     */
    private static void startCountingWhenSettled(
        final Process server, final Path serverLog, final Process client, final Path clientLog, final long timeoutNs)
        throws IOException, InterruptedException
    {
        ChildJvm.awaitLine(client, clientLog, WarmUp.SETTLED, timeoutNs);
        ChildJvm.awaitLine(server, serverLog, WarmUp.SETTLED, timeoutNs);
        for (final Process process : List.of(client, server))
        {
            try
            {
                process.getOutputStream().write((WarmUp.COUNT + "\n").getBytes(StandardCharsets.US_ASCII));
                process.getOutputStream().flush();
            }
            catch (final IOException ex)
            {
                // A child that has ended: its log says why, and its run is reported as failed.
            }
        }
    }

    /**
     * The yielding DEDICATED recipe: each process on a core of its own (every thread, {@code taskset -a}), so its
     * agent and application threads take turns there and never wait for the other process's core.
     */
    private static void pinIfYielding(final Contender contender, final Process process, final int cpu)
        throws IOException, InterruptedException
    {
        if (DedicatedPingPong.SYSTEM.equals(contender.kind()) && "yield".equals(contender.mode()))
        {
            final Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", Integer.toString(cpu),
                Long.toString(process.pid())).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
            if (0 != taskset.waitFor())
            {
                throw new IOException("taskset -a -p -c " + cpu + " " + process.pid() + " failed");
            }
        }
    }

    private static void collect(
        final Contender contender, final Path serverLog, final Path clientLog, final Map<String, Object> result)
        throws IOException
    {
        switch (contender.kind())
        {
            case "ping-raw", "ping-pacelink", DedicatedPingPong.SYSTEM ->
            {
                final JsonNode ping = lastJson(clientLog);
                if (null == ping || !ping.has("rtt_us_measured"))
                {
                    result.putIfAbsent("error", "no ping summary: see " + clientLog);
                    return;
                }
                final JsonNode rtt = ping.get("rtt_us_measured");
                result.put("p50_us", rtt.get("p50").asDouble());
                result.put("p90_us", rtt.get("p90").asDouble());
                result.put("p99_us", rtt.get("p99").asDouble());
                result.put("max_us", rtt.get("max").asDouble());
            }
            case "pacelink-perf" ->
            {
                // The log's first line is the command; the rest is the JSON report.
                final List<String> lines = Files.readAllLines(clientLog, StandardCharsets.UTF_8);
                final JsonNode report = MAPPER.readTree(String.join("\n", lines.subList(1, lines.size())));
                final JsonNode end = report.path("end");
                result.put("bits_per_second", end.path("sum_received").path("bits_per_second").asDouble(Double.NaN));
                result.put("receiver_cpu_percent", end.path("cpu_utilization_percent").path("remote_total")
                    .asDouble(Double.NaN));
                result.put("sender_cpu_percent", end.path("cpu_utilization_percent").path("host_total")
                    .asDouble(Double.NaN));
                final double seconds = end.path("sum_sent").path("seconds").asDouble(Double.NaN);
                final double kib = end.path("sum_sent").path("bytes").asDouble(Double.NaN) / 1024;
                result.put("sender_cpu_ns_per_kib", number(result, "sender_cpu_percent") / 100 * seconds * 1e9 / kib);
                result.put("receiver_cpu_ns_per_kib",
                    number(result, "receiver_cpu_percent") / 100 * seconds * 1e9 / kib);
                if (report.has("error"))
                {
                    result.put("error", report.get("error").asText());
                }
            }
            default ->
            {
                final Map<String, Object> receiver = resultLine(serverLog);
                final Map<String, Object> sender = resultLine(clientLog);
                if (null == receiver || null == sender)
                {
                    result.putIfAbsent("error", "no result line: see " + serverLog + " and " + clientLog);
                }
                if (null != receiver)
                {
                    receiver.forEach((k, v) -> result.put(k.startsWith("bits") || k.startsWith("messages_per") ? k :
                        "receiver_" + k, v));
                }
                if (null != sender)
                {
                    sender.forEach((k, v) -> result.put("sender_" + k, v));
                }
                // CPU per KiB moved: comparable across message sizes, and far steadier than goodput on a busy machine.
                result.put("sender_cpu_ns_per_kib", number(result, "sender_cpu_percent") / 100 *
                    number(result, "sender_elapsed_ns") / (number(result, "sender_bytes") / 1024));
                result.put("receiver_cpu_ns_per_kib", number(result, "receiver_cpu_ns_per_message") *
                    number(result, "receiver_messages") / (number(result, "receiver_bytes") / 1024));
            }
        }
    }

    private Process start(
        final Contender contender,
        final String name,
        final List<String> args,
        final Path log,
        final long warmupMs,
        final boolean settle)
        throws IOException
    {
        final List<String> options = new ArrayList<>(jvmArgs);
        if (settle)
        {
            options.add("-D" + WarmUp.SETTLE_PROPERTY + "=" + (long)(settleMinSeconds * 1000) + ":" +
                (long)(settleMaxSeconds * 1000) + ":" + (long)(settleQuietSeconds * 1000));
        }
        else if (warmupMs > 0)
        {
            options.add("-D" + ReceiveMeter.WARMUP_MS_PROPERTY + "=" + warmupMs);
        }
        if (null != jfrDirectory)
        {
            options.add("-XX:StartFlightRecording=filename=" + jfrDirectory.resolve(name + ".jfr") +
                ",settings=profile,dumponexit=true");
        }
        return ChildJvm.start("aeron".equals(contender.kind()) ?
            aeronJar() + File.pathSeparator + System.getProperty("java.class.path") :
            System.getProperty("java.class.path"), options, args, log);
    }

    private List<String> serverArgs(final Contender contender, final int port)
    {
        final String portText = Integer.toString(port);
        final String quiet = Long.toString(QUIET_MS);
        return switch (contender.kind())
        {
            case "aeron" -> List.of(AeronBulk.class.getName(), "receive", portText, contender.mode(), quiet);
            case "pacelink-perf" -> List.of(PacelinkCommand.class.getName(), "perf", "-s", "-1", "-B", "127.0.0.1",
                "-p", portText, "--insecure");
            case "ping-raw" -> spinning(contender, List.of(PacelinkCommand.class.getName(), "ping", "--echo",
                "--raw-udp", "-B", "127.0.0.1", "-p", portText));
            case "ping-pacelink" -> spinning(contender, List.of(PacelinkCommand.class.getName(), "ping", "--echo",
                "-B", "127.0.0.1", "-p", portText, "--insecure"));
            case DedicatedPingPong.SYSTEM -> List.of(DedicatedPingPong.class.getName(), "echo", portText,
                contender.mode());
            default -> List.of(LoopbackRole.class.getName(), "receive", contender.kind(), portText,
                contender.mode(), Integer.toString(contender.datagramBytes()), quiet);
        };
    }

    private List<String> clientArgs(final Contender contender, final int port, final long warmupMs)
    {
        final String portText = Integer.toString(port);
        final String durationMs = Long.toString((long)(durationSeconds * 1000));
        // The senders whose receivers count with a ReceiveMeter send through its warm-up too: their SendMeter
        // sends for the duration from the warm-up's end.
        final String meteredDurationMs = durationMs;
        // Plaintext, as the raw UDP and Aeron contenders are: the suite compares transports, not ciphers.
        final List<String> ping = spinning(contender, List.of(PacelinkCommand.class.getName(), "ping",
            "127.0.0.1:" + portText, "-c", Integer.toString(pings), "-i", "0", "-s", Integer.toString(PING_BYTES),
            "-q", "--warmup", Integer.toString(pings / 4), "--warmup-time",
            Long.toString((long)(pingWarmupSeconds * 1000)) + "ms", "--json", "--insecure"));
        return switch (contender.kind())
        {
            case "aeron" -> List.of(AeronBulk.class.getName(), "send", portText, contender.mode(),
                Integer.toString(contender.datagramBytes()), Integer.toString(contender.messageBytes()),
                meteredDurationMs);
            // Its own meter leaves the warm-up out: -O, as iperf3's --omit (docs/tools.md).
            case "pacelink-perf" -> List.of(PacelinkCommand.class.getName(), "perf", "-c", "127.0.0.1", "-p",
                portText, "-t", durationMs + "ms", "-O", warmupMs + "ms", "-i", "0", "-J", "--insecure");
            case "ping-raw" ->
            {
                final List<String> raw = new ArrayList<>(ping);
                raw.add(2, "--raw-udp");
                yield raw;
            }
            case "ping-pacelink" -> ping;
            case DedicatedPingPong.SYSTEM -> List.of(DedicatedPingPong.class.getName(), "ping", portText,
                contender.mode(), Integer.toString(PING_BYTES), Integer.toString(pings), Integer.toString(pings / 4));
            default -> List.of(LoopbackRole.class.getName(), "send", contender.kind(), portText, contender.mode(),
                Integer.toString(contender.datagramBytes()), Integer.toString(contender.messageBytes()),
                meteredDurationMs);
        };
    }

    /**
     * @param c a case.
     * @return its warm-up: {@code --warmup} if given, else the case's own.
     */
    double warmupSeconds(final Case c)
    {
        if ("p50_us".equals(c.metric()))
        {
            return 0;   // a ping counts after --ping-warmup
        }
        return null != warmupOption ? warmupOption : c.warmupSeconds();
    }

    private long warmupMillis(final Case c)
    {
        return (long)(warmupSeconds(c) * 1000);
    }

    /**
     * @return true if this contender of this case counts after the settle-based warm-up: the case's default, not
     * overridden by {@code --warmup}, and a contender measured by the suite's own meters ({@code pacelink perf} has
     * its own, and takes the fixed minimum through {@code -O}).
     */
    boolean settles(final Case c, final Contender contender)
    {
        return c.settle() && null == warmupOption && !"pacelink-perf".equals(contender.kind());
    }

    private long settleTimeoutNs()
    {
        return (long)(settleMaxSeconds * 1e9) + SETTLE_GRACE_NS;
    }

    /**
     * @return the settle-based warm-up's rule, for the report and each run's result.
     */
    String settleRule()
    {
        return String.format(Locale.ROOT, "until both processes' JIT compilers were idle for %.1f s (at least " +
            "%.1f s, at most %.1f s)", settleQuietSeconds, settleMinSeconds, settleMaxSeconds);
    }

    /**
     * @param rule the settle-based warm-up's rule ({@link #settleRule()}).
     * @return what it means for a case's figures, for the report.
     */
    static String settlePhrase(final String rule)
    {
        return "the steady state: every sender sends " + rule + " first, left out of the rate and of " +
            "both ends' CPU (pacelink perf: the case's fixed warm-up, -O); each run's warm-up in " +
            "results.jsonl (sender_warmup_ms, receiver_warmup_ms) and below the table";
    }

    /**
     * @param warmupSeconds a case's warm-up.
     * @return what it means for the case's figures, for the report.
     */
    static String warmupPhrase(final double warmupSeconds)
    {
        return warmupSeconds > 0 ?
            String.format(Locale.ROOT, "the steady state: every sender sends %.1f s first, left out of the goodput " +
                "and of both ends' CPU (--warmup)", warmupSeconds) :
            "counted from the first message, the JIT's warm-up included (--warmup 0)";
    }

    /**
     * @return the ping command with {@code --busy-spin} when the contender spins.
     */
    private static List<String> spinning(final Contender contender, final List<String> command)
    {
        if (!"busy-spin".equals(contender.mode()))
        {
            return command;
        }
        final List<String> spin = new ArrayList<>(command);
        spin.add("--busy-spin");
        return spin;
    }

    private Path aeronJar()
    {
        if (null != aeronJar)
        {
            return aeronJar;
        }
        for (final String entry : System.getProperty("java.class.path").split(File.pathSeparator))
        {
            if (new File(entry).getName().startsWith("aeron-all"))
            {
                return Path.of(entry);
            }
        }
        for (final String entry : System.getProperty("java.class.path").split(File.pathSeparator))
        {
            final Path beside = Path.of(entry).toAbsolutePath().resolveSibling("aeron").resolve("aeron-all.jar");
            if (Files.isRegularFile(beside))
            {
                return beside;
            }
        }
        throw new IllegalStateException("aeron-all.jar not found: build perf (mvn -pl perf -am package) or give " +
            "--aeron-jar");
    }

    private static Map<String, Object> resultLine(final Path log) throws IOException
    {
        for (final String line : Files.readAllLines(log, StandardCharsets.UTF_8))
        {
            final Map<String, Object> parsed = ResultLine.parse(line);
            if (null != parsed)
            {
                return parsed;
            }
        }
        return null;
    }

    private static JsonNode lastJson(final Path log) throws IOException
    {
        final List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        for (int i = lines.size() - 1; i >= 0; i--)
        {
            if (lines.get(i).startsWith("{"))
            {
                return MAPPER.readTree(lines.get(i));
            }
        }
        return null;
    }

    private static int freePort()
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static String headline(final Case c, final Map<String, Object> result)
    {
        if (result.containsKey("error"))
        {
            return "FAILED: " + result.get("error");
        }
        return switch (c.metric())
        {
            case "bits_per_second" -> String.format(Locale.ROOT, "%.2f Gbit/s", number(result, "bits_per_second") /
                1e9);
            case "messages_per_second" -> String.format(Locale.ROOT, "%.2f M msg/s",
                number(result, "messages_per_second") / 1e6);
            default -> String.format(Locale.ROOT, "p50 %.2f µs, p99 %.2f µs", number(result, "p50_us"),
                number(result, "p99_us"));
        };
    }

    private static double number(final Map<String, Object> result, final String key)
    {
        final Object value = result.get(key);
        return value instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private void printTable(final Case c, final Map<Contender, List<Map<String, Object>>> results)
    {
        final Contender baseline = c.contenders().get(0);
        final List<Map<String, Object>> baseRuns = results.getOrDefault(baseline, List.of());
        final boolean ping = "p50_us".equals(c.metric());
        report.printf("### %s%n%n", c.name());
        if (!ping)
        {
            // From the runs themselves, so that --report on an older run's results says how that run counted.
            final List<String> rules = results.values().stream().flatMap(List::stream)
                .filter((r) -> r.containsKey("warmup_rule")).map((r) -> String.valueOf(r.get("warmup_rule")))
                .distinct().toList();
            final boolean anySettled = !rules.isEmpty();
            for (final String rule : rules)
            {
                final String phrase = settlePhrase(rule);
                report.printf("%s.%n%n", phrase.substring(0, 1).toUpperCase(Locale.ROOT) + phrase.substring(1));
            }
            final List<Double> warmups = results.values().stream().flatMap(List::stream)
                .filter((r) -> !r.containsKey("warmup_rule") && !(anySettled && r.containsKey("error")))
                .map((r) -> number(r, "warmup_s")).map((w) -> w.isNaN() ? 0.0 : w).distinct().sorted().toList();
            for (final double warmup : warmups)
            {
                report.printf("%s%s.%n%n", warmups.size() > 1 || anySettled ? "Some runs: " : "",
                    warmupPhrase(warmup).substring(0, 1).toUpperCase(Locale.ROOT) + warmupPhrase(warmup).substring(1));
            }
        }
        if (ping)
        {
            report.println("| contender | runs | p50 µs | p99 µs | p50 − baseline p50 (µs) | p99 / baseline p99 |");
            report.println("|---|---:|---|---|---|---|");
        }
        else
        {
            final String unit = "bits_per_second".equals(c.metric()) ? "Gbit/s" : "M msg/s";
            report.printf("| contender | runs | %s | ratio to %s (per run) | sender CPU %% | receiver CPU %% | " +
                "sender CPU ns per %s | receiver CPU ns per %s | receiver ACKs per data packet |%n", unit,
                baseline.label(), perMessage(c) ? "message" : "KiB", perMessage(c) ? "message" : "KiB");
            report.println("|---|---:|---|---|---|---|---|---|---|");
        }
        for (final Map.Entry<Contender, List<Map<String, Object>>> entry : results.entrySet())
        {
            final List<Map<String, Object>> runsOf = entry.getValue();
            final int failed = (int)runsOf.stream().filter((r) -> r.containsKey("error")).count();
            final String count = runsOf.size() + (failed > 0 ? " (" + failed + " failed)" : "");
            if (ping)
            {
                report.printf("| %s | %s | %s | %s | %s | %s |%n", entry.getKey().label(), count,
                    Spread.format(spread(runsOf, "p50_us"), 1, "%.2f"), Spread.format(spread(runsOf, "p99_us"), 1,
                        "%.2f"),
                    Spread.format(paired(runsOf, baseRuns, "p50_us", false), 1, "%.2f"),
                    Spread.format(paired(runsOf, baseRuns, "p99_us", true), 1, "%.2f"));
            }
            else
            {
                final double scale = "bits_per_second".equals(c.metric()) ? 1e9 : 1e6;
                final String senderCpu = perMessage(c) ? "sender_cpu_ns_per_message" : "sender_cpu_ns_per_kib";
                final String receiverCpu = perMessage(c) ? "receiver_cpu_ns_per_message" : "receiver_cpu_ns_per_kib";
                report.printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", entry.getKey().label(), count,
                    Spread.format(spread(runsOf, c.metric()), scale, "%.2f"),
                    Spread.format(paired(runsOf, baseRuns, c.metric(), true), 1, "%.2f"),
                    Spread.format(spread(runsOf, "sender_cpu_percent"), 1, "%.0f"),
                    Spread.format(spread(runsOf, "receiver_cpu_percent"), 1, "%.0f"),
                    Spread.format(spread(runsOf, senderCpu), 1, "%.0f"),
                    Spread.format(spread(runsOf, receiverCpu), 1, "%.0f"),
                    Spread.format(spread(runsOf, "receiver_acks_per_data_packet"), 1, "%.3f"));
            }
        }
        report.println();
        printWarmUps(results);
    }

    /**
     * Each contender's settle-based warm-ups: how long, how many ended with the compilers idle (the others at the
     * maximum), and the compilations that still ended inside the counted window.
     */
    private void printWarmUps(final Map<Contender, List<Map<String, Object>>> results)
    {
        boolean header = false;
        for (final Map.Entry<Contender, List<Map<String, Object>>> entry : results.entrySet())
        {
            final List<Map<String, Object>> runsOf = entry.getValue();
            if (runsOf.stream().noneMatch((r) -> r.containsKey("warmup_rule")))
            {
                continue;
            }
            if (!header)
            {
                report.println("| contender | warm-up s, sender / receiver | idle at the end, sender / receiver | " +
                    "compiler ms in the counted window, sender / receiver |");
                report.println("|---|---|---|---|");
                header = true;
            }
            report.printf("| %s | %s / %s | %d / %d of %d | %s / %s |%n", entry.getKey().label(),
                Spread.format(spread(runsOf, "sender_warmup_ms"), 1000, "%.1f"),
                Spread.format(spread(runsOf, "receiver_warmup_ms"), 1000, "%.1f"),
                runsOf.stream().filter((r) -> Boolean.parseBoolean(String.valueOf(r.get("sender_warmup_quiet"))))
                    .count(),
                runsOf.stream().filter((r) -> Boolean.parseBoolean(String.valueOf(r.get("receiver_warmup_quiet"))))
                    .count(),
                runsOf.size(),
                Spread.format(spread(runsOf, "sender_compile_ms_in_window"), 1, "%.0f"),
                Spread.format(spread(runsOf, "receiver_compile_ms_in_window"), 1, "%.0f"));
        }
        if (header)
        {
            report.println();
        }
    }

    private static boolean perMessage(final Case c)
    {
        return "messages_per_second".equals(c.metric());
    }

    private static Spread spread(final List<Map<String, Object>> runsOf, final String key)
    {
        final List<Double> values = new ArrayList<>();
        for (final Map<String, Object> result : runsOf)
        {
            if (!result.containsKey("error"))
            {
                values.add(number(result, key));
            }
        }
        return Spread.of(values);
    }

    /**
     * Each run's figure against the baseline's figure of the same repetition: a ratio, or a difference.
     */
    private static Spread paired(
        final List<Map<String, Object>> runsOf,
        final List<Map<String, Object>> baseRuns,
        final String key,
        final boolean ratio)
    {
        final List<Double> values = new ArrayList<>();
        for (final Map<String, Object> result : runsOf)
        {
            for (final Map<String, Object> base : baseRuns)
            {
                if (base.get("run").equals(result.get("run")) && !result.containsKey("error") &&
                    !base.containsKey("error"))
                {
                    values.add(ratio ? number(result, key) / number(base, key) : number(result, key) -
                        number(base, key));
                }
            }
        }
        return Spread.of(values);
    }
}
