package io.pacelink.cli.perf;

import io.pacelink.cli.ShutdownHooks;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A perf server and its client in one process, on loopback: the training run of {@code pacelink perf}'s
 * ahead-of-time cache for JDK 25 or newer ({@code config/aot/build-perf-cache.sh}). JDK 25 records one process's
 * method profiles into the cache (JEP 515, "Ahead-of-Time Method Profiling"); with both ends here, the profiles hold
 * the sending path and the receiving path — the real ports, the duty-cycle roots and the perf server's loop as the
 * command line runs them — so that a perf client or server started with the cache has the profiles of its own end
 * from its first second. The server runs as {@code perf -s -1} does (its own thread standing in for the process),
 * so its loop sees the same stop condition a command-line server sees.
 */
public final class LoopbackTraining
{
    /**
     * Longest wait for the server's endpoint to open: a JVM recording a cache starts slower than one using it.
     */
    static final long LISTEN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    /**
     * Longest wait for a one-off server to finish once its client is done (a test's end, or its failure).
     */
    static final long SERVER_END_TIMEOUT_MS = TimeUnit.SECONDS.toMillis(15);

    private static final long LISTEN_POLL_MS = 5;

    private LoopbackTraining()
    {
    }

    /**
     * Runs one test: a one-off server for {@code server}'s options (bound to a loopback address, port 0 for any),
     * and {@code client} given the address it listens on.
     *
     * @param server what the server serves; {@code oneOff} should be set, so that it ends after the test.
     * @param client runs the client's test against the address given; returns why it failed, or null.
     * @return why the test failed, or null if it succeeded.
     */
    public static String runOneTest(final PerfServer.Options server, final Function<InetSocketAddress, String> client)
    {
        if (!server.bind().getAddress().isLoopbackAddress())
        {
            throw new IllegalArgumentException("the training server listens on loopback only, not " + server.bind());
        }
        final AtomicReference<PerfServer> started = new AtomicReference<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread thread = new Thread(() -> ShutdownHooks.runStoppable("pacelink-perf-training-shutdown", 1,
            (stop) ->
            {
                final PerfServer perfServer = new PerfServer(server, (line) -> { }, (line) -> { }, stop);
                started.set(perfServer);
                return perfServer.run();
            }), "pacelink-perf-training-server");
        thread.setDaemon(true); // a server whose client never came must not keep the process alive
        thread.setUncaughtExceptionHandler((t, ex) -> failure.set(ex));
        thread.start();
        final InetSocketAddress address = awaitListening(started, thread);
        if (null == address)
        {
            final Throwable why = failure.get();
            return "the training server did not start" + (null == why ? "" : ": " + why.getMessage());
        }
        final String error = client.apply(address);
        try
        {
            thread.join(SERVER_END_TIMEOUT_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        return error;
    }

    private static InetSocketAddress awaitListening(final AtomicReference<PerfServer> started, final Thread thread)
    {
        final long deadlineNs = System.nanoTime() + LISTEN_TIMEOUT_NS;
        while (thread.isAlive() && System.nanoTime() - deadlineNs < 0)
        {
            final PerfServer perfServer = started.get();
            final InetSocketAddress address = null == perfServer ? null : perfServer.localAddress();
            if (null != address)
            {
                return address;
            }
            try
            {
                Thread.sleep(LISTEN_POLL_MS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }
}
