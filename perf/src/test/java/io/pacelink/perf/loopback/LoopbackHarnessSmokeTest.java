package io.pacelink.perf.loopback;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The loopback harness starts and reports what it claims: each role run in this JVM (two threads instead of two
 * processes) prints its result line, Pacelink's receiver gets every byte its sender offered, and the suite runs
 * Aeron's processes on their own class path. Nothing here is timed.
 */
class LoopbackHarnessSmokeTest
{
    private static final long DURATION_NS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long QUIET_NS = TimeUnit.MILLISECONDS.toNanos(500);

    @Test
    void rawUdpReceiverCountsWhatTheSenderWrote() throws Exception
    {
        final InetSocketAddress address = new InetSocketAddress("127.0.0.1", freePort());
        final Output receiverOut = new Output();
        final Thread receiver = start(() -> RawUdpBulk.receive(address, QUIET_NS, receiverOut.stream));
        receiverOut.await(ResultLine.READY);
        final Output senderOut = new Output();
        RawUdpBulk.send(address, 1472, DURATION_NS, senderOut.stream);
        receiver.join();

        final Map<String, Object> sent = senderOut.result();
        final Map<String, Object> received = receiverOut.result();
        assertTrue(((Number)received.get("messages")).longValue() > 0, received.toString());
        assertTrue(((Number)sent.get("messages")).longValue() >= ((Number)received.get("messages")).longValue());
        assertEquals(0, ((Number)received.get("bytes")).longValue() % 1472);
    }

    @Test
    void pacelinkReceiverGetsEveryByteOffered() throws Exception
    {
        final InetSocketAddress address = new InetSocketAddress("127.0.0.1", freePort());
        final Output receiverOut = new Output();
        final Thread receiver = start(() ->
            PacelinkBulk.receive(address, PacelinkBulk.Mode.invoker, 1472, QUIET_NS, receiverOut.stream));
        receiverOut.await(ResultLine.READY);
        final Output senderOut = new Output();
        PacelinkBulk.send(address, PacelinkBulk.Mode.invoker, 1472, 4096, DURATION_NS, senderOut.stream);
        receiver.join();

        final Map<String, Object> sent = senderOut.result();
        final Map<String, Object> received = receiverOut.result();
        assertTrue(((Number)sent.get("bytes")).longValue() > 0, sent.toString());
        assertEquals(((Number)sent.get("bytes")).longValue(), ((Number)received.get("bytes")).longValue());
        assertEquals(((Number)sent.get("messages")).longValue(), ((Number)received.get("messages")).longValue());
        assertTrue(((Number)received.get("acks_per_data_packet")).doubleValue() > 0, received.toString());
        assertEquals("LOCAL_CLOSE", sent.get("close"), "the sender closed first, and its close ran to its end");
    }

    @Test
    void suiteRunsAeronOnItsOwnClassPathAndPrintsATable(@TempDir final Path out)
    {
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        final int status = new CommandLine(new LoopbackSuite(new PrintStream(text, true, StandardCharsets.UTF_8)))
            .execute("--cases", "small", "--only", "aeron:invoker", "--runs", "1", "--duration", "0.3",
                "--warmup", "0", "--out", out.toString());
        final String report = text.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, report);
        assertTrue(report.contains("| Aeron INVOKER, 32 B | 1 |"), report);
        assertTrue(report.contains("Counted from the first message"), "--warmup 0 counts from the first: " + report);
        assertTrue(!report.contains("FAILED"), report);
    }

    @Test
    void theSmallCaseCountsAfterBothProcessesSettledByDefaultAndSaysSo(@TempDir final Path out) throws Exception
    {
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        final int status = new CommandLine(new LoopbackSuite(new PrintStream(text, true, StandardCharsets.UTF_8)))
            .execute("--cases", "small", "--only", "aeron:invoker", "--runs", "1", "--duration", "0.3",
                "--settle-min", "0.2", "--settle-max", "1", "--settle-quiet", "0.1", "--out", out.toString());
        final String report = text.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, report);
        assertTrue(report.contains("small: the steady state: every sender sends until both processes' JIT " +
            "compilers were idle for 0.1 s (at least 0.2 s, at most 1.0 s)"), report);
        assertTrue(report.contains("| Aeron INVOKER, 32 B | 1 |"), report);
        assertTrue(report.contains("| contender | warm-up s, sender / receiver |"), report);
        assertFalse(report.contains("Counted from the first message"), report);
        assertFalse(report.contains("FAILED"), report);
        final Map<String, Object> run = ResultLine.parse(ResultLine.PREFIX +
            Files.readAllLines(out.resolve("results.jsonl"), StandardCharsets.UTF_8).get(0));
        assertNotNull(run);
        for (final String end : List.of("sender", "receiver"))
        {
            assertTrue(run.containsKey(end + "_warmup_quiet"), end + ": " + run);
            assertTrue(((Number)run.get(end + "_warmup_ms")).longValue() >= 200, end + ": " + run);
        }
    }

    @Test
    void theBulkAndSmallCasesCountTheSteadyStateByDefaultAndWarmupOverridesEveryThroughputCase()
    {
        final LoopbackSuite defaults = new LoopbackSuite(System.out);
        new CommandLine(defaults).parseArgs();
        final LoopbackSuite given = new LoopbackSuite(System.out);
        new CommandLine(given).parseArgs("--warmup", "1.5");
        final LoopbackSuite cold = new LoopbackSuite(System.out);
        new CommandLine(cold).parseArgs("--warmup", "0");
        for (final LoopbackSuite.Case c : LoopbackSuite.CASES)
        {
            final boolean ping = "p50_us".equals(c.metric());
            final boolean steady = "bulk".equals(c.name()) || "small".equals(c.name());
            assertEquals(steady ? LoopbackSuite.STEADY_STATE_WARMUP_SECONDS : 0.0, defaults.warmupSeconds(c),
                c.name());
            assertEquals(steady, c.settle(), c.name());
            assertEquals(ping ? 0.0 : 1.5, given.warmupSeconds(c), c.name() + ": a ping counts after --ping-warmup");
            assertEquals(0.0, cold.warmupSeconds(c), c.name() + ": --warmup 0 counts from the first message");
        }
        assertTrue(LoopbackSuite.STEADY_STATE_WARMUP_SECONDS > 0);
        assertTrue(LoopbackSuite.warmupPhrase(3).contains("3.0 s first"), LoopbackSuite.warmupPhrase(3));
    }

    @Test
    void settleBoundsThatCannotHoldFailBeforeAnythingRunsAndSoundOnesParse()
    {
        for (final String[] bad : new String[][] {
            { "--settle-quiet", "0" }, { "--settle-min", "-1" }, { "--settle-min", "4", "--settle-max", "3" } })
        {
            // 2: picocli's exit code for invalid input, before a child process or a socket is started.
            assertEquals(2, new CommandLine(new LoopbackSuite(System.out)).execute(bad), String.join(" ", bad));
        }
        // The other side of each limit (sound bounds run) is PerfScriptsSmokeIT's loopback run: --settle-min 0.5
        // --settle-max 2 --settle-quiet 0.3.
    }

    @Test
    void theBulkAndSmallCasesSettleForEveryContenderWithItsOwnMetersUnlessWarmupGivesAFixedWarmUp()
    {
        final LoopbackSuite defaults = new LoopbackSuite(System.out);
        new CommandLine(defaults).parseArgs("--settle-quiet", "0.5");
        final LoopbackSuite given = new LoopbackSuite(System.out);
        new CommandLine(given).parseArgs("--warmup", "3");
        final LoopbackSuite cold = new LoopbackSuite(System.out);
        new CommandLine(cold).parseArgs("--warmup", "0");
        for (final LoopbackSuite.Case c : LoopbackSuite.CASES)
        {
            final boolean steady = "bulk".equals(c.name()) || "small".equals(c.name());
            for (final LoopbackSuite.Contender contender : c.contenders())
            {
                assertEquals(steady && !"pacelink-perf".equals(contender.kind()), defaults.settles(c, contender),
                    c.name() + ", " + contender.label() + ": pacelink perf has its own meter, -O");
                assertFalse(given.settles(c, contender), contender.label() + ": --warmup is fixed");
                assertFalse(cold.settles(c, contender), contender.label() + ": --warmup 0 counts from the first");
            }
        }
        assertTrue(defaults.settleRule().contains("idle for 0.5 s (at least 3.0 s, at most 15.0 s)"),
            defaults.settleRule());
    }

    @Test
    void aSettledWarmUpCountsOnlyOnceTheSuiteSaysSoAndThenSendsForTheDuration() throws Exception
    {
        final Output out = new Output();
        final PipedOutputStream suite = new PipedOutputStream();
        final WarmUp warmUp = new WarmUp(0, TimeUnit.SECONDS.toNanos(2), TimeUnit.MILLISECONDS.toNanos(100),
            out.stream, new PipedInputStream(suite));
        final SendMeter meter = new SendMeter(0, 1_000, warmUp);
        assertFalse(meter.counting(), "a settle-based warm-up never counts from the start");
        out.await(WarmUp.SETTLED);
        meter.onSent(100);
        meter.onTime(meter.startNs() + 1);
        assertFalse(meter.counting(), "settled, but the suite has not said to count");
        assertFalse(meter.warmedUp(meter.startNs() + TimeUnit.HOURS.toNanos(1)));
        assertTrue(meter.sending(meter.startNs() + TimeUnit.HOURS.toNanos(1)), "the warm-up has no fixed end");
        suite.write((WarmUp.COUNT + "\n").getBytes(StandardCharsets.US_ASCII));
        suite.flush();
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!warmUp.count())
        {
            assertTrue(System.nanoTime() - deadlineNs < 0, "COUNT not read");
            TimeUnit.MILLISECONDS.sleep(5);
        }
        final long countNs = meter.startNs() + 10;
        meter.onTime(countNs);
        assertTrue(meter.counting());
        meter.onSent(200);
        assertTrue(meter.sending(countNs + 999));
        assertFalse(meter.sending(countNs + 1_000), "the duration runs from the count's start");
        final Map<String, Object> result = ResultLine.parse(meter.result("x", countNs + 1_000).format());
        assertNotNull(result);
        assertEquals(200L, ((Number)result.get("bytes")).longValue(), "only what was sent after COUNT");
        final long warmupMs = ((Number)result.get("warmup_ms")).longValue();
        assertTrue(warmupMs >= 0 && warmupMs <= 2_500, result.toString());
        assertTrue(result.containsKey("warmup_quiet") && result.containsKey("compile_ms_in_window"),
            result.toString());
    }

    @Test
    void aWarmUpEndsAtItsMaximumWhenTheCompilersAreNeverIdleLongEnough() throws Exception
    {
        final Output out = new Output();
        final WarmUp warmUp = new WarmUp(0, TimeUnit.MILLISECONDS.toNanos(200), TimeUnit.HOURS.toNanos(1),
            out.stream, new ByteArrayInputStream(new byte[0]));
        final ReceiveMeter meter = new ReceiveMeter(0, warmUp);
        meter.onMessage(32, 0);
        out.await(WarmUp.SETTLED);
        final String settled = out.text().lines().filter((l) -> l.startsWith(WarmUp.SETTLED)).findFirst()
            .orElseThrow();
        final Map<String, Object> line = ResultLine.parse(ResultLine.PREFIX +
            settled.substring(WarmUp.SETTLED.length()));
        assertNotNull(line);
        assertEquals("false", String.valueOf(line.get("warmup_quiet")), settled);
        assertTrue(((Number)line.get("warmup_ms")).longValue() >= 200, settled);
        // Standard input ended without COUNT: the suite is gone, and the meter counts so that the run still ends.
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!warmUp.count())
        {
            assertTrue(System.nanoTime() - deadlineNs < 0, "never counted");
            TimeUnit.MILLISECONDS.sleep(5);
        }
        meter.onTime(10);
        meter.onMessage(32, 10);
        assertEquals(1, meter.messages(), "the first message before the count is left out");
    }

    @Test
    void aReceiverWithASettleBasedWarmUpLeavesOutWhatArrivesBeforeTheCount() throws Exception
    {
        final PipedOutputStream suite = new PipedOutputStream();
        final Output out = new Output();
        final WarmUp warmUp = new WarmUp(0, TimeUnit.SECONDS.toNanos(2), TimeUnit.MILLISECONDS.toNanos(100),
            out.stream, new PipedInputStream(suite));
        final ReceiveMeter meter = new ReceiveMeter(0, warmUp);
        assertFalse(out.text().contains(WarmUp.SETTLED), "the warm-up starts with the first message");
        meter.onMessage(32, 1_000);
        meter.onMessage(32, 2_000);
        out.await(WarmUp.SETTLED);
        meter.onTime(3_000);
        meter.onMessage(32, 3_000);
        assertFalse(meter.warmedUp(3_000));
        assertEquals(0, meter.messages());
        suite.write((WarmUp.COUNT + "\n").getBytes(StandardCharsets.US_ASCII));
        suite.flush();
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!warmUp.count())
        {
            assertTrue(System.nanoTime() - deadlineNs < 0, "COUNT not read");
            TimeUnit.MILLISECONDS.sleep(5);
        }
        assertTrue(meter.warmedUp(3_500));
        meter.startCounting(3_500);
        meter.onMessage(32, 4_000);
        meter.onMessage(32, 5_000);
        assertEquals(2, meter.messages());
        final Map<String, Object> result = ResultLine.parse(meter.result("x").format());
        assertEquals(1_500L, ((Number)result.get("elapsed_ns")).longValue(), "from the count's start to the last");
        assertEquals(64L, ((Number)result.get("bytes")).longValue());
        assertTrue(result.containsKey("warmup_ms"), result.toString());
    }

    @Test
    void aSenderWithAWarmUpCountsFromItsEndAndReportsTheWholeRunBeside()
    {
        final long warmupNs = TimeUnit.MILLISECONDS.toNanos(50);
        final SendMeter warm = new SendMeter(warmupNs, Long.MAX_VALUE, null);
        final long startNs = warm.startNs();
        warm.onSent(100);
        warm.onSent(100);
        warm.onSent(100);
        warm.onTime(startNs + warmupNs - 1);
        assertFalse(warm.counting());
        warm.onTime(startNs + warmupNs);
        assertTrue(warm.counting());
        warm.onSent(100);
        warm.onSent(100);
        final Map<String, Object> result = ResultLine.parse(warm.result("x", startNs + 3 * warmupNs).format());
        assertNotNull(result);
        assertEquals(200L, ((Number)result.get("bytes")).longValue(), "the two offered after the warm-up");
        assertEquals(2L, ((Number)result.get("messages")).longValue());
        assertEquals(2 * warmupNs, ((Number)result.get("elapsed_ns")).longValue());
        assertEquals(500L, ((Number)result.get("whole_bytes")).longValue());
        assertEquals(3 * warmupNs, ((Number)result.get("whole_elapsed_ns")).longValue());
        assertTrue(result.containsKey("whole_cpu_percent") && result.containsKey("busiest_threads"), result.toString());

        final SendMeter cold = new SendMeter(0, Long.MAX_VALUE, null);
        assertTrue(cold.counting(), "no warm-up: counted from the start");
        cold.onSent(100);
        assertEquals(100L, ((Number)ResultLine.parse(cold.result("x", cold.startNs() + 10).format()).get("bytes"))
            .longValue());

        final SendMeter stoppedEarly = new SendMeter(warmupNs, Long.MAX_VALUE, null);
        stoppedEarly.onSent(100);
        final Map<String, Object> early =
            ResultLine.parse(stoppedEarly.result("x", stoppedEarly.startNs() + warmupNs / 2).format());
        assertEquals(0L, ((Number)early.get("bytes")).longValue(), "stopped inside the warm-up: nothing counted");
        assertEquals(100L, ((Number)early.get("whole_bytes")).longValue());
    }

    @Test
    void aReceiverWithAWarmUpCountsFromThatLongAfterTheFirstMessage()
    {
        final ReceiveMeter warm = new ReceiveMeter(100);
        final ReceiveMeter cold = new ReceiveMeter(0);
        for (final long nowNs : new long[] { 1_000, 1_050, 1_099, 1_100, 1_150, 1_300 })
        {
            warm.onTime(nowNs);
            warm.onMessage(32, nowNs);
            cold.onTime(nowNs);
            cold.onMessage(32, nowNs);
        }
        assertEquals(3, warm.messages(), "from 1,100 on");
        assertEquals(6, cold.messages());
        assertEquals(200L, ((Number)ResultLine.parse(warm.result("x").format()).get("elapsed_ns")).longValue());
        assertFalse(new ReceiveMeter(100).quietFor(5_000, 10), "nothing arrived yet");
        final ReceiveMeter warming = new ReceiveMeter(1_000_000);
        warming.onMessage(32, 0);
        assertEquals(0, warming.messages());
        assertTrue(warming.quietFor(500, 100), "a sender gone quiet inside the warm-up still ends the run");
    }

    @Test
    void spreadIsTheMedianAndTheRange()
    {
        assertEquals(new Spread(2.0, 1.0, 5.0, 3), Spread.of(List.of(5.0, 1.0, 2.0)));
        assertEquals(new Spread(2.5, 1.0, 5.0, 4), Spread.of(List.of(5.0, 1.0, 2.0, 3.0, Double.NaN)));
        assertNull(Spread.of(List.of()));
        assertEquals("2.00 (1.00–5.00)", Spread.format(Spread.of(List.of(5.0, 1.0, 2.0)), 1, "%.2f"));
        assertEquals("7.0", Spread.format(Spread.of(List.of(7e9)), 1e9, "%.1f"));
    }

    @Test
    void resultLinesRoundTrip()
    {
        final String line = new ResultLine().put("bytes", 42L).put("rate", 1.5).put("mode", "invoker").format();
        final Map<String, Object> parsed = ResultLine.parse(line);
        assertNotNull(parsed);
        assertEquals(42, ((Number)parsed.get("bytes")).intValue());
        assertEquals(1.5, parsed.get("rate"));
        assertEquals("invoker", parsed.get("mode"));
        assertNull(ResultLine.parse("READY"));
    }

    @Test
    void theBusiestThreadsAreRankedByTheCpuTheyUsedInTheWindow()
    {
        final Map<Long, String> before = Map.of(1L, "main\t1000000000", 2L, "C2 CompilerThre\t0");
        final Map<Long, String> after = new java.util.LinkedHashMap<>();
        after.put(1L, "main\t1500000000");
        after.put(2L, "C2 CompilerThre\t800000000");
        after.put(3L, "GC Thread#0\t100000000");
        assertEquals("C2 CompilerThre=80.0, main=50.0", ResultLine.busiestThreads(before, after, 1_000_000_000L, 2));
        assertEquals("C2 CompilerThre=80.0, main=50.0, GC Thread#0=10.0",
            ResultLine.busiestThreads(before, after, 1_000_000_000L, 5));
    }

    @Test
    void theKernelsAccountNamesThisThreadAndSplitsUserFromSystemTime()
    {
        final long[] userSystemNs = ResultLine.userSystemCpuNs("/proc/thread-self/stat");
        assertEquals(2, userSystemNs.length);
        assertTrue(userSystemNs[0] >= 0 && userSystemNs[1] >= 0, "a Linux thread has both: " + userSystemNs[0]);
        assertTrue(ResultLine.threadCpuNs().size() >= 1);
        assertEquals(-1, ResultLine.userSystemCpuNs("/nonexistent/stat")[0]);
    }

    private interface Role
    {
        void run() throws IOException;
    }

    private static Thread start(final Role role)
    {
        final Thread thread = new Thread(() ->
        {
            try
            {
                role.run();
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException(ex);
            }
        }, "receiver");
        thread.start();
        return thread;
    }

    private static int freePort() throws IOException
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    private static final class Output
    {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        void await(final String marker) throws InterruptedException
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!text().contains(marker))
            {
                assertTrue(System.nanoTime() - deadlineNs < 0, "no " + marker + " in: " + text());
                TimeUnit.MILLISECONDS.sleep(5);
            }
        }

        Map<String, Object> result()
        {
            for (final String line : text().split("\n"))
            {
                final Map<String, Object> parsed = ResultLine.parse(line);
                if (null != parsed)
                {
                    return parsed;
                }
            }
            throw new AssertionError("no result line in: " + text());
        }

        private String text()
        {
            synchronized (bytes)
            {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
