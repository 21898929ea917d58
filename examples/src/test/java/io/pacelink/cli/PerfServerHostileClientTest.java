package io.pacelink.cli;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code pacelink perf -s} in a JVM of its own (secure, as users run it) against a hand-written client of the perf
 * protocol that sends what no pacelink client would: text that is not JSON, JSON nested past any reason, messages
 * longer than a client ever sends, a hello without a role, parameters outside the limits, a controller's name of
 * ten thousand characters, a done message without its streams. Each is refused on its own connection with an error
 * message that says why and does not grow with what was sent, and the server goes on: a real client's test runs
 * after all of them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PerfServerHostileClientTest
{
    private static final long START_TIMEOUT_MS = 30_000;
    private static final long REPLY_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);
    private static final String LISTENING = "Server listening on 127\\.0\\.0\\.1 port (\\d+)";
    private static final String PARAMETERS = "{\"congestion_control\":\"cubic\",\"duration_ns\":1000000000," +
        "\"bytes\":0,\"streams\":1,\"reverse\":false,\"bidir\":false,\"message_bytes\":1024," +
        "\"rate_bits_per_second\":0,\"interval_ns\":1000000000,\"server_output\":false,\"server_intervals\":false}";

    private static ChildCommand server;
    private static InetSocketAddress serverAddress;
    private static Endpoint client;

    @BeforeAll
    static void start() throws Exception
    {
        server = ChildCommand.start("perf", "-s", "-B", "127.0.0.1", "-p", "0");
        serverAddress = new InetSocketAddress("127.0.0.1", Integer.parseInt(server.await(LISTENING,
            START_TIMEOUT_MS)));
        final PacelinkContext context = new PacelinkContext().bindAddress(new InetSocketAddress("127.0.0.1", 0));
        context.security().serverKeyVerifier((address, key) -> null);
        client = Endpoint.launch(context);
    }

    @AfterAll
    static void stop()
    {
        if (null != client)
        {
            client.close();
        }
        server.close();
    }

    @Test
    void malformedHellosAreRefusedEachOnItsOwnConnectionAndTheServerGoesOn() throws Exception
    {
        assertRefused("not a pacelink perf message", "this is not JSON at all");
        assertRefused("not a pacelink perf message", "{\"type\":\"hello\",\"protocol\":1,\"role\":\"control\"," +
            "\"parameters\":" + "[".repeat(5_000));
        assertRefused("not a pacelink perf message", "{\"type\":\"hello\",\"protocol\":1e999999}");
        assertRefused("not a pacelink perf message", "{\"type\":\"bogus\"}");
        assertRefused("a hello without a role", "{\"type\":\"hello\",\"protocol\":1}");
        assertRefused("the first message was not a hello", "{\"type\":\"start\"}");
        assertRefused("the limit is 65536", "{\"type\":\"hello\",\"software\":\"" + "x".repeat(70_000) + "\"}");
        assertRefused("no test with cookie 'nosuch'",
            "{\"type\":\"hello\",\"protocol\":1,\"role\":\"stream\",\"cookie\":\"nosuch\",\"stream\":1000000}");

        assertEquals(0, realClientRun(), "a real client's test after the hostile ones: " + server.err());
    }

    @Test
    void parametersOutsideTheLimitsAreRefusedWithAReplyThatDoesNotGrowWithTheRequest() throws Exception
    {
        assertRefused("cannot run this test: -i must be 0 (no interval reports) or 0.1..60 seconds",
            controlHello("0123456789abcdef", PARAMETERS.replace("\"interval_ns\":1000000000", "\"interval_ns\":1")));
        assertRefused("cannot run this test: -t must be at most 86400 seconds", controlHello("0123456789abcdef",
            PARAMETERS.replace("\"duration_ns\":1000000000", "\"duration_ns\":9223372036854775807")));
        assertRefused("cannot run this test: -P must be 1..16", controlHello("0123456789abcdef",
            PARAMETERS.replace("\"streams\":1", "\"streams\":2147483647")));
        assertRefused("the test's cookie is missing, longer than 64 characters", controlHello("c".repeat(65),
            PARAMETERS));

        final String longName = "z".repeat(10_000);
        final String reply = assertRefused("this server has no congestion controller 'zzzz",
            controlHello("0123456789abcdef", PARAMETERS.replace("\"cubic\"", "\"" + longName + "\"")));
        assertTrue(reply.contains("(10000 characters)") && reply.length() < 400, "the name is cut: " + reply);

        assertEquals(0, realClientRun(), "a real client's test after the hostile ones: " + server.err());
    }

    @Test
    void aDoneMessageWithoutItsStreamsEndsThatTestNotTheServer() throws Exception
    {
        for (final String done : new String[] {"{\"type\":\"done\"}", "{\"type\":\"done\",\"streams\":[null]}",
            "{\"type\":\"done\",\"streams\":[{\"stream\":0,\"totals\":{\"bytes\":-5}}]}"})
        {
            final String cookie = Long.toHexString(System.nanoTime());
            final Connection control = connect();
            final Connection data = connect();
            send(control, controlHello(cookie, PARAMETERS));
            assertEquals("accepted", type(reply(control)));
            send(data, "{\"type\":\"hello\",\"protocol\":1,\"role\":\"stream\",\"cookie\":\"" + cookie +
                "\",\"stream\":0}");
            assertEquals("start", type(reply(control)));
            send(control, done);
            final Map<String, Object> failed = reply(control);
            assertEquals("error", type(failed), done + ": " + failed);
            final String message = (String)failed.get("message");
            assertTrue(message.contains("carries no streams") || message.contains("which it does not send on") ||
                message.contains("negative byte count"), done + ": " + message);
            control.close();
            data.close();
        }
        assertEquals(0, realClientRun(), "a real client's test after the hostile ones: " + server.err());
    }

    private static String controlHello(final String cookie, final String parameters)
    {
        return "{\"type\":\"hello\",\"protocol\":1,\"role\":\"control\",\"cookie\":\"" + cookie +
            "\",\"stream\":0,\"parameters\":" + parameters + ",\"software\":\"hand-written\"}";
    }

    /**
     * Send one message on a new connection and expect the server's error message, then the connection's end.
     *
     * @return the error message's text.
     */
    private static String assertRefused(final String expected, final String message) throws InterruptedException
    {
        final Connection connection = connect();
        send(connection, message);
        final Map<String, Object> reply = reply(connection);
        assertEquals("error", type(reply), reply.toString());
        final String text = (String)reply.get("message");
        assertTrue(text.contains(expected), "expected '" + expected + "' in: " + text);
        final long deadlineNs = System.nanoTime() + REPLY_TIMEOUT_NS;
        while (ConnectionState.CLOSED != connection.state() && System.nanoTime() - deadlineNs < 0)
        {
            connection.poll((buffer, offset, length) -> { }, 16);
            TimeUnit.MILLISECONDS.sleep(1);
        }
        assertEquals(ConnectionState.CLOSED, connection.state(), "the server closed the connection it refused");
        return text;
    }

    private static Connection connect()
    {
        return client.connect(serverAddress);
    }

    private static void send(final Connection connection, final String message)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(message.getBytes(StandardCharsets.UTF_8));
        assertTrue(connection.offer(buffer, 0, buffer.capacity(), REPLY_TIMEOUT_NS) > 0, "offered " +
            message.length() + " bytes: " + connection.state() + " " + connection.outcome());
    }

    private static Map<String, Object> reply(final Connection connection) throws InterruptedException
    {
        final String[] received = new String[1];
        final long deadlineNs = System.nanoTime() + REPLY_TIMEOUT_NS;
        while (null == received[0] && System.nanoTime() - deadlineNs < 0)
        {
            connection.poll((buffer, offset, length) -> received[0] = buffer.getStringWithoutLengthUtf8(offset,
                length), 1);
            if (null == received[0])
            {
                TimeUnit.MILLISECONDS.sleep(1);
            }
        }
        assertNotNull(received[0], "no reply from the server: " + connection.state() + ", " + server.err());
        return MiniJson.object(MiniJson.parse(received[0]));
    }

    private static String type(final Map<String, Object> message)
    {
        return (String)message.get("type");
    }

    private static int realClientRun() throws Exception
    {
        final ChildCommand real = ChildCommand.start("perf", "-c", "127.0.0.1", "-p",
            Integer.toString(serverAddress.getPort()), "-t", "1");
        return real.waitFor(60);
    }
}
