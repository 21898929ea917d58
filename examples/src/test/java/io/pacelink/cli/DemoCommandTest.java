package io.pacelink.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoCommandTest
{
    @Test
    void theVirtualDemoPrintsPerSecondLinesAndTheSummaryTable()
    {
        final CommandRun run = CommandRun.of("demo", "--virtual", "--cc", "reno,bbr", "--duration", "3s");
        assertEquals(0, run.exitCode(), run.err());
        final String out = run.out();
        assertTrue(out.contains("== reno: 3 s simulated on rate=100mbit delay=75ms jitter=7.5ms loss=8% " +
            "queue=1bdp | delay=75ms jitter=7.5ms =="), out);
        assertTrue(out.contains("[  reno]   2.00-3.00   sec"), out);
        assertTrue(out.contains("[   bbr]   0.00-1.00   sec"), out);
        assertTrue(out.contains("cc          delivered          goodput  sent pkts  retr pkts  lost pkts"), out);
        assertTrue(out.matches("(?s).*\\nreno .* ok\\n.*"), out);
        assertTrue(out.matches("(?s).*\\nbbr .* ok\\n.*"), out);
    }

    @Test
    void withoutCcTheDemoRunsEverySixControllers()
    {
        final CommandRun run = CommandRun.of("demo", "--virtual", "--duration", "1s");
        assertEquals(0, run.exitCode(), run.err());
        final String out = run.out();
        for (final String controller : new String[]{ "bbr", "bbr2", "bbr3", "bbrplus", "cubic", "reno" })
        {
            assertTrue(out.contains("== " + controller + ": 1 s simulated on "), controller + ": " + out);
            assertTrue(out.matches("(?s).*\\n" + controller + " .* ok\\n.*"), controller + ": " + out);
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theDefaultDemoRunsEachControllerThroughTheRelayForItsDuration()
    {
        final CommandRun run = CommandRun.of("demo", "--cc", "cubic", "--duration", "2s",
            "--path", "rate=20mbit delay=10ms loss=1% queue=1bdp");
        assertEquals(0, run.exitCode(), run.err() + run.out());
        final String out = run.out();
        assertTrue(out.contains("== cubic: 2 s through the netem relay on rate=20mbit delay=10ms loss=1% queue=1bdp " +
            "| delay=10ms =="), out);
        // Interval boundaries follow the wall clock (a loaded machine gives 0.00-1.05), so only their shape is fixed.
        assertTrue(out.matches("(?s).*\\[ cubic\\] +1\\.\\d\\d-2\\.\\d\\d +sec.*"), out);
        assertTrue(out.contains("netem relay summary after"), out);
        assertTrue(out.matches("(?s).*\\ncubic .* ok\\n.*"), out);
    }

    @Test
    void virtualAndLoopbackExcludeEachOther()
    {
        final CommandRun run = CommandRun.of("demo", "--virtual", "--loopback");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("--virtual and --loopback exclude each other"), run.err());
    }

    @Test
    void countersInMemoryMoveTheLoopbackTransferAsTheFileDoes()
    {
        for (final String counters : new String[]{ "memory", "file" })
        {
            final CommandRun run = CommandRun.of("demo", "--loopback", "--cc", "cubic", "--size", "1MiB",
                "--baseline", "0s", "--counters", counters);
            assertEquals(0, run.exitCode(), counters + ": " + run.err() + run.out());
            assertTrue(run.out().matches("(?s).*\\ncubic +1\\.0 MBytes .* ok\\n.*"), counters + ": " + run.out());
        }
    }

    @Test
    void aBadCountersValueOrCountersInMemoryWithTheSimulatorFailBeforeAnythingRuns()
    {
        final CommandRun bad = CommandRun.of("demo", "--loopback", "--counters", "disk");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--counters must be file or memory, got 'disk'"), bad.err());
        assertTrue(bad.out().isEmpty(), bad.out());

        final CommandRun virtual = CommandRun.of("demo", "--virtual", "--counters", "memory");
        assertEquals(2, virtual.exitCode());
        assertTrue(virtual.err().contains("--virtual runs none"), virtual.err());
        assertTrue(virtual.out().isEmpty(), virtual.out());
    }

    @Test
    void aBadDemoPathIsRejectedBeforeAnythingRuns()
    {
        final CommandRun run = CommandRun.of("demo", "--path", "rate=fast");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("invalid path spec \"rate=fast\""), run.err());
        assertTrue(run.out().isEmpty(), run.out());
    }
}
