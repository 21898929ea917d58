package io.pacelink.examples;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionFailedException;
import io.pacelink.transport.ConnectionOutcome;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Sends a stream of bytes to {@link BulkReceiver}: the pattern for a bulk transfer. Connect and wait until
 * established; offer message after message, waiting whenever the send buffer is full; then close and wait for the
 * outcome: only the receiving application's own receipt makes it "delivered", never packet acknowledgements alone.
 * <p>
 * {@code BulkSender host:port [bytes] [message-bytes] [--close-endpoint]} (defaults 100m in 64k messages; sizes may
 * end in k, m or g). The bytes are pseudo-random from a fixed seed; it prints their SHA-256, which the receiver
 * prints too, and the outcome. With {@code --close-endpoint} it closes the connection without waiting and leaves the
 * endpoint's try-with-resources block at once, relying on the endpoint's graceful close to deliver the rest. Exits 0
 * only if everything was delivered, 1 otherwise (saying why), 2 on a usage error.
 */
public final class BulkSender
{
    private static final String USAGE = "BulkSender host:port [bytes] [message-bytes] [--close-endpoint]";
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);
    private static final long OFFER_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final long CLOSE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long CONTENT_SEED = 42;

    private BulkSender()
    {
    }

    /**
     * @param args {@code host:port [bytes] [message-bytes] [--close-endpoint]}.
     */
    public static void main(final String[] args) throws NoSuchAlgorithmException
    {
        final boolean closeEndpoint = args.length > 0 && "--close-endpoint".equals(args[args.length - 1]);
        final String[] positional = closeEndpoint ? java.util.Arrays.copyOf(args, args.length - 1) : args;
        final InetSocketAddress receiver;
        final long totalBytes;
        final int messageBytes;
        try
        {
            final ExampleArguments arguments = new ExampleArguments(USAGE, positional);
            receiver = arguments.address(0, null);
            totalBytes = arguments.number(1, 100L << 20, 0, Long.MAX_VALUE);
            messageBytes = (int)arguments.number(2, 64 << 10, 1, 1 << 24);
        }
        catch (final ExampleArguments.UsageException ex)
        {
            System.err.println(ex.getMessage());
            System.exit(ExampleArguments.USAGE);
            return;
        }
        System.exit(send(receiver, totalBytes, messageBytes, closeEndpoint));
    }

    private static int send(
        final InetSocketAddress receiver, final long totalBytes, final int messageBytes, final boolean closeEndpoint)
        throws NoSuchAlgorithmException
    {
        final MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        final byte[] bytes = new byte[messageBytes];
        final UnsafeBuffer message = new UnsafeBuffer(bytes);
        final SplittableRandom content = new SplittableRandom(CONTENT_SEED);
        final Connection connection;
        try (Endpoint endpoint = Endpoint.launch(new PacelinkContext().acceptConnections(false)))
        {
            connection = endpoint.connect(receiver, null, CONNECT_TIMEOUT_NS);
            long offered = 0;
            while (offered < totalBytes)
            {
                final int length = (int)Math.min(messageBytes, totalBytes - offered);
                content.nextBytes(bytes);
                final long result = connection.offer(message, 0, length, OFFER_TIMEOUT_NS);
                if (result < 0)
                {
                    return fail("stopped after " + offered + " bytes: " + (Connection.BACK_PRESSURED == result ?
                        "the receiver read nothing for " + TimeUnit.NANOSECONDS.toSeconds(OFFER_TIMEOUT_NS) + " s" :
                        connection.outcome().toString()));
                }
                sha256.update(bytes, 0, length);
                offered += length;
            }
            System.out.println("offered " + offered + " bytes, sha256 " + HexFormat.of().formatHex(sha256.digest()));

            if (!closeEndpoint)
            {
                final ConnectionOutcome outcome = connection.close(CLOSE_TIMEOUT_NS);
                System.out.println("close: " + outcome);
                return outcome.isDelivered() ? 0 : fail("not everything was delivered");
            }
            connection.close(); // does not wait: the endpoint's graceful close below delivers the rest
        }
        catch (final ConnectionFailedException ex)
        {
            return fail(ex.getMessage());
        }
        final ConnectionOutcome outcome = connection.outcome();
        System.out.println("close: " + outcome);
        return outcome.isDelivered() ? 0 : fail("not everything was delivered");
    }

    private static int fail(final String why)
    {
        System.err.println("send failed: " + why);
        return 1;
    }
}
