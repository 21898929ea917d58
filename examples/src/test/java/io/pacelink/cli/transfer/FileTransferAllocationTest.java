package io.pacelink.cli.transfer;

import io.pacelink.transport.testing.AllocationMeter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The file threads move data without garbage: in windows of 24 chunks (6 MiB) up to the 240th chunk of a file
 * (before the receiver's first checkpoint at {@link PartialFile#CHECKPOINT_INTERVAL_BYTES}), the sender's thread
 * (read, hash, send) and the receiver's (write, hash) must each allocate nothing at all in
 * {@code AllocationMeter.REQUIRED_CLEAN_WINDOWS} windows in a row: garbage per chunk would show in every window, while
 * the JVM's one-offs (a method queued for compilation resolving its constants on the calling thread) show in a few.
 * A checkpoint itself allocates (opening and renaming the state file: about 120 KB once per 64 MiB, measured), as do
 * each file's start and end. The network threads' offer and poll are the transport's, whose steady state is checked
 * by {@code SteadyStateAllocationTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileTransferAllocationTest
{
    private static final int CHUNKS = 256;
    private static final int WINDOW_CHUNKS = 24;
    private static final int LAST_SAMPLE = 240;

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    @TempDir
    Path temp;

    @Test
    void theFileThreadsAllocateNothingPerChunk() throws Exception
    {
        final Path source = FileTransferSessionTest.write(
            Files.createDirectories(temp.resolve("src")).resolve("f.bin"), CHUNKS * Messages.CHUNK_BYTES, 1);
        final Path destination = Files.createDirectories(temp.resolve("dst"));
        final SessionHarness harness = new SessionHarness();
        final int samples = LAST_SAMPLE / WINDOW_CHUNKS;
        final long[] sender = new long[samples];
        final long[] receiver = new long[samples];
        final int[] chunks = new int[1];

        harness.run(SourceTree.collect(List.of(source)).entries(), false,
            SessionHarness.settings(destination, false, false, DiskSpace.FILE_STORE), (slot) ->
            {
                if (Messages.DATA == Messages.type(slot.buffer()))
                {
                    // Sampled as a chunk passes between them: both threads are part way through the file.
                    chunks[0]++;
                    if (0 == chunks[0] % WINDOW_CHUNKS && chunks[0] <= LAST_SAMPLE)
                    {
                        sender[chunks[0] / WINDOW_CHUNKS - 1] =
                            THREADS.getThreadAllocatedBytes(harness.senderThread.getId());
                        receiver[chunks[0] / WINDOW_CHUNKS - 1] =
                            THREADS.getThreadAllocatedBytes(harness.receiverThread.getId());
                    }
                }
            });

        assertTrue(harness.sender.succeeded(), String.valueOf(harness.senderOutput.files));
        assertEquals(CHUNKS, chunks[0]);
        assertCleanWindows("sender file thread", sender);
        assertCleanWindows("receiver file thread", receiver);
    }

    private static void assertCleanWindows(final String what, final long[] samples)
    {
        final StringBuilder windows = new StringBuilder();
        int clean = 0;
        int mostClean = 0;
        for (int i = 1; i < samples.length; i++)
        {
            final long allocated = samples[i] - samples[i - 1];
            windows.append(allocated).append(' ');
            clean = 0 == allocated ? clean + 1 : 0;
            mostClean = Math.max(mostClean, clean);
        }
        System.out.println(what + ": bytes allocated per " + WINDOW_CHUNKS + "-chunk window: " + windows);
        assertTrue(mostClean >= AllocationMeter.REQUIRED_CLEAN_WINDOWS, what + " allocated in too many windows: " +
            windows);
    }
}
