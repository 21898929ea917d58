package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.testing.TestNetwork;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An exception from the endpoint's own code while it acts for one connection (here a congestion controller that
 * throws, as one with a bug would) ends that connection with {@link CloseReason#INTERNAL_ERROR}, tells its peer, is
 * counted and reported, and costs the endpoint's other connections nothing: they deliver every byte
 * ({@link ConnectionFailures}). In virtual time, on the in-memory network.
 */
final class ConnectionFailuresTest
{
    private static final long IDLE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(2);
    private static final int MESSAGES = 40;
    private static final int MESSAGE_BYTES = 8_000;

    private final CoreTestBed bed = new CoreTestBed(IDLE_TIMEOUT_NS, TimeUnit.SECONDS.toNanos(1));
    private final TestNetwork network = bed.network();
    private final List<Throwable> clientErrors = new ArrayList<>();
    private final List<Throwable> serverErrors = new ArrayList<>();
    private final List<FixedWindowController> clientControllers = new ArrayList<>();
    private final List<FixedWindowController> serverControllers = new ArrayList<>();
    private final TestNetwork.Port serverPort = network.newPort(2000);
    private final EndpointCore server = bed.newCore(serverPort, true, 16,
        new PacelinkContext().errorHandler(serverErrors::add), serverControllers, null);
    private final EndpointCore client = bed.newCore(network.newPort(3000), false, 16,
        new PacelinkContext().errorHandler(clientErrors::add), clientControllers, null);

    @ParameterizedTest
    @ValueSource(strings = { "onAck", "onPacketSent", "congestionWindowBytes" })
    void aClientConnectionWhoseControllerThrowsOnceEndsWithAnInternalErrorAndTheOtherDeliversEverything(
        final String callback)
    {
        final Connection[] failing = bed.connect(client, server, serverPort);
        final Connection[] healthy = bed.connect(client, server, serverPort);
        clientControllers.get(0).failAt(callback, 20, true);

        final long[] deliveredBytes = transferBoth(failing, healthy);

        assertEquals(CloseReason.INTERNAL_ERROR, failing[0].closeReason());
        assertTrue(failing[0].outcome().detail().contains("test controller fails in " + callback),
            failing[0].outcome().detail());
        // The peer was told with a CLOSE, not left to its idle timeout.
        assertEquals(CloseReason.PEER_ABORTED, failing[1].closeReason());
        assertEquals("internal error", failing[1].outcome().detail());
        assertEquals(1, clientErrors.size());
        assertEquals(1, client.counters().errors().get());
        assertEquals(0, server.counters().errors().get());

        assertEquals(ConnectionState.CONNECTED, healthy[0].state());
        assertEquals((long)MESSAGES * MESSAGE_BYTES, deliveredBytes[1]);
        assertTrue(deliveredBytes[0] < (long)MESSAGES * MESSAGE_BYTES, "the failure came before the end");
    }

    @ParameterizedTest
    @ValueSource(strings = { "onAck", "congestionWindowBytes" })
    void aServerConnectionWhoseControllerKeepsFailingIsRemovedAndItsClientLearnsIt(final String callback)
    {
        final Connection[] failing = bed.connect(client, server, serverPort);
        final Connection[] healthy = bed.connect(client, server, serverPort);
        // From its third call on, every call of the callback throws for the server's first connection. Whether its
        // CLOSE can still be built depends on the callback: if not (the window is asked for it), the connection
        // fails again and is dropped at once, and its client learns it from a stateless reset.
        serverControllers.get(0).failAt(callback, 3, false);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_BYTES]);
        final int[] offered = new int[1];
        // The server sends on the failing connection, so that its controller sees ACKs; the client reads it.
        bed.run(() ->
        {
            if (offered[0] < MESSAGES && !failing[1].outcome().isClosed() &&
                failing[1].offer(message, 0, MESSAGE_BYTES) > 0)
            {
                offered[0]++;
            }
            failing[0].poll((buffer, offset, length) -> { }, 16);
            return failing[0].outcome().isClosed();
        }, TimeUnit.SECONDS.toNanos(1), "the client's close");

        assertEquals(CloseReason.INTERNAL_ERROR, failing[1].closeReason());
        assertTrue(failing[0].closeReason() == CloseReason.PEER_ABORTED ||
            failing[0].closeReason() == CloseReason.PEER_RESET, failing[0].outcome().toString());
        assertTrue(server.counters().errors().get() >= 1);
        assertEquals(server.counters().errors().get(), serverErrors.size());
        bed.run(() -> 1 == server.connectionCount(), IDLE_TIMEOUT_NS, "the failed connection's removal");

        final long[] deliveredBytes = transferBoth(null, healthy);
        assertEquals((long)MESSAGES * MESSAGE_BYTES, deliveredBytes[1]);
    }

    /**
     * Each client connection offers {@link #MESSAGES} numbered messages; run until the healthy one's all arrived in
     * order and the failing one (if any) is closed at both ends.
     *
     * @return the bytes the server's application received on each.
     */
    private long[] transferBoth(final Connection[] failing, final Connection[] healthy)
    {
        final long[] deliveredBytes = new long[2];
        final int[] nextMessage = new int[2];
        final int[] offered = new int[2];
        final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_BYTES]);
        final Connection[][] pairs = { failing, healthy };
        bed.run(() ->
        {
            for (int p = 0; p < 2; p++)
            {
                final Connection[] pair = pairs[p];
                if (null == pair)
                {
                    continue;
                }
                if (offered[p] < MESSAGES && !pair[0].outcome().isClosed())
                {
                    message.putInt(0, offered[p]);
                    if (pair[0].offer(message, 0, MESSAGE_BYTES) > 0)
                    {
                        offered[p]++;
                    }
                }
                final int index = p;
                pair[1].poll((buffer, offset, length) ->
                {
                    assertEquals(nextMessage[index]++, buffer.getInt(offset));
                    deliveredBytes[index] += length;
                }, 16);
            }
            return deliveredBytes[1] == (long)MESSAGES * MESSAGE_BYTES &&
                (null == failing || failing[0].outcome().isClosed() && failing[1].outcome().isClosed());
        }, TimeUnit.SECONDS.toNanos(5), "the healthy transfer and the failed connection's close at both ends");
        return deliveredBytes;
    }
}
