package io.pacelink.cli;

/**
 * The shutdown hooks the commands register so that Ctrl-C ends a run with its results: removing one once the run has
 * ended by itself.
 */
final class ShutdownHooks
{
    private ShutdownHooks()
    {
    }

    /**
     * @param hook a hook registered with {@link Runtime#addShutdownHook(Thread)}.
     */
    static void remove(final Thread hook)
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
