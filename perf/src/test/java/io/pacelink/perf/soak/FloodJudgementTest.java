package io.pacelink.perf.soak;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code perf/scripts/flood.sh}'s half-open case judges, on made-up probe and attacker summaries judged by its
 * {@code --report} mode (no JVM, no flood): every connect that ended after the flood's first datagram within
 * {@code MAX_RTTS} — so a slow answer under the flood, or one in flight when the flood began, fails the check — while
 * the connects that ended before the flood are reported on a line of their own and not judged; tools that give no
 * wall-clock times have every connect judged, as before.
 */
class FloodJudgementTest
{
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Path REPO =
        Paths.get(System.getProperty("pacelink.repo", "..")).toAbsolutePath().normalize();
    private static final double PROBE_ZERO_S = 1_000.0;
    private static final double FLOOD_START_S = 1_003.0;

    @TempDir
    Path out;

    @Test
    void aSlowConnectBeforeTheFloodIsReportedNotJudged() throws Exception
    {
        assertJudged(probe(true, 0.0, 2.5, 1.0, 1.3, 4.0, 1.2, 9.0, 1.4), probe(true, 0.0, 2.2, 5.0, 1.3), 0,
            "before the flood (not judged",
            "1 over 2 RTTs, 0 of them over 3 (a third round trip or a stall): 0.0 s: 2.50",
            "as the check judged them before it left out those before the flood: FAIL");
    }

    @Test
    void aSlowAnswerUnderTheFloodFailsTheCheck() throws Exception
    {
        assertJudged(probe(true, 0.0, 1.4, 4.0, 1.2, 9.0, 2.3), probe(true, 5.0, 1.3), 1, "| FAILED |", "9.0 s: 2.30");
    }

    @Test
    void aConnectInFlightWhenTheFloodBeganIsJudged() throws Exception
    {
        // Called 2.95 s into the probe, 50 ms before the flood's first datagram, it took 60 ms: it met the flood.
        assertJudged(probe(true, 2.95, 3.0, 4.0, 1.2), probe(true, 5.0, 1.3), 1, "2.95 s: 3.00");
    }

    @Test
    void withoutWallClockTimesEveryConnectIsJudgedAsBefore() throws Exception
    {
        assertJudged(probe(false, 0.0, 2.5, 4.0, 1.2), probe(false, 5.0, 1.3), 1, "every one judged");
    }

    @Test
    void aReportOfAFolderThatIsNotThereIsRefused() throws Exception
    {
        final Path missing = out.resolve("no-such-run");
        final Process process = new ProcessBuilder("bash", REPO.resolve("perf/scripts/flood.sh").toString(),
            "--report", missing.toString(), "--cases", "half-open", "--servers", "receive")
            .redirectErrorStream(true).start();
        final String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "flood.sh --report did not end");
        assertEquals(2, process.exitValue(), text);
        assertTrue(text.contains("--report needs an earlier run's output folder"), text);
        assertFalse(Files.exists(missing), "the folder was made");
    }

    private void assertJudged(
        final ObjectNode returning, final ObjectNode newClients, final int exit, final String... expected)
        throws IOException, InterruptedException
    {
        write(returning, newClients);
        final Result result = report();
        assertEquals(exit, result.exit, result.text);
        for (final String text : expected)
        {
            assertTrue(result.text.contains(text), () -> "no '" + text + "' in\n" + result.text);
        }
    }

    private ObjectNode probe(final boolean hasTimes, final double... atAndRtts)
    {
        final ObjectNode probe = MAPPER.createObjectNode();
        final ArrayNode attempts = probe.putArray("attempt_list");
        double maxRtts = 0;
        for (int i = 0; i < atAndRtts.length; i += 2)
        {
            attempts.addObject().put("at_s", atAndRtts[i]).put("ms", atAndRtts[i + 1] * 20)
                .put("rtts", atAndRtts[i + 1]);
            maxRtts = Math.max(maxRtts, atAndRtts[i + 1]);
        }
        probe.put("rtt_ms", 20.0).put("attempts", attempts.size()).put("connected", attempts.size())
            .put("failed", 0).put("p50_ms", 26.0).put("max_ms", maxRtts * 20).put("p50_rtts", 1.3)
            .put("max_rtts", maxRtts).put("first_ms", atAndRtts[1] * 20).put("first_rtts", atAndRtts[1])
            .put("returning_connected", attempts.size() - 1).put("returning_p50_rtts", 1.3)
            .put("returning_max_rtts", maxRtts);
        if (hasTimes)
        {
            probe.put("start_unix_s", PROBE_ZERO_S);
        }
        return probe;
    }

    private void write(final ObjectNode returning, final ObjectNode newClients) throws IOException
    {
        MAPPER.writeValue(out.resolve("half-open-receive.probe.json").toFile(), returning);
        MAPPER.writeValue(out.resolve("half-open-receive.first.probe.json").toFile(), newClients);
        final ObjectNode attack = MAPPER.createObjectNode().put("answer_to_attack_bytes", 0.4)
            .put("datagrams_sent", 15_000).put("duration_s", 15.0).put("rate_achieved", 1_000.0).put("sent_fresh", 1)
            .put("sent_tokened", 1).put("sent_repeated", 1).put("noise_messages_built", 1).put("bytes_sent", 1e6)
            .put("datagrams_received", 3).put("retries_received", 1).put("handshakes_received", 1)
            .put("closes_received", 0).put("other_received", 0);
        if (returning.has("start_unix_s"))
        {
            attack.put("flood_start_unix_s", FLOOD_START_S).put("flood_end_unix_s", FLOOD_START_S + 15);
        }
        MAPPER.writeValue(out.resolve("half-open-receive.attack.json").toFile(), attack);
    }

    private Result report() throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder("bash", REPO.resolve("perf/scripts/flood.sh").toString(),
            "--report", out.toString(), "--cases", "half-open", "--servers", "receive", "--duration", "15")
            .redirectErrorStream(true).start();
        final String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "flood.sh --report did not end");
        assertEquals(text.trim(), Files.readString(out.resolve("summary.md")).trim(), "summary.md is what it printed");
        return new Result(process.exitValue(), text);
    }

    private record Result(int exit, String text)
    {
    }
}
