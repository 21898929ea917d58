package io.pacelink.perf.loopback;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.MessagePartHandler;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ThreadingMode;
import io.pacelink.transport.agent.DeadlineIdleStrategy;
import io.pacelink.transport.port.PortType;
import io.pacelink.transport.stats.EndpointCounters;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Pacelink's side of the loopback runs: one connection from a sending process to a receiving one, each endpoint in
 * the default profile (fq scheduler, the default controller and buffers) run one of two ways:
 * <ul>
 *     <li>{@code dedicated} — the default threading mode: the endpoint's agent on its own thread with the default
 *     back-off, the application's thread offering or polling with the same back-off (two threads per process);</li>
 *     <li>{@code invoker} — the application's thread runs the endpoint's duty cycle between its own offers or polls
 *     ({@link ThreadingMode#INVOKER}), backing off without sleeping past the endpoint's next deadline, as
 *     {@code pacelink perf} does (one thread per process).</li>
 * </ul>
 * The receiver also reports its endpoint's datagram counters: every datagram it sends on a one-way transfer is an
 * ACK (the handshake and close aside), so {@code datagrams_sent / datagrams_received} is ACKs per data packet.
 */
final class PacelinkBulk
{
    static final String SYSTEM = "pacelink";

    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final long CLOSE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final int POLL_LIMIT = 256;
    private static final String[] PORT_CALL_NAMES =
        { "send-calls", "receive-calls", "receives-skipped", "port-datagrams-received", "lateness-forgotten-ns" };

    /**
     * System property: the endpoints' {@link PacelinkContext#handshakePrimingNs(long)} in milliseconds (unset: the
     * context's default, a server primes for up to 1 s).
     */
    static final String HANDSHAKE_PRIMING_MS_PROPERTY = "pacelink.loopback.handshakePrimingMs";

    /**
     * System property: the endpoints' {@link PacelinkContext#ackFrequency(boolean)} (unset: the default, on).
     */
    static final String ACK_FREQUENCY_PROPERTY = "pacelink.loopback.ackFrequency";

    /**
     * System property: the endpoints' {@link PacelinkContext#unsentLowWatermarkBytes(int)} (unset: the default).
     */
    static final String UNSENT_LOW_WATERMARK_PROPERTY = "pacelink.loopback.unsentLowWatermarkBytes";

    /**
     * System property: the endpoints' {@link PacelinkContext#sendBatchLimit(int)} (unset: the default).
     */
    static final String SEND_BATCH_LIMIT_PROPERTY = "pacelink.loopback.sendBatchLimit";

    /**
     * System property: the endpoints' {@link PacelinkContext#maxThinnedAckThreshold(int)} (unset: the default).
     */
    static final String MAX_THINNED_ACK_THRESHOLD_PROPERTY = "pacelink.loopback.maxThinnedAckThreshold";

    /**
     * System property: the endpoints' {@link PacelinkContext#kernelReceiveTimes(boolean)} (unset: the default).
     */
    static final String KERNEL_RECEIVE_TIMES_PROPERTY = "pacelink.loopback.kernelReceiveTimes";

    /**
     * System property: {@code true} to take every message whole ({@link MessageHandler}), so that a message spanning
     * the receive log's segments is copied into a scratch buffer first (unset: the receiver takes such a message in its
     * parts, in place, {@link MessagePartHandler}, as an application that streams what it receives would).
     */
    static final String WHOLE_MESSAGES_PROPERTY = "pacelink.loopback.wholeMessages";

    /**
     * How the endpoint's duty cycle and the application share threads.
     */
    enum Mode
    {
        dedicated(ThreadingMode.DEDICATED, PortType.AUTO, true),
        dedicated_nogso(ThreadingMode.DEDICATED, PortType.AUTO, false),
        dedicated_nio(ThreadingMode.DEDICATED, PortType.NIO, true),
        invoker(ThreadingMode.INVOKER, PortType.AUTO, true),
        invoker_nogso(ThreadingMode.INVOKER, PortType.AUTO, false);

        private final ThreadingMode threadingMode;
        private final PortType portType;
        private final boolean gso;

        Mode(final ThreadingMode threadingMode, final PortType portType, final boolean gso)
        {
            this.threadingMode = threadingMode;
            this.portType = portType;
            this.gso = gso;
        }

        /**
         * @param text a mode as the suite names it: {@code dedicated}, {@code dedicated-nogso} (the batched port with
         *             GSO off), {@code dedicated-nio} (the NIO port), {@code invoker} or {@code invoker-nogso}.
         * @return the mode.
         */
        static Mode parse(final String text)
        {
            return valueOf(text.replace('-', '_'));
        }
    }

    /**
     * The application's loop: run the duty cycle in INVOKER mode, then back off if nothing was done.
     */
    private static final class AppLoop
    {
        private final Endpoint endpoint;
        private final boolean invoker;
        private final IdleStrategy idleStrategy;

        AppLoop(final Endpoint endpoint, final Mode mode)
        {
            this.endpoint = endpoint;
            this.invoker = ThreadingMode.INVOKER == mode.threadingMode;
            this.idleStrategy = invoker ?
                new DeadlineIdleStrategy(PacelinkContext.defaultIdleStrategy(), endpoint::nextDeadlineNs,
                    new SystemNanoClock(), DeadlineIdleStrategy.DEFAULT_SPIN_WINDOW_NS) :
                PacelinkContext.defaultIdleStrategy();
        }

        int turn(final int applicationWork)
        {
            final int work = applicationWork + (invoker ? endpoint.invoke() : 0);
            idleStrategy.idle(work);
            return work;
        }
    }

    /**
     * The receiving loop's body, a method of its own: it is compiled by invocation count within a second or so, as raw
     * UDP's loop is, instead of by on-stack replacement of a loop that turns once per duty cycle, which came only
     * after 4–5 s of traffic, inside the counted window (perf/FINDINGS.md, branch {@code bulk20}). Compiled, it is too
     * large for C2 to inline again into the loop around it ({@code InlineSmallCode}), so that loop's own
     * on-stack-replacement compilation stays small.
     */
    private static final class Receiving implements MessagePartHandler
    {
        private final Connection connection;
        private final AppLoop loop;
        private final ReceiveMeter meter;
        private final MessageHandler handler;
        private long nowNs = System.nanoTime();

        Receiving(final Connection connection, final AppLoop loop, final ReceiveMeter meter)
        {
            this.connection = connection;
            this.loop = loop;
            this.meter = meter;
            // The suite's 128-KiB messages never fit the receive log's 64-KiB segments: whole, each is copied again.
            this.handler = Boolean.getBoolean(WHOLE_MESSAGES_PROPERTY) ? this::onMessage : this;
        }

        void turn()
        {
            loop.turn(connection.poll(handler, POLL_LIMIT));
            nowNs = System.nanoTime();
        }

        boolean ended(final long quietNs)
        {
            return ConnectionState.CLOSED == connection.state() || connection.isEndOfStream() ||
                meter.quietFor(nowNs, quietNs);
        }

        @Override
        public void onMessage(final DirectBuffer buffer, final int offset, final int length)
        {
            meter.onMessage(length, nowNs);
        }

        @Override
        public void onMessagePart(
            final DirectBuffer buffer, final int offset, final int length, final int messageOffset,
            final int messageLength)
        {
            if (messageOffset + length == messageLength)
            {
                meter.onMessage(messageLength, nowNs);
            }
        }
    }

    /**
     * The sending loop's body, a method of its own for the reason {@link Receiving} gives.
     */
    private static final class Sending
    {
        private final Connection connection;
        private final AppLoop loop;
        private final UnsafeBuffer message;
        private final int messageBytes;
        private final SendMeter meter;
        private long nowNs;

        Sending(
            final Connection connection,
            final AppLoop loop,
            final UnsafeBuffer message,
            final int messageBytes,
            final SendMeter meter)
        {
            this.connection = connection;
            this.loop = loop;
            this.message = message;
            this.messageBytes = messageBytes;
            this.meter = meter;
            this.nowNs = meter.startNs();
        }

        void turn()
        {
            int offered = 0;
            while (offered < POLL_LIMIT && connection.offer(message, 0, messageBytes) > 0)
            {
                meter.onSent(messageBytes);
                offered++;
            }
            loop.turn(offered);
            nowNs = System.nanoTime();
        }
    }

    private PacelinkBulk()
    {
    }

    private static PacelinkContext context(final InetSocketAddress bind, final Mode mode, final int datagramBytes)
    {
        final PacelinkContext context = new PacelinkContext()
            .bindAddress(bind)
            .threadingMode(mode.threadingMode)
            .port(mode.portType)
            .gso(mode.gso)
            .maxDatagramSizeBytes(datagramBytes);
        // Diagnostic switches, given to every child with the suite's --jvm-arg (perf/README.md): not the defaults
        // measured, but a way to take one default out of a run and see what it costs.
        final String primingMs = System.getProperty(HANDSHAKE_PRIMING_MS_PROPERTY);
        if (null != primingMs)
        {
            context.handshakePrimingNs(TimeUnit.MILLISECONDS.toNanos(Long.parseLong(primingMs)));
        }
        final String ackFrequency = System.getProperty(ACK_FREQUENCY_PROPERTY);
        if (null != ackFrequency)
        {
            context.ackFrequency(Boolean.parseBoolean(ackFrequency));
        }
        final String unsentLowWatermark = System.getProperty(UNSENT_LOW_WATERMARK_PROPERTY);
        if (null != unsentLowWatermark)
        {
            context.unsentLowWatermarkBytes(Integer.parseInt(unsentLowWatermark));
        }
        final String sendBatchLimit = System.getProperty(SEND_BATCH_LIMIT_PROPERTY);
        if (null != sendBatchLimit)
        {
            context.sendBatchLimit(Integer.parseInt(sendBatchLimit));
        }
        final String kernelReceiveTimes = System.getProperty(KERNEL_RECEIVE_TIMES_PROPERTY);
        if (null != kernelReceiveTimes)
        {
            context.kernelReceiveTimes(Boolean.parseBoolean(kernelReceiveTimes));
        }
        final String maxThinnedAckThreshold = System.getProperty(MAX_THINNED_ACK_THRESHOLD_PROPERTY);
        if (null != maxThinnedAckThreshold)
        {
            context.maxThinnedAckThreshold(Integer.parseInt(maxThinnedAckThreshold));
        }
        return context;
    }

    /**
     * Accept one connection and receive until the sender closes it, then print the result.
     *
     * @param bind          where to listen.
     * @param mode          how the threads run.
     * @param datagramBytes the endpoint's {@code maxDatagramSizeBytes}.
     * @param quietNs       how long without a message also ends the run.
     * @param out           where the ready line and the result go.
     */
    static void receive(
        final InetSocketAddress bind, final Mode mode, final int datagramBytes, final long quietNs,
        final PrintStream out)
    {
        try (Endpoint endpoint = Endpoint.launch(context(bind, mode, datagramBytes).acceptConnections(true)))
        {
            final AppLoop loop = new AppLoop(endpoint, mode);
            ResultLine.processCpuNs();
            out.println(ResultLine.READY);
            out.flush();
            Connection connection = null;
            while (null == connection)
            {
                connection = endpoint.accept();
                loop.turn(0);
            }
            final Receiving receiving = new Receiving(connection, loop, new ReceiveMeter());
            // The warm-up and the counted window are two loops around one body, so that no branch in the body is
            // first taken when counting starts.
            while (!receiving.ended(quietNs) && !receiving.meter.warmedUp(receiving.nowNs))
            {
                receiving.turn();
            }
            receiving.meter.startCounting(receiving.nowNs);
            while (!receiving.ended(quietNs))
            {
                receiving.turn();
            }
            final EndpointCounters counters = endpoint.counters();
            final long datagramsReceived = counters.datagramsReceived().get();
            final long datagramsSent = counters.datagramsSent().get();
            final ConnectionStats stats = connection.stats();
            out.println(receiving.meter.result(SYSTEM)
                .put("mode", mode.name())
                .put("datagram_bytes", datagramBytes)
                .put("datagrams_received", datagramsReceived)
                .put("datagrams_sent", datagramsSent)
                .put("acks_per_data_packet", (double)datagramsSent / Math.max(1, datagramsReceived))
                .put("duplicate_packets", stats.duplicatePackets())
                .format());
            connection.close();
        }
    }

    /**
     * The sending port's system calls so far, from its counters (published every
     * {@code PortCounters.PUBLISH_INTERVAL_NS}, so a snapshot lags by up to that: a diagnostic, ±2 % over 5 s): send
     * calls, receive calls, receives skipped, datagrams received; the connection's packets sent and time limited by
     * cwnd, pacing and flow control; the clock.
     */
    private static long[] portCalls(final Endpoint endpoint, final Connection connection)
    {
        final long[] calls = new long[PORT_CALL_NAMES.length + 5];
        endpoint.countersReader().forEach((value, id, label) ->
        {
            for (int i = 0; i < PORT_CALL_NAMES.length; i++)
            {
                if (label.endsWith(": " + PORT_CALL_NAMES[i]))
                {
                    calls[i] = value;
                }
            }
        });
        final ConnectionStats stats = connection.stats();
        calls[PORT_CALL_NAMES.length] = stats.packetsSent();
        calls[PORT_CALL_NAMES.length + 1] = stats.cwndLimitedNs();
        calls[PORT_CALL_NAMES.length + 2] = stats.pacingLimitedNs();
        calls[PORT_CALL_NAMES.length + 3] = stats.flowControlLimitedNs();
        calls[PORT_CALL_NAMES.length + 4] = System.nanoTime();
        return calls;
    }

    /**
     * Per data packet sent in the counted window: the port's send and receive calls, the receives skipped and the
     * datagrams (ACKs) received; and the datagrams a receive call returned on average — how often the sender reads
     * its socket for its ACKs, and how many of those reads find nothing ({@code 1 - acks per call} at most one ACK
     * a call).
     */
    private static void putPortCalls(final ResultLine result, final long[] start, final long[] end)
    {
        final double packets = Math.max(1, end[PORT_CALL_NAMES.length] - start[PORT_CALL_NAMES.length]);
        result.put("window_send_calls_per_packet", (end[0] - start[0]) / packets)
            .put("window_receive_calls_per_packet", (end[1] - start[1]) / packets)
            .put("window_receives_skipped_per_packet", (end[2] - start[2]) / packets)
            .put("window_datagrams_received_per_packet", (end[3] - start[3]) / packets)
            .put("window_datagrams_per_receive_call", (end[3] - start[3]) / (double)Math.max(1, end[1] - start[1]));
        // The share of the window the connection spent limited by its congestion window, its pacer, the peer's
        // credit (ConnectionStats: counted per duty cycle, published as the connection's counters are).
        final int n = PORT_CALL_NAMES.length;
        final double windowNs = Math.max(1, end[n + 4] - start[n + 4]);
        result.put("window_cwnd_limited_share", (end[n + 1] - start[n + 1]) / windowNs)
            .put("window_pacing_limited_share", (end[n + 2] - start[n + 2]) / windowNs)
            .put("window_flow_control_limited_share", (end[n + 3] - start[n + 3]) / windowNs)
            .put("window_pacer_lateness_forgotten_share", (end[4] - start[4]) / windowNs);
    }

    /**
     * Connect, offer messages of {@code messageBytes} for {@code durationNs} (as fast as the send buffer takes them),
     * close gracefully and wait until the connection is closed, then print the result.
     *
     * @param target        the receiver.
     * @param mode          how the threads run.
     * @param datagramBytes the endpoint's {@code maxDatagramSizeBytes}.
     * @param messageBytes  bytes per message offered.
     * @param durationNs    how long to offer.
     * @param out           where the result goes.
     */
    static void send(
        final InetSocketAddress target,
        final Mode mode,
        final int datagramBytes,
        final int messageBytes,
        final long durationNs,
        final PrintStream out)
    {
        final InetSocketAddress bind = new InetSocketAddress(target.getAddress(), 0);
        try (Endpoint endpoint = Endpoint.launch(context(bind, mode, datagramBytes).acceptConnections(false)))
        {
            final AppLoop loop = new AppLoop(endpoint, mode);
            final Connection connection = endpoint.connect(target);
            final long connectStartNs = System.nanoTime();
            while (ConnectionState.CONNECTING == connection.state())
            {
                if (System.nanoTime() - connectStartNs > CONNECT_TIMEOUT_NS)
                {
                    throw new IllegalStateException("no answer from " + target + " within 10 s");
                }
                loop.turn(0);
            }
            if (ConnectionState.CONNECTED != connection.state())
            {
                throw new IllegalStateException("could not connect to " + target + ": " + connection.closeReason());
            }
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(messageBytes));
            final Sending sending = new Sending(connection, loop, message, messageBytes, new SendMeter(durationNs));
            // The warm-up and the counted window are two loops around one body, as the receiver's.
            while (ConnectionState.CONNECTED == connection.state() && !sending.meter.warmedUp(sending.nowNs))
            {
                sending.turn();
            }
            sending.meter.startCounting(sending.nowNs);
            final long[] portAtStart = portCalls(endpoint, connection);
            while (ConnectionState.CONNECTED == connection.state() && sending.meter.sending(sending.nowNs))
            {
                sending.turn();
            }
            final SendMeter meter = sending.meter;
            final long nowNs = sending.nowNs;
            final ResultLine result = meter.result(SYSTEM, nowNs);
            putPortCalls(result, portAtStart, portCalls(endpoint, connection));
            final ConnectionStats windowEnd = connection.stats();
            final long[] endStats = {
                windowEnd.smoothedRttNs(), windowEnd.congestionWindowBytes(), windowEnd.pacingRateBytesPerSecond(),
                windowEnd.deliveryRateBytesPerSecond() };
            connection.close();
            final long closeStartNs = System.nanoTime();
            while (ConnectionState.CLOSED != connection.state() && System.nanoTime() - closeStartNs < CLOSE_TIMEOUT_NS)
            {
                loop.turn(0);
            }
            final ConnectionStats stats = connection.stats();
            out.println(result
                .put("mode", mode.name())
                .put("datagram_bytes", datagramBytes)
                .put("packets_sent", stats.packetsSent())
                .put("packets_retransmitted", stats.packetsRetransmitted())
                .put("packets_lost", stats.packetsLost())
                .put("datagrams_sent", endpoint.counters().datagramsSent().get())
                .put("datagrams_received", endpoint.counters().datagramsReceived().get())
                .put("min_rtt_ns", stats.minRttNs())
                .put("end_smoothed_rtt_ns", endStats[0])
                .put("end_cwnd_bytes", endStats[1])
                .put("end_pacing_rate_bytes_per_second", endStats[2])
                .put("end_delivery_rate_bytes_per_second", endStats[3])
                .put("close", ConnectionState.CLOSED == connection.state() ? connection.closeReason() : "not closed")
                .format());
        }
    }
}
