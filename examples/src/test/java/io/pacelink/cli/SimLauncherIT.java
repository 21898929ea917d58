package io.pacelink.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
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
 * command. On JDK 25 or later it starts with an ahead-of-time cache of a training simulation, which it builds beside
 * the jar the first time. Whatever runs it, a simulation gives the same results (its trace hash). The JVM says which
 * it is ({@code -XshowSettings:properties} on the error stream, {@code -XX:+PrintCommandLineFlags} on the output).
 */
class SimLauncherIT
{
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern TRACE_HASH = Pattern.compile("\"trace_hash\":\"([0-9a-f]+)\"");
    private static final Pattern JAVA_VERSION = Pattern.compile("java\\.version = (\\d+)");
    private static final String SHOW = "-XshowSettings:properties -XX:+PrintCommandLineFlags";
    private static final String BUILDING = "building the simulator's AOT cache";
    private static final Pattern LAUNCH = Pattern.compile("pacelink\\.launch = (.*)");

    @Test
    void simRunsOnTheNewestJdkWithTheParallelCollectorAndGivesTheSameResultsAsTheDefaultJvm()
        throws IOException, InterruptedException
    {
        final Run fast = sim(Map.of("PACELINK_JAVA_OPTS", SHOW));
        final Run usual = sim(Map.of("PACELINK_JAVA_OPTS", SHOW, "PACELINK_SIM_JVM", "default"));

        assertEquals(newestInstalledJdkAtLeast25() > 0 ? newestInstalledJdkAtLeast25() : 17, fast.javaVersion,
            fast.err);
        assertTrue(fast.out.contains("-XX:+UseParallelGC"), fast.out);
        assertEquals(fast.javaVersion >= 25, fast.out.contains("-XX:+UseCompactObjectHeaders"), fast.out);
        assertEquals(fast.javaVersion >= 25, fast.out.contains("-XX:FreqInlineSize=70"), fast.out);
        assertEquals(hugePagesOnRequest(), fast.out.contains("-XX:+UseTransparentHugePages"), fast.out);
        assertEquals(fast.javaVersion >= 25 && memoryAtLeast8GiB(), fast.out.contains("-XX:NewSize=1073741824"),
            fast.out);
        assertEquals(17, usual.javaVersion, usual.err);
        assertFalse(usual.out.contains("-XX:+UseParallelGC"), usual.out);
        assertFalse(usual.out.contains("-XX:+UseTransparentHugePages"), usual.out);
        assertFalse(usual.out.contains("-XX:FreqInlineSize"), usual.out);
        assertFalse(usual.out.contains("-XX:NewSize=1073741824"), usual.out);
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
    void aHeapSizedByTheUserKeepsItsOwnYoungGeneration() throws IOException, InterruptedException
    {
        final Run run = sim(Map.of("PACELINK_JAVA_OPTS", SHOW + " -Xmx512m"));

        assertTrue(run.out.contains("-XX:MaxHeapSize=536870912"), run.out);
        assertFalse(run.out.contains("-XX:NewSize=1073741824"), run.out);
        assertFalse(run.err.contains("WARNING"), "no JDK warnings: " + run.err);
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

    @Test
    void onJdk25SimBuildsItsAotCacheBesideTheJarOnceThenStartsWithItAndGivesTheSameResults(@TempDir final Path dir)
        throws IOException, InterruptedException
    {
        Assumptions.assumeTrue(newestInstalledJdkAtLeast25() >= 25, "no JDK 25 or later installed");
        final Path jar = Files.copy(ROOT.resolve("examples/target/pacelink.jar"), dir.resolve("pacelink.jar"));
        final Path cache = dir.resolve("pacelink.sim.aot");

        final Run first = sim(Map.of("PACELINK_JAVA_OPTS", SHOW, "PACELINK_JAR", jar.toString()));
        assertTrue(first.err.contains(BUILDING), first.err);
        assertTrue(Files.size(cache) > 0, "the cache is there");
        assertTrue(Files.readString(dir.resolve("pacelink.sim.aot.java")).contains("bin/java"), "its java beside it");
        assertTrue(launch(first).endsWith("and the AOT cache " + cache), launch(first));
        try (Stream<Path> files = Files.list(dir))
        {
            assertEquals(3, files.count(), "the jar, the cache and its java: the training run's files are gone");
        }

        final Run second = sim(Map.of("PACELINK_JAVA_OPTS", SHOW, "PACELINK_JAR", jar.toString()));
        assertFalse(second.err.contains(BUILDING), "built once: " + second.err);
        assertTrue(launch(second).endsWith("and the AOT cache " + cache), launch(second));
        final Run without = sim(Map.of("PACELINK_JAVA_OPTS", SHOW, "PACELINK_JAR", jar.toString(),
            "PACELINK_AOT", "off"));
        assertFalse(launch(without).contains("AOT cache"), launch(without));
        assertEquals(without.traceHash, first.traceHash, "the same simulation with or without the cache");
        assertEquals(without.traceHash, second.traceHash, "the same simulation with or without the cache");
        assertFalse(second.err.contains("WARNING"), "no JDK warnings: " + second.err);

        // A jar rebuilt since the cache was (the cache no longer fits its classes): built again.
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(cache).toMillis() + 2_000));
        final Run rebuilt = sim(Map.of("PACELINK_JAVA_OPTS", SHOW, "PACELINK_JAR", jar.toString()));
        assertTrue(rebuilt.err.contains(BUILDING), rebuilt.err);
        assertTrue(launch(rebuilt).endsWith("and the AOT cache " + cache), launch(rebuilt));
        assertEquals(without.traceHash, rebuilt.traceHash);
    }

    @Test
    void aRunOfSeveralFlowsBuildsAndStartsWithACacheOfItsShapeAndGivesTheSameResults(@TempDir final Path dir)
        throws IOException, InterruptedException
    {
        Assumptions.assumeTrue(newestInstalledJdkAtLeast25() >= 25, "no JDK 25 or later installed");
        final Path jar = Files.copy(ROOT.resolve("examples/target/pacelink.jar"), dir.resolve("pacelink.jar"));
        final Path flowsCache = dir.resolve("pacelink.sim-flows.aot");

        final Run several = sim(Map.of("PACELINK_JAVA_OPTS", SHOW, "PACELINK_JAR", jar.toString()),
            List.of("--flows", "3"));
        assertTrue(several.err.contains(BUILDING), several.err);
        assertTrue(Files.size(flowsCache) > 0, "the several flows' cache is there");
        assertFalse(Files.exists(dir.resolve("pacelink.sim.aot")), "not the one-flow cache");
        assertTrue(launch(several).endsWith("and the AOT cache " + flowsCache), launch(several));

        final Run listed = sim(Map.of("PACELINK_JAVA_OPTS", SHOW, "PACELINK_JAR", jar.toString()),
            List.of("--flows=cubic,reno"));
        assertFalse(listed.err.contains(BUILDING), "built once: " + listed.err);
        assertTrue(launch(listed).endsWith("and the AOT cache " + flowsCache), launch(listed));

        final Run one = sim(Map.of("PACELINK_JAVA_OPTS", SHOW, "PACELINK_JAR", jar.toString()),
            List.of("--flows", "1"));
        assertTrue(launch(one).endsWith("and the AOT cache " + dir.resolve("pacelink.sim.aot")), launch(one));

        final Run without = sim(Map.of("PACELINK_JAVA_OPTS", SHOW, "PACELINK_JAR", jar.toString(),
            "PACELINK_AOT", "off"), List.of("--flows", "3"));
        assertEquals(without.traceHash, several.traceHash, "the same simulation with or without the cache");
    }

    @Test
    void aCacheWrittenByAnotherJavaIsNotUsedButBuiltAgain(@TempDir final Path dir)
        throws IOException, InterruptedException
    {
        Assumptions.assumeTrue(newestInstalledJdkAtLeast25() >= 25, "no JDK 25 or later installed");
        final Path jar = Files.copy(ROOT.resolve("examples/target/pacelink.jar"), dir.resolve("pacelink.jar"));
        final Path cache = dir.resolve("pacelink.sim.aot");
        Files.writeString(cache, "not a cache");
        Files.writeString(dir.resolve("pacelink.sim.aot.java"), "/nowhere/bin/java\n");
        Files.setLastModifiedTime(cache, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 2_000));

        final Run run = sim(Map.of("PACELINK_JAVA_OPTS", SHOW, "PACELINK_JAR", jar.toString()));

        assertTrue(run.err.contains(BUILDING), run.err);
        assertTrue(Files.size(cache) > 1_000_000, "a real cache replaced the stale file");
        assertTrue(launch(run).endsWith("and the AOT cache " + cache), launch(run));
    }

    /**
     * @return true if Linux gives transparent huge pages to memory that asks for them ("madvise"), when the launcher
     * asks for them for the simulator's heap.
     */
    private static boolean hugePagesOnRequest() throws IOException
    {
        final Path enabled = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        return Files.isReadable(enabled) && Files.readString(enabled).contains("[madvise]");
    }

    /**
     * @return true if the machine has 8 GiB of memory or more, when the launcher gives the simulator's heap a young
     * generation of 1 GiB.
     */
    private static boolean memoryAtLeast8GiB() throws IOException
    {
        final Matcher total = Pattern.compile("(?m)^MemTotal:\\s+(\\d+) kB").matcher(
            Files.readString(Path.of("/proc/meminfo")));
        return total.find() && Long.parseLong(total.group(1)) >= 8L << 20;
    }

    private static String launch(final Run run)
    {
        final Matcher launch = LAUNCH.matcher(run.err);
        assertTrue(launch.find(), run.err);
        return launch.group(1).trim();
    }

    private static Run sim(final Map<String, String> environment) throws IOException, InterruptedException
    {
        return sim(environment, List.of());
    }

    private static Run sim(final Map<String, String> environment, final List<String> more)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of(ROOT.resolve("bin/pacelink").toString(), "sim",
            "--path", "rate=10mbit delay=5ms queue=1bdp", "--duration", "1s", "--seed", "3", "--json"));
        command.addAll(more);
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
    static int newestInstalledJdkAtLeast25() throws IOException
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
