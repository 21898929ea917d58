package io.pacelink.it;

import io.pacelink.transport.testing.AllocationMeter;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.MessagePartHandler;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ThreadingMode;
import io.pacelink.transport.port.BatchedPortSupport;
import io.pacelink.transport.port.PortType;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Zero garbage on the hot path: after warm-up, a thread that runs both endpoints' agents (INVOKER mode) and the
 * application's offer/poll allocates nothing while a transfer runs over real loopback sockets, with each controller
 * on the default port (the batched one where it works), and on the NIO port.
 */
class SteadyStateAllocationTest
{
    private static final int MESSAGE_BYTES = 16 << 10;
    private static final long WARM_UP_BYTES = 256L << 20;
    private static final long WINDOW_BYTES = 32L << 20;
    private static final int HIGH_WATER_MARK_GROWTH_WINDOWS = 2;
    private static final int FILL_TURNS = 20_000;
    private static final int SMALL_MESSAGE_BYTES = 32;
    private static final int SMALL_MESSAGES_PER_TURN = 64;
    private static final long SMALL_WARM_UP_BYTES = 8L << 20;
    private static final long SMALL_WINDOW_BYTES = 4L << 20;

    @ParameterizedTest
    @ValueSource(strings = {"reno", "cubic", "bbr", "bbrplus", "bbr2", "bbr3"})
    void agentThreadAllocatesNothingInSteadyState(final String congestionControl)
    {
        moveWithoutGarbage(congestionControl, PortType.AUTO);
    }

    @Test
    void agentThreadAllocatesNothingInSteadyStateOnTheNioPort()
    {
        moveWithoutGarbage("cubic", PortType.NIO);
    }

    @Test
    void aPartHandlerTakesMessagesAcrossSegmentsWithoutGarbage()
    {
        // 16-KiB messages in 64-KiB receive segments: one in four spans two and comes in parts.
        moveWithoutGarbage("bbr", PortType.AUTO, true);
    }

    /**
     * The batched port with GSO off from the start sends each DATA payload from the send log's direct segment in
     * place (docs/io.md, "With GSO off, the payload from the send log, in place"): its iovecs and the log's direct
     * segments are reused, never made per packet.
     */
    @Test
    void agentThreadAllocatesNothingInSteadyStateWithGsoOff()
    {
        assumeTrue(BatchedPortSupport.current().isAvailable(), BatchedPortSupport.current().toString());
        moveWithoutGarbage("cubic", PortType.BATCHED, false, false);
    }

    private static void moveWithoutGarbage(final String congestionControl, final PortType port)
    {
        moveWithoutGarbage(congestionControl, port, false);
    }

    private static void moveWithoutGarbage(final String congestionControl, final PortType port, final boolean inParts)
    {
        moveWithoutGarbage(congestionControl, port, inParts, true);
    }

    private static void moveWithoutGarbage(
        final String congestionControl, final PortType port, final boolean inParts, final boolean gso)
    {
        try (Endpoint server = Endpoint.launch(context(congestionControl, true).port(port).gso(gso));
            Endpoint client = Endpoint.launch(context(congestionControl, false).port(port).gso(gso)))
        {
            final Connection sender = client.connect(server.localAddress());
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            final Connection receiver = acceptConnected(server, client, sender, deadlineNs);

            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(MESSAGE_BYTES));
            final ByteCounter counter = new ByteCounter(inParts);
            fillBothStreamBuffers(server, client, sender, message);
            pump(server, client, sender, receiver, message, counter, WARM_UP_BYTES, deadlineNs);

            // Under load the ACKs come later than in the warm-up: the sent-packet ring and the send log may grow to a
            // new high-water mark once or twice (a loaded CI machine saw the ring double, 27 KB, and one more 64-KiB
            // segment); garbage would repeat in every window.
            AllocationMeter.assertAllocationFree(congestionControl + " on " + client.portDescription() +
                (inParts ? ", in parts" : "") + ": agent and application moving " +
                WINDOW_BYTES + " bytes", () -> pump(server, client, sender, receiver, message, counter,
                counter.bytes + WINDOW_BYTES, deadlineNs), HIGH_WATER_MARK_GROWTH_WINDOWS);
        }
    }

    /**
     * Small messages on default stream buffers (32 MiB each), a few kilobytes ahead of the reader: the logs reuse the
     * segments the peer acknowledged and the application consumed, so a long run of 32-byte messages takes no new
     * segment once it has two or three. (Before, the send log committed a new 64-KiB segment every segment's worth of
     * stream until its whole capacity was committed: the first measured window allocated 4.7 MB, 72 segments on the
     * offering thread. The warm-up stays well below the log's capacity so that a log that still grew would show.)
     */
    @Test
    void smallMessagesOnDefaultBuffersAllocateNothingOnceRunning()
    {
        try (Endpoint server = Endpoint.launch(smallMessageContext(true));
            Endpoint client = Endpoint.launch(smallMessageContext(false)))
        {
            final Connection sender = client.connect(server.localAddress());
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            final Connection receiver = acceptConnected(server, client, sender, deadlineNs);

            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(SMALL_MESSAGE_BYTES));
            final ByteCounter counter = new ByteCounter(false);
            pumpSmall(server, client, sender, receiver, message, counter, SMALL_WARM_UP_BYTES, deadlineNs);

            AllocationMeter.assertAllocationFree("32-byte messages on " + client.portDescription() + ": " +
                SMALL_WINDOW_BYTES + " bytes of them", () -> pumpSmall(server, client, sender, receiver, message,
                counter, counter.bytes + SMALL_WINDOW_BYTES, deadlineNs));
        }
    }

    /**
     * Drive both endpoints until the server accepted the client's connection and the client sees it connected.
     */
    static Connection acceptConnected(
        final Endpoint server, final Endpoint client, final Connection sender, final long deadlineNs)
    {
        Connection receiver = null;
        while (null == receiver || ConnectionState.CONNECTED != sender.state())
        {
            server.invoke();
            client.invoke();
            if (null == receiver)
            {
                receiver = server.accept();
            }
            assertTrue(System.nanoTime() < deadlineNs, "connect timed out");
        }
        return receiver;
    }

    private static PacelinkContext smallMessageContext(final boolean accept)
    {
        return new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .threadingMode(ThreadingMode.INVOKER)
            .lingerTimeoutNs(0)
            .acceptConnections(accept);
    }

    private static void pumpSmall(
        final Endpoint server,
        final Endpoint client,
        final Connection sender,
        final Connection receiver,
        final UnsafeBuffer message,
        final ByteCounter counter,
        final long untilBytes,
        final long deadlineNs)
    {
        while (counter.bytes < untilBytes)
        {
            // At most a turn's worth ahead of the receiving application, as a request/response or a paced feed
            // would be: the data in flight stays small, so any segment the logs take is one they failed to reuse.
            while (counter.offeredBytes - counter.bytes < SMALL_MESSAGES_PER_TURN * SMALL_MESSAGE_BYTES &&
                sender.offer(message, 0, SMALL_MESSAGE_BYTES) > 0)
            {
                counter.offeredBytes += SMALL_MESSAGE_BYTES;
            }
            client.invoke();
            server.invoke();
            receiver.poll(counter.handler, 4 * SMALL_MESSAGES_PER_TURN);
            if (System.nanoTime() > deadlineNs || ConnectionState.CLOSED == sender.state())
            {
                throw new AssertionError("transfer stalled at " + counter.bytes + " bytes: " + sender);
            }
        }
    }

    private static PacelinkContext context(final String congestionControl, final boolean accept)
    {
        return new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .threadingMode(ThreadingMode.INVOKER)
            // One thread drives both endpoints, so a closing one could not wait for the other to read: abort.
            .lingerTimeoutNs(0)
            .congestionControl(congestionControl)
            .acceptConnections(accept)
            .sendBufferBytes(4 << 20)
            .receiveBufferBytes(4 << 20)
            .maxMessageLengthBytes(1 << 20);
    }

    /**
     * Stream buffers commit memory as they fill (docs/security.md): fill each once, the receiver's by not reading
     * while the sender sends up to the flow-control window, then the sender's again, so that no new high of either
     * falls in the window measured. The sender offers on every turn of the receiver's fill: an INVOKER endpoint's
     * send buffer holds at most its unsent low watermark (1 MiB by default) beyond what is in flight, so a buffer
     * filled once before those turns would leave the receive window, the bytes in flight and the sent-packet ring
     * short of their highs (the ring then grew from 256 to 512 slots, 54,080 bytes, inside a measured window).
     */
    private static void fillBothStreamBuffers(
        final Endpoint server, final Endpoint client, final Connection sender, final UnsafeBuffer message)
    {
        while (sender.offer(message, 0, MESSAGE_BYTES) > 0)
        {
            client.invoke();
        }
        for (int i = 0; i < FILL_TURNS; i++)
        {
            sender.offer(message, 0, MESSAGE_BYTES);
            client.invoke();
            server.invoke();
        }
        while (sender.offer(message, 0, MESSAGE_BYTES) > 0)
        {
            client.invoke();
        }
    }

    private static void pump(
        final Endpoint server,
        final Endpoint client,
        final Connection sender,
        final Connection receiver,
        final UnsafeBuffer message,
        final ByteCounter counter,
        final long untilBytes,
        final long deadlineNs)
    {
        while (counter.bytes < untilBytes)
        {
            sender.offer(message, 0, MESSAGE_BYTES);
            client.invoke();
            server.invoke();
            receiver.poll(counter.handler, 64);
            if (System.nanoTime() > deadlineNs || ConnectionState.CLOSED == sender.state())
            {
                throw new AssertionError("transfer stalled at " + counter.bytes + " bytes: " + sender);
            }
        }
    }

    private static final class ByteCounter implements MessagePartHandler
    {
        private final MessageHandler handler;
        private long bytes;
        private long offeredBytes;

        /**
         * @param inParts true to be polled as a {@link MessagePartHandler}, false as a plain {@link MessageHandler}
         *                (a message across segments then comes whole, through the receive log's scratch array).
         */
        ByteCounter(final boolean inParts)
        {
            handler = inParts ? this : (MessageHandler)this::onMessage;
        }

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            bytes += length;
        }

        public void onMessagePart(
            final DirectBuffer buffer, final int offset, final int length, final int messageOffset,
            final int messageLength)
        {
            bytes += length;
        }
    }
}
