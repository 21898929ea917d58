package io.pacelink.docs;

import io.pacelink.cli.ChildJvm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Docs that run: every shell command block (a fence opened with {@code ```sh}) of README.md and docs/tools.md is run
 * as a user would run it, by {@code bash} with {@code set -euo pipefail}, in a fresh working directory per document
 * with the built jar at {@code examples/target/pacelink.jar} and {@code bin/pacelink} beside it, the blocks of a
 * document in order (a later block may use the files an earlier one made, as a reader following it would): a
 * documented command that fails fails the build. Commands that a block starts in the background ({@code &}) are
 * ended (SIGTERM, as Ctrl-C) when the block ends. {@code PACELINK_MAX_DURATION} shortens every wall-clock run (the
 * demo's time per controller, perf's {@code -t}, netem's {@code --duration}) to {@value #MAX_DURATION}, so the whole
 * test takes a minute or two; {@code PACELINK_JAVA_OPTS} starts their JVMs as the suite's other child JVMs (C1 only,
 * no launch priming). Each document has its own {@code XDG_CONFIG_HOME} (the tools' host key and known
 * hosts), as a new user's account has, so the commands run in their default secure mode as written.
 * <p>
 * A block that cannot run here carries a marker on the line before its fence,
 * {@code <!-- docs-test: skip REASON -->}; the test prints every skipped block with its reason and keeps their
 * number at most {@value #MAX_SKIPPED}. Runs after {@code package} (failsafe), since the commands use the jar.
 */
class DocsCommandsIT
{
    /**
     * The bound on every wall-clock run while the docs' commands run.
     */
    static final String MAX_DURATION = "2s";

    /**
     * Most blocks that may be skipped: the build itself, minutes-long runs, templates.
     */
    static final int MAX_SKIPPED = 6;

    private static final long BLOCK_TIMEOUT_SECONDS = 120;
    private static final Pattern FENCE = Pattern.compile(
        "(?m)^(?:<!-- docs-test: skip (?<skip>[^\\n]*?) -->\\n)?```sh\\n(?<body>.*?)^```$", Pattern.DOTALL);
    private static final List<String> SKIPPED = new ArrayList<>();
    private static final Map<String, Path> WORK_DIRECTORIES = new HashMap<>();
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    /**
     * A command block.
     *
     * @param file   the document, relative to the repository.
     * @param line   the line of its fence.
     * @param body   its commands.
     * @param skip   why it is skipped, or null.
     */
    record Block(String file, int line, String body, String skip)
    {
        String name()
        {
            return file + ":" + line;
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCommandBlockRunsAsWritten() throws IOException
    {
        final List<DynamicTest> tests = new ArrayList<>();
        for (final Block block : blocks())
        {
            tests.add(DynamicTest.dynamicTest(block.name(), () -> run(block)));
        }
        return tests.stream();
    }

    @Test
    void theDocumentsHaveCommandBlocksAndFewExceptions() throws IOException
    {
        final List<Block> blocks = blocks();
        assertTrue(blocks.stream().filter((block) -> block.file().equals("README.md")).count() >= 5, blocks::toString);
        assertTrue(blocks.stream().filter((block) -> block.file().equals("docs/tools.md")).count() >= 3,
            blocks::toString);
        final long skipped = blocks.stream().filter((block) -> null != block.skip()).count();
        assertTrue(skipped <= MAX_SKIPPED, "at most " + MAX_SKIPPED + " skipped blocks, found " + skipped);
        for (final Block block : blocks)
        {
            assertTrue(null == block.skip() || block.skip().length() > 10,
                block.name() + ": a skip marker says why: " + block.skip());
        }
    }

    @AfterAll
    static void report()
    {
        System.out.println("docs test: " + SKIPPED.size() + " command block(s) skipped:");
        SKIPPED.forEach((line) -> System.out.println("  " + line));
    }

    static List<Block> blocks() throws IOException
    {
        final List<Block> blocks = new ArrayList<>();
        for (final String file : List.of("README.md", "docs/tools.md"))
        {
            final String text = Files.readString(ROOT.resolve(file), StandardCharsets.UTF_8);
            final Matcher matcher = FENCE.matcher(text);
            while (matcher.find())
            {
                final int fenceOffset = text.indexOf("```sh", matcher.start());
                final int line = (int)text.substring(0, fenceOffset).chars().filter((c) -> '\n' == c).count() + 1;
                blocks.add(new Block(file, line, matcher.group("body"), matcher.group("skip")));
            }
        }
        return blocks;
    }

    private static void run(final Block block) throws IOException, InterruptedException
    {
        if (null != block.skip())
        {
            SKIPPED.add(block.name() + ": " + block.skip());
            System.out.println("skipped " + block.name() + ": " + block.skip());
            return;
        }
        final Path jar = ROOT.resolve("examples/target/pacelink.jar");
        assertTrue(Files.isRegularFile(jar), "the docs' commands need the built jar: " + jar);
        final Path work = workDirectory(block.file());
        final Path script = work.resolve(".block.sh");
        // Background jobs end with the block, as a user ends them (Ctrl-C, or closing their terminal).
        Files.writeString(script, "set -euo pipefail\n" +
            "trap 'status=$?; kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; exit $status' EXIT\n" +
            block.body(), StandardCharsets.UTF_8);
        final Path output = work.resolve(".output.txt");
        final ProcessBuilder builder = new ProcessBuilder("bash", script.toString())
            .directory(work.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
        builder.environment().put("PACELINK_MAX_DURATION", MAX_DURATION);
        // The JVM options of the suite's other child JVMs: C1 only and no launch priming. The commands run as
        // written; what the test checks is that they work, not how fast.
        builder.environment().put("PACELINK_JAVA_OPTS", String.join(" ", ChildJvm.childJvmOptions()));
        builder.environment().put("PATH", ROOT.resolve("bin") + ":" + System.getenv("PATH"));
        // The tools are secure with zero setup: servers make a host key, clients record known hosts. Each document
        // gets its own configuration directory, as a new user has, instead of the account's ~/.config/pacelink.
        builder.environment().put("XDG_CONFIG_HOME", work.resolve(".config").toString());
        final long startNs = System.nanoTime();
        final Process process = builder.start();
        final boolean ended = process.waitFor(BLOCK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!ended)
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        final String printed = Files.readString(output, StandardCharsets.UTF_8);
        System.out.printf("ran %s in %.1f s%n", block.name(), (System.nanoTime() - startNs) / 1e9);
        assertTrue(ended, block.name() + " still running after " + BLOCK_TIMEOUT_SECONDS + " s:\n" + block.body() +
            "\n" + tail(printed));
        assertEquals(0, process.exitValue(), block.name() + " failed:\n" + block.body() + "\n" + tail(printed));
    }

    /**
     * @return the document's working directory: made on its first block, with {@code examples/target} and
     * {@code bin} linked to the build's.
     */
    private static Path workDirectory(final String file) throws IOException
    {
        Path work = WORK_DIRECTORIES.get(file);
        if (null == work)
        {
            work = Files.createTempDirectory("pacelink-docs-");
            Files.createDirectories(work.resolve("examples"));
            Files.createSymbolicLink(work.resolve("examples/target"), ROOT.resolve("examples/target"));
            Files.createSymbolicLink(work.resolve("bin"), ROOT.resolve("bin"));
            WORK_DIRECTORIES.put(file, work);
        }
        return work;
    }

    @AfterAll
    static void deleteWorkDirectories() throws IOException
    {
        for (final Path work : WORK_DIRECTORIES.values())
        {
            try (Stream<Path> paths = Files.walk(work))
            {
                // Links are deleted, never followed: the build's folders stay.
                for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    private static String tail(final String text)
    {
        return text.length() <= 6000 ? text : "..." + text.substring(text.length() - 6000);
    }
}
