package io.pacelink.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bin/pacelink} starts the packaged jar with the class-data-sharing archive {@code mvn package} builds beside
 * it, and the archive holds the command line's own classes: with {@code -Xshare:on} (which fails instead of ignoring
 * an archive it cannot map) the command runs and its classes come from the archive, not from the jar.
 */
class StartupArchiveIT
{
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void theLauncherMapsTheCommandLinesClassesFromTheArchive() throws IOException, InterruptedException
    {
        assertTrue(Files.isRegularFile(ROOT.resolve("examples/target/pacelink.jsa")), "mvn package builds the archive");
        final ProcessBuilder builder = new ProcessBuilder(ROOT.resolve("bin/pacelink").toString(), "--version")
            .redirectErrorStream(true);
        builder.environment().put("PACELINK_JAVA_OPTS", "-Xshare:on -Xlog:class+load=info");
        builder.environment().put("PACELINK_AOT", "off"); // the Java 17 way, also when -Paot built a JDK 25 cache
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), output);
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("pacelink 0.1.0"), output);
        assertTrue(output.contains("bin/pacelink with the CDS archive"), output);
        assertTrue(output.contains("io.pacelink.cli.PacelinkCommand source: shared objects file"), output);
        assertTrue(output.contains("picocli.CommandLine source: shared objects file"), output);
    }
}
