package io.pacelink.perf.scale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scale harness starts its two processes and reports a row: a handful of small connections, all connected.
 * Nothing here is timed.
 */
class ScaleHarnessSmokeTest
{
    @Test
    void suiteConnectsAndReportsARow(@TempDir final Path out)
    {
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        final int status = new CommandLine(new ScaleSuite(new PrintStream(text, true, StandardCharsets.UTF_8)))
            .execute("--connections", "4", "--concurrent", "2", "--one-at-a-time", "3", "--idle", "1",
                "--send-buffer", "65536", "--receive-buffer", "65536", "--sent-packet-capacity", "256",
                "--jvm-arg", "-Xmx256m", "--out", out.toString());
        final String report = text.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, report);
        // The warm burst and the one-at-a-time connects open CONCURRENT and ONE_AT_A_TIME more beyond CONNECTIONS
        // (ScaleRole.connect): 4 + 2 + 3 connected, and the one-at-a-time column has figures.
        assertTrue(report.contains("| 4 | 9 |"), report);
        assertTrue(report.lines().filter((line) -> line.startsWith("| 4 | 9 |"))
            .allMatch((line) -> line.split("\\|")[6].contains(" / ")), report);
        // Beside the p50, four readings of its RTT: the least any of them measured, their median, and the two pings
        // interleaved with the connects, bare UDP and through the endpoints (each one's p50, and the median of each
        // connect's excess over its own ping).
        assertTrue(report.lines().filter((line) -> line.startsWith("| 4 | 9 |"))
            .allMatch((line) -> line.split("\\|")[6]
                .matches(".*\\(\\d+ / \\d+\\) ping udp \\d+ \\([+-]\\d+\\), echo \\d+ \\([+-]\\d+\\) *")),
            report);
    }

    @Test
    void aNegativeOneAtATimeCountIsAUsageErrorBeforeAnyProcessStarts(@TempDir final Path out)
    {
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        final StringWriter errors = new StringWriter();
        final CommandLine command =
            new CommandLine(new ScaleSuite(new PrintStream(text, true, StandardCharsets.UTF_8)));
        command.setErr(new PrintWriter(errors));
        final int status = command.execute("--one-at-a-time", "-1", "--out", out.toString());
        assertEquals(2, status, errors.toString());
        assertTrue(errors.toString().contains("--one-at-a-time must be 0"), errors.toString());
    }
}
