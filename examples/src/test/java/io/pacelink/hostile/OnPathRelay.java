package io.pacelink.hostile;

import org.agrona.CloseHelper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * An on-path attacker on loopback: a UDP relay between one client and a server that records every datagram both
 * ways and can send its own to the server from the address the server knows as the client's — what anyone on the
 * path of a real network can do. The client connects to {@link #address()}.
 */
final class OnPathRelay implements AutoCloseable
{
    private final DatagramChannel channel;
    private final InetSocketAddress server;
    private final List<byte[]> toServer = new CopyOnWriteArrayList<>();
    private final List<byte[]> toClient = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile SocketAddress client;
    private volatile boolean running = true;

    OnPathRelay(final InetSocketAddress server)
    {
        this.server = server;
        try
        {
            channel = DatagramChannel.open();
            channel.bind(new InetSocketAddress("127.0.0.1", 0));
            channel.configureBlocking(false);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        thread = new Thread(this::relay, "on-path-relay");
        thread.setDaemon(true);
        thread.start();
    }

    InetSocketAddress address()
    {
        try
        {
            return (InetSocketAddress)channel.getLocalAddress();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * @return every datagram the client sent, in order.
     */
    List<byte[]> toServer()
    {
        return toServer;
    }

    /**
     * @return every datagram the server sent, in order.
     */
    List<byte[]> toClient()
    {
        return toClient;
    }

    /**
     * Send a datagram of the attacker's to the server, from the client's address as the server knows it.
     */
    synchronized void inject(final byte[] datagram)
    {
        try
        {
            channel.send(ByteBuffer.wrap(datagram), server);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Send a datagram of the attacker's to the client, from the address the client knows as the server's.
     */
    synchronized void injectToClient(final byte[] datagram)
    {
        try
        {
            channel.send(ByteBuffer.wrap(datagram), client);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private void relay()
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(65536);
        while (running)
        {
            try
            {
                buffer.clear();
                final SocketAddress source = channel.receive(buffer);
                if (null == source)
                {
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
                    continue;
                }
                buffer.flip();
                final byte[] datagram = new byte[buffer.remaining()];
                buffer.get(datagram);
                if (server.equals(source))
                {
                    toClient.add(datagram);
                    if (null != client)
                    {
                        forward(datagram, client);
                    }
                }
                else
                {
                    client = source;
                    toServer.add(datagram);
                    forward(datagram, server);
                }
            }
            catch (final IOException ex)
            {
                if (running)
                {
                    throw new UncheckedIOException(ex);
                }
            }
        }
    }

    private synchronized void forward(final byte[] datagram, final SocketAddress destination) throws IOException
    {
        channel.send(ByteBuffer.wrap(datagram), destination);
    }

    public void close() throws InterruptedException
    {
        running = false;
        thread.join();
        CloseHelper.quietClose(channel);
    }
}
