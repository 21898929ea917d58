package io.pacelink.cli;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ThreadingMode;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Moves a number of bytes from a client to a server endpoint in one process over real loopback sockets: both
 * endpoints' agents share one thread (SHARED mode in an Agrona {@link CompositeAgent}), the calling thread offers
 * and polls. Prints iperf-style interval lines while it runs.
 */
public final class LoopbackTransfer
{
    /**
     * What a transfer achieved.
     *
     * @param congestionControl    the controller.
     * @param bytesDelivered       bytes delivered to the receiving application.
     * @param elapsedNs            from connect to the last byte delivered.
     * @param packetsSent          by the sender.
     * @param packetsRetransmitted packets that carried retransmitted data.
     * @param smoothedRttNs        the sender's smoothed RTT at the end.
     * @param failure              null if every byte arrived, else what went wrong.
     */
    public record Result(
        String congestionControl,
        long bytesDelivered,
        long elapsedNs,
        long packetsSent,
        long packetsRetransmitted,
        long smoothedRttNs,
        String failure)
    {
        /**
         * @return goodput in bits per second.
         */
        public double goodputBitsPerSecond()
        {
            return bytesDelivered * 8e9 / Math.max(1, elapsedNs);
        }
    }

    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);
    private static final long REPORT_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private LoopbackTransfer()
    {
    }

    /**
     * @param congestionControl controller name.
     * @param totalBytes        bytes to move.
     * @param messageBytes      size of each message offered.
     * @param timeoutNs         give up after this long.
     * @param out               where interval lines go, or null for none.
     * @return what was achieved.
     */
    public static Result run(
        final String congestionControl,
        final long totalBytes,
        final int messageBytes,
        final long timeoutNs,
        final PrintStream out)
    {
        final PacelinkContext serverContext = newContext(congestionControl).acceptConnections(true);
        final PacelinkContext clientContext = newContext(congestionControl).acceptConnections(false);
        Endpoint server = null;
        Endpoint client = null;
        AgentRunner runner = null;
        try
        {
            server = Endpoint.launch(serverContext);
            client = Endpoint.launch(clientContext);
            runner = new AgentRunner(
                new BackoffIdleStrategy(100, 10, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(20)),
                Throwable::printStackTrace,
                null,
                new CompositeAgent(server.agent(), client.agent()));
            AgentRunner.startOnThread(runner);
            return transfer(server, client, congestionControl, totalBytes, messageBytes, timeoutNs, out);
        }
        finally
        {
            // Stop the agent thread first: it owns both endpoints' state and closes them.
            CloseHelper.closeAll(runner);
            if (null == runner)
            {
                CloseHelper.closeAll(client, server);
            }
        }
    }

    private static PacelinkContext newContext(final String congestionControl)
    {
        return new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .threadingMode(ThreadingMode.SHARED)
            .congestionControl(congestionControl);
    }

    private static Result transfer(
        final Endpoint server,
        final Endpoint client,
        final String congestionControl,
        final long totalBytes,
        final int messageBytes,
        final long timeoutNs,
        final PrintStream out)
    {
        final long startNs = System.nanoTime();
        final long deadlineNs = startNs + timeoutNs;
        final Connection sender = client.connect(server.localAddress(), congestionControl);
        Connection receiver = null;
        while (null == receiver || ConnectionState.CONNECTING == sender.state())
        {
            if (null == receiver)
            {
                receiver = server.accept();
            }
            if (System.nanoTime() - startNs > CONNECT_TIMEOUT_NS || ConnectionState.CLOSED == sender.state())
            {
                return failed(congestionControl, sender, startNs, "could not connect: " + sender.closeReason());
            }
            Thread.onSpinWait();
        }

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

        long offered = 0;
        long nextReportNs = startNs + REPORT_INTERVAL_NS;
        long nowNs = startNs;
        while (delivered.bytes < totalBytes)
        {
            while (offered < totalBytes)
            {
                final int length = (int)Math.min(messageBytes, totalBytes - offered);
                if (sender.offer(message, 0, length) < 0)
                {
                    break;
                }
                offered += length;
            }

            if (0 == receiver.poll(delivered, 256))
            {
                Thread.onSpinWait();
            }

            nowNs = System.nanoTime();
            if (null != reporter && nowNs >= nextReportNs)
            {
                reporter.interval(nowNs, delivered.bytes, sender.stats());
                nextReportNs += REPORT_INTERVAL_NS;
            }
            if (nowNs > deadlineNs)
            {
                return failed(congestionControl, sender, startNs, "timed out after " +
                    TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s with " + delivered.bytes + " of " + totalBytes +
                    " bytes delivered");
            }
            if (ConnectionState.CLOSED == sender.state() || ConnectionState.CLOSED == receiver.state())
            {
                return failed(congestionControl, sender, startNs, "connection closed: " + sender.closeReason() +
                    "/" + receiver.closeReason());
            }
        }

        final ConnectionStats stats = sender.stats();
        if (null != reporter)
        {
            reporter.summary(nowNs, delivered.bytes, stats);
        }
        final Result result = new Result(congestionControl, delivered.bytes, nowNs - startNs, stats.packetsSent(),
            stats.packetsRetransmitted(), stats.smoothedRttNs(), null);
        sender.close();
        return result;
    }

    private static Result failed(
        final String congestionControl, final Connection sender, final long startNs, final String failure)
    {
        final ConnectionStats stats = sender.stats();
        return new Result(congestionControl, stats.bytesDelivered(), System.nanoTime() - startNs,
            stats.packetsSent(), stats.packetsRetransmitted(), stats.smoothedRttNs(), failure);
    }

    private static final class ByteCounter implements MessageHandler
    {
        private long bytes;

        public void onMessage(final org.agrona.DirectBuffer buffer, final int offset, final int length)
        {
            bytes += length;
        }
    }
}
