package io.pacelink.cli.perf;

import io.pacelink.cli.net.ClosingConnections;
import io.pacelink.cli.net.TransportFailure;
import io.pacelink.cli.net.TransportWaits;
import io.pacelink.transport.Connection;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.schedule.PacketSchedulers;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The client side of a {@code pacelink perf} test: opens the control and data connections at once, sends the test's
 * parameters on the first, then a hello on each of the others once the server accepted the test; sends and receives
 * for the time or byte count, then exchanges totals with the server. Every
 * stream's receiver figure comes from the end that received, and a stream whose receiver got fewer bytes than its
 * sender offered fails the test. One thread runs everything, the endpoint's duty cycle included
 * ({@link TransportWaits}).
 */
public final class PerfClient
{
    /**
     * How long the client waits for the server's answers before and after the data moves.
     */
    static final long CONTROL_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * How long the end of a test may take: for the server to receive what the client's senders offered and report,
     * and for the client to receive what the server's senders offered. Longer than the server's own limit
     * ({@link ServerTest#DRAIN_TIMEOUT_NS}), so a shortfall is reported as one rather than as a timeout.
     */
    static final long END_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(40);

    private static final String SERVER = "the server";

    /**
     * What to run and where.
     *
     * @param server           the server's address.
     * @param bind             where the client's endpoint binds.
     * @param parameters       the test.
     * @param qdisc            the client endpoint's packet scheduler, or null for the preferred one.
     * @param connectTimeoutNs how long to wait for each connection to be established.
     * @param security         applies the secure mode's keys (or nothing) to the endpoint's context.
     */
    public record Options(
        InetSocketAddress server,
        InetSocketAddress bind,
        PerfParameters parameters,
        String qdisc,
        long connectTimeoutNs,
        Consumer<PacelinkContext> security)
    {
    }

    private final Options options;
    private final PerfParameters parameters;
    private final PerfText text;
    private final BooleanSupplier stopRequested;
    private final List<Connection> connections = new ArrayList<>();
    private final List<PerfStream> streams = new ArrayList<>();
    private PerfReport report;
    private TransportWaits waits;
    private ControlChannel control;
    private PerfMessage.Results results;
    private ProcessCpu cpu;
    private ProcessCpu wholeCpu;
    private boolean interrupted;

    /**
     * @param options       what to run.
     * @param text          where the text report goes as the test runs, or null for none (JSON output).
     * @param stopRequested true ends the test early (Ctrl-C): it then ends as if its time were up.
     */
    public PerfClient(final Options options, final PerfText text, final BooleanSupplier stopRequested)
    {
        this.options = options;
        this.parameters = options.parameters();
        this.text = text;
        this.stopRequested = stopRequested;
    }

    /**
     * @return true if the test was ended early by {@code stopRequested}.
     */
    public boolean wasInterrupted()
    {
        return interrupted;
    }

    /**
     * Run the test. It fails with the reason in {@link PerfReport#error} rather than an exception.
     *
     * @return the client's report.
     */
    PerfReport run()
    {
        PerfCodec.warmUpInBackground();
        final byte[] cookie = new byte[8];
        final SecureRandom random = new SecureRandom();
        random.nextBytes(cookie);
        report = new PerfReport(true, HexFormat.of().formatHex(cookie), parameters, System.currentTimeMillis(),
            options.server());
        report.congestionControl = parameters.congestionControl();
        report.qdisc = PacketSchedulers.resolveName(options.qdisc());
        print("Connecting to host " + options.server().getHostString() + ", port " + options.server().getPort());

        final PacelinkContext context = TransportWaits.clientContext(options.bind(), false)
            .congestionControl(parameters.congestionControl())
            .packetScheduler(options.qdisc())
            .maxMessageLengthBytes(PerfServer.MAX_MESSAGE_BYTES);
        options.security().accept(context);
        final Endpoint endpoint;
        try
        {
            endpoint = Endpoint.launch(context);
        }
        catch (final UncheckedIOException ex)
        {
            fail("cannot bind to " + options.bind() + ": " + ex.getCause().getMessage());
            return report;
        }
        wholeCpu = ProcessCpu.start();
        cpu = wholeCpu;
        try
        {
            waits = new TransportWaits(endpoint, context);
            runTest(endpoint);
        }
        catch (final TransportFailure ex)
        {
            // The test failed: nothing more will be exchanged, so nothing is waited for.
            ClosingConnections.abortUndecided(connections);
            if (Double.isNaN(report.cpuPercent))
            {
                report.cpuPercent = cpu.percent();
                report.wholeCpuPercent = wholeCpu.percent();
            }
            fail(ex.getMessage());
        }
        finally
        {
            endpoint.closeNow();
        }
        return report;
    }

    private void runTest(final Endpoint endpoint)
    {
        final String serverName = "pacelink perf -s";
        final String cc = parameters.congestionControl();
        // The data connections' handshakes run beside the control connection's instead of after its exchange: the
        // server holds a connection until its hello says what it is for, and theirs go only after the test is
        // accepted, so the order the perf protocol needs is kept and a round of handshakes is saved.
        final List<Connection> opened = waits.connect(
            options.server(), cc, 1 + parameters.dataConnections(), options.connectTimeoutNs(), serverName);
        connections.addAll(opened);
        control = new ControlChannel(opened.get(0), SERVER);
        final List<Connection> data = opened.subList(1, opened.size());
        control.send(new PerfMessage.Hello(PerfMessage.PROTOCOL_VERSION, PerfMessage.Role.CONTROL, report.cookie, 0,
            parameters, PerfJson.software()));
        final PerfMessage.Accepted accepted =
            awaitMessage(PerfMessage.Accepted.class, CONTROL_TIMEOUT_NS, "the server to accept the test");
        report.remoteQdisc = accepted.qdisc();

        for (int index = 0; index < data.size(); index++)
        {
            final Connection connection = data.get(index);
            PerfCodec.send(connection, new PerfMessage.Hello(PerfMessage.PROTOCOL_VERSION, PerfMessage.Role.STREAM,
                report.cookie, index, null, PerfJson.software()));
            report.connected.add(new PerfReport.Connected(index + 1, index, parameters.clientSends(index),
                endpoint.localAddress(), connection.remoteAddress()));
        }
        if (null != text)
        {
            text.connected(report);
        }
        awaitMessage(PerfMessage.Start.class, CONTROL_TIMEOUT_NS, "the server to start the test");

        final long startNs = waits.nowNs();
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(parameters.messageBytes()));
        for (int index = 0; index < data.size(); index++)
        {
            streams.add(new PerfStream(index, index + 1, parameters.clientSends(index), data.get(index), parameters,
                message, startNs));
        }
        transfer(startNs);
        finish();
    }

    /**
     * Send and receive until the time is up, or until every byte of a byte-count test was offered and received.
     */
    private void transfer(final long startNs)
    {
        final IntervalClock intervals = new IntervalClock(startNs, parameters.intervalNs());
        final OmittedSeconds omitted = new OmittedSeconds(startNs, parameters.omitNs());
        final boolean timed = parameters.durationNs() > 0;
        final long endNs = startNs + parameters.runNs();
        while (true)
        {
            final long nowNs = waits.nowNs();
            final int work = pump(nowNs);
            if (omitted.endsBy(nowNs))
            {
                cpu = ProcessCpu.start();
                report.endOmitted(streams, intervals, nowNs, text);
            }
            final PerfMessage message = control.poll();
            if (null != message)
            {
                throw unexpected(message, "during the test");
            }
            if (intervals.isDue(nowNs))
            {
                report.recordInterval(streams, intervals, nowNs, text);
            }
            if ((timed ? nowNs - endNs >= 0 : allDone()) || stopRequested.getAsBoolean())
            {
                interrupted = stopRequested.getAsBoolean();
                streams.forEach((stream) -> stream.stop(nowNs));
                if (intervals.hasPartial(nowNs))
                {
                    report.recordInterval(streams, intervals, nowNs, text);
                }
                return;
            }
            // Sleep (when nothing was done) until the next timer of this loop: a report, the omitted seconds' or the
            // test's end, a rate-limited release; data, ACKs and control messages are arrivals and wake it sooner.
            long deadlineNs = timed ? endNs : nowNs + TransportWaits.MAX_TURN_SLEEP_NS;
            deadlineNs = intervals.earlierDeadlineNs(omitted.earlierDeadlineNs(deadlineNs));
            waits.turn(work, PerfStream.earlierDeadlineNs(streams, deadlineNs, nowNs));
        }
    }

    /**
     * Tell the server what the client's senders offered, wait for its totals, then for the client's receivers to
     * get what the server's senders offered; then judge every stream by its receiver's count.
     */
    private void finish()
    {
        final List<PerfMessage.RemoteStream> sent = new ArrayList<>();
        for (final PerfStream stream : streams)
        {
            if (stream.sends())
            {
                sent.add(new PerfMessage.RemoteStream(stream.index(), report.congestionControl, stream.totals(), null));
            }
        }
        control.send(new PerfMessage.Done(sent));
        results = awaitMessage(PerfMessage.Results.class, END_TIMEOUT_NS, "the server's results");
        for (final PerfMessage.RemoteStream remote : results.streams())
        {
            final PerfStream stream = streams.get(remote.stream());
            if (!stream.sends())
            {
                stream.expect(remote.totals().allBytes());
            }
        }
        waits.await(
            () ->
            {
                pump(waits.nowNs());
                return PerfStream.allReceived(streams);
            },
            END_TIMEOUT_NS,
            this::missing,
            SERVER,
            receivingConnections());
        report.cpuPercent = cpu.percent();
        report.wholeCpuPercent = wholeCpu.percent();
        report.remoteCpuPercent = results.cpuPercent();
        report.remoteWholeCpuPercent = null == results.wholeCpuPercent() ? Double.NaN : results.wholeCpuPercent();
        report.serverOutputText = results.serverOutputText();
        report.serverOutputJson = results.serverOutputJson();
        assembleEnd();
        // Both ends have said what they sent and received: the close confirms nothing more, so it happens before the
        // summary and the process exits right after its last line.
        waits.close(connections);
        if (null != text)
        {
            text.summary(report);
        }
        checkEveryByteArrived();
    }

    private int pump(final long nowNs)
    {
        return PerfStream.serviceAll(streams, nowNs, SERVER);
    }

    private boolean allDone()
    {
        for (final PerfStream stream : streams)
        {
            if (stream.sends() ? !stream.isSendingFinished() : !stream.isReceivingComplete())
            {
                return false;
            }
        }
        return true;
    }

    private String missing()
    {
        final StringBuilder missing = new StringBuilder("the rest of the server's data:");
        for (final PerfStream stream : streams)
        {
            if (!stream.sends() && !stream.isReceivingComplete())
            {
                missing.append(" stream ").append(stream.id()).append(" received ").append(stream.bytes())
                    .append(" bytes of ").append(expectedFromServer(stream.index())).append(';');
            }
        }
        return missing.substring(0, missing.length() - 1);
    }

    private long expectedFromServer(final int index)
    {
        for (final PerfMessage.RemoteStream remote : results.streams())
        {
            if (remote.stream() == index)
            {
                return remote.totals().allBytes();
            }
        }
        return -1;
    }

    private List<Connection> receivingConnections()
    {
        final List<Connection> receiving = new ArrayList<>();
        for (final PerfStream stream : streams)
        {
            if (!stream.sends())
            {
                receiving.add(stream.connection());
            }
        }
        return receiving;
    }

    private void assembleEnd()
    {
        for (final PerfMessage.RemoteStream remote : results.streams())
        {
            final PerfStream stream = streams.get(remote.stream());
            final StreamTotals local = stream.totals();
            report.ends.add(new PerfReport.StreamEnd(stream.id(), stream.index(), stream.sends(),
                report.isReverseGroup(stream.index()), report.congestionControl,
                stream.sends() ? local : remote.totals(), stream.sends() ? remote.totals() : local));
            report.remoteCongestionControl = remote.congestionControl();
            if (null != remote.intervals())
            {
                report.remoteIntervals.put(remote.stream(), remote.intervals());
            }
        }
    }

    private void checkEveryByteArrived()
    {
        for (final PerfReport.StreamEnd stream : report.ends)
        {
            if (stream.receiver().allBytes() < stream.sender().allBytes())
            {
                throw new TransportFailure("stream " + stream.id() + ": the receiver got " +
                    stream.receiver().allBytes() + " of the " + stream.sender().allBytes() +
                    " bytes its sender offered");
            }
        }
        if (!parameters.congestionControl().equals(report.remoteCongestionControl))
        {
            throw new TransportFailure("the server ran " + report.remoteCongestionControl + " instead of " +
                parameters.congestionControl());
        }
    }

    private <T extends PerfMessage> T awaitMessage(final Class<T> type, final long timeoutNs, final String what)
    {
        final Object[] found = new Object[1];
        waits.await(
            () ->
            {
                pump(waits.nowNs());
                PerfMessage message;
                while (null == found[0] && null != (message = control.poll()))
                {
                    if (!type.isInstance(message))
                    {
                        throw unexpected(message, "while waiting for " + what);
                    }
                    found[0] = message;
                }
                return null != found[0];
            },
            timeoutNs,
            () -> what,
            SERVER,
            List.of(control.connection()));
        return type.cast(found[0]);
    }

    private static TransportFailure unexpected(final PerfMessage message, final String when)
    {
        if (message instanceof PerfMessage.Failed failed)
        {
            return new TransportFailure("the server ended the test: " + failed.message());
        }
        return new TransportFailure("the server sent an unexpected " + message.getClass().getSimpleName() +
            " message " + when);
    }

    /**
     * The test failed: the reason goes into the report, and the command prints it once, on standard error.
     */
    private void fail(final String message)
    {
        report.error = message;
    }

    private void print(final String line)
    {
        if (null != text)
        {
            text.line(line);
        }
    }
}
