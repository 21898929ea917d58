package io.pacelink.perf.scale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
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
            .execute("--connections", "4", "--concurrent", "2", "--idle", "1", "--send-buffer", "65536",
                "--receive-buffer", "65536", "--sent-packet-capacity", "256", "--jvm-arg", "-Xmx256m",
                "--out", out.toString());
        final String report = text.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, report);
        // The warm burst opens CONCURRENT more beyond CONNECTIONS (ScaleRole.connect): 4 + 2 connected.
        assertTrue(report.contains("| 4 | 6 |"), report);
    }
}
