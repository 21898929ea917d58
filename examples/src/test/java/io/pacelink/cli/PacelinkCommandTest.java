package io.pacelink.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line built for one subcommand (what {@code main} does, to start faster) has that subcommand with its
 * converters and error handling; without one, with {@code help} or with an unknown name it has them all.
 */
class PacelinkCommandTest
{
    @Test
    void aNamedSubcommandIsTheOnlyOneBuilt()
    {
        final CommandLine perf = PacelinkCommand.newCommandLine(new String[]{ "perf", "-c", "127.0.0.1" });
        assertEquals(1, perf.getSubcommands().size());
        assertTrue(perf.getSubcommands().containsKey("perf"));
    }

    @Test
    void theVersionAloneBuildsNoSubcommandAndStillPrintsIt()
    {
        for (final String option : new String[]{ "--version", "-V" })
        {
            final CommandLine version = PacelinkCommand.newCommandLine(new String[]{ option });
            assertEquals(0, version.getSubcommands().size());
            final StringWriter out = new StringWriter();
            version.setOut(new PrintWriter(out));
            assertEquals(0, version.execute(option));
            assertTrue(out.toString().startsWith("pacelink "), out.toString());
        }
    }

    @Test
    void everySubcommandWithoutOneWithHelpOrAnUnknownName()
    {
        final int all = PacelinkCommand.newCommandLine().getSubcommands().size();
        assertEquals(11, all, "demo sim report netem stat perf ping send receive keygen help");
        assertEquals(all, PacelinkCommand.newCommandLine(new String[]{ "--help" }).getSubcommands().size());
        assertEquals(all, PacelinkCommand.newCommandLine(new String[]{ "--version", "perf" }).getSubcommands().size());
        assertEquals(all, PacelinkCommand.newCommandLine(new String[]{ "help", "perf" }).getSubcommands().size());
        assertEquals(all, PacelinkCommand.newCommandLine(new String[]{ "nosuch" }).getSubcommands().size());
    }
}
