package io.pacelink.perf.loopback;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ThreadingMode;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Ping-pong of small messages over one Pacelink connection with the endpoint in DEDICATED mode (its agent on a thread
 * of its own, the application polling and offering on another), for the 2-core recipes of perf/README.md:
 * <ul>
 *     <li>{@code spin} — the low-latency profile (the agent busy-spins) and an application that busy-spins too: two
 *     spinning threads per process, four on the machine;</li>
 *     <li>{@code yield} — agent and application both yield the core when they find nothing to do
 *     ({@link YieldingIdleStrategy}); the suite pins each process to a core of its own, so the two threads of a
 *     process take turns on it and no process waits for a core the other one holds.</li>
 * </ul>
 * The echo side answers each message with one of the same size; the pinging side sends the next message when the
 * answer arrives and prints HdrHistogram percentiles of the round trips, in the shape {@code pacelink ping --json}
 * prints them ({@code rtt_us_measured}).
 */
public final class DedicatedPingPong
{
    static final String SYSTEM = "ping-dedicated";

    /**
     * Largest message echoed.
     */
    static final int MAX_MESSAGE_BYTES = 65_536;

    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final long MAX_RTT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * How both threads of a process wait.
     */
    enum Mode
    {
        spin(BusySpinIdleStrategy::new),
        yield(YieldingIdleStrategy::new);

        private final Supplier<IdleStrategy> idleStrategy;

        Mode(final Supplier<IdleStrategy> idleStrategy)
        {
            this.idleStrategy = idleStrategy;
        }
    }

    private DedicatedPingPong()
    {
    }

    /**
     * @param args {@code echo PORT MODE} or {@code ping PORT MODE MESSAGE_BYTES COUNT WARMUP}.
     */
    public static void main(final String[] args)
    {
        final boolean echo = args.length == 3 && "echo".equals(args[0]);
        final boolean ping = args.length == 6 && "ping".equals(args[0]);
        if (!echo && !ping)
        {
            System.err.println("usage: DedicatedPingPong echo PORT spin|yield | " +
                "ping PORT spin|yield MESSAGE_BYTES COUNT WARMUP");
            System.exit(2);
        }
        final InetSocketAddress address = new InetSocketAddress("127.0.0.1", Integer.parseInt(args[1]));
        final Mode mode = Mode.valueOf(args[2]);
        if (echo)
        {
            echo(address, mode, System.out);
        }
        else
        {
            final int messageBytes = Integer.parseInt(args[3]);
            if (messageBytes < 1 || messageBytes > MAX_MESSAGE_BYTES)
            {
                System.err.println("MESSAGE_BYTES must be 1.." + MAX_MESSAGE_BYTES);
                System.exit(2);
            }
            ping(address, mode, messageBytes, Integer.parseInt(args[4]), Integer.parseInt(args[5]), System.out);
        }
        System.out.flush();
        System.exit(0);
    }

    private static PacelinkContext context(final InetSocketAddress bind, final Mode mode)
    {
        return new PacelinkContext()
            .bindAddress(bind)
            .threadingMode(ThreadingMode.DEDICATED)
            .idleStrategySupplier(mode.idleStrategy);
    }

    /**
     * Answer every message of every connection with a message of the same bytes, until killed.
     *
     * @param bind where to listen.
     * @param mode how both threads wait.
     * @param out  where the listening line goes.
     */
    static void echo(final InetSocketAddress bind, final Mode mode, final PrintStream out)
    {
        try (Endpoint endpoint = Endpoint.launch(context(bind, mode).acceptConnections(true)))
        {
            final IdleStrategy idle = mode.idleStrategy.get();
            out.println("listening on " + bind + " (" + SYSTEM + " " + mode + ")");
            out.flush();
            Connection connection = null;
            while (null == connection)
            {
                connection = endpoint.accept();
                idle.idle();
            }
            final Connection echoing = connection;
            final UnsafeBuffer reply = new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_MESSAGE_BYTES));
            while (ConnectionState.CLOSED != echoing.state())
            {
                idle.idle(echoing.poll((buffer, offset, length) ->
                {
                    buffer.getBytes(offset, reply, 0, Math.min(length, MAX_MESSAGE_BYTES));
                    while (echoing.offer(reply, 0, Math.min(length, MAX_MESSAGE_BYTES)) <= 0 &&
                        ConnectionState.CONNECTED == echoing.state())
                    {
                        Thread.onSpinWait();
                    }
                }, 1));
            }
        }
    }

    /**
     * Ping {@code warmup + count} times, then print the percentiles of the last {@code count} round trips.
     *
     * @param target       the echo side.
     * @param mode         how both threads wait.
     * @param messageBytes bytes per message.
     * @param count        round trips measured.
     * @param warmup       round trips before them, not measured.
     * @param out          where the JSON summary goes.
     */
    static void ping(
        final InetSocketAddress target,
        final Mode mode,
        final int messageBytes,
        final int count,
        final int warmup,
        final PrintStream out)
    {
        final InetSocketAddress bind = new InetSocketAddress(target.getAddress(), 0);
        try (Endpoint endpoint = Endpoint.launch(context(bind, mode).acceptConnections(false)))
        {
            final IdleStrategy idle = mode.idleStrategy.get();
            final Connection connection = endpoint.connect(target);
            final long connectStartNs = System.nanoTime();
            while (ConnectionState.CONNECTING == connection.state())
            {
                if (System.nanoTime() - connectStartNs > CONNECT_TIMEOUT_NS)
                {
                    throw new IllegalStateException("no answer from " + target + " within 10 s");
                }
                idle.idle();
            }
            if (ConnectionState.CONNECTED != connection.state())
            {
                throw new IllegalStateException("could not connect to " + target + ": " + connection.closeReason());
            }
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(messageBytes));
            final Histogram rttNs = new Histogram(MAX_RTT_NS, 3);
            final int[] answers = new int[1];
            for (int i = 0; i < warmup + count; i++)
            {
                final long sentNs = System.nanoTime();
                while (connection.offer(message, 0, messageBytes) <= 0)
                {
                    idle.idle(0);
                }
                answers[0] = 0;
                while (0 == answers[0])
                {
                    idle.idle(connection.poll((buffer, offset, length) -> answers[0]++, 1));
                }
                if (i >= warmup)
                {
                    rttNs.recordValue(Math.min(MAX_RTT_NS, System.nanoTime() - sentNs));
                }
            }
            out.printf(Locale.ROOT, "{\"system\":\"%s\",\"mode\":\"%s\",\"count\":%d,\"rtt_us_measured\":" +
                "{\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f,\"max\":%.3f}}%n", SYSTEM, mode, count,
                rttNs.getValueAtPercentile(50) / 1e3, rttNs.getValueAtPercentile(90) / 1e3,
                rttNs.getValueAtPercentile(99) / 1e3, rttNs.getMaxValue() / 1e3);
            connection.close();
        }
    }
}
