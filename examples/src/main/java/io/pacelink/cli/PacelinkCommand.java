package io.pacelink.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code pacelink} command line.
 */
@Command(
    name = "pacelink",
    mixinStandardHelpOptions = true,
    version = "pacelink 0.1.0",
    description = "Reliable transport over UDP with pluggable congestion control (BBR, CUBIC, Reno).",
    subcommands = {
        DemoCommand.class,
        SimCommand.class,
        NetemCommand.class,
        StatCommand.class,
        SendCommand.class,
        ReceiveCommand.class,
        CommandLine.HelpCommand.class
    })
public final class PacelinkCommand implements Runnable
{
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * @param args command-line arguments.
     */
    public static void main(final String[] args)
    {
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
            return ex instanceof IllegalArgumentException || ex instanceof IllegalStateException ? 2 : 1;
        });
        return commandLine;
    }

    public void run()
    {
        spec.commandLine().usage(System.out);
    }
}
