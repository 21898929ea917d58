package io.pacelink.cli.transfer;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FileLeasesTest
{
    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void aNewcomerTakesAFileOverOnceItsHolderLetGo() throws Exception
    {
        final FileLeases leases = new FileLeases();
        final Path file = Path.of("/data/f.bin");
        final SessionPipes holder = pipes();
        final SessionPipes newcomer = pipes();
        assertTrue(leases.acquire(file, holder, "nobody"));
        assertTrue(leases.acquire(file, holder, "nobody"), "a holder may ask again");

        // The holder's file thread notices the stop at its next wait, keeps its file, and lets go.
        final AtomicBoolean stopped = new AtomicBoolean();
        final Thread holderThread = new Thread(() ->
        {
            try
            {
                holder.receive();
            }
            catch (final TransferException ex)
            {
                stopped.set(ex.getMessage().equals("'f.bin' was taken over by a newer session from 10.0.0.9:4000"));
                leases.release(file, holder);
            }
        });
        holderThread.start();
        assertTrue(leases.acquire(file, newcomer, "a newer session from 10.0.0.9:4000"));
        holderThread.join();
        assertTrue(stopped.get());

        leases.release(file, holder);
        assertTrue(leases.acquire(file, newcomer, "nobody"), "a release by a former holder changes nothing");
    }

    @Test
    void theHoldersStopIsSeenAtItsNextWaitForAMessage()
    {
        final SessionPipes pipes = pipes();
        pipes.stop("interrupted");
        assertEquals("interrupted", assertThrows(TransferException.class, pipes::receive).getMessage());
        assertEquals("interrupted", assertThrows(TransferException.class, pipes::claim).getMessage());
    }

    private static SessionPipes pipes()
    {
        return new SessionPipes(new SlotPipe(2, 64), new SlotPipe(2, 64), new BackoffIdleStrategy());
    }
}
