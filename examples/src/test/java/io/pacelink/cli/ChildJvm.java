package io.pacelink.cli;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that starts a class of the test class path in a JVM of its own: this JVM's {@code java}, class
 * path and {@code --add-exports}/{@code --add-opens} flags (the build's {@code agrona.jvm.args}, which Agrona needs).
 */
final class ChildJvm
{
    private ChildJvm()
    {
    }

    /**
     * @param mainClass the class whose {@code main} runs.
     * @param args      its arguments.
     * @return the command, ready for a {@link ProcessBuilder}.
     */
    static List<String> command(final Class<?> mainClass, final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (argument.startsWith("--add-exports") || argument.startsWith("--add-opens"))
            {
                command.add(argument);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        return command;
    }
}
