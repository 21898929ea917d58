package io.pacelink.cli;

import io.pacelink.transport.stats.CountersFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CountersFileReaper} on files whose headers name this (live) process, a process that has ended, or nobody
 * yet: only the ended process's file of this user goes.
 */
class CountersFileReaperTest
{
    private static final String USER = System.getProperty("user.name");

    @TempDir
    Path directory;

    @Test
    void aLiveProcesssFileIsKeptHoweverOldItsHeartbeat() throws IOException
    {
        final CountersFile file = CountersFile.create(directory, "endpoint", "endpoint /127.0.0.1:1", 4096);
        try
        {
            // An hour without a heartbeat: a hung process, or an INVOKER endpoint nobody invokes; still alive.
            putLong(file.path(), CountersFile.HEARTBEAT_MS_OFFSET, System.currentTimeMillis() - 3_600_000L);
            assertEquals(CountersFileReaper.Outcome.KEPT,
                new CountersFileReaper(USER).reap(file.path(), System.currentTimeMillis()));
            assertTrue(Files.exists(file.path()));
        }
        finally
        {
            file.close();
        }
    }

    @Test
    void anEndedProcesssFileIsRemovedAndNothingIsLeftBehind() throws Exception
    {
        final Path path = fileOfAnEndedProcess();
        assertEquals(CountersFileReaper.Outcome.REMOVED,
            new CountersFileReaper(USER).reap(path, System.currentTimeMillis()));
        try (var left = Files.list(directory))
        {
            assertEquals(0, left.count(), "neither the file nor its reaping name is left");
        }
    }

    @Test
    void anEndedProcesssFileOfAnotherUserIsKept() throws Exception
    {
        final Path path = fileOfAnEndedProcess();
        assertEquals(CountersFileReaper.Outcome.OTHER_USERS,
            new CountersFileReaper(USER + "-not").reap(path, System.currentTimeMillis()));
        assertTrue(Files.exists(path));
    }

    @Test
    void aFileBeingCreatedIsKept() throws IOException
    {
        // What CountersFile.create leaves between mapping the new file and writing its header (layout version last).
        final Path path = directory.resolve("endpoint-1-1" + CountersFile.FILE_SUFFIX);
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw"))
        {
            file.setLength(CountersFile.HEADER_LENGTH + 4096);
        }
        assertEquals(CountersFileReaper.Outcome.KEPT,
            new CountersFileReaper(USER).reap(path, System.currentTimeMillis()));
        assertTrue(Files.exists(path));
        assertFalse(Files.exists(directory.resolve("missing" + CountersFile.FILE_SUFFIX)));
        assertEquals(CountersFileReaper.Outcome.KEPT, new CountersFileReaper(USER)
            .reap(directory.resolve("missing" + CountersFile.FILE_SUFFIX), System.currentTimeMillis()));
    }

    /**
     * @return a complete counters file whose header names a process that has ended (a child that ran and exited).
     */
    private Path fileOfAnEndedProcess() throws Exception
    {
        final Process child = new ProcessBuilder("true").start();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        final CountersFile file = CountersFile.create(directory, "endpoint", "endpoint /127.0.0.1:2", 4096);
        final Path path = file.path();
        putLong(path, CountersFile.PID_OFFSET, child.pid());
        // The file stays; close() would delete it as its owner does.
        return path;
    }

    private static void putLong(final Path path, final int offset, final long value) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE))
        {
            final ByteBuffer bytes = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder()).putLong(value);
            bytes.flip();
            channel.write(bytes, offset);
        }
    }
}
