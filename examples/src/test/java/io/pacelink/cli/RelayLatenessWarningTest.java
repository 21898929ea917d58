package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import io.pacelink.link.relay.RelayReporter;
import io.pacelink.link.relay.RelayStats;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pacelink netem} warns, once and again in its summary, when its own release lateness is a sizeable share of
 * the path's delay, and stays quiet below that (both sides of the threshold).
 */
class RelayLatenessWarningTest
{
    private static final RelayStats.Direction IDLE = new RelayStats.Direction(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void warnsOnceWhenTheRelaysLatenessDistortsA40MsPath()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int[] reports = new int[2];
        final RelayLatenessWarning warning = new RelayLatenessWarning(new RelayReporter()
        {
            public void onInterval(final RelayStats previous, final RelayStats current)
            {
                reports[0]++;
            }

            public void onClose(final RelayStats total)
            {
                reports[1]++;
            }
        }, new PrintStream(err, true, StandardCharsets.UTF_8), PathSpec.Pair.parse("delay=40ms", null));
        assertEquals(4 * MS, RelayLatenessWarning.thresholdNs(40 * MS), "a tenth of the one-way delay");

        warning.onInterval(null, stats(4 * MS));
        assertEquals("", err.toString(StandardCharsets.UTF_8), "at the threshold: quiet");
        warning.onInterval(null, stats(36 * MS));
        warning.onInterval(null, stats(37 * MS));
        final String said = err.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("released packets late by 36.0 ms at the 99th percentile") &&
            said.contains("on a path of 40.0 ms one way"), said);
        assertEquals(1, said.lines().count(), "once: " + said);
        warning.onClose(stats(37 * MS));
        assertEquals(2, err.toString(StandardCharsets.UTF_8).lines().count(), "and in the summary");
        assertEquals(3, reports[0], "every report still printed");
        assertEquals(1, reports[1]);
    }

    @Test
    void aRefusedRealtimePriorityIsReportedAndWarnedAboutAnAppliedOneOnlyReported()
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final RelayLatenessWarning warning = new RelayLatenessWarning(
            RelayReporter.printingTo(new PrintStream(out, true, StandardCharsets.UTF_8)),
            new PrintStream(err, true, StandardCharsets.UTF_8), PathSpec.Pair.parse("delay=10ms", null));

        warning.onRealtimePriority(20, null);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("thread: SCHED_FIFO priority 20"), out.toString());
        assertEquals("", err.toString(StandardCharsets.UTF_8), "applied: no warning");

        warning.onRealtimePriority(20, "Operation not permitted (errno 1)");
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(
            "thread: normal scheduling (SCHED_FIFO 20 refused: Operation not permitted (errno 1))"), out.toString());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("pacelink netem: warning: --rt 20 not applied, the " +
            "relay's thread runs at a normal priority: Operation not permitted (errno 1)"), err.toString());
    }

    @Test
    void aPathWithoutDelayToleratesAMillisecond()
    {
        assertEquals(MS, RelayLatenessWarning.thresholdNs(0));
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final RelayLatenessWarning warning = new RelayLatenessWarning(RelayReporter.printingTo(
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)),
            new PrintStream(err, true, StandardCharsets.UTF_8), PathSpec.Pair.parse("rate=100mbit", null));
        warning.onClose(stats(MS / 2));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        warning.onClose(stats(2 * MS));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("late by 2.0 ms"), err.toString());
    }

    private static RelayStats stats(final long p99Ns)
    {
        return new RelayStats(TimeUnit.SECONDS.toNanos(1), IDLE, IDLE, 100, p99Ns / 10, p99Ns, p99Ns + MS, 0);
    }
}
