package io.pacelink.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * The {@code pacelink} command line.
 */
@Command(
    name = "pacelink",
    mixinStandardHelpOptions = true,
    version = "pacelink 0.1.0",
    description = "Reliable transport over UDP with pluggable congestion control (BBRv1, BBRplus, BBRv2, BBRv3, " +
        "CUBIC, Reno).",
    subcommands = {
        DemoCommand.class,
        SimCommand.class,
        ReportCommand.class,
        NetemCommand.class,
        StatCommand.class,
        PerfCommand.class,
        PingCommand.class,
        SendCommand.class,
        ReceiveCommand.class,
        KeygenCommand.class,
        CommandLine.HelpCommand.class
    })
public final class PacelinkCommand implements Callable<Integer>
{
    /**
     * Exit status of a usage error: a missing or bad command, option or value.
     */
    static final int USAGE_ERROR_EXIT_STATUS = 2;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * @param args command-line arguments.
     */
    private static final String LOG_FORMAT_PROPERTY = "java.util.logging.SimpleFormatter.format";

    public static void main(final String[] args)
    {
        // The transport logs through System.Logger (java.util.logging here): one line per message, as a tool prints.
        if (null == System.getProperty(LOG_FORMAT_PROPERTY))
        {
            System.setProperty(LOG_FORMAT_PROPERTY, "%4$s: %5$s%6$s%n");
        }
        System.exit(newCommandLine().execute(args));
    }

    /**
     * @return the command line with the converters and error handling every subcommand shares.
     */
    public static CommandLine newCommandLine()
    {
        final CommandLine commandLine = new CommandLine(new PacelinkCommand());
        commandLine.registerConverter(ByteSize.class, ByteSize::parse);
        commandLine.registerConverter(Duration.class, Duration::parse);
        commandLine.registerConverter(BitRate.class, BitRate::parse);
        commandLine.setExecutionExceptionHandler((ex, cmd, parseResult) ->
        {
            cmd.getErr().println("pacelink " + cmd.getCommandName() + ": " + ex.getMessage());
            return ex instanceof IllegalArgumentException || ex instanceof IllegalStateException ?
                USAGE_ERROR_EXIT_STATUS : 1;
        });
        return commandLine;
    }

    /**
     * Without a subcommand there is nothing to do: say so, show what there is, and fail as any other usage error does.
     *
     * @return {@link #USAGE_ERROR_EXIT_STATUS}.
     */
    public Integer call()
    {
        final PrintWriter err = spec.commandLine().getErr();
        err.println(
            "pacelink: give a command: demo, sim, report, netem, stat, send, receive, perf, ping, keygen or help");
        spec.commandLine().usage(err);
        return USAGE_ERROR_EXIT_STATUS;
    }
}
