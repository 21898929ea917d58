package io.pacelink.cli;

import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/**
 * Runs the {@code pacelink} command line in this JVM and keeps what it printed: {@link System#out}, where the commands
 * print their results (and picocli its help), and picocli's error writer, where failures are reported.
 *
 * @param exitCode what {@code main} would exit with.
 * @param out      standard output.
 * @param err      standard error.
 */
record CommandRun(int exitCode, String out, String err)
{
    /**
     * @param args the command line.
     * @return the exit code and output.
     */
    static CommandRun of(final String... args)
    {
        final StringWriter err = new StringWriter();
        final ByteArrayOutputStream systemOut = new ByteArrayOutputStream();
        final PrintStream originalSystemOut = System.out;
        final CommandLine commandLine = PacelinkCommand.newCommandLine();
        commandLine.setErr(new PrintWriter(err, true));
        final int exitCode;
        System.setOut(new PrintStream(systemOut, true, StandardCharsets.UTF_8));
        try
        {
            exitCode = commandLine.execute(args);
        }
        finally
        {
            System.setOut(originalSystemOut);
        }
        return new CommandRun(exitCode, systemOut.toString(StandardCharsets.UTF_8), err.toString());
    }
}
