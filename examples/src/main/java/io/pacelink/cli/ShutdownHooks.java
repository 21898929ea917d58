package io.pacelink.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * The shutdown hooks the commands register so that Ctrl-C ends a run with its results.
 */
public final class ShutdownHooks
{
    private ShutdownHooks()
    {
    }

    /**
     * A run that Ctrl-C asks to stop: it checks the flag it is given and ends early, printing what it has.
     */
    @FunctionalInterface
    public interface StoppableRun
    {
        /**
         * @param stopRequested true once Ctrl-C was pressed.
         * @return the exit status.
         */
        int run(BooleanSupplier stopRequested);
    }

    /**
     * Run until done or Ctrl-C: the shutdown hook asks the run to stop and holds the JVM until the run has finished
     * (at most {@code maxWrapUpSeconds}), so its last output is printed.
     *
     * @param name             the hook thread's name.
     * @param maxWrapUpSeconds longest the JVM waits for the run after Ctrl-C.
     * @param run              the run.
     * @return its exit status.
     */
    public static int runStoppable(final String name, final long maxWrapUpSeconds, final StoppableRun run)
    {
        final AtomicBoolean stop = new AtomicBoolean();
        final CountDownLatch finished = new CountDownLatch(1);
        final Thread onCtrlC = new Thread(() ->
        {
            stop.set(true);
            try
            {
                finished.await(maxWrapUpSeconds, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, name);
        Runtime.getRuntime().addShutdownHook(onCtrlC);
        try
        {
            return run.run(stop::get);
        }
        finally
        {
            finished.countDown();
            remove(onCtrlC);
        }
    }

    /**
     * @param hook a hook registered with {@link Runtime#addShutdownHook(Thread)}.
     */
    public static void remove(final Thread hook)
    {
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException ex)
        {
            // The JVM is already shutting down (Ctrl-C): the hook is running and finishes the command's work itself.
        }
    }
}
