package io.pacelink.cli.transfer;

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
 * The file threads move data without garbage: between the 64th and the 250th chunk of a file (46 MiB, before the
 * receiver's first checkpoint at {@link PartialFile#CHECKPOINT_INTERVAL_BYTES}), the sender's thread (read, hash,
 * send) and the receiver's (write, hash) allocate nothing but JIT one-offs. A checkpoint itself allocates (opening
 * and renaming the state file: about 120 KB once per 64 MiB, measured), as does each file's start and end. The
 * network threads' offer and poll are the transport's, whose steady state is checked by
 * {@code SteadyStateAllocationTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileTransferAllocationTest
{
    private static final int CHUNKS = 512;
    private static final int FIRST_SAMPLE = 64;
    private static final int LAST_SAMPLE = 250;

    /**
     * The JVM's one-offs (see {@code AllocationMeter}); one 48-byte object per chunk would exceed it.
     */
    private static final long ALLOWANCE_BYTES = 8192;

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
        final long[] first = new long[2];
        final long[] last = new long[2];
        final int[] chunks = new int[1];

        harness.run(SourceTree.collect(List.of(source)).entries(), false,
            SessionHarness.settings(destination, false, false, DiskSpace.FILE_STORE), (slot) ->
            {
                if (Messages.DATA == Messages.type(slot.buffer()))
                {
                    // Sampled as a chunk passes between them: both threads are part way through the file.
                    chunks[0]++;
                    if (FIRST_SAMPLE == chunks[0])
                    {
                        first[0] = THREADS.getThreadAllocatedBytes(harness.senderThread.getId());
                        first[1] = THREADS.getThreadAllocatedBytes(harness.receiverThread.getId());
                    }
                    else if (LAST_SAMPLE == chunks[0])
                    {
                        last[0] = THREADS.getThreadAllocatedBytes(harness.senderThread.getId());
                        last[1] = THREADS.getThreadAllocatedBytes(harness.receiverThread.getId());
                    }
                }
            });

        assertTrue(harness.sender.succeeded(), String.valueOf(harness.senderOutput.files));
        assertEquals(CHUNKS, chunks[0]);
        final long sender = last[0] - first[0];
        final long receiver = last[1] - first[1];
        System.out.printf("allocated over %d chunks (%d MiB): sender file thread %d bytes, receiver file thread " +
            "%d bytes%n", LAST_SAMPLE - FIRST_SAMPLE, (LAST_SAMPLE - FIRST_SAMPLE) / 4, sender, receiver);
        assertTrue(sender <= ALLOWANCE_BYTES, "sender: " + sender + " bytes");
        assertTrue(receiver <= ALLOWANCE_BYTES, "receiver: " + receiver + " bytes");
    }
}
