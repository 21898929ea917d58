package io.pacelink.transport.stats;

import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CountersFileTest
{
    private static final int VALUES_BYTES = 64 * 1024;

    @TempDir
    Path directory;

    @Test
    void aReaderSeesTheOwnersHeaderAndLiveCountersAndTheFileIsDeletedOnClose()
    {
        final Path sub = directory.resolve("sub");
        final CountersFile file = CountersFile.create(sub, "endpoint", "endpoint test", VALUES_BYTES);
        final AtomicCounter counter =
            CounterKey.newCounter(file.countersManager(), CounterType.CONNECTION, 0x1f2eL, "cwnd-bytes", "conn 1f2e");
        counter.setRelease(14_720);

        assertEquals(List.of(file.path()), CountersFileReader.list(sub));
        assertTrue(file.path().getFileName().toString().startsWith("endpoint-" + ProcessHandle.current().pid() + "-"));
        try (CountersFileReader reader = CountersFileReader.open(file.path()).orElseThrow())
        {
            assertEquals(ProcessHandle.current().pid(), reader.pid());
            assertEquals("endpoint test", reader.description());
            assertEquals(CountersFileReader.Liveness.ALIVE,
                reader.liveness(System.currentTimeMillis(), CountersFileReader.DEFAULT_HEARTBEAT_TIMEOUT_MS));
            final int[] seen = { 0 };
            reader.countersReader().forEach((id, typeId, key, label) ->
            {
                seen[0]++;
                assertEquals(CounterType.CONNECTION, typeId);
                assertEquals(0x1f2eL, CounterKey.ownerId(key));
                assertEquals("cwnd-bytes", CounterKey.name(key));
                assertEquals("conn 1f2e", label);
                assertEquals(14_720, reader.countersReader().getCounterValue(id));
            });
            assertEquals(1, seen[0]);

            counter.setRelease(29_440);
            assertEquals(29_440, reader.countersReader().getCounterValue(counter.id()), "read live, not copied");

            file.close();
            assertFalse(reader.exists());
            assertEquals(29_440, reader.countersReader().getCounterValue(counter.id()), "the mapping stays valid");
        }
        assertTrue(CountersFileReader.list(sub).isEmpty());
    }

    @Test
    void heartbeatIsRefreshedAtMostEveryIntervalAndAnOldOneMeansNotResponding() throws Exception
    {
        final CountersFile file = CountersFile.create(directory, "endpoint", "heartbeat", VALUES_BYTES);
        try (CountersFileReader reader = CountersFileReader.open(file.path()).orElseThrow())
        {
            putLong(file.path(), CountersFile.HEARTBEAT_MS_OFFSET, 1);
            file.heartbeat(0);
            final long firstMs = reader.heartbeatMs();
            assertTrue(firstMs > 1);

            putLong(file.path(), CountersFile.HEARTBEAT_MS_OFFSET, 1);
            file.heartbeat(CountersFile.HEARTBEAT_INTERVAL_NS - 1);
            assertEquals(1, reader.heartbeatMs(), "not due yet");
            file.heartbeat(CountersFile.HEARTBEAT_INTERVAL_NS);
            assertTrue(reader.heartbeatMs() >= firstMs);

            final long timeoutMs = CountersFileReader.DEFAULT_HEARTBEAT_TIMEOUT_MS;
            assertEquals(CountersFileReader.Liveness.NOT_RESPONDING,
                reader.liveness(reader.heartbeatMs() + timeoutMs + 1, timeoutMs));
        }
        finally
        {
            file.close();
        }
    }

    @Test
    void aFileWhoseProcessIsGoneOrWhosePidWasReusedIsDead() throws Exception
    {
        final Process finished = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
        assertTrue(finished.waitFor(30, TimeUnit.SECONDS));

        final CountersFile gone = CountersFile.create(directory, "endpoint", "gone", VALUES_BYTES);
        putLong(gone.path(), CountersFile.PID_OFFSET, finished.pid());
        final CountersFile reused = CountersFile.create(directory, "endpoint", "reused", VALUES_BYTES);
        putLong(reused.path(), CountersFile.PROCESS_START_MS_OFFSET, System.currentTimeMillis() - 3_600_000L);

        final long nowMs = System.currentTimeMillis();
        try (CountersFileReader goneReader = CountersFileReader.open(gone.path()).orElseThrow();
            CountersFileReader reusedReader = CountersFileReader.open(reused.path()).orElseThrow())
        {
            assertEquals(CountersFileReader.Liveness.DEAD, goneReader.liveness(nowMs, 10_000));
            assertEquals(CountersFileReader.Liveness.DEAD, reusedReader.liveness(nowMs, 10_000));
        }
        gone.close();
        reused.close();
    }

    @Test
    void aFileWithoutLayoutVersionIsNotReadYet() throws Exception
    {
        final CountersFile file = CountersFile.create(directory, "endpoint", "half written", VALUES_BYTES);
        try (FileChannel channel = FileChannel.open(file.path(), StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.allocate(4), CountersFile.LAYOUT_VERSION_OFFSET);
        }
        assertTrue(CountersFileReader.open(file.path()).isEmpty());
        file.close();
        assertTrue(CountersFileReader.open(file.path()).isEmpty(), "gone");
        assertFalse(Files.exists(file.path()));
    }

    private static void putLong(final Path path, final int offset, final long value) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE))
        {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(0, value), offset);
        }
    }
}
