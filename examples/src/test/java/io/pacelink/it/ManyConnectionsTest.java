package io.pacelink.it;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.port.ImpairmentConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 50 concurrent connections to one server endpoint, each moving 4 MiB of checked messages: all complete, and each
 * server-side connection receives exactly its own client's bytes.
 */
class ManyConnectionsTest
{
    private static final int CONNECTIONS = 50;
    private static final long BYTES_PER_CONNECTION = 4L << 20;
    private static final int MAX_MESSAGE_BYTES = 64 << 10;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void fiftyConnectionsEachDeliverFourMebibytes()
    {
        try (LoopbackPair pair = new LoopbackPair(
            (context) -> context.maxMessageLengthBytes(MAX_MESSAGE_BYTES)
                .sendBufferBytes(1 << 20)
                .receiveBufferBytes(1 << 20)
                .maxConnections(CONNECTIONS),
            ImpairmentConfig.NONE,
            ImpairmentConfig.NONE))
        {
            final Connection[] senders = new Connection[CONNECTIONS];
            final MessagePattern[] patterns = new MessagePattern[CONNECTIONS];
            for (int i = 0; i < CONNECTIONS; i++)
            {
                senders[i] = pair.client.connect(pair.server.localAddress());
                patterns[i] = new MessagePattern(i, MAX_MESSAGE_BYTES);
            }

            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_MESSAGE_BYTES));
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(100);
            awaitConnected(senders, deadlineNs);

            // Each client first says which connection it is (a 4-byte index), so the server side can pick the
            // verifier for that client's pattern whatever order the connections were accepted in.
            for (int i = 0; i < CONNECTIONS; i++)
            {
                message.putInt(0, i);
                assertTrue(senders[i].offer(message, 0, Integer.BYTES) > 0);
            }

            final MessagePattern.Verifier[] verifiers = new MessagePattern.Verifier[CONNECTIONS];
            final Connection[] receivers = new Connection[CONNECTIONS];
            int accepted = 0;
            while (accepted < CONNECTIONS)
            {
                final Connection connection = pair.server.accept();
                if (null != connection)
                {
                    final int[] index = {-1};
                    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while (0 == connection.poll((buffer, offset, length) -> index[0] = buffer.getInt(offset), 1))
                    {
                        assertTrue(System.nanoTime() < deadline, "no hello on accepted connection " + accepted);
                        Thread.onSpinWait();
                    }
                    receivers[index[0]] = connection;
                    verifiers[index[0]] = new MessagePattern.Verifier(index[0], MAX_MESSAGE_BYTES);
                    accepted++;
                }
                assertTrue(System.nanoTime() < deadlineNs, "accept timed out with " + accepted + " accepted");
            }

            final long[] offered = new long[CONNECTIONS];
            final long[] offeredMessages = new long[CONNECTIONS];
            final int[] pendingLength = new int[CONNECTIONS];
            java.util.Arrays.fill(pendingLength, -1);
            boolean done = false;
            while (!done)
            {
                done = true;
                for (int i = 0; i < CONNECTIONS; i++)
                {
                    if (offered[i] < BYTES_PER_CONNECTION)
                    {
                        if (pendingLength[i] < 0)
                        {
                            pendingLength[i] = patterns[i].nextSize();
                        }
                        // Refill every attempt: the buffer is shared by all connections.
                        MessagePattern.fill(message, offeredMessages[i], pendingLength[i]);
                        if (senders[i].offer(message, 0, pendingLength[i]) > 0)
                        {
                            offered[i] += pendingLength[i];
                            offeredMessages[i]++;
                            pendingLength[i] = -1;
                        }
                    }
                    receivers[i].poll(verifiers[i], 16);
                    assertNull(verifiers[i].failure(), "connection " + i);
                    if (verifiers[i].messages() < offeredMessages[i] || offered[i] < BYTES_PER_CONNECTION)
                    {
                        done = false;
                    }
                    final Connection sender = senders[i];
                    assertTrue(ConnectionState.CLOSED != sender.state(), () -> "closed: " + sender);
                }
                assertTrue(System.nanoTime() < deadlineNs, "transfer timed out");
            }

            long totalBytes = 0;
            for (int i = 0; i < CONNECTIONS; i++)
            {
                assertNotNull(receivers[i]);
                assertEquals(offered[i], verifiers[i].bytes(), "connection " + i);
                totalBytes += verifiers[i].bytes();
            }
            assertTrue(totalBytes >= CONNECTIONS * BYTES_PER_CONNECTION);
            assertEquals(CONNECTIONS, pair.server.counters().connectionsOpened().get());
        }
    }

    private static void awaitConnected(final Connection[] connections, final long deadlineNs)
    {
        for (final Connection connection : connections)
        {
            while (ConnectionState.CONNECTED != connection.state())
            {
                assertTrue(System.nanoTime() < deadlineNs, () -> "connect timed out: " + connection);
                Thread.onSpinWait();
            }
        }
    }
}
