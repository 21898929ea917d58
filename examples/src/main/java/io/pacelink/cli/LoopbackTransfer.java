package io.pacelink.cli;

import io.pacelink.link.PathSpec;
import io.pacelink.link.relay.NetemRelay;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ThreadingMode;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Moves data from a client to a server endpoint in one process over real loopback sockets, either directly or
 * through a {@link NetemRelay} that emulates a path between them (client to relay to server; the server's ACKs go
 * back through the relay's reverse direction). Both endpoints' agents share one thread (SHARED mode in an Agrona
 * {@link CompositeAgent}), the relay has its own, and the calling thread offers and polls. Every thread backs off
 * when idle, so a slow emulated path does not keep the machine's cores busy. Prints iperf-style interval lines
 * while it runs.
 */
public final class LoopbackTransfer
{
    /**
     * What a transfer achieved.
     *
     * @param congestionControl    the controller.
     * @param bytesDelivered       bytes delivered to the receiving application.
     * @param elapsedNs            from connect to the end of the transfer.
     * @param packetsSent          by the sender.
     * @param packetsRetransmitted packets that carried retransmitted data.
     * @param packetsLost          packets the sender declared lost.
     * @param minRttNs             the sender's minimum RTT.
     * @param smoothedRttNs        the sender's smoothed RTT at the end.
     * @param relaySummary         what the relay did (see {@link io.pacelink.link.relay.RelayStats#formatSummary()}),
     *                             or null without a relay.
     * @param failure              null if the transfer completed (all bytes, or connected for the whole duration),
     *                             else what went wrong.
     */
    public record Result(
        String congestionControl,
        long bytesDelivered,
        long elapsedNs,
        long packetsSent,
        long packetsRetransmitted,
        long packetsLost,
        long minRttNs,
        long smoothedRttNs,
        String relaySummary,
        String failure)
    {
        /**
         * @return goodput in bits per second.
         */
        public double goodputBitsPerSecond()
        {
            return bytesDelivered * 8e9 / Math.max(1, elapsedNs);
        }

        /**
         * @param summary what the relay did.
         * @return this result with the relay's summary.
         */
        Result withRelaySummary(final String summary)
        {
            return new Result(congestionControl, bytesDelivered, elapsedNs, packetsSent, packetsRetransmitted,
                packetsLost, minRttNs, smoothedRttNs, summary, failure);
        }
    }

    /**
     * What to move, for how long, and over which path.
     *
     * @param congestionControl controller name.
     * @param totalBytes        bytes to move ({@link Long#MAX_VALUE}: as many as fit in the duration).
     * @param messageBytes      size of each message offered.
     * @param durationNs        stop after this long and count it a success ({@link Long#MAX_VALUE}: run until all
     *                          bytes arrived).
     * @param timeoutNs         give up (a failure) after this long.
     * @param path              the emulated path through a relay, or null to connect directly.
     * @param seed              seeds the relay's random choices.
     * @param packetScheduler   the endpoints' packet scheduler, or null for the preferred one.
     */
    public record Plan(
        String congestionControl,
        long totalBytes,
        int messageBytes,
        long durationNs,
        long timeoutNs,
        PathSpec.Pair path,
        long seed,
        String packetScheduler)
    {
        /**
         * @param scheduler the endpoints' packet scheduler ({@code fq}, {@code fifo}, {@code rr}; null: preferred).
         * @return a copy using that scheduler.
         */
        public Plan withScheduler(final String scheduler)
        {
            return new Plan(congestionControl, totalBytes, messageBytes, durationNs, timeoutNs, path, seed, scheduler);
        }

        /**
         * @param congestionControl controller name.
         * @param totalBytes        bytes to move.
         * @param messageBytes      size of each message.
         * @param timeoutNs         give up after this long.
         * @return a plan that moves a number of bytes over plain loopback.
         */
        public static Plan bySize(
            final String congestionControl, final long totalBytes, final int messageBytes, final long timeoutNs)
        {
            return new Plan(congestionControl, totalBytes, messageBytes, Long.MAX_VALUE, timeoutNs, null, 0, null);
        }

        /**
         * @param congestionControl controller name.
         * @param durationNs        how long to send.
         * @param messageBytes      size of each message.
         * @param path              the emulated path.
         * @param seed              the relay's seed.
         * @return a plan that sends for a fixed time through a relay.
         */
        public static Plan timedThroughRelay(
            final String congestionControl,
            final long durationNs,
            final int messageBytes,
            final PathSpec.Pair path,
            final long seed)
        {
            return new Plan(congestionControl, Long.MAX_VALUE, messageBytes, durationNs,
                durationNs + CONNECT_TIMEOUT_NS, path, seed, null);
        }
    }

    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);
    private static final long REPORT_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private LoopbackTransfer()
    {
    }

    /**
     * @param plan what to move.
     * @param out  where interval lines go, or null for none.
     * @return what was achieved.
     */
    public static Result run(final Plan plan, final PrintStream out)
    {
        return run(plan, out, (context) -> context);
    }

    /**
     * @param plan      what to move.
     * @param out       where interval lines go, or null for none.
     * @param configure applied to both endpoints' contexts (the datagram port, {@link IoOptions}).
     * @return what was achieved.
     */
    public static Result run(
        final Plan plan, final PrintStream out, final UnaryOperator<PacelinkContext> configure)
    {
        final PacelinkContext serverContext = configure.apply(newContext(plan)).acceptConnections(true);
        final PacelinkContext clientContext = configure.apply(newContext(plan)).acceptConnections(false);
        Endpoint server = null;
        Endpoint client = null;
        NetemRelay relay = null;
        AgentRunner runner = null;
        final Result result;
        try
        {
            server = Endpoint.launch(serverContext);
            client = Endpoint.launch(clientContext);
            InetSocketAddress target = server.localAddress();
            if (null != plan.path())
            {
                relay = new NetemRelay(relayContext(plan, target, System.err)).start();
                target = relay.listenAddress();
            }
            runner = new AgentRunner(
                newIdleStrategy(),
                Throwable::printStackTrace,
                null,
                new CompositeAgent(server.agent(), client.agent()));
            AgentRunner.startOnThread(runner);
            result = transfer(server, client, target, plan, out);
        }
        finally
        {
            // Stop the agent thread first: it owns both endpoints' state and closes them.
            CloseHelper.closeAll(runner, relay);
            if (null == runner)
            {
                CloseHelper.closeAll(client, server);
            }
        }
        // A closed relay's stats are its final totals.
        return null == relay ? result : result.withRelaySummary(relay.stats().formatSummary());
    }

    /**
     * The relay emulates the path on its own thread, beside both endpoints: on a busy machine it may release packets
     * late enough to distort the path, which would make the demo's figures the machine's. It says so, once per
     * transfer, and is silent otherwise.
     *
     * @param plan   the transfer, with its path.
     * @param server the server endpoint's address, where the relay forwards.
     * @param err    where the warning goes.
     * @return the relay's configuration.
     */
    static NetemRelay.Context relayContext(final Plan plan, final InetSocketAddress server, final PrintStream err)
    {
        return new NetemRelay.Context()
            .listenAddress(new InetSocketAddress(server.getAddress(), 0))
            .forwardAddress(server)
            .path(plan.path())
            .seed(plan.seed())
            .reporter(RelayLatenessWarning.withoutReports(err, plan.path(), "demo"));
    }

    private static IdleStrategy newIdleStrategy()
    {
        return new BackoffIdleStrategy(100, 10, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(20));
    }

    private static PacelinkContext newContext(final Plan plan)
    {
        return new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .threadingMode(ThreadingMode.SHARED)
            .congestionControl(plan.congestionControl())
            .packetScheduler(plan.packetScheduler());
    }

    private static Result transfer(
        final Endpoint server,
        final Endpoint client,
        final InetSocketAddress target,
        final Plan plan,
        final PrintStream out)
    {
        final String congestionControl = plan.congestionControl();
        final IdleStrategy idle = newIdleStrategy();
        final long startNs = System.nanoTime();
        final Connection sender = client.connect(target, congestionControl);
        Connection receiver = null;
        while (null == receiver || ConnectionState.CONNECTING == sender.state())
        {
            if (null == receiver)
            {
                receiver = server.accept();
            }
            if (System.nanoTime() - startNs > CONNECT_TIMEOUT_NS || ConnectionState.CLOSED == sender.state())
            {
                return failed(congestionControl, sender, 0, startNs, "could not connect: " +
                    sender.outcome().reason().description());
            }
            idle.idle(0);
        }

        final int messageBytes = plan.messageBytes();
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(messageBytes));
        for (int i = 0; i < messageBytes; i++)
        {
            message.putByte(i, (byte)i);
        }
        final ByteCounter delivered = new ByteCounter();
        final TransferReporter reporter = null == out ? null : new TransferReporter(out, congestionControl, startNs);
        if (null != reporter)
        {
            reporter.header();
        }

        final long totalBytes = plan.totalBytes();
        final long endNs = plan.durationNs() == Long.MAX_VALUE ? Long.MAX_VALUE : startNs + plan.durationNs();
        final long deadlineNs = startNs + plan.timeoutNs();
        long offered = 0;
        long nextReportNs = startNs + REPORT_INTERVAL_NS;
        long nowNs = startNs;
        while (delivered.bytes < totalBytes && nowNs < endNs)
        {
            int work = 0;
            while (offered < totalBytes)
            {
                final int length = (int)Math.min(messageBytes, totalBytes - offered);
                if (sender.offer(message, 0, length) < 0)
                {
                    break;
                }
                offered += length;
                work++;
            }
            work += receiver.poll(delivered, 256);
            idle.idle(work);

            nowNs = System.nanoTime();
            if (null != reporter && nowNs >= nextReportNs)
            {
                reporter.interval(nowNs, delivered.bytes, sender.stats());
                nextReportNs += REPORT_INTERVAL_NS;
            }
            if (nowNs > deadlineNs)
            {
                return failed(congestionControl, sender, delivered.bytes, startNs, "timed out after " +
                    TimeUnit.NANOSECONDS.toSeconds(plan.timeoutNs()) + " s with " + delivered.bytes + " of " +
                    totalBytes + " bytes delivered");
            }
            if (ConnectionState.CLOSED == sender.state() || ConnectionState.CLOSED == receiver.state())
            {
                return failed(congestionControl, sender, delivered.bytes, startNs, "connection closed: sender " +
                    sender.outcome() + ", receiver " + receiver.outcome());
            }
        }

        final ConnectionStats stats = sender.stats();
        if (null != reporter)
        {
            reporter.summary(nowNs, delivered.bytes, stats);
        }
        final Result result = new Result(congestionControl, delivered.bytes, nowNs - startNs, stats.packetsSent(),
            stats.packetsRetransmitted(), stats.packetsLost(), stats.minRttNs(), stats.smoothedRttNs(), null, null);
        sender.close();
        return result;
    }

    private static Result failed(
        final String congestionControl,
        final Connection sender,
        final long bytesDelivered,
        final long startNs,
        final String failure)
    {
        final ConnectionStats stats = sender.stats();
        return new Result(congestionControl, bytesDelivered, System.nanoTime() - startNs,
            stats.packetsSent(), stats.packetsRetransmitted(), stats.packetsLost(), stats.minRttNs(),
            stats.smoothedRttNs(), null, failure);
    }

    private static final class ByteCounter implements MessageHandler
    {
        private long bytes;

        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            bytes += length;
        }
    }
}
