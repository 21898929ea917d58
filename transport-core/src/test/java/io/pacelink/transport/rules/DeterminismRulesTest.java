package io.pacelink.transport.rules;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Design.md section 4: protocol, recovery, congestion-control, scheduling and simulator code reads no clock, sleeps
 * nowhere, creates no threads and uses no unseeded randomness — time is a parameter and randomness is handed in
 * seeded. This test scans the sources of those packages (and of the controller and qdisc modules beside this one)
 * so a violation fails the build instead of making a simulation quietly non-reproducible.
 * <p>
 * Allowed elsewhere: {@code io.pacelink.transport.agent} (reads the clock once per duty cycle and idles),
 * {@code io.pacelink.transport.port} (real sockets), {@code io.pacelink.link.relay} (the real-time relay) and the
 * public {@code Endpoint} that starts the agent's thread.
 */
class DeterminismRulesTest
{
    private static final Path CORE = Path.of("src/main/java/io/pacelink");

    private static final List<Path> DETERMINISTIC_SOURCES = List.of(
        CORE.resolve("transport/engine"),
        CORE.resolve("transport/wire"),
        CORE.resolve("transport/ack"),
        CORE.resolve("transport/recovery"),
        CORE.resolve("transport/cc"),
        CORE.resolve("transport/stream"),
        CORE.resolve("transport/schedule"),
        CORE.resolve("sim"),
        CORE.resolve("link"),
        Path.of("../reno/src/main/java"),
        Path.of("../cubic/src/main/java"),
        Path.of("../bbr/src/main/java"),
        Path.of("../qdisc-fq/src/main/java"));

    private static final Path REAL_TIME_RELAY = CORE.resolve("link/relay");

    private static final Pattern FORBIDDEN = Pattern.compile(
        "System\\s*\\.\\s*(nanoTime|currentTimeMillis)|Instant\\s*\\.\\s*now|Clock\\s*\\.\\s*system|" +
        "Thread\\s*\\.\\s*sleep|new\\s+Thread\\s*\\(|LockSupport|Executors|Math\\s*\\.\\s*random|" +
        "ThreadLocalRandom|new\\s+Random\\s*\\(\\s*\\)|new\\s+SplittableRandom\\s*\\(\\s*\\)|SecureRandom|" +
        "SystemNanoClock|SystemEpochClock");

    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    @Test
    void deterministicPackagesReadNoClockSleepNowhereAndUseOnlySeededRandomness()
    {
        final List<String> violations = new ArrayList<>();
        int filesScanned = 0;
        for (final Path root : DETERMINISTIC_SOURCES)
        {
            assertTrue(Files.isDirectory(root), "missing source folder " + root.toAbsolutePath());
            for (final Path file : javaFiles(root))
            {
                filesScanned++;
                final String code = COMMENT.matcher(read(file)).replaceAll(" ");
                final Matcher matcher = FORBIDDEN.matcher(code);
                while (matcher.find())
                {
                    violations.add(file + ": " + matcher.group());
                }
            }
        }

        assertTrue(filesScanned > 100, "scanned only " + filesScanned + " files: are the folders right?");
        assertEquals(List.of(), violations);
    }

    @Test
    void theRuleCatchesAClockRead()
    {
        assertTrue(FORBIDDEN.matcher("final long now = System.nanoTime();").find());
        assertTrue(FORBIDDEN.matcher("new Random()").find());
        assertTrue(!FORBIDDEN.matcher("new SplittableRandom(seed)").find());
    }

    private static List<Path> javaFiles(final Path root)
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            return paths
                .filter((path) -> path.toString().endsWith(".java") && !path.startsWith(REAL_TIME_RELAY))
                .toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
