package io.pacelink.it;

import io.pacelink.cli.net.TransportWaits;
import io.pacelink.transport.Connection;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.port.BatchedPortSupport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A busy-spinning endpoint's batched port asks the kernel for no receive times (it reads a datagram within one empty
 * receive of its arrival), while a default-profile endpoint's, which sleeps in its port between receives, keeps them:
 * seen in the port counters of both ends of one connection after a few round trips. Functional: counts only.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpinningReceiveTimesTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(20);
    private static final int ROUNDS = 20;

    @Test
    void aBusySpinningEndpointReadsNoKernelReceiveTimesAndADefaultOneDoes()
    {
        assumeTrue(BatchedPortSupport.current().isAvailable() || BatchedPortSupport.isLibraryBundled(),
            BatchedPortSupport.current().toString());
        final PacelinkContext spinningContext =
            TransportWaits.clientContext(new InetSocketAddress("127.0.0.1", 0), true).countersFile(false);
        try (Endpoint sleeping = Endpoint.launch(new PacelinkContext()
                .bindAddress(new InetSocketAddress("127.0.0.1", 0)).countersFile(false));
            Endpoint spinning = Endpoint.launch(spinningContext))
        {
            final TransportWaits waits = new TransportWaits(spinning, spinningContext);
            final Connection client = waits.connect(sleeping.localAddress(), "cubic", WAIT_NS, "the test's server");
            // The server hands the connection over once the client confirms it: the client's duty cycle runs here.
            final Connection[] accepted = new Connection[1];
            waits.await(() -> null != (accepted[0] = sleeping.accept()), WAIT_NS, () -> "the accept", "the server",
                List.of(client));
            final Connection server = accepted[0];
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            final int[] echoes = new int[1];
            for (int round = 0; round < ROUNDS; round++)
            {
                message.putLong(0, round);
                assertTrue(client.offer(message, 0, 64) > 0);
                final int expected = round + 1;
                waits.await(() ->
                {
                    server.poll((buffer, offset, length) -> assertTrue(server.offer(buffer, offset, length) > 0), 1);
                    client.poll((buffer, offset, length) -> echoes[0]++, 1);
                    return echoes[0] == expected;
                }, WAIT_NS, () -> "echo " + expected, "the server", List.of(client));
            }
            assertEquals(ROUNDS, echoes[0]);
            // The port's figures reach the counters every 100 ms, in the duty cycle: run the spinning one's until then.
            final long deadlineNs = System.nanoTime() + WAIT_NS;
            while (AgentWaitTest.counter(spinning, "port-datagrams-received") < ROUNDS ||
                AgentWaitTest.counter(sleeping, "port-datagrams-received") < ROUNDS)
            {
                assertTrue(System.nanoTime() - deadlineNs < 0, "the port counters were never published");
                waits.turn(0);
            }
            assertEquals(0, AgentWaitTest.counter(spinning, "timestamped-datagrams"),
                "the spinning endpoint's port reads no kernel receive time");
            assertTrue(AgentWaitTest.counter(sleeping, "timestamped-datagrams") >= ROUNDS,
                "the sleeping one's reads each datagram's");
        }
    }
}
