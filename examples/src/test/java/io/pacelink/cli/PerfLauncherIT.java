package io.pacelink.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bin/pacelink perf} on a machine with JDK 25 or later: the first run builds perf's ahead-of-time cache beside
 * the jar ({@code config/aot/build-perf-cache.sh}, a training run with a server and a client in one process), and it
 * and later runs start on that JDK with the cache; a jar rebuilt since, or a cache of another java, is built again; a
 * training that failed is not retried for the same jar. {@code PACELINK_AOT=off}, or a {@code PACELINK_PERF_JAVA}
 * that names Java 17 (a machine without JDK 25), starts it as every other command. A test between two ends started
 * with the cache completes. The JVM says which it is ({@code -XshowSettings:properties} on the error stream).
 */
class PerfLauncherIT
{
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern JAVA_VERSION = Pattern.compile("java\\.version = (\\d+)");
    private static final Pattern LAUNCH = Pattern.compile("pacelink\\.launch = (.*)");
    private static final String SHOW = "-XshowSettings:properties";
    private static final String BUILDING = "building perf's AOT cache";
    private static final String LISTENING = "Server listening on 127\\.0\\.0\\.1 port (\\d+)";

    @TempDir
    Path dir;

    @Test
    void onJdk25PerfBuildsItsCacheOnceAndBothEndsOfATestStartWithIt() throws IOException, InterruptedException
    {
        Assumptions.assumeTrue(SimLauncherIT.newestInstalledJdkAtLeast25() >= 25, "no JDK 25 or later installed");
        final Path jar = Files.copy(ROOT.resolve("examples/target/pacelink.jar"), dir.resolve("pacelink.jar"));
        final Path cache = dir.resolve("pacelink.perf.aot");

        final Run first = help(jar, Map.of());
        assertTrue(first.err.contains(BUILDING), first.err);
        assertTrue(Files.size(cache) > 1_000_000, "the cache is there");
        assertTrue(Files.readString(dir.resolve("pacelink.perf.aot.java")).contains("bin/java"), "its java beside it");
        assertTrue(first.launch.endsWith("with the AOT cache " + cache), first.launch);
        assertTrue(first.javaVersion >= 25, first.err);
        try (Stream<Path> files = Files.list(dir))
        {
            assertEquals(List.of("pacelink.jar", "pacelink.perf.aot", "pacelink.perf.aot.java"),
                files.map((file) -> file.getFileName().toString()).sorted().toList(),
                "the training run's files are gone");
        }

        final Run second = help(jar, Map.of());
        assertFalse(second.err.contains(BUILDING), "built once: " + second.err);
        assertTrue(second.launch.endsWith("with the AOT cache " + cache), second.launch);
        assertFalse(second.err.contains("WARNING"), "no JDK warnings: " + second.err);

        // Both ends of a test with the cache (the client primed, as by default).
        try (ChildCommand server = launcher(jar, Map.of(), "perf", "-s", "-1", "-B", "127.0.0.1", "-p", "0"))
        {
            final String port = server.await(LISTENING, 60_000);
            try (ChildCommand client = launcher(jar, Map.of(), "perf", "-c", "127.0.0.1", "-p", port, "-t", "1"))
            {
                assertEquals(0, client.waitFor(60), client.out() + client.err());
                assertTrue(client.out().contains(" receiver"), client.out());
                assertFalse(client.err().contains("WARNING"), "no JDK warnings: " + client.err());
                assertTrue(launch(client.err()).endsWith("with the AOT cache " + cache), client.err());
            }
            assertEquals(0, server.waitFor(60), server.out() + server.err());
            assertTrue(launch(server.err()).endsWith("with the AOT cache " + cache), server.err());
        }

        // A jar rebuilt since the cache was (the cache no longer fits its classes): built again.
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(cache).toMillis() + 2_000));
        final Run rebuilt = help(jar, Map.of());
        assertTrue(rebuilt.err.contains(BUILDING), rebuilt.err);
        assertTrue(rebuilt.launch.endsWith("with the AOT cache " + cache), rebuilt.launch);
    }

    @Test
    void aCacheOfAnotherJavaIsBuiltAgainAndAFailedTrainingIsNotRetriedForTheSameJar()
        throws IOException, InterruptedException
    {
        Assumptions.assumeTrue(SimLauncherIT.newestInstalledJdkAtLeast25() >= 25, "no JDK 25 or later installed");
        final Path jar = Files.copy(ROOT.resolve("examples/target/pacelink.jar"), dir.resolve("pacelink.jar"));
        final Path cache = dir.resolve("pacelink.perf.aot");
        Files.writeString(cache, "not a cache");
        Files.writeString(dir.resolve("pacelink.perf.aot.java"), "/nowhere/bin/java\n");
        Files.setLastModifiedTime(cache, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 2_000));
        final Run other = help(jar, Map.of());
        assertTrue(other.err.contains(BUILDING), other.err);
        assertTrue(Files.size(cache) > 1_000_000, "a real cache replaced the stale file");
        assertTrue(other.launch.endsWith("with the AOT cache " + cache), other.launch);

        // A training that failed for this jar (its marker newer than the jar): not tried again, Java 17 instead.
        Files.delete(cache);
        final Path failed = dir.resolve("pacelink.perf.aot.failed");
        Files.writeString(failed, "");
        Files.setLastModifiedTime(failed, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 2_000));
        final Run notRetried = help(jar, Map.of());
        assertFalse(notRetried.err.contains(BUILDING), notRetried.err);
        assertEquals(17, notRetried.javaVersion, notRetried.err);
        assertFalse(Files.exists(cache));
    }

    @Test
    void withTheCacheOffOrWithoutAJdk25PerfStartsAsEveryOtherCommand() throws IOException, InterruptedException
    {
        final Path jar = Files.copy(ROOT.resolve("examples/target/pacelink.jar"), dir.resolve("pacelink.jar"));
        final String java17 = ProcessHandle.current().info().command().orElseThrow();

        final Run off = help(jar, Map.of("PACELINK_AOT", "off"));
        final Run noJdk25 = help(jar, Map.of("PACELINK_PERF_JAVA", java17));

        for (final Run run : List.of(off, noJdk25))
        {
            assertEquals(Runtime.version().feature(), run.javaVersion, run.err);
            assertFalse(run.err.contains(BUILDING), run.err);
            assertFalse(run.launch.contains("AOT cache"), run.launch);
        }
        assertFalse(Files.exists(dir.resolve("pacelink.perf.aot")), "no cache built");
    }

    @Test
    void aCacheSettingOtherThanOnOrOffFailsFastSayingWhatIsWrong() throws IOException, InterruptedException
    {
        final Path jar = Files.copy(ROOT.resolve("examples/target/pacelink.jar"), dir.resolve("pacelink.jar"));
        try (ChildCommand child = launcher(jar, Map.of("PACELINK_AOT", "no"), "perf", "--help"))
        {
            assertEquals(2, child.waitFor(30), child.out() + child.err());
            assertTrue(child.err().contains("PACELINK_AOT must be on or off, not 'no'"), child.err());
            assertFalse(child.out().contains("pacelink perf"), "nothing started: " + child.out());
        }
        assertFalse(Files.exists(dir.resolve("pacelink.perf.aot")), "no cache built");
    }

    private record Run(String err, String launch, int javaVersion)
    {
    }

    private static Run help(final Path jar, final Map<String, String> environment)
        throws IOException, InterruptedException
    {
        try (ChildCommand child = launcher(jar, environment, "perf", "--help"))
        {
            assertEquals(0, child.waitFor(120), child.out() + child.err());
            assertTrue(child.out().contains("pacelink perf"), child.out());
            final Matcher version = JAVA_VERSION.matcher(child.err());
            assertTrue(version.find(), child.err());
            return new Run(child.err(), launch(child.err()), Integer.parseInt(version.group(1)));
        }
    }

    private static String launch(final String err)
    {
        final Matcher launch = LAUNCH.matcher(err);
        assertTrue(launch.find(), err);
        return launch.group(1).trim();
    }

    private static ChildCommand launcher(final Path jar, final Map<String, String> environment, final String... args)
        throws IOException
    {
        final ProcessBuilder builder = new ProcessBuilder(
            Stream.concat(Stream.of(ROOT.resolve("bin/pacelink").toString()), Stream.of(args)).toList());
        final Map<String, String> env = new HashMap<>(environment);
        env.put("PACELINK_JAR", jar.toString());
        env.put("PACELINK_JAVA_OPTS", SHOW);
        builder.environment().putAll(env);
        return ChildCommand.startProcess(builder);
    }
}
