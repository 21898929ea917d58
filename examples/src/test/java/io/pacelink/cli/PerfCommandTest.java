package io.pacelink.cli;

import io.pacelink.transport.Connection;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pacelink perf} and {@code pacelink ping} between processes over loopback: a server in a JVM of its own,
 * clients in others (or in this one), checked for what they report and how they end, never for speed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PerfCommandTest
{
    private static final long START_TIMEOUT_MS = 30_000;
    private static final long RUN_TIMEOUT_SECONDS = 60;
    private static final String LISTENING = "Server listening on 127\\.0\\.0\\.1 port (\\d+)";
    private static final long MIB = 1L << 20;
    private static final long LINGER_BOUND_MS = 1_500;

    private static ChildCommand server;
    private static String port;

    @TempDir
    Path directory;

    @BeforeAll
    static void startServer() throws Exception
    {
        server = ChildCommand.start("perf", "-s", "-B", "127.0.0.1", "-p", "0");
        port = server.await(LISTENING, START_TIMEOUT_MS);
    }

    @AfterAll
    static void stopServer()
    {
        server.close();
    }

    @Test
    void fourParallelStreamsFromABoundAddressReportIperf3ShapedJson() throws Exception
    {
        final ChildCommand client = ChildCommand.start("perf", "-c", "127.0.0.1", "-p", port, "-B", "127.0.0.1",
            "-P", "4", "-t", "2", "-i", "0.5", "-C", "bbr", "-J");
        assertEquals(0, client.waitFor(RUN_TIMEOUT_SECONDS), client.err());
        final Map<String, Object> report = MiniJson.object(MiniJson.parse(client.out()));

        final Map<String, Object> start = MiniJson.object(report.get("start"));
        final List<Object> connected = MiniJson.list(start.get("connected"));
        assertEquals(4, connected.size());
        for (final Object stream : connected)
        {
            assertEquals("127.0.0.1", MiniJson.object(stream).get("local_host"), "bound with -B");
            assertEquals(Double.parseDouble(port), MiniJson.object(stream).get("remote_port"));
        }
        assertEquals(4.0, MiniJson.object(start.get("test_start")).get("num_streams"));
        assertEquals(Double.parseDouble(port), MiniJson.object(start.get("connecting_to")).get("port"));

        final List<Object> intervals = MiniJson.list(report.get("intervals"));
        assertTrue(intervals.size() >= 3, "0.5 s intervals over 2 s: " + intervals.size());
        for (final Object interval : intervals)
        {
            final List<Object> streams = MiniJson.list(MiniJson.object(interval).get("streams"));
            assertEquals(4, streams.size());
            final Map<String, Object> first = MiniJson.object(streams.get(0));
            for (final String key : List.of("socket", "start", "end", "seconds", "bytes", "bits_per_second",
                "retransmits", "snd_cwnd", "rtt", "sender"))
            {
                assertTrue(first.containsKey(key), key + " in " + first);
            }
            assertEquals(true, first.get("sender"));
            assertTrue(MiniJson.object(first.get("pacelink")).containsKey("pacing_rate_bps"));
            assertTrue(MiniJson.object(interval).containsKey("sum"));
        }

        final Map<String, Object> end = MiniJson.object(report.get("end"));
        final List<Object> streams = MiniJson.list(end.get("streams"));
        assertEquals(4, streams.size());
        double receivedBytes = 0;
        for (final Object stream : streams)
        {
            final Map<String, Object> sender = MiniJson.object(MiniJson.object(stream).get("sender"));
            final Map<String, Object> receiver = MiniJson.object(MiniJson.object(stream).get("receiver"));
            assertTrue((Double)sender.get("bytes") > 0);
            assertEquals(sender.get("bytes"), receiver.get("bytes"), "every byte offered arrived: " + stream);
            assertTrue(sender.containsKey("max_snd_cwnd") && sender.containsKey("min_rtt"), sender.toString());
            receivedBytes += (Double)receiver.get("bytes");
        }
        final Map<String, Object> sumSent = MiniJson.object(end.get("sum_sent"));
        final Map<String, Object> sumReceived = MiniJson.object(end.get("sum_received"));
        assertEquals(receivedBytes, sumReceived.get("bytes"));
        assertEquals(sumSent.get("bytes"), sumReceived.get("bytes"));
        assertEquals("bbr", end.get("sender_tcp_congestion"));
        assertEquals("bbr", end.get("receiver_tcp_congestion"), "the server (cubic by default) ran bbr, as asked");
        assertTrue(MiniJson.object(end.get("cpu_utilization_percent")).containsKey("remote_total"));
        assertTrue(!report.containsKey("error"), report.toString());
    }

    @Test
    void twoClientsAtOnceGetTheirOwnReports() throws Exception
    {
        final ChildCommand reverse = ChildCommand.start("perf", "-c", "127.0.0.1", "-p", port, "-R", "-t", "2",
            "--get-server-output");
        final ChildCommand bidir = ChildCommand.start("perf", "-c", "127.0.0.1", "-p", port, "--bidir", "-P", "2",
            "-n", "8M", "-l", "64K", "-J");
        assertEquals(0, reverse.waitFor(RUN_TIMEOUT_SECONDS), reverse.err());
        assertEquals(0, bidir.waitFor(RUN_TIMEOUT_SECONDS), bidir.err());

        final String text = reverse.out();
        assertTrue(text.contains("Reverse mode, remote host 127.0.0.1 is sending"), text);
        assertTrue(Pattern.compile("\\[  1] +0\\.00-\\S+ +sec .* sender").matcher(text).find(), text);
        assertTrue(Pattern.compile("\\[  1] +0\\.00-\\S+ +sec .* receiver").matcher(text).find(), text);
        assertTrue(text.contains("Server output:"), text);
        assertTrue(text.contains("Reverse mode: this server sends"), "the server's own report: " + text);

        final Map<String, Object> report = MiniJson.object(MiniJson.parse(bidir.out()));
        final Map<String, Object> end = MiniJson.object(report.get("end"));
        assertEquals(4, MiniJson.list(end.get("streams")).size());
        for (final String sum : List.of("sum_sent", "sum_received", "sum_sent_bidir_reverse",
            "sum_received_bidir_reverse"))
        {
            assertEquals((double)(8 * MIB), MiniJson.object(end.get(sum)).get("bytes"), sum + " of -n 8M");
        }
        final List<Object> interval = MiniJson.list(MiniJson.object(MiniJson.list(report.get("intervals")).get(0))
            .get("streams"));
        assertEquals(List.of(true, true, false, false),
            interval.stream().map((stream) -> MiniJson.object(stream).get("sender")).toList(),
            "the client sends on the first two, the server on the others");

        final String serverOutput = server.out();
        final Matcher tests = Pattern.compile("Accepted connection from 127\\.0\\.0\\.1, port \\d+ \\(test (\\d+)")
            .matcher(serverOutput);
        int accepted = 0;
        while (tests.find())
        {
            accepted++;
        }
        assertTrue(accepted >= 2, serverOutput);
        assertNotEquals(MiniJson.object(report.get("start")).get("cookie"), null);
    }

    @Test
    void omittedSecondsRunButStayOutOfTheTotalsAndTheCpuFigureWhichIsAlsoGivenWhole() throws Exception
    {
        final ChildCommand client = ChildCommand.start("perf", "-c", "127.0.0.1", "-p", port, "-t", "1", "-O", "1",
            "-i", "0.5", "-J");
        final ChildCommand reverse = ChildCommand.start("perf", "-c", "127.0.0.1", "-p", port, "-R", "-t", "1",
            "--omit", "500ms", "-i", "0.25", "--get-server-output");
        assertEquals(0, client.waitFor(RUN_TIMEOUT_SECONDS), client.err());
        assertEquals(0, reverse.waitFor(RUN_TIMEOUT_SECONDS), reverse.err());

        final Map<String, Object> report = MiniJson.object(MiniJson.parse(client.out()));
        assertEquals(1.0, MiniJson.object(MiniJson.object(report.get("start")).get("test_start")).get("omit"));
        int omitted = 0;
        int measured = 0;
        double measuredBytes = 0;
        for (final Object interval : MiniJson.list(report.get("intervals")))
        {
            final Map<String, Object> sum = MiniJson.object(MiniJson.object(interval).get("sum"));
            final boolean isOmitted = (Double)sum.get("start") < 1.0;
            assertEquals(isOmitted, sum.get("omitted"), "an interval starting in the first second is omitted: " + sum);
            omitted += isOmitted ? 1 : 0;
            measured += isOmitted ? 0 : 1;
            measuredBytes += isOmitted ? 0 : (Double)sum.get("bytes");
        }
        assertTrue(omitted >= 2 && measured >= 2, "0.5 s intervals over 1 + 1 s: " + report.get("intervals"));
        final Map<String, Object> end = MiniJson.object(report.get("end"));
        final Map<String, Object> sumSent = MiniJson.object(end.get("sum_sent"));
        assertTrue((Double)sumSent.get("start") >= 1.0 && (Double)sumSent.get("end") >= 2.0, sumSent.toString());
        assertEquals(measuredBytes, sumSent.get("bytes"), "the totals are the measured intervals' sum");
        assertTrue((Double)MiniJson.object(end.get("sum_received")).get("bytes") > 0, end.toString());
        final Map<String, Object> cpu = MiniJson.object(end.get("cpu_utilization_percent"));
        for (final String key : List.of("host_total", "remote_total", "host_total_whole_test",
            "remote_total_whole_test"))
        {
            assertTrue(cpu.get(key) instanceof Double, key + " in " + cpu);
        }
        assertTrue(!report.containsKey("error"), report.toString());

        final String text = reverse.out();
        // The first interval line is omitted; where it ends is the interval clock's (0.25 s, later when the machine
        // is loaded: 0.27 was seen beside six builds).
        assertTrue(Pattern.compile("\\[  1] +0\\.00-0\\.\\d\\d +sec .*\\(omitted\\)").matcher(text).find(), text);
        // The receiver's total starts where its last omitted interval ended: the first interval boundary at or after
        // the omitted half second (0.50 on an idle machine; 0.64 was seen at a load of 10, its interval stretched),
        // and ends when the last byte arrived, later on a loaded machine (a drain of 1.8 s was seen beside a build).
        final String clientLines = text.substring(0, Math.max(0, text.indexOf("Server output:")));
        final Matcher omittedLine = Pattern.compile("\\[  1] +\\d+\\.\\d\\d-(\\d+\\.\\d\\d) +sec .*\\(omitted\\)")
            .matcher(clientLines);
        String omitEnd = null;
        while (omittedLine.find())
        {
            omitEnd = omittedLine.group(1);
        }
        assertTrue(null != omitEnd && Double.parseDouble(omitEnd) >= 0.5, "omitted intervals up to 0.5 s: " + text);
        assertTrue(Pattern.compile("\\[  1] +" + Pattern.quote(omitEnd) + "-\\d+\\.\\d\\d +sec .* receiver")
            .matcher(clientLines).find(), "the totals start after the omitted half second, at " + omitEnd + ": " +
            text);
        assertTrue(text.contains("CPU use (of one core, after the 0.5 s omitted): here "), text);
        assertTrue(text.contains("CPU use (of one core, over the whole test): here "), text);
        assertTrue(Pattern.compile("Server output:[\\s\\S]*\\(omitted\\)[\\s\\S]*after the 0\\.5 s omitted")
            .matcher(text).find(), "the sending server omits the same half second: " + text);
    }

    @Test
    void pingPrintsOneLinePerEchoAndPercentiles() throws Exception
    {
        final ChildCommand ping = ChildCommand.start("ping", "127.0.0.1", "-p", port, "-c", "5", "-i", "0.05");
        assertEquals(0, ping.waitFor(RUN_TIMEOUT_SECONDS), ping.err());
        final String text = ping.out();
        for (int sequence = 1; sequence <= 5; sequence++)
        {
            assertTrue(Pattern.compile("56 bytes from 127\\.0\\.0\\.1:" + port + ": seq=" + sequence +
                " time=\\d+\\.\\d{3} ms").matcher(text).find(), text);
        }
        // iputils ping's summary, then the percentiles.
        final Matcher summary = Pattern.compile("--- 127\\.0\\.0\\.1:" + port + " ping statistics ---\n" +
            "5 packets transmitted, 5 received, 0% packet loss, time (\\d+)ms\n" +
            "rtt min/avg/max/mdev = ([\\d.]+)/([\\d.]+)/([\\d.]+)/([\\d.]+) ms\n").matcher(text);
        assertTrue(summary.find(), text);
        final double min = Double.parseDouble(summary.group(2));
        final double avg = Double.parseDouble(summary.group(3));
        final double max = Double.parseDouble(summary.group(4));
        assertTrue(min <= avg && avg <= max && Double.parseDouble(summary.group(5)) <= max - min, text);
        // ping's time runs from the first request to the last echo: four intervals of 50 ms and a round trip, not the
        // close that follows (which once added seconds).
        assertTrue(Long.parseLong(summary.group(1)) < 2_000, text);
        assertTrue(Pattern.compile("rtt min/p50/p90/p99/p99\\.9/max = [\\d.]+/[\\d.]+/[\\d.]+/[\\d.]+/[\\d.]+/" +
            "[\\d.]+ ms").matcher(text).find(), text);
        assertLingersBriefly(ping);
    }

    @Test
    void aClientExitsRightAfterItsSummary() throws Exception
    {
        final ChildCommand client = ChildCommand.start("perf", "-c", "127.0.0.1", "-p", port, "-t", "1");
        assertEquals(0, client.waitFor(RUN_TIMEOUT_SECONDS), client.err());
        assertTrue(client.out().contains(" receiver"), client.out());
        assertLingersBriefly(client);
    }

    @Test
    void aClosedPortFailsAtOnceWithTheTransportsReason() throws Exception
    {
        final String closedPort = Integer.toString(unusedPort());
        // A connect timeout far longer than the test waits: only the ICMP port-unreachable report can end these.
        final String unreachable = "cannot connect to 127.0.0.1:" + closedPort + ": the peer is unreachable: nothing " +
            "listens on its port (ICMP port unreachable)";
        final ChildCommand perf = ChildCommand.start("perf", "-c", "127.0.0.1", "-p", closedPort, "-t", "1",
            "--connect-timeout", "60s");
        final ChildCommand ping = ChildCommand.start("ping", "127.0.0.1:" + closedPort, "-c", "1");
        final ChildCommand send = ChildCommand.start("send", Files.writeString(directory.resolve("x.txt"), "x")
            .toString(), "127.0.0.1:" + closedPort);
        for (final ChildCommand command : List.of(perf, ping, send))
        {
            assertEquals(1, command.waitFor(RUN_TIMEOUT_SECONDS), command.out() + command.err());
            assertTrue((command.out() + command.err()).contains(unreachable), command.out() + command.err());
            assertLingersBriefly(command);
        }
        assertEquals(1, perf.err().lines().filter((line) -> line.contains(unreachable)).count(),
            "the error is printed once: " + perf.out() + perf.err());
    }

    /**
     * A command ends right after its last line: no linger for a close that confirms nothing more, no draining
     * period. The bound is far above the tens of milliseconds a JVM takes to exit and far below the seconds those
     * waits took.
     */
    private static void assertLingersBriefly(final ChildCommand command)
    {
        final long lingerMs = command.msFromLastOutputToExit();
        assertTrue(lingerMs < LINGER_BOUND_MS, "exited " + lingerMs + " ms after its last line: " + command.out());
    }

    @Test
    void rawUdpPingAgainstTheRawEchoIsTheBaseline() throws Exception
    {
        try (ChildCommand echo = ChildCommand.start("ping", "--echo", "--raw-udp", "-B", "127.0.0.1", "-p", "0"))
        {
            final String echoPort = echo.await("UDP echo listening on /127\\.0\\.0\\.1:(\\d+)", START_TIMEOUT_MS);
            final CommandRun ping = CommandRun.of("ping", "--raw-udp", "127.0.0.1:" + echoPort, "-c", "200", "-i",
                "0", "--json");
            assertEquals(0, ping.exitCode(), ping.err());
            final Map<String, Object> json = MiniJson.object(MiniJson.parse(ping.out().trim()));
            assertEquals("udp", json.get("transport"));
            assertEquals(200.0, json.get("echoes"));
            final Map<String, Object> rtt = MiniJson.object(json.get("rtt_us"));
            assertEquals(200.0, rtt.get("count"), "no interval, no correction");
            assertTrue((Double)rtt.get("min") <= (Double)rtt.get("p50") &&
                (Double)rtt.get("p50") <= (Double)rtt.get("p99_9") &&
                (Double)rtt.get("p99_9") <= (Double)rtt.get("max"), rtt.toString());
        }
    }

    @Test
    void aTimedWarmUpKeepsSendingUncountedRequestsUntilBothItsCountAndItsTimeAreReached() throws Exception
    {
        try (ChildCommand echo = ChildCommand.start("ping", "--echo", "--raw-udp", "-B", "127.0.0.1", "-p", "0"))
        {
            final String echoPort = echo.await("UDP echo listening on /127\\.0\\.0\\.1:(\\d+)", START_TIMEOUT_MS);
            final CommandRun timed = CommandRun.of("ping", "--raw-udp", "127.0.0.1:" + echoPort, "-c", "20", "-i",
                "0", "--warmup", "3", "--warmup-time", "300ms", "--json");
            assertEquals(0, timed.exitCode(), timed.err());
            final Map<String, Object> json = MiniJson.object(MiniJson.parse(timed.out().trim()));
            assertTrue((Double)json.get("warmup_s") >= 0.3, "the time is the lower bound: " + json);
            assertTrue((Double)json.get("warmup") > 3, "more than the count within 300 ms: " + json);
            assertEquals(20.0, json.get("requests"), "warm-up requests are not counted");
            assertEquals(20.0, MiniJson.object(json.get("rtt_us_measured")).get("count"));

            final CommandRun counted = CommandRun.of("ping", "--raw-udp", "127.0.0.1:" + echoPort, "-c", "5", "-i",
                "0", "--warmup", "7", "--json");
            assertEquals(0, counted.exitCode(), counted.err());
            final Map<String, Object> countOnly = MiniJson.object(MiniJson.parse(counted.out().trim()));
            assertEquals(7.0, countOnly.get("warmup"), "no time given: the count alone");
            assertEquals(5.0, countOnly.get("requests"));
        }
    }

    @Test
    void aOneOffJsonServerServesOneTestThenExitsAndTheClientWritesItsLogAndPlot() throws Exception
    {
        try (ChildCommand oneOff = ChildCommand.start("perf", "-s", "-1", "-J", "-B", "127.0.0.1", "-p", "0"))
        {
            final String oneOffPort = oneOff.await(LISTENING, START_TIMEOUT_MS);
            final Path log = directory.resolve("perf.log");
            final Path plot = directory.resolve("perf.svg");
            final CommandRun client = CommandRun.of("perf", "-c", "127.0.0.1", "-p", oneOffPort, "-t", "1.5", "-i",
                "0.25", "-b", "20M", "-C", "cubic", "--logfile", log.toString(), "--plot", plot.toString());
            assertEquals(0, client.exitCode(), client.err());
            assertEquals("", client.out(), "everything went to the log file");
            final String text = Files.readString(log, StandardCharsets.UTF_8);
            assertTrue(text.contains("each sender limited to 20.0 Mbits/sec"), text);
            assertTrue(text.contains(" sender") && text.contains(" receiver"), text);
            final String svg = Files.readString(plot, StandardCharsets.UTF_8);
            assertTrue(svg.startsWith("<?xml") && svg.contains("stream 1") && svg.contains("cwnd (kB)"),
                svg.substring(0, Math.min(200, svg.length())));

            assertEquals(0, oneOff.waitFor(RUN_TIMEOUT_SECONDS), "-1: the server exits after one test");
            final List<String> lines = oneOff.out().lines().toList();
            assertEquals(1, lines.size(), "one JSON document per test, on one line: " + oneOff.out());
            final Map<String, Object> serverReport = MiniJson.object(MiniJson.parse(lines.get(0)));
            assertTrue(MiniJson.object(serverReport.get("start")).containsKey("accepted_connection"));
            final Map<String, Object> received = MiniJson.object(MiniJson.object(serverReport.get("end"))
                .get("sum_received"));
            assertTrue((Double)received.get("bytes") > 0, received.toString());
            // Application-limited at 20 Mbit/s: far below what loopback carries, with room for the start's burst.
            assertTrue((Double)received.get("bits_per_second") < 40e6, received.toString());
        }
    }

    @Test
    void theAotTrainingServesItsOwnTestsOnLoopbackOneOffServerPerControllerInTheSameProcess()
    {
        // -p is not used: each one-off server takes a free port, which its client is given.
        final CommandRun training = CommandRun.of("perf", "-c", "127.0.0.1", "-p", "1", "--aot-training",
            "bbr,cubic", "-t", "0.5", "-i", "0", "--prime", "0s", "--insecure");
        assertEquals(0, training.exitCode(), training.out() + training.err());
        final String out = training.out();
        assertTrue(out.contains("cc bbr,") && out.contains("cc cubic,"), "one test per controller, in order: " + out);
        assertTrue(out.indexOf("cc bbr,") < out.indexOf("cc cubic,"), out);
        assertEquals(2, out.lines().filter((line) -> line.endsWith(" receiver")).count(), out);
        assertTrue(!out.contains("port 1\n") && !out.contains("port 1 "), "not the port given: " + out);
    }

    @Test
    void noServerFailsWithAReason() throws IOException
    {
        // A socket that takes datagrams and never answers: no ICMP report, so only the connect timeout ends it.
        try (DatagramSocket silent = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            final String silentPort = Integer.toString(silent.getLocalPort());
            final CommandRun perf = CommandRun.of("perf", "-c", "127.0.0.1", "-p", silentPort, "-t", "1",
                "--connect-timeout", "1s");
            assertEquals(1, perf.exitCode(), perf.out());
            assertTrue(perf.err().contains("cannot connect to 127.0.0.1:" + silentPort + ": no answer within 1") &&
                perf.err().contains("is `pacelink perf -s` running there"), perf.err());
            assertTrue(!perf.out().contains(silentPort + ": no answer"), "printed once, on stderr: " + perf.out());

            final CommandRun json = CommandRun.of("perf", "-c", "127.0.0.1", "-p", silentPort, "-t", "1",
                "--connect-timeout", "500ms", "-J");
            assertEquals(1, json.exitCode());
            assertTrue(((String)MiniJson.object(MiniJson.parse(json.out().trim())).get("error")).contains("no answer"),
                json.out());
        }
    }

    @Test
    void aServerThatClosesEarlyFailsTheTestSayingSo() throws Exception
    {
        // A stand-in server: accepts the client's connections (control and data, in whatever order their handshakes
        // end), reads the hello on the control connection, and closes it.
        try (Endpoint fake = Endpoint.launch(new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .countersFile(false)))
        {
            final Thread closer = new Thread(() ->
            {
                final List<Connection> accepted = new ArrayList<>();
                while (true)
                {
                    final Connection connection = fake.accept();
                    if (null != connection)
                    {
                        accepted.add(connection);
                    }
                    for (final Connection candidate : accepted)
                    {
                        if (candidate.poll((buffer, offset, length) -> { }, 1) > 0)
                        {
                            candidate.close();
                            return;
                        }
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
            }, "fake-server");
            closer.setDaemon(true);
            closer.start();
            // The stand-in has no key: the client runs plaintext too.
            final CommandRun perf = CommandRun.of("perf", "-c", "127.0.0.1", "-p",
                Integer.toString(fake.localAddress().getPort()), "-t", "1", "--insecure");
            assertEquals(1, perf.exitCode(), perf.out());
            assertTrue(perf.err().contains("the server closed the connection early while waiting for the server to " +
                "accept the test"), perf.err());
        }
    }

    @Test
    void badArgumentsFailFastWithStatusTwo()
    {
        assertUsageError("give either -s (server) or -c HOST", "perf");
        assertUsageError("give either -s (server) or -c HOST", "perf", "-s", "-c", "127.0.0.1");
        assertUsageError("-P must be 1..", "perf", "-c", "127.0.0.1", "-P", "0");
        assertUsageError("give -t or -n, not both", "perf", "-c", "127.0.0.1", "-t", "5", "-n", "1M");
        assertUsageError("-t is a client option", "perf", "-s", "-t", "5");
        assertUsageError("-R and --bidir exclude each other", "perf", "-c", "127.0.0.1", "-R", "--bidir");
        assertUsageError("no congestion controller named 'nosuch'", "perf", "-c", "127.0.0.1", "-C", "nosuch");
        assertUsageError("is not a rate in bits per second", "perf", "-c", "127.0.0.1", "-b", "10MB/s");
        assertUsageError("-l must be 1 B..", "perf", "-c", "127.0.0.1", "-l", "2M");
        assertUsageError("Expected parameter for option '--omit'", "perf", "-c", "127.0.0.1", "--omit", "-1");
        assertUsageError("--omit: ", "perf", "-c", "127.0.0.1", "-O", "soon");
        assertUsageError("--omit must be 0..600 seconds", "perf", "-c", "127.0.0.1", "-O", "601");
        assertUsageError("--omit needs a timed test (-t), not -n", "perf", "-c", "127.0.0.1", "-O", "2", "-n", "1M");
        assertUsageError("-O is a client option", "perf", "-s", "--omit", "2");
        assertUsageError("-i must be 0 (no interval reports) or 0.1..60 seconds", "perf", "-c", "127.0.0.1", "-i",
            "0.000001");
        assertUsageError("-i must be 0 (no interval reports) or 0.1..60 seconds", "perf", "-c", "127.0.0.1", "-i",
            "61");
        assertUsageError("-t must be at most 86400 seconds", "perf", "-c", "127.0.0.1", "-t", "86401");
        assertUsageError("--plot draws the interval reports", "perf", "-c", "127.0.0.1", "-i", "0", "--plot",
            "x.svg");
        assertUsageError("--prime must be 0..60 seconds", "perf", "-c", "127.0.0.1", "--prime", "61s");
        assertUsageError("--prime must be 0..60 seconds", "perf", "-s", "--prime", "1h");
        assertUsageError("Expected parameter for option '--prime'", "perf", "-c", "127.0.0.1", "--prime", "-1s");
        assertUsageError("--aot-training serves on loopback: give -c 127.0.0.1, not 192.0.2.7", "perf", "-c",
            "192.0.2.7", "--aot-training", "bbr");
        assertUsageError("--aot-training names the controllers: give it or -C, not both", "perf", "-c", "127.0.0.1",
            "--aot-training", "bbr", "-C", "cubic");
        assertUsageError("no congestion controller named 'nosuch'", "perf", "-c", "127.0.0.1", "--aot-training",
            "bbr,nosuch");
        assertUsageError("-1 is a server option", "perf", "-c", "127.0.0.1", "--aot-training", "bbr", "-1");
        assertUsageError("'nonsense' is not name=value", "perf", "-c", "127.0.0.1", "--qdisc-params", "nonsense");
        assertUsageError("'fq.quantum=' is not name=value", "perf", "-s", "--qdisc-params", "fq.quantum=");
        assertUsageError("'=0' is not name=value", "perf", "-c", "127.0.0.1", "--cc-params", "bbr.extraAckedGain=1,=0");
        assertUsageError("give either HOST[:PORT] to ping, or --echo", "ping");
        assertUsageError("-s must be 8..65000 bytes", "ping", "127.0.0.1", "-s", "4");
        assertUsageError("'x' is not a duration", "ping", "127.0.0.1", "-i", "x");
        assertUsageError("'-1s' is negative", "ping", "127.0.0.1", "--warmup-time=-1s");
        assertUsageError("give the server's port once: 127.0.0.1:7 already names one, so -p 9 is not used", "ping",
            "127.0.0.1:7", "-p", "9");
    }

    private static void assertUsageError(final String message, final String... args)
    {
        final CommandRun run = CommandRun.of(args);
        assertEquals(2, run.exitCode(), String.join(" ", args) + ": " + run.out() + run.err());
        assertTrue(run.err().contains(message), String.join(" ", args) + ": " + run.err());
    }

    private static int unusedPort() throws IOException
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }
}
