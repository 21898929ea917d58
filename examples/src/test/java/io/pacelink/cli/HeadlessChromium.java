package io.pacelink.cli;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Chromium ({@code apt-get install chromium}) in headless mode, for screenshots of a page. Found at
 * {@code $PACELINK_CHROMIUM}, {@code /usr/bin/chromium} or as {@code chromium} or {@code chromium-browser} on the
 * {@code PATH}. Without it a test is skipped, unless {@value #REQUIRE_VARIABLE}=1 (as {@code .ci/run} sets), when it
 * fails: CI cannot skip the rendering check silently.
 */
final class HeadlessChromium
{
    /**
     * The environment variable that makes a missing browser a failure.
     */
    static final String REQUIRE_VARIABLE = "PACELINK_REQUIRE_BROWSER";

    private static final long TIMEOUT_SECONDS = 120;

    private final Path executable;

    private HeadlessChromium(final Path executable)
    {
        this.executable = executable;
    }

    /**
     * @return the browser; skips the calling test (or fails it, if required) when there is none.
     */
    static HeadlessChromium findOrSkip()
    {
        final Path found = find();
        if (null == found)
        {
            final String reason = "Chromium is not installed (apt-get install chromium, or set PACELINK_CHROMIUM)";
            if ("1".equals(System.getenv(REQUIRE_VARIABLE)))
            {
                Assertions.fail(reason + ", and " + REQUIRE_VARIABLE + "=1 makes the rendering test required");
            }
            Assumptions.abort(reason + "; the page was not rendered. Set " + REQUIRE_VARIABLE + "=1 to make this " +
                "a failure.");
        }
        return new HeadlessChromium(found);
    }

    private static Path find()
    {
        final String configured = System.getenv("PACELINK_CHROMIUM");
        if (null != configured && !configured.isBlank())
        {
            return Files.isExecutable(Path.of(configured)) ? Path.of(configured) : null;
        }
        if (Files.isExecutable(Path.of("/usr/bin/chromium")))
        {
            return Path.of("/usr/bin/chromium");
        }
        final String path = System.getenv("PATH");
        for (final String directory : null == path ? new String[0] : path.split(File.pathSeparator))
        {
            for (final String name : List.of("chromium", "chromium-browser"))
            {
                if (Files.isExecutable(Path.of(directory, name)))
                {
                    return Path.of(directory, name);
                }
            }
        }
        return null;
    }

    /**
     * @param page        the HTML file.
     * @param png         where the screenshot goes.
     * @param width       window width in pixels.
     * @param height      window height in pixels.
     * @param profile     a fresh folder for the browser's profile.
     * @return the screenshot.
     */
    BufferedImage screenshot(final Path page, final Path png, final int width, final int height, final Path profile)
        throws IOException, InterruptedException
    {
        Files.createDirectories(profile);
        final Path log = profile.resolve("chromium.log");
        final Process process = new ProcessBuilder(
            executable.toString(),
            "--headless",
            "--no-sandbox",             // required when running as root, as CI does
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--user-data-dir=" + profile.toAbsolutePath(),
            "--window-size=" + width + "," + height,
            "--screenshot=" + png.toAbsolutePath(),
            page.toAbsolutePath().toUri().toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Assertions.fail("Chromium did not finish within " + TIMEOUT_SECONDS + " s: " + tail(log));
        }
        Assertions.assertTrue(Files.isRegularFile(png), "Chromium wrote no screenshot (exit " +
            process.exitValue() + "): " + tail(log));
        return ImageIO.read(png.toFile());
    }

    private static String tail(final Path log) throws IOException
    {
        final String text = Files.readString(log, StandardCharsets.UTF_8);
        return text.substring(Math.max(0, text.length() - 2000));
    }
}
