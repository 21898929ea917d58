package io.pacelink.examples;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionOutcome;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;

import java.net.InetSocketAddress;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

/**
 * Receives one {@link BulkSender}'s stream: the pattern for the receiving side of a bulk transfer. Accept one
 * connection, poll (waiting when nothing has arrived) until the sender's end of stream, and close. The sender's close
 * completes only once this application has read everything.
 * <p>
 * {@code BulkReceiver [bind-host:port]} (default {@code 0.0.0.0:40124}; port 0 picks a free one). Prints
 * {@code listening on HOST:PORT}, then the bytes, messages and SHA-256 received. Exits 0 if the stream ended as the
 * sender closed it, 1 if the connection failed first, 2 on a usage error.
 */
public final class BulkReceiver
{
    private static final String USAGE = "BulkReceiver [bind-host:port]";
    private static final long ACCEPT_TIMEOUT_NS = TimeUnit.MINUTES.toNanos(1);
    private static final long POLL_WAIT_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long CLOSE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final int POLL_LIMIT = 64;

    private long bytes;
    private long messages;
    private final MessageDigest sha256;
    private byte[] copy = new byte[64 * 1024];

    private BulkReceiver() throws NoSuchAlgorithmException
    {
        sha256 = MessageDigest.getInstance("SHA-256");
    }

    /**
     * @param args {@code [bind-host:port]}.
     */
    public static void main(final String[] args) throws NoSuchAlgorithmException
    {
        final InetSocketAddress bindAddress;
        try
        {
            bindAddress = new ExampleArguments(USAGE, args).address(0, "0.0.0.0:40124");
        }
        catch (final ExampleArguments.UsageException ex)
        {
            System.err.println(ex.getMessage());
            System.exit(ExampleArguments.USAGE);
            return;
        }
        System.exit(new BulkReceiver().receive(bindAddress));
    }

    private int receive(final InetSocketAddress bindAddress)
    {
        try (Endpoint endpoint = Endpoint.launch(new PacelinkContext().bindAddress(bindAddress)))
        {
            System.out.println("listening on " + endpoint.localAddress().getHostString() + ":" +
                endpoint.localAddress().getPort());
            final Connection connection = endpoint.accept(ACCEPT_TIMEOUT_NS);
            if (null == connection)
            {
                System.err.println("receive failed: no sender connected within " +
                    TimeUnit.NANOSECONDS.toSeconds(ACCEPT_TIMEOUT_NS) + " s");
                return 1;
            }

            final MessageHandler digest = this::onMessage;
            while (!connection.isEndOfStream())
            {
                // Waits up to a second for data; 0 with the connection closed means nothing more will come.
                if (0 == connection.poll(digest, POLL_LIMIT, POLL_WAIT_NS) &&
                    ConnectionState.CLOSED == connection.state())
                {
                    break;
                }
            }
            System.out.println("received " + bytes + " bytes in " + messages + " messages, sha256 " +
                HexFormat.of().formatHex(sha256.digest()));

            final boolean complete = connection.isEndOfStream();
            final ConnectionOutcome outcome = connection.close(CLOSE_TIMEOUT_NS);
            System.out.println("close: " + outcome);
            if (!complete)
            {
                System.err.println("receive failed: the stream did not end as the sender closed it: " + outcome);
                return 1;
            }
            return 0;
        }
    }

    private void onMessage(final org.agrona.DirectBuffer buffer, final int offset, final int length)
    {
        if (copy.length < length)
        {
            copy = new byte[length];
        }
        buffer.getBytes(offset, copy, 0, length);
        sha256.update(copy, 0, length);
        bytes += length;
        messages++;
    }
}
