package io.pacelink.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * With the ahead-of-time cache that {@code -Paot} builds ({@code config/aot/build-cache.sh}), {@code bin/pacelink}
 * runs the jar on the JDK that wrote it, with the cache, and the commands work there as on Java 17: {@code --version}
 * says so, a perf client's loopback test against a Java 17 server and a ping complete. {@code -XX:AOTMode=on} makes a
 * JVM that cannot use the cache fail instead of starting without it. Skipped without {@code -Paot}: the default build
 * makes no cache.
 */
class StartupAotCacheIT
{
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Path CACHE = ROOT.resolve("examples/target/pacelink.aot");

    @TempDir
    Path config;

    @Test
    void theLauncherRunsTheCommandsOnTheCachesJdkWithTheCache() throws IOException, InterruptedException
    {
        assumeTrue(Files.isRegularFile(CACHE), "built by mvn package -Paot only");
        final String aotJava = Files.readString(ROOT.resolve("examples/target/pacelink.aot.java")).trim();
        assumeTrue(Files.isExecutable(Path.of(aotJava)), aotJava + " is gone");

        try (ChildCommand version = launcher(Map.of(), "--version"))
        {
            assertEquals(0, version.waitFor(60), version.err());
            assertTrue(version.out().contains("pacelink 0.1.0"), version.out());
            assertTrue(version.out().contains("bin/pacelink with the AOT cache"), version.out());
            assertTrue(version.out().contains("Java 2"), version.out());
            assertEquals("", version.err(), "no JDK warnings on the output");
        }
        try (ChildCommand server = launcher(Map.of("PACELINK_AOT", "off"), "perf", "-s", "-B", "127.0.0.1", "-p", "0"))
        {
            final String port = server.await("Server listening on 127\\.0\\.0\\.1 port (\\d+)", 60_000);
            try (ChildCommand client = launcher(Map.of(), "perf", "-c", "127.0.0.1", "-p", port, "-t", "1"))
            {
                assertEquals(0, client.waitFor(60), client.out() + client.err());
                assertTrue(client.out().contains(" receiver"), client.out());
                assertFalse(client.err().contains("WARNING"), "no JDK warnings on the output: " + client.err());
            }
            try (ChildCommand ping = launcher(Map.of(), "ping", "127.0.0.1", "-p", port, "-c", "2", "-i", "0.05"))
            {
                assertEquals(0, ping.waitFor(60), ping.out() + ping.err());
                assertTrue(ping.out().contains("2 packets transmitted, 2 received"), ping.out());
            }
            server.terminate(10);
        }
    }

    private ChildCommand launcher(final Map<String, String> environment, final String... args) throws IOException
    {
        final ProcessBuilder builder = new ProcessBuilder(
            concat(ROOT.resolve("bin/pacelink").toString(), args));
        builder.environment().putAll(environment);
        // -XX:AOTMode=on: a cache this JVM cannot use fails the start instead of being ignored (only for the runs on
        // the cache's JDK: Java 17, where PACELINK_AOT=off leads, does not know the option).
        if (!environment.containsKey("PACELINK_AOT"))
        {
            builder.environment().put("PACELINK_JAVA_OPTS", "-XX:AOTMode=on");
        }
        builder.environment().put("XDG_CONFIG_HOME", config.toString());
        return ChildCommand.startProcess(builder);
    }

    private static List<String> concat(final String first, final String... rest)
    {
        final List<String> all = new ArrayList<>(List.of(first));
        all.addAll(List.of(rest));
        return all;
    }
}
