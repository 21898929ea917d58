package io.pacelink.perf.scripts;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A seconds-long run of every measuring script under {@code perf/scripts}, after the jars they run are packaged (the
 * failsafe plugin's integration-test phase), so a change that breaks a measuring tool breaks the build instead of the
 * next measurement. Nothing is timed: each run checks only that the script ran to its end and printed what its
 * readers parse. A script without a case here fails {@link #everyScriptHasASmokeRun()}.
 * <p>
 * {@code kernel-parity.sh} needs root, network namespaces, {@code iperf3} and the netem-tun emulator (environment
 * {@code NETEM_TUN}, which {@code .ci/run} builds); without them it is reported as skipped, saying which is missing.
 * <p>
 * Two runs at a time (the failsafe plugin's JUnit configuration: parallelism 2; the list below is longest first, but
 * JUnit's pool picks the order): the scripts wait on the JVMs they start as much as they compute, and each run has
 * its own output, log and configuration directory and takes its ports free from the kernel; a run that a neighbour
 * slows only takes longer. {@code kernel-parity.sh} runs alone: beside the others it took the class no less time (two
 * runs at a time already fill two cores: 167 s against 166 s alone), and its snapshot of both endpoints' counters
 * during its 2-s test ({@link #kernelParityRunsOnOnePath}) is a sample taken while the test runs (the script's stat
 * now runs at the endpoints' priority, and the test starts once it has read the server's counters).
 */
@Execution(ExecutionMode.CONCURRENT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PerfScriptsSmokeIT
{
    private static final Path REPO = Paths.get(System.getProperty("pacelink.repo", "..")).toAbsolutePath().normalize();
    private static final Path SCRIPTS = REPO.resolve("perf/scripts");
    private static final Path OUT = REPO.resolve("perf/target/script-smoke");
    private static final long TIMEOUT_S = 240;
    /**
     * Held shared by every run but kernel-parity's, which holds it alone.
     */
    private static final String MACHINE = "the machine";

    /**
     * Scripts whose smoke run is the run of another script: the report and shell helpers are run by the scripts that
     * use them.
     */
    private static final Map<String, String> RUN_BY = Map.of(
        "jfr_top.py", "sim-speed.sh (JFR=1 prints each recording's top frames with it)",
        "parity_report.py", "kernel-parity.sh (one line per test and the summary) and parityReportSummarisesRuns",
        "processes.sh", "netem-acceptance.sh and soak.sh, which source it",
        "thread_cpu.py", "kernel-parity.sh (it samples each Pacelink JVM) and threadCpuReportsEachThreadClass");

    @BeforeAll
    static void makeOutputFolder() throws IOException
    {
        Files.createDirectories(OUT);
    }

    @Test
    @ResourceLock(value = MACHINE, mode = ResourceAccessMode.READ)
    void everyScriptHasASmokeRun() throws IOException
    {
        final TreeSet<String> covered = new TreeSet<>(RUN_BY.keySet());
        smokeCases().forEach((c) -> covered.add(c.script));
        covered.add("kernel-parity.sh");
        try (Stream<Path> files = Files.list(SCRIPTS))
        {
            final List<String> missing = files.map((p) -> p.getFileName().toString())
                .filter((name) -> !covered.contains(name)).sorted().collect(Collectors.toList());
            assertEquals(List.of(), missing, "perf/scripts without a smoke run in " + getClass().getSimpleName());
        }
    }

    static Stream<SmokeCase> smokeCases()
    {
        return Stream.of(
            // Both cases for seconds and lightly (the half-open one against receive only): the acceptance figures
            // need the 60-s floods of docs/security.md, "Floods, measured".
            new SmokeCase("flood.sh", Map.of(),
                List.of("--duration", "3", "--settle", "1", "--servers", "receive", "--half-open-rate", "100",
                    "--tokened-rate", "1000", "--sources", "2", "--out", OUT.resolve("flood").toString()),
                List.of("# Flood summary", "every connect within", "the ping got every echo",
                    "answered without amplification"),
                true),
            // Every part once (a send, a perf test, a ping, the attack), lightly, so that a busy build machine does
            // not stretch it; .ci/run runs it for two minutes with its defaults as a step of its own.
            new SmokeCase("soak.sh", Map.of(),
                List.of("--duration", "6", "--senders", "1", "--connections", "2", "--attack-rate", "100",
                    "--out", OUT.resolve("soak").toString()),
                List.of("# Soak summary", "send runs all succeeded", "agent errors 0", "without amplification"),
                true),
            new SmokeCase("loopback.sh", Map.of(),
                // Short warm-ups (defaults: bulk until both processes' compilers are idle for 1 s, 3–15 s; each
                // ping client 6 s): a smoke run checks the tool, not the steady state, and the defaults alone took
                // half a minute of the suite. The settle-based hand-over itself still runs, bounded at 2 s.
                List.of("--runs", "1", "--duration", "1", "--settle-min", "0.5", "--settle-max", "2",
                    "--settle-quiet", "0.3", "--ping-warmup", "0.5", "--cases",
                    "bulk,port,ping,ping-default", "--only", "pacelink:invoker,port:batched,ping-pacelink:default",
                    "--pings", "2000", "--out", OUT.resolve("loopback").toString()),
                List.of("### bulk", "### port", "batched port, GSO on", "### ping", "### ping-default", "raw UDP",
                    "bulk: the steady state: every sender sends until both processes' JIT compilers were idle for " +
                        "0.3 s (at least 0.5 s, at most 2.0 s)", "| contender | warm-up s, sender / receiver |"),
                false),
            new SmokeCase("sim-speed.sh",
                Map.of("RUNS", "1", "DURATION", "1s", "JOBS", "2", "JFR", "1", "OUT", OUT.resolve("sim").toString()),
                List.of(), List.of("packets/wall s", "seeds at once"), false),
            new SmokeCase("cli-start.sh", Map.of(), List.of("1"), List.of("run 1 [0] ", ": --version",
                "median of 1, [0] ", ": pacelink --version", "closed port"), false),
            new SmokeCase("ecn-relay.sh",
                Map.of("BYTES", "2M", "OUT", OUT.resolve("ecn-relay").toString()),
                List.of(), List.of("| on |", "| off |", "relay marks"), true),
            new SmokeCase("netem-acceptance.sh",
                Map.of("DURATION", "3", "RUNS", "1", "CUBIC_RUNS", "1", "OUT", OUT.resolve("netem").toString()),
                List.of("busy"), List.of("received", "busy"), true),
            new SmokeCase("profile-loopback.sh",
                Map.of("JFR", "0", "OUT", OUT.resolve("profile").toString()),
                List.of("pacelink", "invoker", "1472", "131072", "2"), List.of("per data packet"), false),
            new SmokeCase("scale.sh", Map.of(),
                List.of("--connections", "20", "--concurrent", "10", "--idle", "1",
                    "--out", OUT.resolve("scale").toString()),
                List.of("connections"), false),
            new SmokeCase("relay-idle.sh", Map.of(), List.of("--runs", "1", "--idle", "1", "--port", "47320"),
                List.of("| relay (", "idle CPU, % of a core"), false),
            new SmokeCase("syscalls.sh",
                Map.of("DURATION", "1", "OUT", OUT.resolve("syscalls").toString()),
                List.of("dedicated"), List.of("| dedicated |", "per data packet"), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("smokeCases")
    @Order(2)
    @ResourceLock(value = MACHINE, mode = ResourceAccessMode.READ)
    void scriptRunsToItsEnd(final SmokeCase smoke) throws Exception
    {
        final Result result = run(smoke.script, smoke.environment, smoke.arguments);
        if (smoke.verdictMayFail)
        {
            // An acceptance script judges its figures, which a seconds-long run on a busy build machine need not
            // meet: exit 1 is a verdict, anything else a broken tool.
            assertTrue(0 == result.exitCode || 1 == result.exitCode, result.describe());
        }
        else
        {
            assertEquals(0, result.exitCode, result.describe());
        }
        for (final String expected : smoke.expectedOutput)
        {
            assertTrue(result.output.contains(expected), "no '" + expected + "' in the output: " + result.describe());
        }
    }

    @Test
    @Order(1)
    @ResourceLock(value = MACHINE, mode = ResourceAccessMode.READ_WRITE)
    void kernelParityRunsOnOnePath() throws Exception
    {
        final String netemTun = System.getenv("NETEM_TUN");
        assumeTrue(null != netemTun && Files.isExecutable(Paths.get(netemTun)),
            "NETEM_TUN is not set to the netem-tun binary (.ci/run builds it)");
        assumeTrue(isRoot(), "kernel-parity.sh needs root (network namespaces, TUN devices)");
        assumeTrue(isOnPath("iperf3"), "iperf3 is not installed (.ci/run installs it)");

        final Path out = OUT.resolve("kernel-parity");
        deleteRecursively(out);
        // The same jar as its own baseline, each with JVM options of its own (BASELINE_JAVA_OPTS): a GC log apiece.
        final Path jar = REPO.resolve("examples/target/pacelink.jar");
        final Path thisGcLog = out.resolve("this-jar-gc.log");
        final Path baselineGcLog = out.resolve("baseline-gc.log");
        final Result result = run("kernel-parity.sh",
            Map.of("NETEM_TUN", netemTun, "RUNS", "1", "DURATION", "2", "OMIT", "1", "PATHS", "clean50", "CCS",
                "cubic", "OUT", out.toString(), "BASELINE_JAR", jar.toString(),
                "JAVA_OPTS", "-Xlog:gc:file=" + thisGcLog, "BASELINE_JAVA_OPTS", "-Xlog:gc:file=" + baselineGcLog),
            List.of());
        assertEquals(0, result.exitCode, result.describe());
        assertTrue(Files.isRegularFile(thisGcLog) && Files.isRegularFile(baselineGcLog),
            "each jar's processes did not run with their own JVM options: " + result.describe());
        assertTrue(result.output.contains("this jar / baseline"), "no baseline table: " + result.describe());
        assertTrue(result.output.contains("| clean50 | cubic | 1 |"), "no summary row of one whole run: " +
            result.describe());
        assertTrue(result.output.contains("| clean50 | cubic | 1.0 |"), "no whole-test CPU row after OMIT=1: " +
            result.describe());
        assertTrue(Files.isRegularFile(out.resolve("summary.md")), "no summary.md in " + out);
        // Both endpoints' counters, read while the test ran (a snapshot taken too late is empty).
        final Path stat = out.resolve("clean50/cubic/run1/pacelink/stat.json");
        final String snapshot = Files.readString(stat, StandardCharsets.UTF_8);
        assertEquals(2, snapshot.split("\"status\": \"alive\"", -1).length - 1,
            "pacelink stat did not see both live endpoints of the test: " + stat + "\n" + snapshot);
    }

    @Test
    @ResourceLock(value = MACHINE, mode = ResourceAccessMode.READ)
    void parityReportSummarisesRuns() throws Exception
    {
        // The shape both tools write (iperf3's -J): what kernel-parity.sh leaves per test, for a 2 s run of each.
        final Path out = OUT.resolve("parity-report");
        for (final String system : List.of("kernel", "pacelink"))
        {
            final Path test = Files.createDirectories(out.resolve("clean50/cubic/run1/" + system));
            Files.writeString(test.resolve("client.json"), "{\"end\": {" +
                "\"sum_sent\": {\"bytes\": 12500000, \"seconds\": 2.0, \"retransmits\": 3}," +
                "\"sum_received\": {\"bits_per_second\": " + ("kernel".equals(system) ? "50000000" : "45000000") +
                ", \"seconds\": 2.0}, \"cpu_utilization_percent\": {\"host_total\": 5.0, \"remote_total\": 10.0}," +
                "\"streams\": [{\"sender\": {\"min_rtt\": 40100, \"mean_rtt\": 41000}}]}}");
            Files.writeString(test.resolve("client.time"), "2.5 0.4 0.1\n");
            Files.writeString(test.resolve("server.time"), "2.6 0.2 0.1\n");
            Files.writeString(test.resolve("loadavg.start"), "0.10 0.20 0.30\n");
        }
        // A run with OMIT=3: Pacelink's report says so and adds the whole test's CPU beside the measured seconds'.
        for (final String system : List.of("kernel", "pacelink"))
        {
            final Path test = Files.createDirectories(out.resolve("clean50/bbr/run1/" + system));
            Files.writeString(test.resolve("client.json"), "{\"start\": {\"test_start\": {\"omit\": 3}}, \"end\": {" +
                "\"sum_sent\": {\"bytes\": 12500000, \"seconds\": 2.0}," +
                "\"sum_received\": {\"bits_per_second\": 50000000, \"seconds\": 2.0}, \"cpu_utilization_percent\": " +
                "{\"host_total\": 5.0, \"remote_total\": 4.0" +
                ("pacelink".equals(system) ?
                    ", \"host_total_whole_test\": 20.0, \"remote_total_whole_test\": 15.0" : "") +
                "}}}");
        }
        final Result result = run("parity_report.py", Map.of(), List.of("summary", out.toString()));
        assertEquals(0, result.exitCode, result.describe());
        assertTrue(result.output.contains("| clean50 | cubic | 1 | 50.0 (50.0–50.0) | 45.0 (45.0–45.0) | 0.90"),
            "no summary row with the ratio: " + result.describe());
        assertTrue(result.output.contains("| clean50 | bbr | 3.0 | 20.0 (20.0–20.0) | 15.0 (15.0–15.0) |"),
            "no whole-test CPU row for the omitted run: " + result.describe());
    }

    @Test
    @ResourceLock(value = MACHINE, mode = ResourceAccessMode.READ)
    void threadCpuReportsEachThreadClass() throws Exception
    {
        // Two samples 10 s apart of a JVM's threads (name, user + system ticks at 100 per second), as `watch` writes
        // them: the main thread used 1 s, C2 2 s, GC 0.5 s between them; a thread that exited before the window
        // (the last one) must not count in it.
        final Path samples = Files.createDirectories(OUT.resolve("thread-cpu")).resolve("client.threads.json");
        Files.writeString(samples, "{\"pid\": 1, \"clk_tck\": 100, \"samples\": [" +
            "{\"t\": 1000.0, \"threads\": {\"1\": [\"java\", 50], \"2\": [\"C2 CompilerThre\", 300]," +
            " \"3\": [\"GC Thread#0\", 10], \"4\": [\"pacelink-perf-c\", 40]}}," +
            "{\"t\": 1010.0, \"threads\": {\"1\": [\"java\", 150], \"2\": [\"C2 CompilerThre\", 500]," +
            " \"3\": [\"GC Thread#0\", 60]}}]}");
        final Result result = run("thread_cpu.py", Map.of(), List.of("report", samples.toString(), "1000", "1010"));
        assertEquals(0, result.exitCode, result.describe());
        assertTrue(result.output.contains("main 1.50 s  agent 0.00 s  jit-c2 5.00 s  jit-c1 0.00 s  gc 0.60 s  " +
            "jvm 0.40 s"), "no whole-life line: " + result.describe());
        assertTrue(result.output.contains("window (10.0 s): main 10.0 %  agent 0.0 %  jit-c2 20.0 %  jit-c1 0.0 %  " +
            "gc 5.0 %  jvm 0.0 %"), "no window line: " + result.describe());
    }

    private static Result run(final String script, final Map<String, String> environment, final List<String> args)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(SCRIPTS.resolve(script).toString());
        command.addAll(args);
        final Path log = OUT.resolve(script + ".log");
        final ProcessBuilder builder = new ProcessBuilder(command).directory(REPO.toFile())
            .redirectErrorStream(true).redirectOutput(log.toFile());
        // The tools' host key and known hosts go with the run's output, never to the user's ~/.config/pacelink; one
        // directory per script, as two run at once.
        builder.environment().put("XDG_CONFIG_HOME", OUT.resolve("config").resolve(script).toString());
        builder.environment().putAll(environment);
        final Process process = builder.start();
        if (!process.waitFor(TIMEOUT_S, TimeUnit.SECONDS))
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            fail(script + " did not finish within " + TIMEOUT_S + " s; output in " + log);
        }
        return new Result(script, process.exitValue(), Files.readString(log, StandardCharsets.UTF_8), log);
    }

    private static void deleteRecursively(final Path folder) throws IOException
    {
        if (Files.exists(folder))
        {
            try (Stream<Path> paths = Files.walk(folder))
            {
                for (final Path path : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList()))
                {
                    Files.delete(path);
                }
            }
        }
    }

    private static boolean isRoot() throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
        final String uid = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return 0 == process.waitFor() && "0".equals(uid);
    }

    private static boolean isOnPath(final String tool) throws IOException, InterruptedException
    {
        return 0 == new ProcessBuilder("sh", "-c", "command -v " + tool).start().waitFor();
    }

    static final class SmokeCase
    {
        final String script;
        final Map<String, String> environment;
        final List<String> arguments;
        final List<String> expectedOutput;
        final boolean verdictMayFail;

        SmokeCase(
            final String script,
            final Map<String, String> environment,
            final List<String> arguments,
            final List<String> expectedOutput,
            final boolean verdictMayFail)
        {
            this.script = script;
            this.environment = environment;
            this.arguments = arguments;
            this.expectedOutput = expectedOutput;
            this.verdictMayFail = verdictMayFail;
        }

        public String toString()
        {
            return script + " " + String.join(" ", arguments);
        }
    }

    private static final class Result
    {
        final String script;
        final int exitCode;
        final String output;
        final Path log;

        Result(final String script, final int exitCode, final String output, final Path log)
        {
            this.script = script;
            this.exitCode = exitCode;
            this.output = output;
            this.log = log;
        }

        String describe()
        {
            final String tail = output.length() > 3000 ? output.substring(output.length() - 3000) : output;
            return script + " exited " + exitCode + " (log " + log + "):\n" + tail;
        }
    }
}
