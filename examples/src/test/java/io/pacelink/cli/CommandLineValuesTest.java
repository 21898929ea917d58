package io.pacelink.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandLineValuesTest
{
    @Test
    void parsesSizesWithDecimalAndBinaryUnits()
    {
        assertEquals(1472, ByteSize.parse("1472").bytes());
        assertEquals(64 * 1024, ByteSize.parse("64KiB").bytes());
        assertEquals(64 * 1024, ByteSize.parse("64K").bytes());
        assertEquals(256L << 20, ByteSize.parse("256MiB").bytes());
        assertEquals(1_000_000_000L, ByteSize.parse("1GB").bytes());
        assertEquals(1536, ByteSize.parse("1.5k").bytes());
    }

    @Test
    void rejectsMalformedSizesWithAnExample()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("lots"));
        assertTrue(ex.getMessage().contains("'lots' is not a size"), ex.getMessage());
        assertTrue(ex.getMessage().contains("256MiB"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("10 parsecs"));
        assertThrows(IllegalArgumentException.class, () -> ByteSize.parse("1.2.3MB"));
    }

    @Test
    void parsesDurations()
    {
        assertEquals(10_000_000_000L, Duration.parse("10s").nanos());
        assertEquals(500_000_000L, Duration.parse("500ms").nanos());
        assertEquals(120_000_000_000L, Duration.parse("2m").nanos());
        assertEquals(7_500, Duration.parse("7.5us").nanos());
        assertEquals(2.5, Duration.parse("2500ms").seconds());
    }

    @Test
    void rejectsDurationsWithoutAUnit()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Duration.parse("10"));
        assertTrue(ex.getMessage().contains("is not a duration"), ex.getMessage());
    }

    @Test
    void demoRejectsAnUnknownControllerWithTheListOfAvailableOnes()
    {
        final java.io.StringWriter err = new java.io.StringWriter();
        final picocli.CommandLine commandLine = PacelinkCommand.newCommandLine();
        commandLine.setErr(new java.io.PrintWriter(err));
        final int exitCode = commandLine.execute("demo", "--cc", "vegas");
        assertEquals(2, exitCode);
        assertTrue(err.toString().contains("no congestion controller named 'vegas'"), err.toString());
    }

    @Test
    void demoAndSimRejectAnUnknownSchedulerWithTheListOfAvailableOnes()
    {
        for (final String command : new String[]{"demo", "sim"})
        {
            final java.io.StringWriter err = new java.io.StringWriter();
            final picocli.CommandLine commandLine = PacelinkCommand.newCommandLine();
            commandLine.setErr(new java.io.PrintWriter(err));
            final int exitCode = "sim".equals(command) ?
                commandLine.execute(command, "--path", "rate=10mbit delay=1ms", "--duration", "1s", "--qdisc", "cake") :
                commandLine.execute(command, "--qdisc", "cake");
            assertEquals(2, exitCode, command);
            assertTrue(err.toString().contains("--qdisc: no packet scheduler named 'cake'"), err.toString());
            assertTrue(err.toString().contains("fq"), err.toString());
        }
    }
}
