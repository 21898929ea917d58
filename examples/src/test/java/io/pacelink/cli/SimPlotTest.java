package io.pacelink.cli;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.parser.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pacelink sim --plot FILE.svg}: the report's charts for one run.
 */
class SimPlotTest
{
    @Test
    void plotHasTheThroughputDelayPointsSharesAndTimeSeriesOfTheRun(@TempDir final Path directory) throws IOException
    {
        final Path svg = directory.resolve("run.svg");
        final CommandRun run = CommandRun.of("sim", "--cc", "reno,cubic", "--start", "0s,1s",
            "--path", "rate=10mbit delay=10ms queue=1bdp", "--duration", "4s", "--plot", svg.toString());

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("jain index"), "the table is printed as without --plot");
        final Document document = Jsoup.parse(Files.readString(svg), "", Parser.xmlParser());
        assertEquals("svg", document.child(0).tagName());
        final String text = document.text();
        for (final String expected : List.of("Throughput against delay", "95th percentile RTT (ms)",
            "throughput (Mbit/s)", "Shares of goodput", "J = ", "flow 0 reno", "flow 1 cubic", "goodput (Mbit/s)",
            "cwnd (kB)", "pacing (Mbit/s)", "sRTT (ms)", "queue delay (ms)", "time (s)"))
        {
            assertTrue(text.contains(expected), expected + " missing from " + text);
        }
        assertTrue(document.select("path").size() > 20, "lines and markers are drawn");
        assertTrue(text.contains("one run; J = Jain's fairness index") && !text.contains("mean over seeds"),
            "one run is no mean over seeds: " + text);
    }

    @Test
    void oneFlowHasNoShareChart(@TempDir final Path directory) throws IOException
    {
        final Path svg = directory.resolve("one.svg");
        final CommandRun run = CommandRun.of("sim", "--cc", "bbr", "--path", "rate=10mbit delay=10ms queue=1bdp",
            "--duration", "2s", "--plot", svg.toString());

        assertEquals(0, run.exitCode(), run.err());
        final String text = Jsoup.parse(Files.readString(svg), "", Parser.xmlParser()).text();
        assertTrue(text.contains("Throughput against delay") && text.contains("flow 0 bbr"), text);
        assertFalse(text.contains("Shares of goodput"), text);
    }

    @Test
    void aPlotFileThatCannotBeWrittenFailsBeforeTheRun(@TempDir final Path directory)
    {
        final CommandRun run = CommandRun.of("sim", "--cc", "reno", "--path", "rate=10mbit delay=10ms",
            "--duration", "2s", "--plot", directory.resolve("no/such/folder/run.svg").toString());

        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("--plot: the folder " + directory.resolve("no/such/folder") +
            " does not exist"), run.err());
        assertEquals("", run.out());
    }
}
