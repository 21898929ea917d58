package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import io.pacelink.link.relay.NetemRelay;
import io.pacelink.link.relay.RelayStats;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures how accurately {@link NetemRelay} keeps time on this machine (the figures in docs/simulation.md): a paced
 * UDP sender sends timestamped 1472-byte datagrams at each given rate through a relay with
 * {@code delay=20ms} (no bottleneck, no loss) to a receiver, for a few seconds per rate. Per rate it prints the
 * relay's own release lateness (p50, p99, max), the end-to-end one-way delay error seen by the receiver (which adds
 * the kernel's and the receiver's wake-up), and the loss (datagrams that never arrived, from socket buffers
 * overflowing or the relay falling behind). Not a test: run it on a quiet machine,
 * {@code java -cp <test class path> io.pacelink.cli.RelayAccuracyProbe 100 200 400 [seconds]}.
 */
public final class RelayAccuracyProbe
{
    private static final int DATAGRAM_BYTES = 1472;
    private static final long ONE_WAY_DELAY_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final int SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;
    private static final long SPIN_BEFORE_SEND_NS = TimeUnit.MICROSECONDS.toNanos(30);

    private RelayAccuracyProbe()
    {
    }

    /**
     * @param args rates in Mbit/s, then optionally the seconds per rate (default 5) if the last value ends in "s".
     * @throws Exception if a socket fails.
     */
    public static void main(final String[] args) throws Exception
    {
        long seconds = 5;
        int rates = args.length;
        if (rates > 0 && args[rates - 1].endsWith("s"))
        {
            seconds = Long.parseLong(args[rates - 1].substring(0, args[rates - 1].length() - 1));
            rates--;
        }
        System.out.printf(Locale.ROOT, "%8s %10s %10s %8s %12s %12s %12s %12s %12s%n", "Mbit/s", "sent", "received",
            "loss %", "late p50 us", "late p99 us", "late max us", "e2e p50 us", "e2e p99 us");
        for (int i = 0; i < rates; i++)
        {
            measure(Long.parseLong(args[i]) * 1_000_000L, TimeUnit.SECONDS.toNanos(seconds));
        }
    }

    private static void measure(final long bitsPerSecond, final long durationNs) throws Exception
    {
        try (DatagramChannel receiver = open(); DatagramChannel sender = open())
        {
            final InetSocketAddress receiverAddress = (InetSocketAddress)receiver.getLocalAddress();
            final Histogram delayErrorNs = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
            final AtomicBoolean receiving = new AtomicBoolean(true);
            final long[] received = new long[1];
            final Thread receiverThread = new Thread(() -> received[0] = receive(receiver, delayErrorNs, receiving),
                "probe-receiver");
            receiverThread.start();

            final RelayStats stats;
            final long sent;
            try (NetemRelay relay = new NetemRelay(new NetemRelay.Context()
                .listenAddress(new InetSocketAddress("127.0.0.1", 0))
                .forwardAddress(receiverAddress)
                .path(PathSpec.Pair.parse("delay=20ms")))
                .start())
            {
                sender.connect(relay.listenAddress());
                sent = send(sender, bitsPerSecond, durationNs);
                Thread.sleep(100);
                stats = relay.stats();
            }
            receiving.set(false);
            receiver.close();
            receiverThread.join();

            System.out.printf(Locale.ROOT, "%8d %10d %10d %8.3f %12d %12d %12d %12d %12d%n",
                bitsPerSecond / 1_000_000L, sent, received[0], 100.0 * (sent - received[0]) / sent,
                stats.releaseLateP50Ns() / 1000, stats.releaseLateP99Ns() / 1000, stats.releaseLateMaxNs() / 1000,
                delayErrorNs.getValueAtPercentile(50) / 1000, delayErrorNs.getValueAtPercentile(99) / 1000);
        }
    }

    /**
     * Send at the rate: park for most of each gap, spin the last few microseconds, so the sender does not keep a core
     * busy that the relay needs.
     */
    private static long send(final DatagramChannel sender, final long bitsPerSecond, final long durationNs)
        throws IOException
    {
        final ByteBuffer datagram = ByteBuffer.allocateDirect(DATAGRAM_BYTES);
        final long gapNs = DATAGRAM_BYTES * 8L * 1_000_000_000L / bitsPerSecond;
        final long startNs = System.nanoTime();
        long nextNs = startNs;
        long sent = 0;
        while (nextNs - startNs < durationNs)
        {
            long nowNs = System.nanoTime();
            if (nextNs - nowNs > SPIN_BEFORE_SEND_NS)
            {
                LockSupport.parkNanos(nextNs - nowNs - SPIN_BEFORE_SEND_NS);
            }
            while ((nowNs = System.nanoTime()) < nextNs)
            {
                Thread.onSpinWait();
            }
            datagram.clear();
            datagram.putLong(0, nowNs);
            if (sender.write(datagram) == DATAGRAM_BYTES)
            {
                sent++;
            }
            nextNs += gapNs;
        }
        return sent;
    }

    private static long receive(
        final DatagramChannel receiver, final Histogram delayErrorNs, final AtomicBoolean receiving)
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(65536);
        long received = 0;
        try
        {
            receiver.configureBlocking(true);
            while (receiving.get())
            {
                buffer.clear();
                receiver.receive(buffer);
                final long errorNs = System.nanoTime() - buffer.getLong(0) - ONE_WAY_DELAY_NS;
                delayErrorNs.recordValue(Math.max(0, Math.min(errorNs, delayErrorNs.getHighestTrackableValue())));
                received++;
            }
        }
        catch (final IOException closed)
        {
            // The channel was closed to end the measurement.
        }
        return received;
    }

    private static DatagramChannel open()
    {
        try
        {
            final DatagramChannel channel = DatagramChannel.open();
            channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
            channel.bind(new InetSocketAddress("127.0.0.1", 0));
            return channel;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
