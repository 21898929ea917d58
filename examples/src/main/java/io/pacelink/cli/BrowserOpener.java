package io.pacelink.cli;

import java.awt.Desktop;
import java.awt.GraphicsEnvironment;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Opens a page in the user's browser ({@code pacelink report --open}): with the desktop's opener on the {@code PATH}
 * ({@code xdg-open} on Linux, {@code open} on macOS), else through {@link Desktop} where the JVM has one, else it says
 * it cannot.
 */
final class BrowserOpener
{
    private static final List<String> OPENERS = List.of("xdg-open", "open");
    private static final long OPENER_TIMEOUT_SECONDS = 10;

    private BrowserOpener()
    {
    }

    /**
     * @param uri        the page.
     * @param searchPath the {@code PATH} to find an opener on.
     * @return null if the page was handed to a browser, else why not (for the user).
     */
    static String open(final URI uri, final String searchPath)
    {
        try
        {
            final Path opener = find(searchPath);
            if (null != opener)
            {
                final Process process = new ProcessBuilder(opener.toString(), uri.toString()).inheritIO().start();
                // xdg-open returns once the browser is started; a stuck one is left alone, not waited for.
                if (process.waitFor(OPENER_TIMEOUT_SECONDS, TimeUnit.SECONDS) && process.exitValue() != 0)
                {
                    return opener.getFileName() + " failed (exit " + process.exitValue() + "); open " + uri;
                }
                return null;
            }
            if (!GraphicsEnvironment.isHeadless() && Desktop.isDesktopSupported() &&
                Desktop.getDesktop().isSupported(Desktop.Action.BROWSE))
            {
                Desktop.getDesktop().browse(uri);
                return null;
            }
            return "no browser to open here; open " + uri;
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            return ex.getMessage() + "; open " + uri;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return "interrupted; open " + uri;
        }
    }

    private static Path find(final String searchPath)
    {
        for (final String name : OPENERS)
        {
            for (final String directory : null == searchPath ? new String[0] : searchPath.split(File.pathSeparator))
            {
                final Path candidate = Path.of(directory, name);
                if (!directory.isEmpty() && Files.isExecutable(candidate))
                {
                    return candidate;
                }
            }
        }
        return null;
    }
}
