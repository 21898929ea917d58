package io.pacelink.examples;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionOutcome;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;
import org.agrona.ExpandableArrayBuffer;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * An echo service: the pattern for a request/response server. One endpoint accepts connections, and a thread per
 * connection waits for a request, answers it with the same bytes, and closes once the client has closed its side
 * (end of stream), so every answer is delivered before the connection ends.
 * <p>
 * {@code EchoServer [bind-host:port]} (default {@code 0.0.0.0:40123}; port 0 picks a free one). Prints
 * {@code listening on HOST:PORT}, then one line per finished connection; runs until stopped (Ctrl-C), when it closes
 * gracefully.
 */
public final class EchoServer
{
    private static final String USAGE = "EchoServer [bind-host:port]";
    private static final long ACCEPT_WAIT_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long REQUEST_WAIT_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long ANSWER_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final long CLOSE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private EchoServer()
    {
    }

    /**
     * @param args {@code [bind-host:port]}.
     */
    public static void main(final String[] args)
    {
        final InetSocketAddress bindAddress;
        try
        {
            bindAddress = new ExampleArguments(USAGE, args).address(0, "0.0.0.0:40123");
        }
        catch (final ExampleArguments.UsageException ex)
        {
            System.err.println(ex.getMessage());
            System.exit(ExampleArguments.USAGE);
            return;
        }

        final Endpoint endpoint = Endpoint.launch(new PacelinkContext().bindAddress(bindAddress));
        // Ctrl-C: close gracefully, so answers already offered still reach their clients.
        Runtime.getRuntime().addShutdownHook(new Thread(endpoint::close, "echo-close"));
        System.out.println("listening on " + endpoint.localAddress().getHostString() + ":" +
            endpoint.localAddress().getPort());

        while (true)
        {
            final Connection connection = endpoint.accept(ACCEPT_WAIT_NS);
            if (null != connection)
            {
                new Thread(() -> serve(connection), "echo " + connection.remoteAddress()).start();
            }
        }
    }

    /**
     * Answer every request until the client closes, then close this side and report the outcome.
     */
    private static void serve(final Connection connection)
    {
        final ExpandableArrayBuffer answer = new ExpandableArrayBuffer();
        final int[] answerLength = new int[1];
        // The handler only copies: the bytes it is given are valid during the call only, and it must not wait.
        final MessageHandler copyRequest = (buffer, offset, length) ->
        {
            answer.putBytes(0, buffer, offset, length);
            answerLength[0] = length;
        };

        long answered = 0;
        while (!connection.isEndOfStream() && ConnectionState.CONNECTED == connection.state())
        {
            if (1 == connection.poll(copyRequest, 1, REQUEST_WAIT_NS))
            {
                final long result = connection.offer(answer, 0, answerLength[0], ANSWER_TIMEOUT_NS);
                if (result < 0)
                {
                    System.out.println(connection.remoteAddress() + ": cannot answer (" +
                        (Connection.BACK_PRESSURED == result ? "the client stopped reading" : "closed") + ")");
                    break;
                }
                answered++;
            }
        }

        final ConnectionOutcome outcome = connection.close(CLOSE_TIMEOUT_NS);
        System.out.println(connection.remoteAddress() + ": " + answered + " requests answered; " + outcome);
    }
}
