package io.pacelink.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line of the tests' child JVMs: C1 only and no launch priming (but in the opt-in acceptance runs), before
 * the class path, with this JVM's Agrona flags.
 */
class ChildJvmTest
{
    @Test
    @DisabledIfSystemProperty(named = ChildJvm.ACCEPTANCE, matches = "true")
    void aChildJvmRunsOnC1OnlyWithoutLaunchPrimingWithThisJvmsAgronaFlags()
    {
        final List<String> command = ChildJvm.javaCommand(PacelinkCommand.class);
        assertTrue(command.contains("-XX:TieredStopAtLevel=1"), "C1 only: " + command);
        assertTrue(command.indexOf("-XX:TieredStopAtLevel=1") < command.indexOf("-cp"), "a JVM option: " + command);
        assertTrue(command.indexOf("-Dpacelink.launchPriming=off") < command.indexOf("-cp"), "no priming: " + command);
        assertTrue(command.stream().anyMatch((argument) -> argument.startsWith("--add-exports")),
            "Agrona's: " + command);
        assertEquals(PacelinkCommand.class.getName(), command.get(command.size() - 1));
    }

    @Test
    @EnabledIfSystemProperty(named = ChildJvm.ACCEPTANCE, matches = "true")
    void anAcceptanceRunsChildKeepsTheDefaultCompilers()
    {
        final List<String> command = ChildJvm.javaCommand(PacelinkCommand.class);
        assertFalse(command.contains("-XX:TieredStopAtLevel=1"), "as bin/pacelink starts it: " + command);
        assertFalse(command.contains("-Dpacelink.launchPriming=off"), "as bin/pacelink starts it: " + command);
    }
}
