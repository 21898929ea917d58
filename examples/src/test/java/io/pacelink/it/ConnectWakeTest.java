package io.pacelink.it;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionFailedException;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.ThreadingMode;
import io.pacelink.transport.agent.EndpointAgent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A thread waiting in {@code Endpoint.connect(address, controller, timeout)} while the agent runs on a thread of its
 * own is woken by the agent when its connection leaves CONNECTING instead of finding out
 * at the end of one of its parks (up to {@link Endpoint#EVENT_WAIT_MAX_PARK_NS}); a thread that runs the duty cycle
 * itself (INVOKER) is never registered, and one whose connect timed out is forgotten without a wake. Real loopback
 * sockets; the wakes are counted, nothing is timed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConnectWakeTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(10);

    @Test
    void theAgentWakesTheThreadWaitingForEachConnectOnceItIsAnswered()
    {
        try (Endpoint server = Endpoint.launch(EndpointThreadingTest.context(ThreadingMode.DEDICATED));
            Endpoint client = Endpoint.launch(
                EndpointThreadingTest.context(ThreadingMode.DEDICATED).acceptConnections(false)))
        {
            final EndpointAgent agent = (EndpointAgent)client.agent();
            for (int i = 1; i <= 3; i++)
            {
                final Connection connection = client.connect(server.localAddress(), null, WAIT_NS);
                assertEquals(ConnectionState.CONNECTED, connection.state());
                final long expected = i;
                // The agent wakes the thread after it marked the connection CONNECTED: the count may trail the state.
                assertTrue(client.await(() -> expected == agent.connectWaitersWoken(), WAIT_NS),
                    "woken " + agent.connectWaitersWoken() + " times after " + i + " connects");
                connection.closeNow();
            }
        }
    }

    @Test
    void aThreadThatRunsTheDutyCycleItselfIsNotRegistered()
    {
        try (Endpoint server = Endpoint.launch(EndpointThreadingTest.context(ThreadingMode.DEDICATED));
            Endpoint client = Endpoint.launch(
                EndpointThreadingTest.context(ThreadingMode.INVOKER).acceptConnections(false)))
        {
            final Connection connection = client.connect(server.localAddress(), null, WAIT_NS);
            assertEquals(ConnectionState.CONNECTED, connection.state());
            assertEquals(0, ((EndpointAgent)client.agent()).connectWaitersWoken());
            connection.closeNow();
        }
    }

    @Test
    void aThreadWhoseConnectTimedOutIsForgottenNotWoken() throws IOException
    {
        // A socket that takes the hello and never answers: the connect times out while its connection is CONNECTING.
        try (DatagramChannel silent = DatagramChannel.open(StandardProtocolFamily.INET)
                .bind(new InetSocketAddress("127.0.0.1", 0));
            Endpoint client = Endpoint.launch(
                EndpointThreadingTest.context(ThreadingMode.DEDICATED).acceptConnections(false)))
        {
            final EndpointAgent agent = (EndpointAgent)client.agent();
            assertThrows(ConnectionFailedException.class, () -> client.connect(
                (InetSocketAddress)silent.getLocalAddress(), null, TimeUnit.MILLISECONDS.toNanos(200)));
            assertTrue(client.await(() -> 1 == agent.connectWaitersAbandoned(), WAIT_NS),
                "forgotten " + agent.connectWaitersAbandoned() + " times");
            assertEquals(0, agent.connectWaitersWoken(), "the thread that gave up was woken");
        }
    }
}
