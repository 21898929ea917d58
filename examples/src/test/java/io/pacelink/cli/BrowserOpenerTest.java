package io.pacelink.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BrowserOpenerTest
{
    @Test
    void theDesktopsOpenerOnThePathGetsThePage(@TempDir final Path directory) throws IOException
    {
        final Path bin = Files.createDirectory(directory.resolve("bin"));
        final Path opened = directory.resolve("opened.txt");
        final Path opener = bin.resolve("xdg-open");
        Files.writeString(opener, "#!/bin/sh\necho \"$1\" > '" + opened + "'\n");
        Files.setPosixFilePermissions(opener, PosixFilePermissions.fromString("rwx------"));
        final URI page = directory.resolve("index.html").toUri();

        assertNull(BrowserOpener.open(page, "/nonexistent:" + bin));

        assertEquals(page.toString(), Files.readString(opened).trim());
    }

    @Test
    void aFailingOpenerIsReported(@TempDir final Path directory) throws IOException
    {
        final Path opener = directory.resolve("xdg-open");
        Files.writeString(opener, "#!/bin/sh\nexit 3\n");
        Files.setPosixFilePermissions(opener, PosixFilePermissions.fromString("rwx------"));
        final URI page = directory.resolve("index.html").toUri();

        final String problem = BrowserOpener.open(page, directory.toString());

        assertTrue(problem.startsWith("xdg-open failed (exit 3); open file:"), problem);
    }
}
