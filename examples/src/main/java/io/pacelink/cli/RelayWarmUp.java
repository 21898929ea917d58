package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import io.pacelink.link.relay.NetemRelay;
import io.pacelink.link.relay.RelayReporter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The relay's forwarding path run once before {@code pacelink netem} starts relaying. A relay started cold forwards
 * its first packets through the interpreter and first-time class loading: in the flood acceptance its first second
 * released packets 3.9 ms late at the median and 9.3 ms at the 99th percentile, on a path meant to add 10 ms each way
 * (perf/FINDINGS.md, "The relay warmed before it relays") — so the first handshakes through a fresh relay crossed a
 * longer path than the one asked for, and timed the relay instead of the endpoints.
 * <p>
 * So the command first sends datagrams through a throwaway relay of the same kind — the same port type, path model and
 * reports, printed nowhere — between two loopback sockets of its own, until {@link #ROUND_TRIPS} came back or
 * {@link #MAX_TIME_NS} passed (a path that loses everything, or is slow, ends it by time), and closes it. Nothing of it
 * reaches the real relay: that has its own sockets, random sequence, counters and reports, all from zero. What it
 * costs: up to {@link #MAX_TIME_NS} of two threads at the command's start.
 */
final class RelayWarmUp
{
    /**
     * Round trips through the throwaway relay: past the JIT's first-tier thresholds of the per-datagram methods
     * (HotSpot's {@code Tier3InvocationThreshold} is 200, {@code Tier3CompileThreshold} 2,000).
     */
    static final int ROUND_TRIPS = 2_000;

    /**
     * The longest the warm-up runs.
     */
    static final long MAX_TIME_NS = TimeUnit.MILLISECONDS.toNanos(400);

    /**
     * Datagrams in flight at once: enough to fill a path of tens of milliseconds' delay within the time above.
     */
    static final int IN_FLIGHT = 64;

    /**
     * A datagram's size: a handshake's, as the first packets a user sends through the relay are.
     */
    static final int DATAGRAM_BYTES = 1_200;

    /**
     * How often the throwaway relay reports, to a stream that prints nothing: so the real relay's first report, on its
     * own thread between two releases, runs compiled code too.
     */
    private static final long REPORT_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(40);

    /**
     * How long without an answer before the datagrams in flight count as lost (a lossy path) and more are sent.
     */
    private static final long LOST_AFTER_NS = TimeUnit.MILLISECONDS.toNanos(50);

    private static final long IDLE_PARK_NS = TimeUnit.MICROSECONDS.toNanos(50);

    private RelayWarmUp()
    {
    }

    /**
     * @param pair  the path the real relay emulates.
     * @param seed  its seed (the throwaway relay's random sequence is its own; this only keeps the model's shape).
     * @param ports opens the sockets, as for the real relay.
     * @return how many datagrams came back through the throwaway relay.
     * @throws UncheckedIOException if the loopback sockets cannot be opened.
     */
    static int run(final PathSpec.Pair pair, final long seed, final NetemRelay.PortFactory ports)
    {
        final PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
        try (DatagramChannel server = loopbackChannel();
            DatagramChannel client = loopbackChannel();
            NetemRelay relay = new NetemRelay(new NetemRelay.Context()
                .listenAddress(new InetSocketAddress("127.0.0.1", 0))
                .forwardAddress((InetSocketAddress)server.getLocalAddress())
                .path(pair)
                .seed(seed)
                .portFactory(ports)
                .reportIntervalNs(REPORT_INTERVAL_NS)
                .reporter(new RelayLatenessWarning(RelayReporter.printingTo(nowhere), nowhere, pair))))
        {
            relay.start();
            return pump(server, client, relay.listenAddress());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static int pump(final DatagramChannel server, final DatagramChannel client, final InetSocketAddress relay)
        throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(DATAGRAM_BYTES);
        final long startNs = System.nanoTime();
        long lastAnswerNs = startNs;
        int sent = 0;
        int answered = 0;
        int inFlight = 0;
        while (answered < ROUND_TRIPS && System.nanoTime() - startNs < MAX_TIME_NS)
        {
            int work = 0;
            while (inFlight < IN_FLIGHT && sent < ROUND_TRIPS)
            {
                buffer.clear().putInt(0, sent);
                if (0 == client.send(buffer, relay))
                {
                    break;
                }
                sent++;
                inFlight++;
                work++;
            }
            SocketAddress from;
            while (null != (from = server.receive(buffer.clear())))
            {
                server.send(buffer.flip(), from);
                work++;
            }
            while (null != client.receive(buffer.clear()))
            {
                answered++;
                inFlight = Math.max(0, inFlight - 1); // an answer counted lost may still come
                work++;
                lastAnswerNs = System.nanoTime();
            }
            if (0 == work)
            {
                if (System.nanoTime() - lastAnswerNs > LOST_AFTER_NS)
                {
                    // What is still out was lost on the way (a lossy or full path): send more.
                    inFlight = 0;
                    sent = Math.min(sent, answered);
                    lastAnswerNs = System.nanoTime();
                }
                LockSupport.parkNanos(IDLE_PARK_NS);
            }
        }
        return answered;
    }

    private static DatagramChannel loopbackChannel() throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open();
        try
        {
            channel.bind(new InetSocketAddress("127.0.0.1", 0));
            channel.configureBlocking(false);
            return channel;
        }
        catch (final IOException ex)
        {
            channel.close();
            throw ex;
        }
    }
}
