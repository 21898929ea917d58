package io.pacelink.transport.port;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * An open port's peer socket on real loopback sockets: a server port bound to a port it chose gives the peer that all
 * of {@link BatchedDatagramPort#PEER_SOCKET_BATCHES} send batches in a row went to a connected socket of its own, and
 * then both ways every datagram still arrives byte for byte, in order, with its codepoint and from the server's one
 * address — with that peer (its datagrams reach the connected socket) and with every other peer (the port's own
 * socket), on waits and on receives without waits (a busy-spinning loop's); the socket follows the next busy peer;
 * many peers in turn, a port the kernel numbered or a port a group wait watches keep to one socket. Functional only:
 * nothing is timed beyond generous deadlines for datagrams to arrive.
 */
class PeerSocketTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final int LENGTH = 60;

    private final List<AutoCloseable> opened = new ArrayList<>();
    private int nextIndex;

    @BeforeAll
    static void requireBatchedPort()
    {
        LoopbackPorts.requireBatchedPort();
    }

    @AfterEach
    void closeAll() throws Exception
    {
        for (final AutoCloseable closeable : opened)
        {
            closeable.close();
        }
    }

    @Test
    void aBusyPeerGetsAConnectedSocketAndEveryPeerIsServedByteForByteOverIpv4() throws IOException
    {
        busyPeer("127.0.0.1");
    }

    @Test
    void aBusyPeerGetsAConnectedSocketAndEveryPeerIsServedByteForByteOverIpv6() throws IOException
    {
        assumeTrue(BatchedDatagramPortTest.hasIpv6Loopback(), "no IPv6 loopback here");
        busyPeer("::1");
    }

    private void busyPeer(final String host) throws IOException
    {
        final BatchedDatagramPort server = openOnChosenPort(host);
        // A client as Pacelink's: restricted to the server, so a datagram from any other address or port than the
        // server's never reaches it.
        final BatchedDatagramPort a = open(new InetSocketAddress(host, 0));
        assertTrue(a.restrictTo(server.localAddress()));
        final BatchedDatagramPort b = open(new InetSocketAddress(host, 0));
        assertTrue(b.restrictTo(server.localAddress()));

        for (int i = 0; i < BatchedDatagramPort.PEER_SOCKET_BATCHES - 1; i++)
        {
            roundTrip(a, server, 2, true);
        }
        assertNull(server.peerSocketPeer(), "63 batches to one peer: not yet");
        roundTrip(a, server, 2, true);
        assertEquals(a.localAddress(), server.peerSocketPeer(), "the 64th: its own socket");
        assertEquals(1, server.peerSocketConnects());
        assertEquals(0, server.peerSocketReceives());

        // Both ways, every codepoint, waits and spinning receives; the other peer served beside it.
        for (int i = 0; i < 200; i++)
        {
            roundTrip(a, server, i % 4, i % 2 == 0);
            if (i % 10 == 0)
            {
                roundTrip(b, server, (i / 10) % 4, i % 20 == 0);
            }
        }
        sendBurst(a, server, new int[]{ 2, 2, 0, 3, 1, 2 });
        sendBurst(server, a, new int[]{ 2, 2, 0, 3, 1, 2 });
        assertTrue(server.peerSocketReceives() >= 200, "the peer's datagrams arrive on its socket: " +
            server.peerSocketReceives());
        assertEquals(a.localAddress(), server.peerSocketPeer());
        assertEquals(1, server.peerSocketConnects());
        assertEquals(0, server.stats().sendErrors());

        // The next busy peer takes the socket; the last one is served on the port's own socket.
        for (int i = 0; i < BatchedDatagramPort.PEER_SOCKET_BATCHES; i++)
        {
            roundTrip(b, server, 2, i % 2 == 0);
        }
        assertEquals(b.localAddress(), server.peerSocketPeer());
        assertEquals(2, server.peerSocketConnects());
        for (int i = 0; i < 20; i++)
        {
            roundTrip(a, server, 2, i % 2 == 0);
            roundTrip(b, server, 2, i % 2 != 0);
        }

        // Peers in turn never make 64 batches in a row: the socket stays with the last busy one.
        for (int i = 0; i < 3 * BatchedDatagramPort.PEER_SOCKET_BATCHES; i++)
        {
            roundTrip(i % 2 == 0 ? a : b, server, 2, true);
        }
        assertEquals(2, server.peerSocketConnects());
        assertEquals(0, server.stats().sendErrors());
        assertEquals(0, server.stats().receiveErrors());
    }

    @Test
    void aBatchToThePeerAndAnotherLeavesOnBothSocketsAndArrivesWhole() throws IOException
    {
        final BatchedDatagramPort server = openOnChosenPort("127.0.0.1");
        final BatchedDatagramPort a = open(new InetSocketAddress("127.0.0.1", 0));
        final BatchedDatagramPort b = open(new InetSocketAddress("127.0.0.1", 0));
        for (int i = 0; i < BatchedDatagramPort.PEER_SOCKET_BATCHES; i++)
        {
            roundTrip(a, server, 2, true);
        }
        assertEquals(a.localAddress(), server.peerSocketPeer());

        final SendBatch batch = new SendBatch(8, 8 * LENGTH);
        final int first = nextIndex;
        final InetSocketAddress[] to = { a.localAddress(), a.localAddress(), b.localAddress(), a.localAddress(),
            b.localAddress(), b.localAddress() };
        for (final InetSocketAddress destination : to)
        {
            write(batch, nextIndex++, destination, 2);
        }
        assertEquals(to.length, server.send(batch));
        final List<byte[]> atA = receive(a, 3);
        final List<byte[]> atB = receive(b, 3);
        assertArrayEquals(BatchedDatagramPortTest.expected(first, LENGTH), atA.get(0));
        assertArrayEquals(BatchedDatagramPortTest.expected(first + 1, LENGTH), atA.get(1));
        assertArrayEquals(BatchedDatagramPortTest.expected(first + 3, LENGTH), atA.get(2));
        assertArrayEquals(BatchedDatagramPortTest.expected(first + 2, LENGTH), atB.get(0));
        assertArrayEquals(BatchedDatagramPortTest.expected(first + 4, LENGTH), atB.get(1));
        assertArrayEquals(BatchedDatagramPortTest.expected(first + 5, LENGTH), atB.get(2));
    }

    @Test
    void aPortTheKernelNumberedOrAGroupWaitWatchesKeepsToOneSocket() throws IOException
    {
        final BatchedDatagramPort numbered = open(new InetSocketAddress("127.0.0.1", 0));
        final BatchedDatagramPort a = open(new InetSocketAddress("127.0.0.1", 0));
        for (int i = 0; i < 2 * BatchedDatagramPort.PEER_SOCKET_BATCHES; i++)
        {
            roundTrip(a, numbered, 2, true);
        }
        assertNull(numbered.peerSocketPeer());

        final BatchedDatagramPort watched = openOnChosenPort("127.0.0.1");
        for (int i = 0; i < BatchedDatagramPort.PEER_SOCKET_BATCHES; i++)
        {
            roundTrip(a, watched, 2, true);
        }
        assertEquals(a.localAddress(), watched.peerSocketPeer());
        try (PortGroupWait group = new PortGroupWait(TimeUnit.MILLISECONDS.toNanos(1)))
        {
            group.watch(new DatagramPort[]{ watched }, 1);
            assertNull(watched.peerSocketPeer(), "watched alone: the peer socket is closed");
            for (int i = 0; i < 2 * BatchedDatagramPort.PEER_SOCKET_BATCHES; i++)
            {
                roundTrip(a, watched, 2, true);
            }
            assertNull(watched.peerSocketPeer());
            assertEquals(1, watched.peerSocketConnects());
        }
    }

    /**
     * One datagram from the client to the server and one back, each checked byte for byte with its source and
     * codepoint; the server's receive waits first, or spins on receives without a wait.
     */
    private void roundTrip(
        final BatchedDatagramPort client, final BatchedDatagramPort server, final int ecn, final boolean wait)
    {
        final int index = nextIndex++;
        final SendBatch out = new SendBatch(1, LENGTH);
        write(out, index, server.localAddress(), ecn);
        assertEquals(1, client.send(out));
        final ReceiveBatch in = server.newReceiveBatch(4);
        receiveOne(server, in, wait);
        assertArrayEquals(BatchedDatagramPortTest.expected(index, LENGTH), copy(in, 0));
        assertEquals(client.localAddress(), in.source(0));
        assertEquals(ecn, in.ecnCodepoint(0));

        final int answer = nextIndex++;
        final SendBatch back = new SendBatch(1, LENGTH);
        write(back, answer, in.source(0), ecn);
        assertEquals(1, server.send(back));
        final ReceiveBatch atClient = client.newReceiveBatch(4);
        receiveOne(client, atClient, true);
        assertArrayEquals(BatchedDatagramPortTest.expected(answer, LENGTH), copy(atClient, 0));
        assertEquals(server.localAddress(), atClient.source(0));
        assertEquals(ecn, atClient.ecnCodepoint(0));
    }

    /**
     * A batch of datagrams with these codepoints from one port to another, received in order with their own.
     */
    private void sendBurst(final BatchedDatagramPort from, final BatchedDatagramPort to, final int[] codepoints)
    {
        final SendBatch batch = new SendBatch(codepoints.length, codepoints.length * LENGTH);
        final int first = nextIndex;
        for (final int ecn : codepoints)
        {
            write(batch, nextIndex++, to.localAddress(), ecn);
        }
        assertEquals(codepoints.length, from.send(batch));
        final ReceiveBatch in = to.newReceiveBatch(16);
        int count = 0;
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (count < codepoints.length && System.nanoTime() - deadlineNs < 0)
        {
            to.awaitReadable(TimeUnit.MILLISECONDS.toNanos(100));
            to.receive(in, 16);
            for (int i = 0; i < in.size(); i++)
            {
                assertArrayEquals(BatchedDatagramPortTest.expected(first + count, LENGTH), copy(in, i), "in order");
                assertEquals(from.localAddress(), in.source(i));
                assertEquals(codepoints[count], in.ecnCodepoint(i));
                count++;
            }
        }
        assertEquals(codepoints.length, count);
    }

    private static void receiveOne(final BatchedDatagramPort port, final ReceiveBatch batch, final boolean wait)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        do
        {
            if (wait)
            {
                port.awaitReadable(TimeUnit.MILLISECONDS.toNanos(100));
            }
            port.receive(batch, batch.maxDatagrams());
        }
        while (0 == batch.size() && System.nanoTime() - deadlineNs < 0);
        assertEquals(1, batch.size());
    }

    private static List<byte[]> receive(final BatchedDatagramPort port, final int count)
    {
        final ReceiveBatch batch = port.newReceiveBatch(16);
        final List<byte[]> received = new ArrayList<>();
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (received.size() < count && System.nanoTime() - deadlineNs < 0)
        {
            port.awaitReadable(TimeUnit.MILLISECONDS.toNanos(100));
            port.receive(batch, 16);
            for (int i = 0; i < batch.size(); i++)
            {
                received.add(copy(batch, i));
            }
        }
        assertEquals(count, received.size());
        return received;
    }

    private static void write(final SendBatch batch, final int index, final InetSocketAddress to, final int ecn)
    {
        batch.buffer().putBytes(batch.nextOffset(), BatchedDatagramPortTest.expected(index, LENGTH));
        batch.commit(LENGTH, to, ecn);
    }

    private static byte[] copy(final ReceiveBatch batch, final int index)
    {
        final byte[] bytes = new byte[batch.length(index)];
        batch.buffer().getBytes(batch.offset(index), bytes);
        return bytes;
    }

    private BatchedDatagramPort open(final InetSocketAddress bind)
    {
        final BatchedDatagramPort port = BatchedDatagramPort.open(bind, 1 << 20, true);
        opened.add(port);
        return port;
    }

    /**
     * A server's port: bound to a port number it chose (here one the kernel just had free).
     */
    private BatchedDatagramPort openOnChosenPort(final String host) throws IOException
    {
        for (int attempt = 0; ; attempt++)
        {
            final int port;
            try (DatagramChannel probe = DatagramChannel.open())
            {
                probe.bind(new InetSocketAddress(host, 0));
                port = ((InetSocketAddress)probe.getLocalAddress()).getPort();
            }
            try
            {
                return open(new InetSocketAddress(host, port));
            }
            catch (final UncheckedIOException ex)
            {
                if (!(ex.getCause() instanceof BindException) || attempt >= 10)
                {
                    throw ex;
                }
            }
        }
    }
}
