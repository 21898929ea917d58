package io.pacelink.perf.loopback;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * The baseline of the loopback runs: bare datagrams through non-blocking NIO {@link DatagramChannel}s, one spinning
 * thread per process, sender and receiver in two processes. The sender writes as fast as its socket accepts; the
 * receiver counts what arrives (a datagram the receiving socket had no room for is lost, and not counted). Socket
 * buffers are the transport's default, {@link io.pacelink.transport.PacelinkContext#DEFAULT_SOCKET_BUFFER_BYTES}.
 */
final class RawUdpBulk
{
    static final String SYSTEM = "raw-udp";

    private static final int SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;
    private static final int MAX_DATAGRAM_BYTES = 65_507;

    private RawUdpBulk()
    {
    }

    /**
     * Receive until the sender has been quiet for {@code quietNs}, then print the result.
     *
     * @param bind    where to receive.
     * @param quietNs how long without a datagram ends the run.
     * @param out     where the ready line and the result go.
     */
    static void receive(final InetSocketAddress bind, final long quietNs, final PrintStream out) throws IOException
    {
        try (DatagramChannel channel = DatagramChannel.open())
        {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
            channel.bind(bind);
            channel.configureBlocking(false);
            ResultLine.processCpuNs();
            out.println(ResultLine.READY);
            out.flush();
            final ByteBuffer buffer = ByteBuffer.allocateDirect(MAX_DATAGRAM_BYTES);
            final ReceiveMeter meter = new ReceiveMeter();
            // The warm-up and the counted window are two loops around one body, as Pacelink's (PacelinkBulk).
            int received = 0;
            while (received >= 0 && !meter.warmedUp(System.nanoTime()))
            {
                received = receiveOne(channel, buffer, meter, quietNs);
                if (0 == received)
                {
                    Thread.onSpinWait();
                }
            }
            meter.startCounting(System.nanoTime());
            while (received >= 0)
            {
                received = receiveOne(channel, buffer, meter, quietNs);
                if (0 == received)
                {
                    Thread.onSpinWait();
                }
            }
            out.println(meter.result(SYSTEM).format());
        }
    }

    /**
     * Send datagrams of {@code datagramBytes} for {@code durationNs}, then print the result.
     *
     * @param target        the receiver.
     * @param datagramBytes payload of each datagram.
     * @param durationNs    how long to send.
     * @param out           where the result goes.
     */
    static void send(
        final InetSocketAddress target, final int datagramBytes, final long durationNs, final PrintStream out)
        throws IOException
    {
        try (DatagramChannel channel = DatagramChannel.open())
        {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
            channel.connect(target);
            channel.configureBlocking(false);
            final ByteBuffer datagram = ByteBuffer.allocateDirect(datagramBytes);
            final SendMeter meter = new SendMeter(durationNs);
            long nowNs = meter.startNs();
            // The warm-up and the counted window are two loops around one body, as Pacelink's (PacelinkBulk).
            while (!meter.warmedUp(nowNs))
            {
                nowNs = sendOne(channel, datagram, meter);
            }
            meter.startCounting(nowNs);
            while (meter.sending(nowNs))
            {
                nowNs = sendOne(channel, datagram, meter);
            }
            out.println(meter.result(SYSTEM, nowNs).format());
        }
    }

    /**
     * The receiving loop's body, a method of its own as Pacelink's is ({@code PacelinkBulk}): both contenders' loops
     * are compiled the same way, by invocation count.
     *
     * @return 1 if a datagram was received, 0 if none was there, -1 once the sender has been quiet for
     * {@code quietNs}.
     */
    private static int receiveOne(
        final DatagramChannel channel, final ByteBuffer buffer, final ReceiveMeter meter, final long quietNs)
        throws IOException
    {
        buffer.clear();
        final long nowNs = System.nanoTime();
        if (null != channel.receive(buffer))
        {
            meter.onMessage(buffer.position(), nowNs);
            return 1;
        }
        return meter.quietFor(nowNs, quietNs) ? -1 : 0;
    }

    /**
     * The sending loop's body, a method of its own as Pacelink's is.
     *
     * @return the clock after the write.
     */
    private static long sendOne(final DatagramChannel channel, final ByteBuffer datagram, final SendMeter meter)
        throws IOException
    {
        datagram.clear();
        if (channel.write(datagram) > 0)
        {
            meter.onSent(datagram.capacity());
        }
        return System.nanoTime();
    }
}
