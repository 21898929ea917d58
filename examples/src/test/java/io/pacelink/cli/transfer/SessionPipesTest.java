package io.pacelink.cli.transfer;

import org.agrona.concurrent.NoOpIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The file thread's view of a session's end: a message the network thread received before the connection ended is
 * always read before the failure shows. A sender whose receiver confirmed the whole session and then closed must
 * see the confirmation (DONE), not "the receiver closed the connection": the soak once failed a complete transfer
 * because the file thread found the pipe empty, the network thread then committed DONE and failed, and the file
 * thread saw only the failure.
 */
class SessionPipesTest
{
    private static final int SLOT_BYTES = 64;
    private static final int RACE_ROUNDS = 100_000;
    private static final int SPREAD_SPINS = 64;

    @Test
    void aMessageReceivedBeforeTheFailureIsReadFirstThenTheFailureShows() throws Exception
    {
        final SessionPipes pipes = pipes();
        pipes.inbound().commit(filled(pipes.inbound(), (byte)7));
        pipes.fail("the receiver closed the connection");

        final Slot slot = pipes.receive();
        assertEquals(7, slot.buffer().getByte(0));
        pipes.release(slot);
        final TransferException failure = assertThrows(TransferException.class, pipes::receive);
        assertEquals("the receiver closed the connection", failure.getMessage());
    }

    @Test
    void aTimedReceiveAlsoReadsWhatCameBeforeTheFailure() throws Exception
    {
        final SessionPipes pipes = pipes();
        pipes.inbound().commit(filled(pipes.inbound(), (byte)9));
        pipes.fail("gone");

        assertEquals(9, pipes.receive(1_000_000_000L).buffer().getByte(0));
    }

    /**
     * The network thread commits the last message and fails at once, racing a file thread that is already waiting
     * (spinning, so that it is as often as possible between its look at the pipe and its look at the failure). In
     * every round the message must come out of receive(); before the fix some rounds threw instead. The rounds end
     * by count, not by time.
     */
    @Test
    void theLastMessageIsNeverLostToAFailureThatFollowsIt() throws Exception
    {
        final CyclicBarrier start = new CyclicBarrier(2);
        final AtomicReference<SessionPipes> round = new AtomicReference<>();
        final AtomicReference<Throwable> networkError = new AtomicReference<>();
        final Thread network = new Thread(() ->
        {
            try
            {
                for (int i = 0; i < RACE_ROUNDS; i++)
                {
                    start.await();
                    final SessionPipes pipes = round.get();
                    for (int spins = i % SPREAD_SPINS; spins > 0; spins--)
                    {
                        Thread.onSpinWait(); // lands the commit at a different point of the file thread's loop
                    }
                    pipes.inbound().commit(filled(pipes.inbound(), (byte)1)); // the network thread's order: commit,
                    pipes.fail("the receiver closed the connection");       // then fail (TransferChannel.run)
                }
            }
            catch (final Exception ex)
            {
                networkError.set(ex);
            }
        }, "test-network");
        network.setDaemon(true);
        network.start();

        int lost = 0;
        for (int i = 0; i < RACE_ROUNDS; i++)
        {
            final SessionPipes pipes = pipes();
            round.set(pipes);
            start.await();
            try
            {
                pipes.release(pipes.receive());
            }
            catch (final TransferException ex)
            {
                lost++;
            }
        }
        network.join();
        assertNull(networkError.get());
        assertEquals(0, lost, "rounds whose last message was lost to the failure, of " + RACE_ROUNDS);
    }

    private static SessionPipes pipes()
    {
        return new SessionPipes(new SlotPipe(2, SLOT_BYTES), new SlotPipe(2, SLOT_BYTES), NoOpIdleStrategy.INSTANCE);
    }

    private static Slot filled(final SlotPipe pipe, final byte value)
    {
        final Slot slot = pipe.claim();
        slot.buffer().putByte(0, value);
        slot.length(1);
        return slot;
    }
}
