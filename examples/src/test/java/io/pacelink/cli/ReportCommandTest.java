package io.pacelink.cli;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Builds the report of the {@code quick} suite once, as a user would ({@code pacelink report --suite quick}), checks
 * the page's structure and the data files behind it, and renders the page in headless Chromium to check that a browser
 * shows it: a broken page fails the build.
 */
class ReportCommandTest
{
    private static final List<String> SCENARIOS =
        List.of("lossy-long-path", "shared-link", "fair-queue-with-ping", "bbr-vs-cubic");

    @TempDir
    static Path directory;

    private static CommandRun run;
    private static Document page;

    @BeforeAll
    static void buildTheQuickReport() throws IOException
    {
        run = CommandRun.of("report", "--suite", "quick", "--jobs", "2", "--out", directory.toString());
        page = Jsoup.parse(directory.resolve("index.html").toFile(), "UTF-8");
    }

    @Test
    void commandSaysWhereThePageIsAndShowsProgress()
    {
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("report written to " + directory.resolve("index.html") + " (21 runs, "),
            run.out());
        assertTrue(run.err().contains("suite quick, 21 runs (4 scenarios, controllers bbr,cubic, 3 seeds) on 2 jobs"),
            run.err());
        assertTrue(run.err().contains("[21/21] 100%"), run.err());
        assertTrue(run.err().contains(" ETA "), run.err());
    }

    @Test
    void pageHasAnOverviewAndASectionPerScenario()
    {
        assertEquals("Pacelink scenario report: quick suite", page.title());
        final Elements overviewRows = page.select("table.overview tbody tr");
        assertEquals(SCENARIOS.size(), overviewRows.size());
        assertEquals(List.of("scenario", "bbr", "cubic"), page.select("table.overview thead th").eachText());
        for (int i = 0; i < SCENARIOS.size(); i++)
        {
            assertEquals("#" + SCENARIOS.get(i), overviewRows.get(i).selectFirst("a").attr("href"));
            assertTrue(overviewRows.get(i).text().contains("Mbit/s"), overviewRows.get(i).text());
            assertFalse(page.select("section.scenario#" + SCENARIOS.get(i)).isEmpty(), SCENARIOS.get(i));
        }
    }

    @Test
    void everyScenarioHasAThroughputDelayPlotWithUnitsAndReversedDelay()
    {
        for (final String name : SCENARIOS)
        {
            final Element svg = section(name).selectFirst("figure.scatter svg");
            final String text = svg.text();
            assertTrue(text.contains("95th percentile RTT (ms) — axis reversed"), name + ": " + text);
            assertTrue(text.contains("throughput (Mbit/s"), name + ": " + text);
            // One marker colour per controller: Okabe–Ito blue for bbr, vermillion for cubic.
            assertTrue(svg.outerHtml().contains("rgb(0,114,178)") && svg.outerHtml().contains("rgb(213,94,0)"), name);
        }
        assertTrue(section("lossy-long-path").selectFirst("figure.scatter svg").text().contains("log scale"),
            "BBR's 70 Mbit/s and CUBIC's 0.4 Mbit/s need a log axis");
        // Three seeds per controller: an ellipse (a polygon annotation) each where the points are not all equal.
        assertTrue(
            section("fair-queue-with-ping").selectFirst("figure.scatter svg").select("polygon, path").size() > 10);
    }

    @Test
    void multiFlowScenariosHaveShareBarsWithJainsIndex()
    {
        assertTrue(section("lossy-long-path").select("figure.shares").isEmpty(), "one flow: no shares");
        for (final String name : List.of("shared-link", "fair-queue-with-ping", "bbr-vs-cubic"))
        {
            final String text = section(name).selectFirst("figure.shares svg").text();
            assertTrue(text.contains("J = "), name + ": " + text);
            assertTrue(text.contains("share of the flows' summed goodput (%)"), name + ": " + text);
        }
    }

    @Test
    void oneFlowScenariosCompareTheControllersGoodputOverTime() throws IOException
    {
        final Element svg = section("lossy-long-path").selectFirst("figure.comparison svg");
        final String text = svg.text();
        assertTrue(text.contains("Goodput over time, seed 1"), text);
        assertTrue(text.contains("goodput (Mbit/s, log scale)"), "BBR's 70 Mbit/s and CUBIC's 0.4: " + text);
        assertTrue(text.contains("bbr") && text.contains("cubic"), "a legend entry per controller: " + text);
        assertTrue(svg.outerHtml().contains("rgb(0,114,178)") && svg.outerHtml().contains("rgb(213,94,0)"));
        for (final String name : List.of("shared-link", "fair-queue-with-ping", "bbr-vs-cubic"))
        {
            assertTrue(section(name).select("figure.comparison").isEmpty(), name + ": several flows, no comparison");
        }
        final String file = Files.readString(directory.resolve("lossy-long-path/goodput.svg"));
        assertTrue(file.startsWith("<?xml") && file.contains("xmlns='http://www.w3.org/2000/svg'") &&
            file.contains("Goodput over time, seed 1"), file.substring(0, Math.min(300, file.length())));
        assertFalse(Files.exists(directory.resolve("shared-link/goodput.svg")));
    }

    @Test
    void everyConfigurationHasTimeSeriesOfTheFiveQuantitiesWithUnits()
    {
        assertEquals(2, section("lossy-long-path").select("figure.timeseries").size());
        assertEquals(2, section("fair-queue-with-ping").select("figure.timeseries").size());
        assertEquals(1, section("bbr-vs-cubic").select("figure.timeseries").size());
        for (final Element figure : page.select("figure.timeseries"))
        {
            final String text = figure.selectFirst("svg").text();
            for (final String label : List.of("goodput (Mbit/s)", "cwnd (kB)", "pacing (Mbit/s)", "sRTT (ms)",
                "queue delay (ms)", "time (s)"))
            {
                assertTrue(text.contains(label), label + " missing in " + text);
            }
        }
        assertTrue(section("fair-queue-with-ping").selectFirst("figure.timeseries svg").text().contains("flow 3 bbr"));
    }

    @Test
    void summaryTablesShowOurFiguresAndTheKernelsWithTheirSource()
    {
        final Elements rows = section("lossy-long-path").select("table.summary tbody tr");
        assertEquals(4, rows.size());
        assertEquals("bbr", rows.get(0).selectFirst("th").text());
        assertEquals("3", rows.get(0).select("td").get(0).text(), "three seeds");
        assertTrue(rows.get(1).hasClass("reference"));
        assertTrue(rows.get(1).text().startsWith("Linux 6.18 bbr (kernel TCP, 8 × 30 s) ref. 53.7 [15.0–64.2] median"),
            rows.get(1).text());
        assertTrue(rows.get(1).text().contains("Source: docs/kernel-reference.md, S1"));
        assertEquals("cubic", rows.get(2).selectFirst("th").text());
        assertTrue(rows.get(3).hasClass("reference"));

        final Elements header = section("fair-queue-with-ping").select("table.summary thead th");
        assertTrue(header.eachText().contains("Jain index"));
        assertTrue(header.eachText().contains("ping p50 / p99 (ms)"));
        assertEquals(List.of("bbr (in bbr vs cubic)", "cubic (in bbr vs cubic)"),
            section("bbr-vs-cubic").select("table.summary tbody tr th").eachText());
    }

    @Test
    void everyLinkLeadsToAFileAndTheDataParses() throws IOException
    {
        final Set<String> links = new HashSet<>();
        for (final Element link : page.select("a[href]"))
        {
            final String href = link.attr("href");
            if (!href.startsWith("#"))
            {
                links.add(href);
                assertTrue(Files.isRegularFile(directory.resolve(href)), href);
            }
        }
        assertTrue(links.contains("runs.csv") && links.contains("runs.json") && links.contains("suite.json"));
        assertTrue(links.contains("lossy-long-path/series/bbr-seed3.csv"));

        final List<String> runsCsv = Files.readAllLines(directory.resolve("runs.csv"), StandardCharsets.UTF_8);
        assertTrue(runsCsv.get(0).startsWith("scenario,configuration,seed,flow,cc,start_s,end_s,goodput_mbps,"));
        // 3 + 3 lossy, 6 + 6 shared, 12 + 12 fair queue, 3 x 2 mixed: one row per flow of every run.
        assertEquals(1 + 48, runsCsv.size());
        final List<Object> runs = (List<Object>)MiniJson.parse(Files.readString(directory.resolve("runs.json")));
        assertEquals(48, runs.size());
        final Map<String, Object> firstRun = (Map<String, Object>)runs.get(0);
        assertEquals("lossy-long-path", firstRun.get("scenario"));
        assertTrue((Double)firstRun.get("goodput_mbps") > 10, "bbr on the lossy path: " + firstRun);

        final List<String> series = Files.readAllLines(directory.resolve("shared-link/series/cubic-seed1.csv"));
        assertEquals("time_s,flow,cc,goodput_mbps,cwnd_kb,pacing_rate_mbps,srtt_ms,queue_delay_ms", series.get(0));
        assertTrue(series.size() > 500, "two flows, 10 ms samples over 4 s");
        final List<Object> points =
            (List<Object>)MiniJson.parse(Files.readString(directory.resolve("bbr-vs-cubic/points.json")));
        assertEquals(6, points.size(), "two controllers x three seeds");
        MiniJson.parse(Files.readString(directory.resolve("suite.json")));
    }

    @Test
    void chartIdsAreUniqueOnThePage()
    {
        final Set<String> ids = new HashSet<>();
        for (final Element element : page.select("[id]"))
        {
            assertTrue(ids.add(element.id()), "duplicate id " + element.id());
        }
        assertEquals(page.select("svg").size(), page.select("svg[id^=chart]").size());
    }

    @Test
    void badArgumentsExitWithStatusTwoAndSayWhy()
    {
        final CommandRun unknownController = CommandRun.of("report", "--suite", "quick", "--cc", "vegas");
        assertEquals(2, unknownController.exitCode());
        assertTrue(unknownController.err().contains("--cc: no congestion controller named 'vegas'; available: "),
            unknownController.err());

        final CommandRun noSuite = CommandRun.of("report", "--suite", "nosuch");
        assertEquals(2, noSuite.exitCode());
        assertTrue(noSuite.err().contains("--suite nosuch: neither a built-in suite " +
            "(standard, quick, lineup, sfqred) nor a readable file"), noSuite.err());

        final CommandRun noJobs = CommandRun.of("report", "--suite", "quick", "--jobs", "0");
        assertEquals(2, noJobs.exitCode());
        assertTrue(noJobs.err().contains("--jobs must be at least 1"), noJobs.err());
    }

    /**
     * Chromium renders the page at 1280 pixels wide: the screenshot has the asked-for size, is mostly not blank, shows
     * text, and shows the charts' lines and markers in both controllers' colours (so the SVGs were drawn). Required
     * when {@value HeadlessChromium#REQUIRE_VARIABLE}=1 (CI sets it and installs Chromium); skipped, saying why, on a
     * machine without Chromium otherwise.
     */
    @Test
    void pageRendersInHeadlessChromium() throws IOException, InterruptedException
    {
        final Path screenshot = directory.resolve("screenshot.png");
        final BufferedImage image = HeadlessChromium.findOrSkip()
            .screenshot(directory.resolve("index.html"), screenshot, 1280, 2400, directory.resolve("chromium"));

        assertEquals(1280, image.getWidth());
        assertEquals(2400, image.getHeight());
        final PixelCensus census = PixelCensus.of(image);
        assertTrue(census.nonWhiteShare() > 0.05, "a blank page: " + census);
        assertTrue(census.darkPixels() > 5_000, "no text: " + census);
        assertTrue(census.near(new Color(0x0072B2)) > 300, "no bbr-blue chart marks: " + census);
        assertTrue(census.near(new Color(0xD55E00)) > 300, "no cubic-vermillion chart marks: " + census);
    }

    private static Element section(final String name)
    {
        return page.selectFirst("section.scenario#" + name);
    }
}
