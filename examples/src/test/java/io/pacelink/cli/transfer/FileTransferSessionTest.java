package io.pacelink.cli.transfer;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The file-transfer protocol's behaviour, sender and receiver workers joined in one process without a transport
 * ({@link SessionHarness}): what arrives, what is refused and why, resuming, and that nothing unverified ever
 * carries a final name.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileTransferSessionTest
{
    private static final int MIB = 1 << 20;

    @TempDir
    Path temp;

    @Test
    void aTreeArrivesWithItsContentPermissionsAndTimes() throws Exception
    {
        final Path tree = Files.createDirectories(temp.resolve("src/tree"));
        final Path nested = Files.createDirectories(tree.resolve("a/b"));
        write(tree.resolve("big.bin"), 3 * MIB + 12345, 1);
        write(nested.resolve("small.txt"), 100, 2);
        write(tree.resolve("empty"), 0, 3);
        Files.setPosixFilePermissions(tree.resolve("big.bin"), PosixFilePermissions.fromString("rw-r-----"));
        Files.setPosixFilePermissions(nested.resolve("small.txt"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(nested, PosixFilePermissions.fromString("rwx------"));
        final FileTime past = FileTime.fromMillis(1_500_000_000_123L);
        Files.setLastModifiedTime(tree.resolve("big.bin"), past);
        Files.setLastModifiedTime(nested, past);
        final Path destination = Files.createDirectories(temp.resolve("dst"));

        final SessionHarness session = send(List.of(tree), false, settings(destination, false, false));

        assertTrue(session.sender.succeeded(), session.sender.failure() + " " + session.senderOutput.files);
        assertTrue(session.receiver.succeeded(), session.receiver.failure());
        assertEquals(6, session.senderOutput.files.size(), "tree, a, a/b and three files: " +
            session.senderOutput.files);
        for (final String file : List.of("tree/big.bin", "tree/a/b/small.txt", "tree/empty"))
        {
            assertEquals(-1, Files.mismatch(temp.resolve("src").resolve(file), destination.resolve(file)), file);
            assertEquals(FileStatus.OK, session.senderOutput.file(file).status());
            assertEquals(session.receiverOutput.file(file).sha256(), session.senderOutput.file(file).sha256());
        }
        assertEquals(sha256(tree.resolve("big.bin")), session.senderOutput.file("tree/big.bin").sha256());
        assertEquals("rw-r-----", mode(destination.resolve("tree/big.bin")));
        assertEquals("rwxr-xr-x", mode(destination.resolve("tree/a/b/small.txt")));
        assertEquals("rwx------", mode(destination.resolve("tree/a/b")));
        assertEquals(past, Files.getLastModifiedTime(destination.resolve("tree/big.bin")));
        assertEquals(past, Files.getLastModifiedTime(destination.resolve("tree/a/b")));
        assertEquals(List.of(), leftovers(destination));
    }

    @Test
    void anExistingFileIsRefusedWithoutOverwriteAndReplacedWithIt() throws Exception
    {
        final Path source = write(Files.createDirectories(temp.resolve("src")).resolve("f.bin"), MIB, 4);
        final Path destination = Files.createDirectories(temp.resolve("dst"));
        write(destination.resolve("f.bin"), 10, 5);

        final SessionHarness refused = send(List.of(source), false, settings(destination, false, false));
        assertFalse(refused.sender.succeeded());
        final FileOutcome outcome = refused.senderOutput.file("f.bin");
        assertEquals(FileStatus.REFUSED, outcome.status());
        assertTrue(outcome.reason().contains("exists on the receiver; run the receiver with --overwrite"),
            outcome.reason());
        assertEquals(10, Files.size(destination.resolve("f.bin")), "left as it was");
        assertEquals(0, refused.sender.bytesSent(), "nothing of a refused file is sent");

        final SessionHarness replaced = send(List.of(source), false, settings(destination, true, false));
        assertTrue(replaced.sender.succeeded(), String.valueOf(replaced.senderOutput.files));
        assertEquals(-1, Files.mismatch(source, destination.resolve("f.bin")));
        assertEquals(List.of(), leftovers(destination));
    }

    @Test
    void resumeSendsOnlyWhatFollowsTheProvenDurablePrefix() throws Exception
    {
        final Path source = write(Files.createDirectories(temp.resolve("src")).resolve("f.bin"), 8 * MIB + 7, 6);
        final Path destination = Files.createDirectories(temp.resolve("dst"));
        // An interrupted transfer: 3 MiB durable, then half a MiB written but never synced.
        partial(destination.resolve("f.bin"), source, 3 * MIB, MIB / 2);

        final SessionHarness session = send(List.of(source), true, settings(destination, false, false));

        assertTrue(session.sender.succeeded(), String.valueOf(session.senderOutput.files));
        final FileOutcome outcome = session.senderOutput.file("f.bin");
        assertEquals(3 * MIB, outcome.resumedFrom());
        assertEquals(MIB / 2, outcome.resentBytes());
        assertEquals(Files.size(source) - 3 * MIB, session.sender.bytesSent(), "the kept prefix is not sent again");
        assertEquals(3 * MIB, session.receiver.bytesResumed());
        assertEquals(-1, Files.mismatch(source, destination.resolve("f.bin")));
        assertEquals(sha256(source), outcome.sha256());
        assertEquals(List.of(), leftovers(destination));
    }

    @Test
    void aSourceThatChangedSinceTheInterruptedTransferIsSentAgainFromTheStart() throws Exception
    {
        final Path source = write(Files.createDirectories(temp.resolve("src")).resolve("f.bin"), 4 * MIB, 7);
        final Path destination = Files.createDirectories(temp.resolve("dst"));
        partial(destination.resolve("f.bin"), source, 2 * MIB, 0);
        try (var channel = Files.newByteChannel(source, StandardOpenOption.WRITE))
        {
            channel.position(MIB).write(ByteBuffer.wrap(new byte[] {42, 43, 44}));
        }

        final SessionHarness session = send(List.of(source), true, settings(destination, false, false));

        assertTrue(session.sender.succeeded(), String.valueOf(session.senderOutput.files));
        final FileOutcome outcome = session.senderOutput.file("f.bin");
        assertEquals(0, outcome.resumedFrom());
        assertTrue(outcome.reason().contains("changed since the interrupted transfer"), outcome.reason());
        assertEquals(Files.size(source), session.sender.bytesSent());
        assertEquals(-1, Files.mismatch(source, destination.resolve("f.bin")));
    }

    @Test
    void withResumeAFileAlreadyThereIdenticallyIsNotSentAndADifferentOneNeedsOverwrite() throws Exception
    {
        final Path sources = Files.createDirectories(temp.resolve("src"));
        final Path same = write(sources.resolve("same.bin"), 2 * MIB, 8);
        final Path other = write(sources.resolve("other.bin"), MIB, 9);
        final Path destination = Files.createDirectories(temp.resolve("dst"));
        Files.copy(same, destination.resolve("same.bin"));
        write(destination.resolve("other.bin"), MIB, 10);

        final SessionHarness session = send(List.of(same, other), true, settings(destination, false, false));

        assertEquals(FileStatus.UNCHANGED, session.senderOutput.file("same.bin").status());
        assertEquals(sha256(same), session.senderOutput.file("same.bin").sha256());
        final FileOutcome refused = session.senderOutput.file("other.bin");
        assertEquals(FileStatus.REFUSED, refused.status());
        assertTrue(refused.reason().contains("--overwrite"), refused.reason());
        assertEquals(0, session.sender.bytesSent());
        assertFalse(session.sender.succeeded());

        final SessionHarness overwrite = send(List.of(same, other), true, settings(destination, true, false));
        assertTrue(overwrite.sender.succeeded(), overwrite.sender.failure() + " " + overwrite.receiver.failure() + " " +
            overwrite.senderOutput.files);
        assertEquals(MIB, overwrite.sender.bytesSent(), "only the different file");
        assertEquals(-1, Files.mismatch(other, destination.resolve("other.bin")));
    }

    @Test
    void resumeOnlyAcceptsOnlyFilesWithKeptData() throws Exception
    {
        final Path sources = Files.createDirectories(temp.resolve("src"));
        final Path kept = write(sources.resolve("kept.bin"), 3 * MIB, 11);
        final Path fresh = write(sources.resolve("fresh.bin"), MIB, 12);
        final Path destination = Files.createDirectories(temp.resolve("dst"));
        partial(destination.resolve("kept.bin"), kept, MIB, 0);

        final SessionHarness notResuming = send(List.of(kept), false, settings(destination, false, true));
        assertTrue(notResuming.senderOutput.file("kept.bin").reason().contains("send with --resume"));

        final SessionHarness session = send(List.of(kept, fresh), true, settings(destination, false, true));
        assertEquals(FileStatus.OK, session.senderOutput.file("kept.bin").status());
        assertEquals(MIB, session.senderOutput.file("kept.bin").resumedFrom());
        final FileOutcome refused = session.senderOutput.file("fresh.bin");
        assertEquals(FileStatus.REFUSED, refused.status());
        assertTrue(refused.reason().contains("--resume-only"), refused.reason());
        assertFalse(Files.exists(destination.resolve("fresh.bin")));
        assertFalse(session.sender.succeeded());
    }

    @Test
    void corruptedDataFailsTheFileAndNothingCarriesItsName() throws Exception
    {
        final Path source = write(Files.createDirectories(temp.resolve("src")).resolve("f.bin"), 2 * MIB, 13);
        final Path destination = Files.createDirectories(temp.resolve("dst"));
        final boolean[] flipped = new boolean[1];

        final SessionHarness session = new SessionHarness().run(entries(source), false,
            settings(destination, false, false), (slot) ->
            {
                if (!flipped[0] && Messages.DATA == Messages.type(slot.buffer()))
                {
                    final int at = Messages.DATA_HEADER_BYTES + 1000;
                    slot.buffer().putByte(at, (byte)~slot.buffer().getByte(at));
                    flipped[0] = true;
                }
            });

        assertFalse(session.sender.succeeded());
        final FileOutcome outcome = session.senderOutput.file("f.bin");
        assertEquals(FileStatus.FAILED, outcome.status());
        assertTrue(outcome.reason().startsWith("SHA-256 mismatch"), outcome.reason());
        assertFalse(Files.exists(destination.resolve("f.bin")));
        assertEquals(List.of(), leftovers(destination), "the corrupt data is not kept for resuming");
    }

    @Test
    void aFileThatDoesNotFitIsRefusedBeforeAnythingIsSent() throws Exception
    {
        final Path sources = Files.createDirectories(temp.resolve("src"));
        final Path large = write(sources.resolve("large.bin"), 3 * MIB, 14);
        final Path small = write(sources.resolve("small.bin"), MIB / 2, 15);
        final Path destination = Files.createDirectories(temp.resolve("dst"));
        // The stand-in for a small disk (FileTransferCommandTest fills a real tmpfs where it may mount one).
        final DiskSpace twoMebibytes = (directory) -> 2L * MIB;

        final SessionHarness session = send(List.of(large, small), false,
            settings(destination, false, false, twoMebibytes));

        final FileOutcome refused = session.senderOutput.file("large.bin");
        assertEquals(FileStatus.REFUSED, refused.status());
        assertTrue(refused.reason().startsWith("not enough space on the receiver's disk: it needs 3.0 MBytes, " +
            "2.0 MBytes are free"), refused.reason());
        assertEquals(FileStatus.OK, session.senderOutput.file("small.bin").status());
        assertEquals(MIB / 2, session.sender.bytesSent());
        assertFalse(session.sender.succeeded());
        assertFalse(session.receiver.succeeded());
        assertEquals(1, session.receiver.entriesOk());
    }

    @Test
    void aDirectoryTheReceiverMayNotWriteFailsTheFileWithTheReason() throws Exception
    {
        final Path source = write(Files.createDirectories(temp.resolve("src")).resolve("f.bin"), MIB, 16);
        final Path destination = Files.createDirectories(temp.resolve("dst"));
        final Path locked = Files.createDirectories(destination.resolve("locked"));
        Assumptions.assumeTrue(lock(locked), "cannot make a directory unwritable here");
        try
        {
            final List<SourceEntry> entries = List.of(new SourceEntry("locked/f.bin", source, Messages.KIND_FILE,
                MIB, 0644, Messages.UNKNOWN_MTIME));
            final SessionHarness session = new SessionHarness().run(entries, false,
                settings(destination, false, false), null);

            final FileOutcome outcome = session.senderOutput.file("locked/f.bin");
            assertEquals(FileStatus.FAILED, outcome.status());
            assertTrue(outcome.reason().startsWith("cannot write it: "), outcome.reason());
            assertTrue(outcome.reason().contains("Operation not permitted") ||
                outcome.reason().contains("permission denied"), outcome.reason());
            assertEquals(outcome.reason(), session.receiverOutput.file("locked/f.bin").reason());
            assertFalse(session.sender.succeeded());
            assertFalse(session.receiver.succeeded());
        }
        finally
        {
            unlock(locked);
        }
    }

    /**
     * Root may write anywhere a mode forbids, but not into an immutable directory ({@code chattr +i}).
     */
    private static boolean lock(final Path directory) throws Exception
    {
        if ("root".equals(System.getProperty("user.name")))
        {
            return 0 == new ProcessBuilder("chattr", "+i", directory.toString()).start().waitFor();
        }
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("r-xr-xr-x"));
        return !Files.isWritable(directory);
    }

    private static void unlock(final Path directory) throws Exception
    {
        if ("root".equals(System.getProperty("user.name")))
        {
            new ProcessBuilder("chattr", "-i", directory.toString()).start().waitFor();
        }
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private SessionHarness send(final List<Path> sources, final boolean resume, final ReceiveSettings settings)
        throws Exception
    {
        return new SessionHarness().run(SourceTree.collect(sources).entries(), resume, settings, null);
    }

    private static List<SourceEntry> entries(final Path source) throws IOException
    {
        return SourceTree.collect(List.of(source)).entries();
    }

    private static ReceiveSettings settings(final Path directory, final boolean overwrite, final boolean resumeOnly)
        throws IOException
    {
        return settings(directory, overwrite, resumeOnly, DiskSpace.FILE_STORE);
    }

    private static ReceiveSettings settings(
        final Path directory, final boolean overwrite, final boolean resumeOnly, final DiskSpace diskSpace)
        throws IOException
    {
        return SessionHarness.settings(directory, overwrite, resumeOnly, diskSpace);
    }

    /**
     * What an interrupted transfer leaves: the source's first {@code durable} bytes recorded as durable, then
     * {@code unsynced} more that arrived but were never checkpointed.
     */
    static void partial(final Path target, final Path source, final int durable, final int unsynced)
        throws IOException
    {
        final byte[] content = Files.readAllBytes(source);
        final PartialFile partial = PartialFile.create(target);
        partial.write(ByteBuffer.wrap(content, 0, durable));
        partial.keep();
        try (var channel = Files.newByteChannel(PartialFile.tempPath(target), StandardOpenOption.APPEND))
        {
            channel.write(ByteBuffer.wrap(content, durable, unsynced));
        }
    }

    static Path write(final Path file, final int size, final long seed) throws IOException
    {
        final byte[] content = new byte[size];
        new SplittableRandom(seed).nextBytes(content);
        return Files.write(file, content);
    }

    static String sha256(final Path file) throws IOException
    {
        return Sha256.hex(Sha256.newDigest().digest(Files.readAllBytes(file)));
    }

    static List<Path> leftovers(final Path directory) throws IOException
    {
        try (Stream<Path> files = Files.walk(directory))
        {
            return files.filter((path) -> path.getFileName().toString().contains(".pacelink-")).toList();
        }
    }

    private static String mode(final Path path) throws IOException
    {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
