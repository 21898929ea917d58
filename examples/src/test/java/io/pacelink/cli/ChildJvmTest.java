package io.pacelink.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line of the tests' child JVMs: C1 only, before the class path, with this JVM's Agrona flags.
 */
class ChildJvmTest
{
    @Test
    void aChildJvmRunsOnC1OnlyWithThisJvmsAgronaFlags()
    {
        final List<String> command = ChildJvm.javaCommand(PacelinkCommand.class);
        assertTrue(command.contains("-XX:TieredStopAtLevel=1"), "C1 only: " + command);
        assertTrue(command.indexOf("-XX:TieredStopAtLevel=1") < command.indexOf("-cp"), "a JVM option: " + command);
        assertTrue(command.stream().anyMatch((argument) -> argument.startsWith("--add-exports")), "Agrona's: " + command);
        assertEquals(PacelinkCommand.class.getName(), command.get(command.size() - 1));
    }
}
