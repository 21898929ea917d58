package io.pacelink.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The baseline every loopback figure is compared with: one thread writes datagrams as fast as a non-blocking
 * {@link DatagramChannel} accepts them while another reads them; what arrives per second is the most any transport
 * over this socket path can deliver.
 */
public final class RawUdpBlast
{
    /**
     * @param datagramsSent     written by the sender.
     * @param datagramsReceived read by the receiver.
     * @param bytesReceived     payload bytes read.
     * @param elapsedNs         how long the sender ran.
     */
    public record Result(long datagramsSent, long datagramsReceived, long bytesReceived, long elapsedNs)
    {
        /**
         * @return received payload in bits per second.
         */
        public double receivedBitsPerSecond()
        {
            return bytesReceived * 8e9 / Math.max(1, elapsedNs);
        }
    }

    private static final int SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;

    private RawUdpBlast()
    {
    }

    /**
     * @param durationNs    how long to send.
     * @param datagramBytes payload size of each datagram.
     * @return what was sent and received.
     */
    public static Result run(final long durationNs, final int datagramBytes)
    {
        try (DatagramChannel receiver = DatagramChannel.open();
            DatagramChannel sender = DatagramChannel.open())
        {
            receiver.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
            receiver.bind(new InetSocketAddress("127.0.0.1", 0));
            receiver.configureBlocking(false);
            sender.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
            sender.bind(new InetSocketAddress("127.0.0.1", 0));
            sender.connect(receiver.getLocalAddress());
            sender.configureBlocking(false);

            final AtomicBoolean sending = new AtomicBoolean(true);
            final long[] sent = new long[1];
            final long startNs = System.nanoTime();
            final Thread senderThread = new Thread(() -> sent[0] = blast(sender, datagramBytes, startNs + durationNs,
                sending), "raw-udp-sender");
            senderThread.start();

            final ByteBuffer buffer = ByteBuffer.allocateDirect(65536);
            long datagrams = 0;
            long bytes = 0;
            final long drainUntilNs = startNs + durationNs + TimeUnit.MILLISECONDS.toNanos(50);
            while (sending.get() || System.nanoTime() < drainUntilNs)
            {
                buffer.clear();
                if (null != receiver.receive(buffer))
                {
                    datagrams++;
                    bytes += buffer.position();
                }
                else
                {
                    Thread.onSpinWait();
                }
            }
            senderThread.join();
            return new Result(sent[0], datagrams, bytes, durationNs);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    private static long blast(
        final DatagramChannel sender, final int datagramBytes, final long endNs, final AtomicBoolean sending)
    {
        final ByteBuffer datagram = ByteBuffer.allocateDirect(datagramBytes);
        long sent = 0;
        try
        {
            while (System.nanoTime() < endNs)
            {
                datagram.clear();
                if (sender.write(datagram) > 0)
                {
                    sent++;
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        finally
        {
            sending.set(false);
        }
        return sent;
    }
}
