package io.pacelink.examples;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionFailedException;
import io.pacelink.transport.ConnectionOutcome;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The client of {@link EchoServer}: the pattern for request/response. Connect and wait until established, then for
 * each request offer it (waiting for room), wait for the answer and check it, and finally close and wait for the
 * outcome, which says whether everything offered reached the server's application.
 * <p>
 * {@code EchoClient host:port [requests] [size]} (defaults 1000 requests of 64 bytes). Prints the round-trip times and
 * the outcome; exits 0 only if every answer came back intact and the close delivered everything, 1 otherwise (with
 * the reason), 2 on a usage error.
 */
public final class EchoClient
{
    private static final String USAGE = "EchoClient host:port [requests] [size-bytes]";
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);
    private static final long REQUEST_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);
    private static final long CLOSE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private EchoClient()
    {
    }

    /**
     * @param args {@code host:port [requests] [size-bytes]}.
     */
    public static void main(final String[] args)
    {
        final InetSocketAddress server;
        final int requests;
        final int sizeBytes;
        try
        {
            final ExampleArguments arguments = new ExampleArguments(USAGE, args);
            server = arguments.address(0, null);
            requests = (int)arguments.number(1, 1000, 1, Integer.MAX_VALUE);
            sizeBytes = (int)arguments.number(2, 64, 4, 1 << 20);
        }
        catch (final ExampleArguments.UsageException ex)
        {
            System.err.println(ex.getMessage());
            System.exit(ExampleArguments.USAGE);
            return;
        }
        System.exit(run(server, requests, sizeBytes));
    }

    private static int run(final InetSocketAddress server, final int requests, final int sizeBytes)
    {
        // The default context binds the wildcard address, so the server may be on another host.
        try (Endpoint endpoint = Endpoint.launch(new PacelinkContext().acceptConnections(false)))
        {
            final Connection connection = endpoint.connect(server, null, CONNECT_TIMEOUT_NS);
            final UnsafeBuffer request = new UnsafeBuffer(new byte[sizeBytes]);
            final boolean[] intact = new boolean[1];
            final MessageHandler checkAnswer = (buffer, offset, length) ->
            {
                intact[0] = length == sizeBytes;
                for (int i = 0; i < length && intact[0]; i++)
                {
                    intact[0] = buffer.getByte(offset + i) == request.getByte(i);
                }
            };

            final long[] roundTripNs = new long[requests];
            for (int i = 0; i < requests; i++)
            {
                request.setMemory(0, sizeBytes, (byte)i);
                request.putInt(0, i);
                final long startNs = System.nanoTime();
                if (connection.offer(request, 0, sizeBytes, REQUEST_TIMEOUT_NS) < 0)
                {
                    return fail("request " + i + " could not be sent: " + connection.outcome());
                }
                if (1 != connection.poll(checkAnswer, 1, REQUEST_TIMEOUT_NS))
                {
                    return fail("no answer to request " + i + " within " +
                        TimeUnit.NANOSECONDS.toSeconds(REQUEST_TIMEOUT_NS) + " s: " + connection.outcome());
                }
                if (!intact[0])
                {
                    return fail("the answer to request " + i + " differs from the request");
                }
                roundTripNs[i] = System.nanoTime() - startNs;
            }

            final ConnectionOutcome outcome = connection.close(CLOSE_TIMEOUT_NS);
            Arrays.sort(roundTripNs);
            System.out.printf("%d requests of %d bytes answered; round trip p50 %.1f us, p99 %.1f us, max %.1f us%n",
                requests, sizeBytes, roundTripNs[requests / 2] / 1e3, roundTripNs[(int)(requests * 0.99)] / 1e3,
                roundTripNs[requests - 1] / 1e3);
            System.out.println("close: " + outcome);
            return outcome.isDelivered() ? 0 : 1;
        }
        catch (final ConnectionFailedException ex)
        {
            return fail(ex.getMessage());
        }
    }

    private static int fail(final String why)
    {
        System.err.println("echo failed: " + why);
        return 1;
    }
}
