package io.pacelink.transport.agent;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent's answer to a connect wakes the thread that asked: a requester parked without a timeout returns from its
 * park only because the answer unparked it (without that unpark this test would hang until its timeout fails it).
 */
class ConnectCommandTest
{
    private static final InetSocketAddress SERVER = new InetSocketAddress("127.0.0.1", 40123);

    @Test
    void theAnswerUnparksTheRequestingThread()
    {
        final AtomicReference<ConnectCommand> asked = new AtomicReference<>();
        final Thread requester = new Thread(() ->
        {
            final ConnectCommand command = new ConnectCommand(SERVER, null);
            asked.set(command);
            while (!command.isDone())
            {
                LockSupport.park(); // no timeout: only an unpark (or a spurious return) ends it
            }
        }, "requester");
        assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
        {
            requester.start();
            while (null == asked.get())
            {
                Thread.onSpinWait();
            }
            // Wait until the requester is parked, so the unpark ends a park and does not merely leave a permit.
            while (Thread.State.WAITING != requester.getState() && requester.isAlive())
            {
                Thread.onSpinWait();
            }
            asked.get().fail(new IllegalStateException("endpoint is closed"));
            requester.join();
        });
        assertFalse(requester.isAlive());
        assertTrue(asked.get().isDone());
        final IllegalStateException error = assertThrows(IllegalStateException.class, asked.get()::connection);
        assertEquals("endpoint is closed", error.getMessage());
    }

    @Test
    void aCommandNotYetAnsweredSaysSo()
    {
        final ConnectCommand command = new ConnectCommand(SERVER, "cubic");
        assertFalse(command.isDone());
        assertThrows(IllegalStateException.class, command::connection);
    }
}
