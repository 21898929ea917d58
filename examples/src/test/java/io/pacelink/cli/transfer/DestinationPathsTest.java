package io.pacelink.cli.transfer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DestinationPathsTest
{
    @TempDir
    Path temp;

    @Test
    void pathsThatCouldLeaveTheDirectoryAreRefusedBeforeAnythingIsCreated() throws Exception
    {
        final Path root = Files.createDirectories(temp.resolve("root"));
        final DestinationPaths paths = new DestinationPaths(root);
        assertRefused(paths, "../escape.txt", "'..' would leave the receiver's directory");
        assertRefused(paths, "a/../../escape.txt", "'..' would leave");
        assertRefused(paths, "/etc/passwd", "it is absolute");
        assertRefused(paths, "a//b", "an empty or '.' name");
        assertRefused(paths, "./a", "an empty or '.' name");
        assertRefused(paths, "a/", "an empty or '.' name");
        assertRefused(paths, "", "it is empty");
        assertRefused(paths, "a\\..\\b", "backslash");
        assertRefused(paths, "a\0b", "NUL");
        assertRefused(paths, "x".repeat(256), "longer than 255 bytes");
        try (var listing = Files.list(root))
        {
            assertEquals(0, listing.count(), "nothing was created");
        }
        assertFalse(Files.exists(temp.resolve("escape.txt")));
    }

    @Test
    void aSymbolicLinkLeadingOutsideIsRefusedAndOneStayingInsideIsFollowed() throws Exception
    {
        final Path root = Files.createDirectories(temp.resolve("root"));
        final Path outside = Files.createDirectories(temp.resolve("outside"));
        Files.createSymbolicLink(root.resolve("out"), outside);
        Files.createDirectories(root.resolve("real"));
        Files.createSymbolicLink(root.resolve("in"), root.resolve("real"));
        final DestinationPaths paths = new DestinationPaths(root);

        assertRefused(paths, "out/file", "'out' is a symbolic link that leads outside");
        assertRefused(paths, "out/deeper/file", "'out' is a symbolic link that leads outside");
        assertFalse(Files.exists(outside.resolve("deeper")));
        assertEquals(root.toRealPath().resolve("real/file"), paths.file("in/file"));
    }

    @Test
    void missingDirectoriesAreCreatedAndAFileInTheWayIsReported() throws Exception
    {
        final Path root = Files.createDirectories(temp.resolve("root"));
        Files.writeString(root.resolve("plain"), "x");
        final DestinationPaths paths = new DestinationPaths(root);

        assertEquals(root.toRealPath().resolve("a/b/c.txt"), paths.file("a/b/c.txt"));
        assertTrue(Files.isDirectory(root.resolve("a/b")));
        assertFalse(Files.exists(root.resolve("a/b/c.txt")), "the file itself is not created");
        assertEquals(root.toRealPath().resolve("d/e"), paths.directory("d/e"));
        assertTrue(Files.isDirectory(root.resolve("d/e")));
        assertRefused(paths, "plain/x", "'plain' is in the way, and it is not a directory");
    }

    private static void assertRefused(final DestinationPaths paths, final String path, final String why)
    {
        final RefusedException ex = assertThrows(RefusedException.class, () -> paths.file(path), path);
        assertTrue(ex.getMessage().contains(why), ex.getMessage());
    }
}
