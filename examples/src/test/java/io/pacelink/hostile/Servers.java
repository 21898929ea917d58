package io.pacelink.hostile;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.RetryMode;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Endpoints for the hostile-peer tests: a server on loopback whose agent has its own thread with the default back-off
 * idle strategy (so the machine's two cores are not spun), an application thread that accepts and optionally sends,
 * and counters read the way an operator reads them, by label.
 */
final class Servers
{
    private Servers()
    {
    }

    static Endpoint launch(final Consumer<PacelinkContext> customize)
    {
        final PacelinkContext context = new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .congestionControl("reno")
            .initialRttNs(TimeUnit.MILLISECONDS.toNanos(20))
            .sendBufferBytes(1 << 20)
            .receiveBufferBytes(1 << 20)
            .maxMessageLengthBytes(64 << 10)
            // A hostile peer does not acknowledge a close: the endpoint's close would wait out the default linger.
            .lingerTimeoutNs(TimeUnit.MILLISECONDS.toNanos(500));
        // The hostile-peer suite plays its findings against a server that always validates addresses first, as it
        // does under a flood; HelloFloodTest runs the default mode too.
        context.limits().retryMode(RetryMode.ALWAYS);
        customize.accept(context);
        return Endpoint.launch(context);
    }

    /**
     * @param endpoint an endpoint.
     * @param name     a counter's name, e.g. {@code retries-sent}.
     * @return its value: the counter whose label ends with {@code ": " + name}.
     */
    static long counter(final Endpoint endpoint, final String name)
    {
        final long value = valueOr(endpoint, name, Long.MIN_VALUE);
        if (Long.MIN_VALUE == value)
        {
            throw new AssertionError("no counter named " + name);
        }
        return value;
    }

    /**
     * @param endpoint an endpoint.
     * @param name     a per-connection counter's name, e.g. {@code ack-frequency-ignored}.
     * @return its value, or 0 while it is absent: a connection registers such a counter when it first holds a value
     * other than 0 ({@link io.pacelink.transport.stats.ConnectionCounters}), and a reader takes an absent one as 0,
     * as {@code pacelink stat} does.
     */
    static long connectionCounter(final Endpoint endpoint, final String name)
    {
        return valueOr(endpoint, name, 0);
    }

    private static long valueOr(final Endpoint endpoint, final String name, final long absentValue)
    {
        final CountersReader reader = endpoint.countersReader();
        final long[] value = {absentValue};
        reader.forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (label.endsWith(": " + name))
            {
                value[0] = reader.getCounterValue(counterId);
            }
        });
        return value[0];
    }

    /**
     * @return counters allocated in the endpoint's store now.
     */
    static int allocatedCounters(final Endpoint endpoint)
    {
        final int[] count = {0};
        endpoint.countersReader().forEach((counterId, label) -> count[0]++);
        return count[0];
    }

    static void await(final BooleanSupplier condition, final long timeoutNs, final String what)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadlineNs)
            {
                throw new AssertionError("timed out waiting for " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /**
     * An application thread that accepts every connection and sends each {@code bytesPerConnection} in 16 KiB
     * messages while it stays open.
     */
    static final class SendingApplication implements AutoCloseable
    {
        final List<Connection> accepted = new CopyOnWriteArrayList<>();
        private final Thread thread;
        private volatile boolean running = true;

        SendingApplication(final Endpoint endpoint, final long bytesPerConnection)
        {
            thread = new Thread(() ->
            {
                final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(16 << 10));
                long[] sent = new long[16];
                while (running)
                {
                    final Connection connection = endpoint.accept();
                    if (null != connection)
                    {
                        accepted.add(connection);
                        if (accepted.size() > sent.length)
                        {
                            sent = Arrays.copyOf(sent, 2 * sent.length);
                        }
                        continue;
                    }
                    boolean busy = false;
                    for (int i = 0; bytesPerConnection > 0 && i < accepted.size(); i++)
                    {
                        final Connection open = accepted.get(i);
                        if (sent[i] < bytesPerConnection && ConnectionState.CONNECTED == open.state() &&
                            open.offer(message, 0, message.capacity()) > 0)
                        {
                            sent[i] += message.capacity();
                            busy = true;
                        }
                    }
                    if (!busy)
                    {
                        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
                    }
                }
            }, "sending-application");
            thread.setDaemon(true);
            thread.start();
        }

        public void close() throws InterruptedException
        {
            running = false;
            thread.join();
        }
    }
}
