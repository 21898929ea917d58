package io.pacelink.transport.port;

import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Opens the port an endpoint asked for ({@link PortType}): the batched port where it works, else the NIO port. The
 * choice and, for a fallback, its reason travel with the port ({@link Opened#description()}) into the endpoint's
 * counters; an automatic fallback is also logged once per JVM, in one line, through {@link System.Logger}.
 */
public final class DatagramPorts
{
    private static final AtomicBoolean FALLBACK_LOGGED = new AtomicBoolean();

    private DatagramPorts()
    {
    }

    /**
     * An opened port and how it was chosen.
     *
     * @param port        the port.
     * @param batched     true if it is the batched port.
     * @param description e.g. {@code batched (sendmmsg/recvmmsg, GSO on, GRO on)} or
     *                    {@code nio (batched port unavailable: ...)}.
     */
    public record Opened(DatagramPort port, boolean batched, String description)
    {
    }

    /**
     * @param type              which port.
     * @param bindAddress       local address to bind.
     * @param socketBufferBytes SO_RCVBUF and SO_SNDBUF to request.
     * @param gso               whether the batched port sends runs of equal-sized datagrams as UDP GSO messages.
     * @return the open port.
     * @throws IllegalStateException           if {@link PortType#BATCHED} was asked for where it is unavailable,
     *                                         saying why.
     * @throws java.io.UncheckedIOException if the socket cannot be bound.
     */
    public static Opened open(
        final PortType type, final InetSocketAddress bindAddress, final int socketBufferBytes, final boolean gso)
    {
        return open(type, bindAddress, socketBufferBytes, gso, true);
    }

    /**
     * @param type              which port.
     * @param bindAddress       local address to bind.
     * @param socketBufferBytes SO_RCVBUF and SO_SNDBUF to request.
     * @param gso               whether the batched port sends runs of equal-sized datagrams as UDP GSO messages.
     * @param receiveTimestamps whether the batched port asks for each datagram's kernel receive time
     *                          ({@link BatchedDatagramPort#open(InetSocketAddress, int, boolean, boolean)}); the NIO
     *                          port never has it.
     * @return the open port.
     * @throws IllegalStateException           if {@link PortType#BATCHED} was asked for where it is unavailable,
     *                                         saying why.
     * @throws java.io.UncheckedIOException if the socket cannot be bound.
     */
    public static Opened open(
        final PortType type,
        final InetSocketAddress bindAddress,
        final int socketBufferBytes,
        final boolean gso,
        final boolean receiveTimestamps)
    {
        if (PortType.NIO == type)
        {
            return new Opened(NioDatagramPort.open(bindAddress, socketBufferBytes), false, "nio (chosen)");
        }
        final BatchedPortSupport support = BatchedPortSupport.current();
        if (support.isAvailable())
        {
            final BatchedDatagramPort port =
                BatchedDatagramPort.open(bindAddress, socketBufferBytes, gso, receiveTimestamps);
            return new Opened(port, true, port.describe());
        }
        if (PortType.BATCHED == type)
        {
            throw new IllegalStateException("port(batched): the batched port is unavailable here: " +
                support.reason() + "; use port(auto) to fall back to the NIO port, or port(nio)");
        }
        final String description = "nio (batched port unavailable: " + support.reason() + ")";
        if (FALLBACK_LOGGED.compareAndSet(false, true))
        {
            System.getLogger("io.pacelink.transport").log(Level.INFO, "pacelink: datagram port " + description);
        }
        return new Opened(NioDatagramPort.open(bindAddress, socketBufferBytes), false, description);
    }
}
