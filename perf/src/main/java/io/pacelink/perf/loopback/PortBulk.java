package io.pacelink.perf.loopback;

import io.pacelink.transport.port.BatchedDatagramPort;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.NioDatagramPort;
import io.pacelink.transport.port.ReceiveBatch;
import io.pacelink.transport.port.SendBatch;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The datagram ports themselves, without the protocol above them (docs/io.md): a sender hands its port batches of
 * 64 datagrams as fast as the port takes them ({@link DatagramPort#send(SendBatch)}: one {@code sendmmsg} on the
 * batched port, each run of equal sizes one GSO message unless {@code batched-nogso}; one system call per datagram on
 * the NIO port), and a receiver takes batches ({@link DatagramPort#receive(ReceiveBatch, int)}), sleeping in the
 * port's wait ({@link DatagramPort#awaitReadable}) when it finds none, as the endpoint's agent does. Against
 * {@link RawUdpBulk} in the same run, this is what the batched port buys before the core sends batches through it.
 * <p>
 * Modes: {@code nio}, {@code batched} (GSO on), {@code batched-nogso}.
 */
final class PortBulk
{
    static final String SYSTEM = "port";

    private static final int SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;
    private static final int BATCH_DATAGRAMS = 64;
    private static final long WAIT_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private PortBulk()
    {
    }

    private static DatagramPort open(final InetSocketAddress bind, final String mode)
    {
        return switch (mode)
        {
            case "nio" -> NioDatagramPort.open(bind, SOCKET_BUFFER_BYTES);
            case "batched" -> BatchedDatagramPort.open(bind, SOCKET_BUFFER_BYTES, true);
            case "batched-nogso" -> BatchedDatagramPort.open(bind, SOCKET_BUFFER_BYTES, false);
            default -> throw new IllegalArgumentException("port mode must be nio, batched or batched-nogso: " + mode);
        };
    }

    /**
     * Receive until the sender has been quiet for {@code quietNs}, then print the result.
     */
    static void receive(
        final InetSocketAddress bind, final String mode, final long quietNs, final PrintStream out)
    {
        try (DatagramPort port = open(bind, mode))
        {
            ResultLine.processCpuNs();
            out.println(ResultLine.READY);
            out.flush();
            final ReceiveBatch batch = port.newReceiveBatch(BATCH_DATAGRAMS);
            final ReceiveMeter meter = new ReceiveMeter();
            while (true)
            {
                final int count = port.receive(batch, BATCH_DATAGRAMS);
                final long nowNs = System.nanoTime();
                meter.onTime(nowNs);
                for (int i = 0; i < count; i++)
                {
                    meter.onMessage(batch.length(i), nowNs);
                }
                if (0 == count)
                {
                    if (meter.quietFor(nowNs, quietNs))
                    {
                        break;
                    }
                    port.awaitReadable(WAIT_NS);
                }
            }
            out.println(meter.result(SYSTEM + "-" + mode).put("receive_calls", port.stats().receiveCalls())
                .put("gro_super_datagrams", port.stats().groSuperDatagrams()).format());
        }
    }

    /**
     * Send batches of {@code datagramBytes} datagrams for {@code durationNs}, then print the result.
     */
    static void send(
        final InetSocketAddress target,
        final String mode,
        final int datagramBytes,
        final long durationNs,
        final PrintStream out)
    {
        try (DatagramPort port = open(new InetSocketAddress("127.0.0.1", 0), mode))
        {
            final SendBatch batch = new SendBatch(BATCH_DATAGRAMS, BATCH_DATAGRAMS * datagramBytes);
            for (int i = 0; i < BATCH_DATAGRAMS; i++)
            {
                batch.buffer().putInt(batch.nextOffset(), i);
                batch.commit(datagramBytes, target, 0);
            }
            final SendMeter meter = new SendMeter(durationNs);
            long nowNs = meter.startNs();
            while (meter.sending(nowNs))
            {
                final int sent = port.send(batch);
                for (int i = 0; i < sent; i++)
                {
                    meter.onSent(datagramBytes);
                }
                nowNs = System.nanoTime();
                meter.onTime(nowNs);
            }
            out.println(meter.result(SYSTEM + "-" + mode, nowNs).put("send_calls", port.stats().sendCalls())
                .put("gso_sends", port.stats().gsoSends()).put("send_buffer_full", port.stats().sendBufferFull())
                .format());
        }
    }
}
