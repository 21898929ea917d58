package io.pacelink.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * The {@code pacelink} command line.
 */
@Command(
    name = "pacelink",
    mixinStandardHelpOptions = true,
    // The second line says what runs the command: bin/pacelink names its way (pacelink.launch), java -jar says nothing.
    version = { "pacelink 0.1.0",
        "${sys:pacelink.launch:-java -jar}: Java ${sys:java.version}, ${sys:java.vm.name} ${sys:java.vm.version}" },
    description = "Reliable transport over UDP with pluggable congestion control (BBRv1, BBRplus, BBRv2, BBRv3, " +
        "CUBIC, Reno).")
public final class PacelinkCommand implements Callable<Integer>
{
    /**
     * The subcommands, in the order the help lists them. picocli reads each one's annotations when it is added,
     * which for all of them takes longer than a JVM takes to start; {@link #main} adds only the one asked for.
     */
    private static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands();

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
        NetworkWarmUp.startFor(args);
        System.exit(newCommandLine(args).execute(args));
    }

    /**
     * @return the command line with every subcommand, and the converters and error handling they share.
     */
    public static CommandLine newCommandLine()
    {
        return newCommandLine(new String[0]);
    }

    /**
     * @param args the arguments it will be given.
     * @return the command line for them: with only the subcommand they name (its usage and errors are the same), none
     * for {@code --version} alone, or every subcommand when they name none, {@code help}, or one that does not exist
     * (the help lists them all).
     */
    static CommandLine newCommandLine(final String[] args)
    {
        final CommandLine commandLine = new CommandLine(new PacelinkCommand());
        // "help COMMAND" needs them all.
        final Supplier<Object> only = args.length > 0 && !"help".equals(args[0]) ? SUBCOMMANDS.get(args[0]) : null;
        if (null != only)
        {
            commandLine.addSubcommand(args[0], only.get());
        }
        else if (1 == args.length && ("--version".equals(args[0]) || "-V".equals(args[0])))
        {
            // The version needs no subcommand: building them all would double the time --version takes.
            return commandLine;
        }
        else
        {
            SUBCOMMANDS.forEach((name, command) -> commandLine.addSubcommand(name, command.get()));
        }
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

    private static Map<String, Supplier<Object>> subcommands()
    {
        final Map<String, Supplier<Object>> subcommands = new LinkedHashMap<>();
        subcommands.put("demo", DemoCommand::new);
        subcommands.put("sim", SimCommand::new);
        subcommands.put("report", ReportCommand::new);
        subcommands.put("netem", NetemCommand::new);
        subcommands.put("stat", StatCommand::new);
        subcommands.put("perf", PerfCommand::new);
        subcommands.put("ping", PingCommand::new);
        subcommands.put("send", SendCommand::new);
        subcommands.put("receive", ReceiveCommand::new);
        subcommands.put("keygen", KeygenCommand::new);
        // A lambda, not a constructor reference: picocli's classes are Java 5 bytecode, which an AOT cache (JDK 24+,
        // JEP 483) leaves out once linked, and a constructor reference's call site names the class itself, so
        // archiving the resolved call site (-XX:+AOTClassLinking) crashed the cache's assembly (docs/tools.md).
        subcommands.put("help", () -> new CommandLine.HelpCommand());
        return subcommands;
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
