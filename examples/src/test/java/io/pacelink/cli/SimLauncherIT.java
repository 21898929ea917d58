package io.pacelink.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bin/pacelink sim} picks its own JVM: the newest JDK 25 or later installed, with the Parallel collector, or
 * Java 17 with the Parallel collector when there is none; {@code PACELINK_SIM_JVM=default} starts it as every other
 * command. Whatever runs it, a simulation gives the same results (its trace hash). The JVM says which it is
 * ({@code -XshowSettings:properties} on the error stream, {@code -XX:+PrintCommandLineFlags} on the output).
 */
class SimLauncherIT
{
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern TRACE_HASH = Pattern.compile("\"trace_hash\":\"([0-9a-f]+)\"");
    private static final Pattern JAVA_VERSION = Pattern.compile("java\\.version = (\\d+)");
    private static final String SHOW = "-XshowSettings:properties -XX:+PrintCommandLineFlags";

    @Test
    void simRunsOnTheNewestJdkWithTheParallelCollectorAndGivesTheSameResultsAsTheDefaultJvm()
        throws IOException, InterruptedException
    {
        final Run fast = sim(Map.of("PACELINK_JAVA_OPTS", SHOW));
        final Run usual = sim(Map.of("PACELINK_JAVA_OPTS", SHOW, "PACELINK_SIM_JVM", "default"));

        assertEquals(newestInstalledJdkAtLeast25() > 0 ? newestInstalledJdkAtLeast25() : 17, fast.javaVersion,
            fast.err);
        assertTrue(fast.out.contains("-XX:+UseParallelGC"), fast.out);
        assertEquals(17, usual.javaVersion, usual.err);
        assertFalse(usual.out.contains("-XX:+UseParallelGC"), usual.out);
        assertEquals(usual.traceHash, fast.traceHash, "the same simulation whatever JVM runs it");
        assertFalse(fast.err.contains("WARNING"), "no JDK warnings: " + fast.err);
    }

    @Test
    void aCollectorNamedByTheUserIsTheOneUsed() throws IOException, InterruptedException
    {
        final Run run = sim(Map.of("PACELINK_JAVA_OPTS", SHOW + " -XX:+UseSerialGC"));

        assertTrue(run.out.contains("-XX:+UseSerialGC"), run.out);
        assertFalse(run.out.contains("-XX:+UseParallelGC"), run.out);
    }

    @Test
    void withoutAJdk25SimRunsOnJava17WithTheParallelCollector() throws IOException, InterruptedException
    {
        // JAVA_HOME first, and a PACELINK_SIM_JAVA that names Java 17 stands for a machine with no newer JDK.
        final String java17 = ProcessHandle.current().info().command().orElseThrow();
        final Run run = sim(Map.of("PACELINK_JAVA_OPTS", SHOW, "PACELINK_SIM_JAVA", java17));

        assertEquals(Runtime.version().feature(), run.javaVersion, run.err);
        assertTrue(run.out.contains("-XX:+UseParallelGC"), run.out);
    }

    private static Run sim(final Map<String, String> environment) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of(ROOT.resolve("bin/pacelink").toString(), "sim",
            "--path", "rate=10mbit delay=5ms queue=1bdp", "--duration", "1s", "--seed", "3", "--json"));
        final ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        try (ChildCommand child = ChildCommand.startProcess(builder))
        {
            assertEquals(0, child.waitFor(120), child.out() + child.err());
            final Matcher hash = TRACE_HASH.matcher(child.out());
            assertTrue(hash.find(), child.out());
            final Matcher version = JAVA_VERSION.matcher(child.err());
            assertTrue(version.find(), child.err());
            return new Run(child.out(), child.err(), hash.group(1), Integer.parseInt(version.group(1)));
        }
    }

    /**
     * @return the feature version of the newest JDK 25 or later in /usr/lib/jvm, as the launcher looks, or 0.
     */
    private static int newestInstalledJdkAtLeast25() throws IOException
    {
        final Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms))
        {
            return 0;
        }
        int newest = 0;
        try (Stream<Path> homes = Files.list(jvms))
        {
            for (final Path home : (Iterable<Path>)homes::iterator)
            {
                final Path release = home.resolve("release");
                if (Files.isRegularFile(release) && Files.isExecutable(home.resolve("bin/java")))
                {
                    final Matcher version = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)")
                        .matcher(Files.readString(release));
                    if (version.find() && Integer.parseInt(version.group(1)) >= 25)
                    {
                        newest = Math.max(newest, Integer.parseInt(version.group(1)));
                    }
                }
            }
        }
        return newest;
    }

    private record Run(String out, String err, String traceHash, int javaVersion)
    {
    }
}
