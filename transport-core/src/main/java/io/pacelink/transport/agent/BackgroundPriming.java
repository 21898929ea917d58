package io.pacelink.transport.agent;

import io.pacelink.transport.engine.HandshakePathPrimer;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Goes on with a server's handshake priming after its launch, on a thread of its own, where the launch's second ran
 * out before the priming's cap ({@link HandshakePathPrimer#continuing}). On this project's two-vCPU test VM, loaded,
 * the launch's second ran 39-197 secure handshakes and a half-open flood that began seconds later met the server's
 * duty cycle and hello path interpreted: C1 compiled them 0.6-2.6 s into the flood and C2 4-5 s into it, while the
 * compilers took a core beside the agent (perf/FINDINGS.md, "The flood check: the probes follow the attacker").
 * HotSpot compiles what ran often enough (tiered compilation's invocation thresholds), so the connects have to run
 * before the flood, and the seconds a server idles after its launch are when they cost nobody.
 * <p>
 * So the thread runs a connect only while its endpoint idles — no datagram received for {@link #QUIET_NS} — and
 * after each connect sleeps twice as long as the connect took: at most a third of a core, and none while the endpoint
 * has work (a client's connects, a flood: those run the same code and compile it themselves). It stops when the
 * priming's cap is reached, after {@link #BUDGET_NS}, when its endpoint closes, or for good once the endpoint has
 * received {@link #BUSY_DATAGRAMS} datagrams since it began: a server that busy has compiled its path serving, and
 * its idle seconds after (an idle server's CPU is a figure of its own) are left alone. The launch's wall time is not
 * changed; its cost, measured on the project's two-vCPU VM with the first version (half a core, no stop on traffic):
 * ~9 CPU-seconds in the 10 s after a `pacelink receive` listened, against ~0.3 without (perf/FINDINGS.md, "The
 * server's first seconds under a flood").
 */
public final class BackgroundPriming implements Runnable
{
    /**
     * Longest wall time the priming goes on after its endpoint's launch.
     */
    public static final long BUDGET_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * How long the endpoint must have received nothing before another connect runs.
     */
    public static final long QUIET_NS = TimeUnit.MILLISECONDS.toNanos(5);

    /**
     * Datagrams received since the priming began after which it stops for good.
     */
    public static final long BUSY_DATAGRAMS = 5_000;

    /**
     * Sleep after a connect, in units of the time the connect took.
     */
    static final int SLEEP_PER_CONNECT_TIME = 2;

    private final HandshakePathPrimer primer;
    private final NanoClock clock;
    private final LongSupplier datagramsReceived;
    private final BooleanSupplier isEndpointClosed;
    private HandshakePathPrimer.Result result;

    /**
     * @param primer            the priming to go on with.
     * @param clock             the wall clock.
     * @param datagramsReceived how many datagrams the endpoint received so far (its counter, read from this thread).
     * @param isEndpointClosed  true once the endpoint closed.
     */
    public BackgroundPriming(
        final HandshakePathPrimer primer,
        final NanoClock clock,
        final LongSupplier datagramsReceived,
        final BooleanSupplier isEndpointClosed)
    {
        this.primer = primer;
        this.clock = clock;
        this.datagramsReceived = datagramsReceived;
        this.isEndpointClosed = isEndpointClosed;
    }

    /**
     * Start the priming on a daemon thread of its own.
     *
     * @return the thread.
     */
    public Thread start()
    {
        final Thread thread = new Thread(this, "pacelink-handshake-priming");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    public void run()
    {
        final long startNs = clock.nanoTime();
        final long startDatagrams = datagramsReceived.getAsLong();
        long seen = startDatagrams;
        long quietSinceNs = startNs;
        boolean more = true;
        while (more && clock.nanoTime() - startNs < BUDGET_NS && !isEndpointClosed.getAsBoolean())
        {
            final long nowNs = clock.nanoTime();
            final long received = datagramsReceived.getAsLong();
            if (received - startDatagrams >= BUSY_DATAGRAMS)
            {
                break;
            }
            if (received != seen)
            {
                seen = received;
                quietSinceNs = nowNs;
            }
            if (nowNs - quietSinceNs < QUIET_NS)
            {
                LockSupport.parkNanos(QUIET_NS);
                continue;
            }
            more = primer.primeOne();
            LockSupport.parkNanos(SLEEP_PER_CONNECT_TIME * (clock.nanoTime() - nowNs));
        }
        result = primer.finish(clock.nanoTime() - startNs);
    }

    /**
     * @return what the priming did, once it ended (read after the thread ended), else null.
     */
    public HandshakePathPrimer.Result result()
    {
        return result;
    }
}
