package io.pacelink.report;

import io.pacelink.link.PathSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParallelRunnerTest
{
    @TempDir
    Path directory;

    @Test
    void resultsDoNotDependOnHowManyRunAtOnce() throws IOException
    {
        final Path file = directory.resolve("small.yaml");
        Files.writeString(file, """
            duration: 2s
            scenarios:
              - name: shared
                path: "rate=10mbit delay=10ms queue=1bdp"
                flows: 2
              - name: lossy
                path: "rate=20mbit delay=20ms loss=1% queue=1bdp"
            """);
        final List<RunSpec> runs = RunMatrix.of(SuiteLoader.load(file.toString()), List.of("reno", "cubic"), 2).runs();
        assertEquals(8, runs.size());

        final StringWriter progress = new StringWriter();
        final List<RunResult> oneAtATime = ParallelRunner.run(runs, 1, meter(runs.size(), new StringWriter()));
        final List<RunResult> twoAtATime = ParallelRunner.run(runs, 2, meter(runs.size(), progress));

        for (int i = 0; i < runs.size(); i++)
        {
            assertEquals(runs.get(i), oneAtATime.get(i).spec(), "results in the runs' order");
            assertEquals(runs.get(i), twoAtATime.get(i).spec());
            assertEquals(oneAtATime.get(i).result().traceHash(), twoAtATime.get(i).result().traceHash(),
                runs.get(i).describe());
            assertEquals(oneAtATime.get(i).controllers(), twoAtATime.get(i).controllers());
        }
        assertEquals("lossy reno seed 2", runs.get(5).describe());
        assertNotEquals(oneAtATime.get(4).result().traceHash(), oneAtATime.get(5).result().traceHash(),
            "seeds 1 and 2 of a path with random loss differ");
        final List<String> lines = progress.toString().lines().toList();
        assertEquals(8, lines.size());
        assertTrue(lines.get(7).startsWith("[8/8] 100%"), lines.get(7));
        assertTrue(lines.get(0).matches("\\[1/8\\]  12%  \\d+:\\d\\d elapsed, ETA \\d+:\\d\\d  \\S+ \\S+ seed \\d .*"),
            lines.get(0));
    }

    @Test
    void aFailedRunIsNamed()
    {
        final RunSpec run = new RunSpec(0, scenario("broken"), "nonexistent", List.of("nonexistent"), 1);

        final IllegalStateException error = assertThrows(IllegalStateException.class,
            () -> ParallelRunner.run(List.of(run), 2, meter(1, new StringWriter())));
        assertTrue(error.getMessage().startsWith("run broken nonexistent seed 1 failed: "), error.getMessage());
    }

    @Test
    void clockFormatsMinutesAndHours()
    {
        assertEquals("0:00", ProgressMeter.clock(0));
        assertEquals("1:05", ProgressMeter.clock(65_000_000_000L));
        assertEquals("1:01:01", ProgressMeter.clock(3_661_000_000_000L));
    }

    @Test
    void etaIsTheMeanTimePerFinishedRunTimesTheRunsLeft()
    {
        final long[] now = { 0 };
        final StringWriter out = new StringWriter();
        final ProgressMeter meter = new ProgressMeter(new PrintWriter(out), 4, () -> now[0]);
        final RunSpec run = new RunSpec(0, scenario("lossy"), "reno", List.of("reno"), 1);
        now[0] = 30_000_000_000L;
        meter.onRunDone(run, 30_000_000_000L);
        assertEquals("[1/4]  25%  0:30 elapsed, ETA 1:30  lossy reno seed 1 (30.0 s)", out.toString().trim());
    }

    private static SuiteScenario scenario(final String name)
    {
        return new SuiteScenario(name, name, "", PathSpec.Pair.parse("rate=10mbit delay=5ms"), 1_000_000_000L,
            List.of(new FlowTemplate(null, 1, 0, Long.MAX_VALUE, 0)), 0, "fq", false, null, List.of());
    }

    private static ProgressMeter meter(final int runs, final StringWriter out)
    {
        return new ProgressMeter(new PrintWriter(out), runs, System::nanoTime);
    }
}
