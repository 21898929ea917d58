package io.pacelink.examples;

import io.pacelink.cli.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12 item 8 and the trap of item 1, on real sockets between processes: the examples run as separate JVMs, as a
 * user would run them. The bulk sender, closing and leaving its endpoint's try-with-resources block at once (the
 * pattern that once delivered 72 of 104 MB and exited 0), still delivers every byte, and says so only because the
 * receiver's application read them all.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ExamplesTest
{
    private static final long EXIT_TIMEOUT_MS = 90_000;
    private static final String BULK_BYTES = "64m";
    private static final long BULK_BYTES_VALUE = 64L << 20;
    private static final int BULK_MESSAGES = 1024;

    @TempDir
    Path temp;

    @Test
    void theEchoClientGetsEveryAnswerAndTheServerSeesAClosedConversation() throws Exception
    {
        final ChildJvm server = ChildJvm.start(temp.resolve("echo-server.log"), EchoServer.class, "127.0.0.1:0");
        try
        {
            final int port = server.port();
            final ChildJvm client = ChildJvm.start(
                temp.resolve("echo-client.log"), EchoClient.class, "127.0.0.1:" + port, "2000", "256");
            assertEquals(0, client.exitValue(EXIT_TIMEOUT_MS), client.output());
            assertTrue(client.output().contains("2000 requests of 256 bytes answered"), client.output());
            assertTrue(client.output().contains("close: closed by this side; all 2000 messages (512000 bytes) " +
                "delivered"), client.output());
            server.await("2000 requests answered; closed by (this side|the peer); all 2000 messages \\(512000 " +
                "bytes\\) delivered", 20_000);
        }
        finally
        {
            server.process.destroy(); // SIGTERM: its shutdown hook closes the endpoint gracefully
            server.process.waitFor(20, TimeUnit.SECONDS);
            server.process.destroyForcibly();
        }
    }

    @Test
    void theBulkSenderDeliversEveryByteAndWaitsForTheReceiversApplication() throws Exception
    {
        assertBulkTransfer("bulk");
    }

    @Test
    void closingTheEndpointWithoutWaitingStillDeliversEveryByte() throws Exception
    {
        assertBulkTransfer("close-endpoint", "--close-endpoint");
    }

    private void assertBulkTransfer(final String name, final String... senderOptions) throws Exception
    {
        final ChildJvm receiver = ChildJvm.start(temp.resolve(name + "-receiver.log"), BulkReceiver.class,
            "127.0.0.1:0");
        try
        {
            final String[] arguments = new String[3 + senderOptions.length];
            arguments[0] = "127.0.0.1:" + receiver.port();
            arguments[1] = BULK_BYTES;
            arguments[2] = "64k";
            System.arraycopy(senderOptions, 0, arguments, 3, senderOptions.length);
            final ChildJvm sender = ChildJvm.start(temp.resolve(name + "-sender.log"), BulkSender.class, arguments);

            assertEquals(0, sender.exitValue(EXIT_TIMEOUT_MS), sender.output());
            assertEquals(0, receiver.exitValue(EXIT_TIMEOUT_MS), receiver.output());
            final Matcher offered = sender.await("offered (\\d+) bytes, sha256 ([0-9a-f]{64})", 1_000);
            final Matcher received = receiver.await("received (\\d+) bytes in (\\d+) messages, sha256 ([0-9a-f]{64})",
                1_000);
            assertEquals(BULK_BYTES_VALUE, Long.parseLong(offered.group(1)));
            assertEquals(BULK_BYTES_VALUE, Long.parseLong(received.group(1)));
            assertEquals(BULK_MESSAGES, Integer.parseInt(received.group(2)));
            assertEquals(offered.group(2), received.group(3), "the same bytes");
            assertTrue(sender.output().contains("close: closed by this side; all " + BULK_MESSAGES + " messages (" +
                BULK_BYTES_VALUE + " bytes) delivered"), sender.output());
        }
        finally
        {
            receiver.process.destroyForcibly();
        }
    }
}
