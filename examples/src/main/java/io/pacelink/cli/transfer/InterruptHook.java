package io.pacelink.cli.transfer;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What a file-transfer command does on Ctrl-C (or SIGTERM): tell its sessions to stop, so the receiver keeps what
 * it has for {@code --resume} and both sides report, then give them a moment to finish before the JVM exits.
 */
final class InterruptHook implements AutoCloseable
{
    private static final long GRACE_NS = TimeUnit.SECONDS.toNanos(5);

    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;

    /**
     * @param onInterrupt what to do first (runs on the JVM's shutdown thread).
     */
    InterruptHook(final Runnable onInterrupt)
    {
        hook = new Thread(() ->
        {
            onInterrupt.run();
            try
            {
                finished.await(GRACE_NS, TimeUnit.NANOSECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "pacelink-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * The command has finished (normally or after the interrupt).
     */
    public void close()
    {
        finished.countDown();
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException ex)
        {
            // The JVM is shutting down: the hook is running and now returns.
        }
    }
}
