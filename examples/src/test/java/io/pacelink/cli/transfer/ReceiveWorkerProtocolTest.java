package io.pacelink.cli.transfer;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A receiver fed messages by hand: a sender that breaks the order of the protocol ends its session with a
 * message saying what it did, and nothing is written.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ReceiveWorkerProtocolTest
{
    @TempDir
    Path directory;

    @Test
    void dataBeforeItsFileStartedEndsTheSession() throws Exception
    {
        final String failure = runWith(
            (slot) -> Messages.hello(slot.buffer(), 0, 1, 10),
            (slot) -> Messages.dataHeader(slot.buffer(), 0, 0) + 10);
        assertEquals("the sender broke the protocol: DATA for entry 0 at 0 (10 bytes) does not continue what was " +
            "received", failure);
    }

    @Test
    void somethingOtherThanAFileTransferIsTurnedAway() throws Exception
    {
        final String failure = runWith((slot) ->
        {
            slot.buffer().putStringWithoutLengthAscii(0, "GET / HTTP/1.1\r\n");
            return 16;
        });
        assertTrue(failure.startsWith("the sender broke the protocol: "), failure);
    }

    @Test
    void anEntryOutOfOrderEndsTheSession() throws Exception
    {
        final String failure = runWith(
            (slot) -> Messages.hello(slot.buffer(), 0, 5, 10),
            (slot) -> Messages.entry(slot.buffer(), 3, Messages.KIND_FILE, 0644, 0, 10, "a".getBytes()));
        assertEquals("the sender broke the protocol: ENTRY 3 where entry 0 of 5 was due", failure);
    }

    @SafeVarargs
    private String runWith(final ToIntFunction<Slot>... messages) throws Exception
    {
        final SessionPipes pipes = new SessionPipes(
            new SlotPipe(8, FileSender.CONTROL_MESSAGE_BYTES), new SlotPipe(8, Messages.MAX_MESSAGE_BYTES),
            new BackoffIdleStrategy());
        final ReceiveWorker worker = new ReceiveWorker(
            SessionHarness.settings(directory, false, false, DiskSpace.FILE_STORE), pipes, "test",
            new TransferProgress(0), new RecordingOutput());
        for (final ToIntFunction<Slot> message : messages)
        {
            final Slot slot = pipes.inbound().claim();
            slot.length(message.applyAsInt(slot));
            pipes.inbound().commit(slot);
        }
        final Thread thread = new Thread(worker);
        thread.start();
        thread.join();
        assertFalse(worker.succeeded());
        try (var listing = Files.list(directory))
        {
            assertEquals(0, listing.count());
        }
        return worker.failure();
    }
}
