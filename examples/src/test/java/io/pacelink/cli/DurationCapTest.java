package io.pacelink.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code PACELINK_MAX_DURATION} carries its unit: a duration with one bounds the wall-clock runs, and a bare number,
 * a malformed value or one that is not positive is refused saying what is accepted; in this JVM (the parsing) and in
 * commands of their own (what a user sees: exit status 2 before anything runs, or the run shortened and said so).
 */
class DurationCapTest
{
    @Test
    void aDurationWithItsUnitIsTheBound()
    {
        assertEquals(TimeUnit.SECONDS.toNanos(20), DurationCap.boundNs("20s"));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(500), DurationCap.boundNs("500ms"));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(1500), DurationCap.boundNs(" 1.5s "));
        assertEquals(TimeUnit.MINUTES.toNanos(2), DurationCap.boundNs("2m"));
        assertEquals(0, DurationCap.boundNs(null), "unset: no bound");
        assertEquals(0, DurationCap.boundNs(""), "empty: no bound");
        assertEquals(0, DurationCap.boundNs("  "), "blank: no bound");
    }

    @Test
    void aBareOrMalformedValueIsRefusedSayingWhatIsAccepted()
    {
        for (final String value : List.of("20", "0.5", "20 fortnights", "s", "twenty", "2s5", "-2s", "0s", "0ms"))
        {
            final IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> DurationCap.boundNs(value), value);
            final String message = refused.getMessage();
            assertTrue(message.startsWith("PACELINK_MAX_DURATION='" + value + "'"), message);
            assertTrue(message.contains("accepted: a positive number with a unit (ns, us, ms, s, m, h), e.g. 20s or " +
                "500ms"), message);
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DurationCap.boundNs("20")).getMessage()
            .contains("a number needs its unit"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DurationCap.boundNs("0s")).getMessage()
            .contains("it must be positive"));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void commandsItBoundsRefuseABareNumberBeforeTheyRun() throws Exception
    {
        // A perf client to a port nothing listens on would fail to connect: it must not get that far.
        try (ChildCommand perf = ChildCommand.startWithEnvironment(Map.of(DurationCap.VARIABLE, "20"),
            "perf", "-c", "127.0.0.1", "-p", "9", "-t", "30", "--insecure");
            ChildCommand netem = ChildCommand.startWithEnvironment(Map.of(DurationCap.VARIABLE, "2 fortnights"),
                "netem", "--listen", "127.0.0.1:0", "--forward", "127.0.0.1:9", "--path", "delay=1ms"))
        {
            assertEquals(PacelinkCommand.USAGE_ERROR_EXIT_STATUS, perf.waitFor(30), perf.err());
            assertTrue(perf.err().contains("pacelink perf: PACELINK_MAX_DURATION='20': a number needs its unit; " +
                "accepted: a positive number with a unit"), perf.err());
            assertTrue(!perf.out().contains("Connecting"), "refused before connecting: " + perf.out());
            assertEquals(PacelinkCommand.USAGE_ERROR_EXIT_STATUS, netem.waitFor(30), netem.err());
            assertTrue(netem.err().contains("PACELINK_MAX_DURATION='2 fortnights': not a duration"), netem.err());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aBoundWithItsUnitShortensARunAndSaysSo() throws Exception
    {
        try (ChildCommand netem = ChildCommand.startWithEnvironment(Map.of(DurationCap.VARIABLE, "500ms"),
            "netem", "--listen", "127.0.0.1:0", "--forward", "127.0.0.1:9", "--path", "delay=1ms",
            "--duration", "60s"))
        {
            assertEquals(0, netem.waitFor(30), netem.err());
            assertTrue(netem.err().contains("pacelink: --duration 60 s shortened to 0.5 s by " +
                "PACELINK_MAX_DURATION"), netem.err());
        }
    }
}
