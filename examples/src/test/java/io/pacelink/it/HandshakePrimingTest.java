package io.pacelink.it;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.engine.HandshakePathPrimer;
import io.pacelink.transport.secure.X25519;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real server endpoint's launch leaves the secure mode primed in its process (by it, or by a secure endpoint launched
 * before it in the same JVM), and nothing of the priming shows in the endpoint: no connection opened or closed; its
 * first real client then connects and is the only connection it counts. Real loopback sockets; correctness only.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandshakePrimingTest
{
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    @Test
    void aSecureServerPrimesAtLaunchAndItsCountersSeeOnlyItsRealClient()
    {
        final byte[] key = new byte[X25519.KEY_LENGTH];
        key[0] = 42;
        final PacelinkContext serverContext = new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0)).countersFile(false)
            .handshakePrimingNs(TimeUnit.SECONDS.toNanos(5));
        serverContext.security().serverPrivateKey(key);
        final PacelinkContext clientContext = new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0)).countersFile(false).acceptConnections(false);
        clientContext.security().serverPublicKey(new X25519().publicKey(key));
        try (Endpoint server = Endpoint.launch(serverContext))
        {
            final HandshakePathPrimer.Result primed = HandshakePathPrimer.primed(serverContext.security());
            assertNotNull(primed, "the secure mode was primed in this process");
            assertTrue(primed.connected() > 0 && primed.connected() == primed.connects(), primed::toString);
            assertEquals(0, server.counters().connectionsOpened().get());
            assertEquals(0, server.counters().connectionsClosed().get());

            try (Endpoint client = Endpoint.launch(clientContext))
            {
                final Connection connection = client.connect(server.localAddress());
                final long deadlineNs = System.nanoTime() + CONNECT_TIMEOUT_NS;
                Connection accepted = null;
                while (null == accepted || ConnectionState.CONNECTING == connection.state())
                {
                    assertTrue(System.nanoTime() - deadlineNs < 0, "connect timed out");
                    accepted = null == accepted ? server.accept() : accepted;
                    Thread.onSpinWait();
                }
                assertEquals(ConnectionState.CONNECTED, connection.state());
                assertEquals(1, server.counters().connectionsOpened().get(), "the real client's connection only");
            }
        }
    }
}
