package io.pacelink.cli.ping;

import io.pacelink.cli.net.TransportFailure;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * {@code pacelink ping --echo --raw-udp}: sends every datagram straight back to where it came from, the other half of
 * the UDP baseline ({@link UdpRoundTrip}): spinning on a non-blocking channel with {@code --busy-spin}, else blocked
 * in the receive until a datagram arrives.
 */
public final class UdpEcho
{
    private UdpEcho()
    {
    }

    /**
     * @param bind          where to listen.
     * @param busySpin      spin while waiting instead of backing off.
     * @param log           where to say that it listens.
     * @param stopRequested true stops it (Ctrl-C).
     * @return 0.
     * @throws TransportFailure if it cannot bind.
     */
    public static int run(
        final InetSocketAddress bind, final boolean busySpin, final Consumer<String> log,
        final BooleanSupplier stopRequested)
    {
        final IdleStrategy idleStrategy = new BusySpinIdleStrategy();
        final ByteBuffer datagram = ByteBuffer.allocateDirect(65_536);
        try (DatagramChannel channel = DatagramChannel.open())
        {
            channel.bind(bind);
            channel.configureBlocking(!busySpin);
            log.accept("UDP echo listening on " + channel.getLocalAddress() + (busySpin ? " (busy-spin)" :
                " (blocking)"));
            if (!busySpin)
            {
                echoBlocking(channel.socket(), stopRequested);
                return 0;
            }
            while (!stopRequested.getAsBoolean())
            {
                datagram.clear();
                final SocketAddress source = channel.receive(datagram);
                if (null == source)
                {
                    idleStrategy.idle();
                    continue;
                }
                idleStrategy.reset();
                datagram.flip();
                channel.send(datagram, source);
            }
        }
        catch (final IOException ex)
        {
            throw new TransportFailure("UDP echo on " + bind + " failed: " + ex.getMessage());
        }
        return 0;
    }

    private static void echoBlocking(final DatagramSocket socket, final BooleanSupplier stopRequested)
        throws IOException
    {
        final byte[] bytes = new byte[65_536];
        final DatagramPacket packet = new DatagramPacket(bytes, bytes.length);
        // Wake up now and then to see whether Ctrl-C asked to stop.
        socket.setSoTimeout(100);
        while (!stopRequested.getAsBoolean())
        {
            packet.setLength(bytes.length);
            try
            {
                socket.receive(packet);
            }
            catch (final SocketTimeoutException ex)
            {
                continue;
            }
            socket.send(packet);
        }
    }
}
