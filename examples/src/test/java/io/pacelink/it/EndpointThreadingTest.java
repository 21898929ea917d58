package io.pacelink.it;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ThreadingMode;
import io.pacelink.transport.agent.EndpointAgent;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The endpoint is the thread boundary: a connect is a command its agent carries out on the agent's thread, whoever
 * runs that thread. Real loopback sockets; correctness only.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EndpointThreadingTest
{
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);
    private static final InetSocketAddress NOBODY = new InetSocketAddress("127.0.0.1", 9);

    @Test
    void invokerModeConnectRunsTheDutyCycleOnTheCallingThread()
    {
        try (Endpoint server = Endpoint.launch(context(ThreadingMode.INVOKER));
            Endpoint client = Endpoint.launch(context(ThreadingMode.INVOKER).acceptConnections(false)))
        {
            final Connection clientSide = client.connect(server.localAddress(), "reno");
            assertEquals(ConnectionState.CONNECTING, clientSide.state());
            assertEquals(1, client.counters().connectionsOpened().get(), "opened by the agent before connect returned");

            Connection serverSide = null;
            final long deadlineNs = System.nanoTime() + CONNECT_TIMEOUT_NS;
            while (null == serverSide || ConnectionState.CONNECTING == clientSide.state())
            {
                client.invoke();
                server.invoke();
                serverSide = null == serverSide ? server.accept() : serverSide;
                assertTrue(System.nanoTime() < deadlineNs, "connect timed out");
            }
            assertEquals(ConnectionState.CONNECTED, clientSide.state());
            assertEquals(ConnectionState.CONNECTED, serverSide.state());
        }
    }

    @Test
    void anUnknownControllerIsReportedOnTheCallersThread()
    {
        try (Endpoint client = Endpoint.launch(context(ThreadingMode.INVOKER)))
        {
            final IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> client.connect(NOBODY, "no-such-controller"));
            assertTrue(error.getMessage().contains("no-such-controller"), error.getMessage());
            assertEquals(0, client.counters().connectionsOpened().get());
        }
    }

    @Test
    void aSharedAgentOnTheCallersOwnThreadConnectsWithoutWaiting()
    {
        final Endpoint client = Endpoint.launch(context(ThreadingMode.SHARED).acceptConnections(false));
        final Connection[] connected = new Connection[1];
        final Agent application = new Agent()
        {
            public int doWork()
            {
                if (null == connected[0])
                {
                    connected[0] = client.connect(NOBODY);
                    return 1;
                }
                return 0;
            }

            public String roleName()
            {
                return "application";
            }
        };
        final AgentInvoker invoker =
            new AgentInvoker(Throwable::printStackTrace, null, new CompositeAgent(client.agent(), application));
        invoker.start();
        invoker.invoke();
        assertNotNull(connected[0]);
        assertEquals(ConnectionState.CONNECTING, connected[0].state());

        CloseHelper.close(invoker);
        assertEquals(CloseReason.ENDPOINT_CLOSED, connected[0].closeReason());
    }

    @Test
    void closingASharedEndpointFromTheApplicationAsksItsRunningAgent()
    {
        // Accepting connections, the endpoint keeps its port open to anyone and hears no ICMP report from NOBODY.
        final Endpoint client = Endpoint.launch(context(ThreadingMode.SHARED));
        final AgentRunner runner =
            new AgentRunner(new SleepingMillisIdleStrategy(1), Throwable::printStackTrace, null, client.agent());
        AgentRunner.startOnThread(runner);
        try
        {
            final Connection connection = client.connect(NOBODY);
            assertEquals(ConnectionState.CONNECTING, connection.state());

            client.close();
            assertEquals(CloseReason.LOCAL_CLOSE, connection.closeReason(), "closed before it was established");
            final IllegalStateException error = assertThrows(IllegalStateException.class, () -> client.connect(NOBODY));
            assertEquals("endpoint is closed", error.getMessage());
        }
        finally
        {
            CloseHelper.close(runner);
        }
    }

    @Test
    void aSharedEndpointWhoseAgentNeverStartedClosesAtOnce()
    {
        final Endpoint client = Endpoint.launch(context(ThreadingMode.SHARED));
        client.close();
        assertThrows(IllegalStateException.class, () -> client.connect(NOBODY));
        assertTrue(((EndpointAgent)client.agent()).isClosed());
    }

    /**
     * An endpoint on loopback with the given threading mode, reno, and no linger (nothing waits for a peer that may
     * not answer); shared with {@link AsyncConnectTest}.
     */
    static PacelinkContext context(final ThreadingMode threadingMode)
    {
        return new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .threadingMode(threadingMode)
            // The tests drive both endpoints from one thread, so a closing one could not wait for the other: abort.
            .lingerTimeoutNs(0)
            .congestionControl("reno");
    }
}
