package io.pacelink.cli.ping;

import io.pacelink.cli.net.TransportFailure;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The baseline: round trips of bare UDP datagrams over a connected {@link DatagramChannel} to
 * {@code pacelink ping --echo --raw-udp}: non-blocking and spinning with {@code --busy-spin}, else blocking in the
 * receive (the kernel wakes the thread when the echo arrives, what a plain UDP program does). What a transport adds
 * to a round trip is its time beyond this one. No
 * retransmission: a lost datagram is a failed ping.
 */
final class UdpRoundTrip implements RoundTrip
{
    private final DatagramChannel channel;
    private final ByteBuffer received = ByteBuffer.allocateDirect(65_536);
    private final UnsafeBuffer receivedView = new UnsafeBuffer(received);
    private final IdleStrategy idleStrategy;
    private final DatagramSocket blockingSocket;
    private final byte[] blockingBytes = new byte[65_536];
    private final DatagramPacket blockingPacket = new DatagramPacket(blockingBytes, blockingBytes.length);
    private final UnsafeBuffer blockingView = new UnsafeBuffer(blockingBytes);

    /**
     * @param server   the echo server.
     * @param bind     where to bind.
     * @param busySpin spin while waiting; false blocks in the receive.
     */
    UdpRoundTrip(final InetSocketAddress server, final InetSocketAddress bind, final boolean busySpin)
    {
        idleStrategy = busySpin ? new BusySpinIdleStrategy() : newBackoff();
        try
        {
            channel = DatagramChannel.open();
            channel.bind(bind);
            channel.connect(server);
            channel.configureBlocking(!busySpin);
            blockingSocket = busySpin ? null : channel.socket();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open a UDP socket to " + server + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * @return the back-off both UDP ends use when not spinning: spin briefly, yield, then park up to 100 µs.
     */
    static IdleStrategy newBackoff()
    {
        return new BackoffIdleStrategy(
            10, 20, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(100));
    }

    public long exchange(final UnsafeBuffer request, final int length, final long timeoutNs)
    {
        final long sequence = request.getLong(0);
        final ByteBuffer datagram = request.byteBuffer();
        datagram.clear().limit(length);
        try
        {
            final long sentNs = System.nanoTime();
            channel.write(datagram);
            if (null != blockingSocket)
            {
                return awaitBlocking(sequence, sentNs, timeoutNs);
            }
            while (true)
            {
                received.clear();
                if (channel.read(received) > 0)
                {
                    final long echoNs = System.nanoTime();
                    // Read as the request was written: through an Agrona buffer, in its byte order.
                    if (received.position() >= Long.BYTES && receivedView.getLong(0) == sequence)
                    {
                        idleStrategy.reset();
                        return echoNs - sentNs;
                    }
                    continue; // a late echo of an earlier request
                }
                if (System.nanoTime() - sentNs > timeoutNs)
                {
                    throw new TransportFailure("no echo of datagram " + sequence + " within " +
                        TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms (UDP does not retransmit)");
                }
                idleStrategy.idle();
            }
        }
        catch (final PortUnreachableException ex)
        {
            throw new TransportFailure("port unreachable: nothing listens at " + remote() +
                " (start `pacelink ping --echo --raw-udp` there)");
        }
        catch (final IOException ex)
        {
            throw new TransportFailure("UDP send or receive failed: " + ex.getMessage());
        }
    }

    private long awaitBlocking(final long sequence, final long sentNs, final long timeoutNs) throws IOException
    {
        while (true)
        {
            final long leftNs = timeoutNs - (System.nanoTime() - sentNs);
            try
            {
                blockingSocket.setSoTimeout((int)Math.max(1, TimeUnit.NANOSECONDS.toMillis(leftNs)));
                blockingPacket.setLength(blockingBytes.length);
                blockingSocket.receive(blockingPacket);
            }
            catch (final SocketTimeoutException ex)
            {
                throw new TransportFailure("no echo of datagram " + sequence + " within " +
                    TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms (UDP does not retransmit)");
            }
            final long echoNs = System.nanoTime();
            if (blockingPacket.getLength() >= Long.BYTES && blockingView.getLong(0) == sequence)
            {
                return echoNs - sentNs;
            }
        }
    }

    public void idleUntil(final long deadlineNs)
    {
        long remainingNs;
        while ((remainingNs = deadlineNs - System.nanoTime()) > 0)
        {
            if (idleStrategy instanceof BusySpinIdleStrategy)
            {
                Thread.onSpinWait();
            }
            else
            {
                LockSupport.parkNanos(remainingNs);
            }
        }
    }

    public String transport()
    {
        return "udp";
    }

    public void close()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private String remote()
    {
        try
        {
            return String.valueOf(channel.getRemoteAddress());
        }
        catch (final IOException ex)
        {
            return "the server";
        }
    }
}
