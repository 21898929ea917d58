package io.pacelink.it;

import io.pacelink.transport.Connection;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.agent.AgentWakeup;
import io.pacelink.transport.agent.EndpointAgent;
import io.pacelink.transport.port.BatchedPortSupport;
import io.pacelink.transport.port.PortType;
import io.pacelink.transport.stats.CounterKey;
import io.pacelink.transport.stats.CounterType;
import io.pacelink.transport.stats.PortCounters;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The DEDICATED agent of the default profile sleeps in its port and wakes for what concerns it, on both ports: an
 * offer wakes the sleeping sender's agent (its idle timeout is far away, so nothing else would), an arriving datagram
 * wakes the receiver's, and an idle connected endpoint's agent sleeps through whole waits. Functional: counts of
 * wake-ups and deliveries, never how long anything took. And the port is chosen as asked: the batched port by
 * default, the NIO port with the reason when the batched one is switched off, a refusal when it is demanded then.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AgentWaitTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(20);
    private static final int ROUNDS = 20;

    private static PacelinkContext context(final PortType port, final boolean accept)
    {
        // No timer within a minute: a sleeping agent can only be woken by a datagram or the application.
        return new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .port(port)
            .idleTimeoutNs(TimeUnit.MINUTES.toNanos(5))
            .acceptConnections(accept)
            .countersFile(false);
    }

    @ParameterizedTest
    @EnumSource(value = PortType.class, names = { "NIO", "BATCHED" })
    void anOfferWakesTheSleepingSenderAndTheArrivalWakesTheSleepingReceiver(final PortType port)
    {
        assumeRunnable(port);
        try (Endpoint server = Endpoint.launch(context(port, true));
            Endpoint client = Endpoint.launch(context(port, false)))
        {
            final Connection sender = client.connect(server.localAddress(), "cubic", WAIT_NS);
            final Connection receiver = server.accept(WAIT_NS);
            final AgentWakeup clientWakeup = ((EndpointAgent)client.agent()).wakeup();
            final AgentWakeup serverWakeup = ((EndpointAgent)server.agent()).wakeup();
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            final long[] received = new long[1];
            for (int round = 0; round < ROUNDS; round++)
            {
                awaitSleeping(clientWakeup, "client");
                awaitSleeping(serverWakeup, "server");
                message.putLong(0, round);
                assertTrue(sender.offer(message, 0, 64) > 0);
                final int expected = round;
                assertEquals(1, receiver.poll((buffer, offset, length) ->
                {
                    assertEquals(expected, buffer.getLong(offset));
                    received[0]++;
                }, 1, WAIT_NS), "message " + round + " arrived");
            }
            assertEquals(ROUNDS, received[0]);
            // Both agents slept before each message, so each offer found the sender's asleep (a wake-up may rarely
            // land just as the agent woke for its own reasons) and each message woke the receiver's.
            assertTrue(clientWakeup.wakeups() >= ROUNDS - 2, "offers woke the client " + clientWakeup.wakeups());
            // The port's figures reach the counters every 100 ms: wait for them.
            awaitCounterAbove(server, "woken-by-datagram", ROUNDS - 3);
            assertEquals(PortType.BATCHED == port ? 1 : 0, counter(client, PortCounters.PORT_BATCHED));
            // Every port figure is a counter `pacelink stat` shows, tos-changes too (BatchedDatagramPortTest counts
            // it; -1 here would mean no such counter).
            assertTrue(counter(client, "tos-changes") >= 0, "tos-changes is a port counter");
        }
    }

    @ParameterizedTest
    @EnumSource(value = PortType.class, names = { "NIO", "BATCHED" })
    void anIdleConnectedEndpointSleepsThroughWholeWaits(final PortType port)
    {
        assumeRunnable(port);
        try (Endpoint server = Endpoint.launch(context(port, true));
            Endpoint client = Endpoint.launch(context(port, false)))
        {
            client.connect(server.localAddress(), "cubic", WAIT_NS);
            server.accept(WAIT_NS);
            final AgentWakeup wakeup = ((EndpointAgent)client.agent()).wakeup();
            // Once the handshake's ACKs have settled, the agent's waits end only at their timeout (the heartbeat,
            // every second): a dozen duty cycles in three waits, not thousands of spins.
            awaitSleeping(wakeup, "client");
            final long timeoutsBefore = awaitCounterAbove(client, "wait-timeouts", 0);
            final long waitsBefore = counter(client, "waits");
            final long commandsBefore = counter(client, "woken-by-command");
            awaitCounterAbove(client, "wait-timeouts", timeoutsBefore + 2);
            final long waits = counter(client, "waits") - waitsBefore;
            final long timeouts = counter(client, "wait-timeouts") - timeoutsBefore;
            assertTrue(waits <= timeouts + 2, "waits " + waits + ", of which ended by their timeout " + timeouts);
            assertEquals(commandsBefore, counter(client, "woken-by-command"), "nobody gave the idle agent work");
        }
    }

    @Test
    void theBatchedPortIsTheDefaultAndTheNioPortTakesOverWithTheReasonWhenItIsOff()
    {
        try (Endpoint endpoint = Endpoint.launch(context(PortType.AUTO, true)))
        {
            assertEquals(BatchedPortSupport.current().isAvailable() ? 1 : 0,
                counter(endpoint, PortCounters.PORT_BATCHED));
            assertTrue(endpoint.portDescription().startsWith(
                BatchedPortSupport.current().isAvailable() ? "batched" : "nio (batched port unavailable: "),
                endpoint.portDescription());
        }

        System.setProperty(BatchedPortSupport.DISABLE_PROPERTY, "true");
        try
        {
            try (Endpoint endpoint = Endpoint.launch(context(PortType.AUTO, true)))
            {
                assertEquals(0, counter(endpoint, PortCounters.PORT_BATCHED));
                assertEquals("nio (batched port unavailable: turned off by -D" +
                    BatchedPortSupport.DISABLE_PROPERTY + "=true)", endpoint.portDescription());
                assertTrue(label(endpoint, PortCounters.PORT_BATCHED).contains(endpoint.portDescription()));
            }
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> Endpoint.launch(context(PortType.BATCHED, true)));
            assertTrue(refused.getMessage().contains("turned off by -D" + BatchedPortSupport.DISABLE_PROPERTY),
                refused.getMessage());
        }
        finally
        {
            System.clearProperty(BatchedPortSupport.DISABLE_PROPERTY);
        }
        try (Endpoint endpoint = Endpoint.launch(context(PortType.NIO, true)))
        {
            assertEquals("nio (chosen)", endpoint.portDescription());
        }
    }

    /**
     * The batched port runs wherever the build made its native library; elsewhere its cases skip.
     */
    private static void assumeRunnable(final PortType port)
    {
        assumeTrue(PortType.BATCHED != port || BatchedPortSupport.current().isAvailable() ||
            BatchedPortSupport.isLibraryBundled(), BatchedPortSupport.current().toString());
    }

    private static void awaitSleeping(final AgentWakeup wakeup, final String who)
    {
        final long deadlineNs = System.nanoTime() + WAIT_NS;
        while (!wakeup.isSleeping())
        {
            assertTrue(System.nanoTime() - deadlineNs < 0, who + "'s agent never slept");
            Thread.onSpinWait();
        }
    }

    private static long awaitCounterAbove(final Endpoint endpoint, final String name, final long value)
    {
        final long deadlineNs = System.nanoTime() + WAIT_NS;
        long current;
        while ((current = counter(endpoint, name)) <= value)
        {
            assertTrue(System.nanoTime() - deadlineNs < 0, name + " stayed at " + current + "; waits " +
                counter(endpoint, "waits") + ", by command " + counter(endpoint, "woken-by-command") +
                ", timeouts " + counter(endpoint, "wait-timeouts"));
            Thread.onSpinWait();
        }
        return current;
    }

    static long counter(final Endpoint endpoint, final String name)
    {
        final long[] value = { -1 };
        final CountersReader reader = endpoint.countersReader();
        reader.forEach((counterId, typeId, keyBuffer, label) ->
        {
            if (CounterType.PORT == typeId && name.equals(CounterKey.name(keyBuffer)))
            {
                value[0] = reader.getCounterValue(counterId);
            }
        });
        return value[0];
    }

    private static String label(final Endpoint endpoint, final String name)
    {
        final String[] found = { "" };
        endpoint.countersReader().forEach((final int counterId, final int typeId, final DirectBuffer keyBuffer,
            final String label) ->
        {
            if (CounterType.PORT == typeId && name.equals(CounterKey.name(keyBuffer)))
            {
                found[0] = label;
            }
        });
        return found[0];
    }
}
