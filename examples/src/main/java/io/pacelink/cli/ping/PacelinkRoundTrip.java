package io.pacelink.cli.ping;

import io.pacelink.cli.net.TransportFailure;
import io.pacelink.cli.net.TransportWaits;
import io.pacelink.cli.perf.PingGreeting;
import io.pacelink.transport.Connection;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Round trips over one established Pacelink connection to a perf server (or {@code pacelink ping --echo}). The
 * endpoint runs in INVOKER mode on the pinging thread: with {@code --busy-spin} that thread spins in its loop and
 * runs the endpoint's duty cycle itself, the best two-core arrangement (one spinning thread per process, none
 * waiting for a wake-up); by default it backs off and parks.
 */
final class PacelinkRoundTrip implements RoundTrip, MessageHandler
{
    private static final long GREETING_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final Endpoint endpoint;
    private final TransportWaits waits;
    private final Connection connection;
    private final String transport;
    private final BooleanSupplier echoArrived = this::pollEcho;
    // Made once: a lambda that captures the request's number would be a new object on every round trip.
    private final Supplier<String> awaitedEcho = () -> "the echo of request " + this.expectedSequence;
    private final List<Connection> watched;
    private long expectedSequence;
    private long echoNs;
    private String failure;

    /**
     * @param server            the server.
     * @param bind              where the endpoint binds.
     * @param congestionControl the connection's controller.
     * @param busySpin          spin instead of backing off.
     * @param connectTimeoutNs  longest wait for the connection.
     * @param security          applies the secure mode's keys (or nothing) to the endpoint's context.
     * @throws TransportFailure if the server cannot be reached or refuses.
     */
    PacelinkRoundTrip(
        final InetSocketAddress server,
        final InetSocketAddress bind,
        final String congestionControl,
        final boolean busySpin,
        final long connectTimeoutNs,
        final Consumer<PacelinkContext> security)
    {
        final PacelinkContext context = TransportWaits.clientContext(bind, busySpin)
            .congestionControl(congestionControl);
        security.accept(context);
        endpoint = Endpoint.launch(context);
        try
        {
            waits = new TransportWaits(endpoint, context);
            connection = waits.connect(server, congestionControl, connectTimeoutNs,
                "pacelink perf -s` or `pacelink ping --echo");
            watched = List.of(connection);
            transport = "pacelink, cc " + connection.congestionControl() + ", " +
                PingGreeting.greet(connection, waits, GREETING_TIMEOUT_NS) + " echoing";
        }
        catch (final RuntimeException ex)
        {
            endpoint.closeNow();
            throw ex;
        }
    }

    public long exchange(final UnsafeBuffer request, final int length, final long timeoutNs)
    {
        expectedSequence = request.getLong(0);
        echoNs = 0;
        final long sentNs = System.nanoTime();
        final long result = connection.offer(request, 0, length);
        if (result < 0)
        {
            throw new TransportFailure("cannot send request " + expectedSequence + " (offer returned " + result +
                "): " + TransportWaits.describeClose(connection, "the server"));
        }
        waits.await(echoArrived, timeoutNs, awaitedEcho, "the server", watched);
        if (null != failure)
        {
            throw new TransportFailure(failure);
        }
        return echoNs - sentNs;
    }

    public void idleUntil(final long deadlineNs)
    {
        waits.awaitTime(deadlineNs);
    }

    public String transport()
    {
        return transport;
    }

    public void onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        echoNs = System.nanoTime();
        final long sequence = length >= Long.BYTES ? buffer.getLong(offset) : -1;
        if (sequence != expectedSequence)
        {
            failure = "the echo of request " + expectedSequence + " carried " + sequence;
        }
    }

    public void close()
    {
        try
        {
            waits.close(watched);
        }
        finally
        {
            // The outcome is decided (or the connection aborted): its draining period needs no wait.
            endpoint.closeNow();
        }
    }

    private boolean pollEcho()
    {
        connection.poll(this, 1);
        return 0 != echoNs;
    }
}
