package io.pacelink.perf.scale;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

/**
 * The bare path's round trip between the scale run's two processes: a UDP datagram to the server process and back,
 * each side a thread blocked in its socket's receive. It pays what the path itself costs on this machine at the
 * moment — the kernel's loopback and one idle thread's wake-up at each end, as an endpoint's agent asleep in its port
 * wait pays — and none of the transport's work, so a connect timed beside it can be read against "1 RTT" as a ping
 * would give it (perf/README.md, scale.sh). {@link PathPing} is the same round trip through the two endpoints.
 */
final class UdpPing implements AutoCloseable
{
    private static final int LENGTH = Long.BYTES;

    private final DatagramSocket socket;
    private final DatagramPacket packet = new DatagramPacket(new byte[LENGTH], LENGTH);
    private long sequence;

    private UdpPing(final DatagramSocket socket)
    {
        this.socket = socket;
    }

    /**
     * Server side: echo every datagram to its sender on a daemon thread, for the life of the process.
     *
     * @return the port it listens on.
     */
    static int startEcho()
    {
        try
        {
            final DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
            final Thread echo = new Thread(() ->
            {
                final DatagramPacket received = new DatagramPacket(new byte[LENGTH], LENGTH);
                try
                {
                    while (true)
                    {
                        received.setLength(LENGTH);
                        socket.receive(received);
                        socket.send(received);
                    }
                }
                catch (final IOException ex)
                {
                    socket.close();
                }
            }, "udp-ping-echo");
            echo.setDaemon(true);
            echo.start();
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Client side.
     *
     * @param port      the server process's echo port on 127.0.0.1.
     * @param timeoutMs longest wait for an echo.
     * @return a pinger.
     */
    static UdpPing to(final int port, final int timeoutMs)
    {
        try
        {
            final DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            socket.setSoTimeout(timeoutMs);
            return new UdpPing(socket);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * @return one ping's round trip, or -1 if its echo did not come within the timeout (a late echo of an earlier
     * ping is skipped).
     */
    long roundTripNs()
    {
        final long expected = ++sequence;
        final byte[] bytes = packet.getData();
        ByteBuffer.wrap(bytes).putLong(0, expected);
        try
        {
            final long sentNs = System.nanoTime();
            packet.setLength(LENGTH);
            socket.send(packet);
            do
            {
                packet.setLength(LENGTH);
                socket.receive(packet);
            }
            while (ByteBuffer.wrap(bytes).getLong(0) != expected);
            return System.nanoTime() - sentNs;
        }
        catch (final SocketTimeoutException ex)
        {
            return -1;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    public void close()
    {
        socket.close();
    }
}
