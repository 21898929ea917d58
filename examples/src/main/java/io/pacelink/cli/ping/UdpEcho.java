package io.pacelink.cli.ping;

import io.pacelink.cli.net.TransportFailure;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * {@code pacelink ping --echo --raw-udp}: sends every datagram straight back to where it came from, the other half of
 * the UDP baseline ({@link UdpRoundTrip}).
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
        final IdleStrategy idleStrategy = busySpin ? new BusySpinIdleStrategy() : UdpRoundTrip.newBackoff();
        final ByteBuffer datagram = ByteBuffer.allocateDirect(65_536);
        try (DatagramChannel channel = DatagramChannel.open())
        {
            channel.bind(bind);
            channel.configureBlocking(false);
            log.accept("UDP echo listening on " + channel.getLocalAddress() + (busySpin ? " (busy-spin)" : ""));
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
}
