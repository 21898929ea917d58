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
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.pacelink.it.EndpointThreadingTest.context;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A connect returns before the agent has created the connection: the caller never waits for the agent's duty cycle,
 * the connection is CONNECTING until the agent and then the server have answered, and a close asked for in between is
 * carried out. The agent is held inside its duty cycle by a gate beside it (a SHARED endpoint run with a second agent
 * on one thread), so "before the agent answered" is a fact, not a race. Real loopback sockets; correctness only.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncConnectTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(10);
    /**
     * The agent's connect queue holds this many (EndpointAgent): one more must wait for room, not fail.
     */
    private static final int COMMAND_QUEUE_CAPACITY = 1024;
    private static final int BURST_CONNECTS = 100;
    private static final InetSocketAddress NOBODY = new InetSocketAddress("127.0.0.1", 9);

    private final Gate gate = new Gate();
    private Endpoint client;
    private AgentRunner runner;

    @AfterEach
    void close()
    {
        gate.open();
        CloseHelper.closeAll(client, runner);
    }

    @Test
    void aConnectReturnsCONNECTINGWhileTheAgentIsBusyAndTheConnectionWorksOnceCreated() throws Exception
    {
        try (Endpoint server = Endpoint.launch(context(ThreadingMode.DEDICATED)))
        {
            startGatedClient(context(ThreadingMode.SHARED).acceptConnections(false));

            final Connection connection = client.connect(server.localAddress(), "cubic");
            assertEquals(ConnectionState.CONNECTING, connection.state());
            assertEquals(0, client.counters().connectionsOpened().get(), "the agent has not run: nothing opened yet");
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            message.putInt(0, 42);
            assertEquals(Connection.NOT_CONNECTED, connection.offer(message, 0, 4));
            assertEquals(0, connection.poll((buffer, offset, length) -> { }, 10));
            assertFalse(connection.isEndOfStream());
            assertEquals(CloseReason.NONE, connection.closeReason());
            assertEquals(server.localAddress(), connection.remoteAddress());
            assertEquals("cubic", connection.congestionControl());

            gate.open();
            assertTrue(connection.offer(message, 0, 4, WAIT_NS) > 0, "offered once connected");
            assertEquals(ConnectionState.CONNECTED, connection.state());
            assertEquals(1, client.counters().connectionsOpened().get());
            assertTrue(0 != connection.connectionId());
            final Connection serverSide = server.accept(WAIT_NS);
            assertNotNull(serverSide);
            final AtomicReference<Integer> received = new AtomicReference<>();
            assertEquals(1, serverSide.poll((buffer, offset, length) -> received.set(buffer.getInt(offset)), 1,
                WAIT_NS));
            assertEquals(42, received.get());
            assertEquals(4, connection.stats().applicationBytesOffered());
            assertTrue(connection.close(WAIT_NS).isDelivered());
        }
    }

    @Test
    void anAbortAskedForBeforeTheAgentCreatedTheConnectionIsCarriedOut() throws Exception
    {
        startGatedClient(context(ThreadingMode.SHARED));
        final Connection connection = client.connect(NOBODY);
        connection.closeNow();
        assertEquals(Connection.CLOSED, connection.offer(new UnsafeBuffer(new byte[4]), 0, 4), "no offers once closed");

        gate.open();
        assertEquals(CloseReason.ABORTED, connection.awaitOutcome(WAIT_NS).reason());
        assertEquals(ConnectionState.CLOSED, connection.state());
        assertEquals(1, client.counters().connectionsOpened().get(), "created, then aborted");
    }

    @Test
    void aGracefulCloseAskedForBeforeTheAgentCreatedTheConnectionIsCarriedOut() throws Exception
    {
        startGatedClient(context(ThreadingMode.SHARED));
        final Connection connection = client.connect(NOBODY);
        connection.close();

        gate.open();
        assertEquals(CloseReason.LOCAL_CLOSE, connection.awaitOutcome(WAIT_NS).reason());
    }

    @Test
    void aConnectTheAgentNeverCarriedOutEndsWhenTheEndpointCloses() throws Exception
    {
        startGatedClient(context(ThreadingMode.SHARED));
        final Connection connection = client.connect(NOBODY);
        ((EndpointAgent)client.agent()).requestClose();

        gate.open();
        assertEquals(CloseReason.ENDPOINT_CLOSED, connection.awaitOutcome(WAIT_NS).reason());
        assertEquals(ConnectionState.CLOSED, connection.state());
        assertEquals(0, connection.connectionId(), "never had an id");
        assertEquals(0, connection.stats().applicationBytesOffered());
        assertEquals(0, client.counters().connectionsOpened().get());
    }

    @Test
    void anEndpointClosedGracefullyCarriesOutTheConnectsQueuedBeforeItsClose() throws Exception
    {
        startGatedClient(context(ThreadingMode.SHARED));
        final Connection connection = client.connect(NOBODY);
        final CompletableFuture<Void> closed = CompletableFuture.runAsync(client::close);

        gate.open();
        closed.get(WAIT_NS, TimeUnit.NANOSECONDS);
        assertEquals(CloseReason.LOCAL_CLOSE, connection.outcome().reason(), "created, then closed with the rest");
    }

    @Test
    void aConnectBeyondAFullCommandQueueWaitsForRoomInsteadOfFailing() throws Exception
    {
        startGatedClient(context(ThreadingMode.SHARED).maxConnections(COMMAND_QUEUE_CAPACITY + 1));
        final List<Connection> queued = new ArrayList<>();
        for (int i = 0; i < COMMAND_QUEUE_CAPACITY; i++)
        {
            queued.add(client.connect(NOBODY));
        }
        final CompletableFuture<Connection> oneMore = CompletableFuture.supplyAsync(() -> client.connect(NOBODY));
        assertFalse(oneMore.isDone() && oneMore.isCompletedExceptionally(), "not refused while the queue is full");

        gate.open();
        final Connection last = oneMore.get(WAIT_NS, TimeUnit.NANOSECONDS);
        queued.add(last);
        last.connectionId(); // waits for the agent to create it
        assertEquals(COMMAND_QUEUE_CAPACITY + 1, client.counters().connectionsOpened().get());
        for (final Connection connection : queued)
        {
            assertTrue(0 != connection.connectionId());
            connection.closeNow();
        }
    }

    @Test
    void aBurstOfOneHundredConnectsFromOneAddressAllConnectWithTheDefaultLimits() throws Exception
    {
        // The calls no longer space the hellos out by an agent duty cycle each: all of them reach the server within a
        // few milliseconds, from one address, and the server's default per-source and handshake budgets
        // (docs/security.md) must still let them all through, RETRY or not.
        final InetSocketAddress anyLoopbackPort = new InetSocketAddress("127.0.0.1", 0);
        try (Endpoint server = Endpoint.launch(new PacelinkContext().bindAddress(anyLoopbackPort));
            Endpoint burstClient = Endpoint.launch(
                new PacelinkContext().bindAddress(anyLoopbackPort).acceptConnections(false)))
        {
            final List<Connection> burst = new ArrayList<>();
            for (int i = 0; i < BURST_CONNECTS; i++)
            {
                burst.add(burstClient.connect(server.localAddress()));
            }
            final long deadlineNs = System.nanoTime() + WAIT_NS;
            int accepted = 0;
            while (accepted < BURST_CONNECTS && System.nanoTime() - deadlineNs < 0)
            {
                accepted += null == server.accept(TimeUnit.MILLISECONDS.toNanos(100)) ? 0 : 1;
            }
            assertEquals(BURST_CONNECTS, accepted);
            assertTrue(burstClient.await(
                () -> burst.stream().noneMatch((c) -> ConnectionState.CONNECTING == c.state()), WAIT_NS));
            for (final Connection connection : burst)
            {
                assertEquals(ConnectionState.CONNECTED, connection.state(), connection.toString());
            }
            assertEquals(0, server.counters().connectionsRejected().get());
        }
    }

    private void startGatedClient(final PacelinkContext context) throws InterruptedException
    {
        client = Endpoint.launch(context);
        runner = new AgentRunner(new SleepingMillisIdleStrategy(1), Throwable::printStackTrace, null,
            new CompositeAgent(client.agent(), gate));
        AgentRunner.startOnThread(runner);
        gate.awaitHeld();
    }

    /**
     * An agent that holds the thread it shares with the endpoint's agent inside its first duty cycle until opened.
     */
    private static final class Gate implements Agent
    {
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch opened = new CountDownLatch(1);

        public int doWork() throws InterruptedException
        {
            held.countDown();
            opened.await();
            return 0;
        }

        void awaitHeld() throws InterruptedException
        {
            held.await();
        }

        void open()
        {
            opened.countDown();
        }

        public String roleName()
        {
            return "gate";
        }
    }
}
