package io.pacelink.transport.engine;

import io.pacelink.sim.SimulatedAgent;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.schedule.RoundRobinScheduler;
import io.pacelink.transport.stats.CountersBuffers;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client of the simulator's ping-pong tests of the duty cycle's order ({@link OfferBeforeReceiveTest},
 * {@link ParkedAckTest}, {@link AnswerServiceTest}): a request once connected and once each echo is back, offered
 * from its own duty cycle's end and sent by a second cycle at once; and the endpoint cores both ends run (a fixed
 * window, small buffers).
 */
final class SimPinger implements SimulatedAgent, MessageHandler
{
    private final EndpointCore core;
    private final InetSocketAddress server;
    private final int requestBytes;
    private final int pings;
    private final UnsafeBuffer request;
    private Connection connection;
    private boolean isAwaitingEcho;
    private int echoes;

    /**
     * @param core         the client's endpoint core.
     * @param server       the echo server's address.
     * @param requestBytes the bytes of each request (at least 8: it carries its number).
     * @param pings        how many requests, one at a time.
     */
    SimPinger(final EndpointCore core, final InetSocketAddress server, final int requestBytes, final int pings)
    {
        this.core = core;
        this.server = server;
        this.requestBytes = requestBytes;
        this.pings = pings;
        this.request = new UnsafeBuffer(new byte[requestBytes]);
    }

    /**
     * An endpoint core on a port, with a fixed 64-KiB window and 64-KiB buffers; a server adds what it accepts.
     *
     * @param port     the host's port.
     * @param accept   true for the server.
     * @param accepted where the server's accepted connections go.
     * @return the core.
     */
    static EndpointCore newCore(final DatagramPort port, final boolean accept, final List<Connection> accepted)
    {
        final PacelinkContext context = new PacelinkContext()
            .datagramPort(port)
            .congestionControl(FixedWindowController.NAME)
            .acceptConnections(accept)
            .sendBufferBytes(64 * 1024)
            .receiveBufferBytes(64 * 1024)
            .maxMessageLengthBytes(16 * 1024)
            .randomSeed(accept ? 2 : 3);
        context.conclude();
        return new EndpointCore(
            context,
            port,
            CongestionControlRegistry.of(FixedWindowController.factory(64 * 1024)),
            new RoundRobinScheduler<>(),
            CountersBuffers.newManager(256 * 1024),
            accepted::add);
    }

    /**
     * @return the echoes received so far.
     */
    int echoes()
    {
        return echoes;
    }

    public int doWork(final long nowNs)
    {
        if (null == connection)
        {
            connection = core.connect(server, null, nowNs);
        }
        int work = core.doWork(nowNs);
        connection.poll(this, 1);
        if (ConnectionState.CONNECTED == connection.state() && !isAwaitingEcho && echoes < pings)
        {
            request.putLong(0, echoes);
            assertTrue(connection.offer(request, 0, requestBytes) > 0);
            isAwaitingEcho = true;
            work += core.doWork(nowNs);
        }
        return work;
    }

    public void onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        assertEquals(echoes, buffer.getLong(offset), "the echo of the request in flight");
        echoes++;
        isAwaitingEcho = false;
    }

    public long nextDeadlineNs()
    {
        return core.nextDeadlineNs();
    }
}
