package io.pacelink.cli.perf;

import io.pacelink.cli.net.ClosingConnections;
import io.pacelink.cli.net.TransportFailure;
import io.pacelink.cli.net.TransportWaits;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import org.agrona.DirectBuffer;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * One client's test at the server: a state machine the server's loop steps, so that one thread serves many tests at
 * once without ever waiting on one of them. It waits for the data connections to join, starts the test, sends or
 * receives until the client says it is done, waits (up to {@link #DRAIN_TIMEOUT_NS}) until its receivers have what
 * the client's senders offered, and answers with its totals; then it closes its connections, which deliver what was
 * offered before they close.
 */
final class ServerTest
{
    /**
     * How long the data connections may take to join after the test was accepted.
     */
    static final long JOIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * How long after the client's {@code done} the server's receivers may take to get what the client's senders
     * offered. A sender keeps at most about two windows unacknowledged ({@link PerfStream}), so this is many round
     * trips even on a long, lossy path.
     */
    static final long DRAIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    /**
     * How long a test in progress may go without a word from the client on its control connection: the client's
     * time, plus the end, plus slack.
     */
    private static final long CLIENT_SLACK_NS = TimeUnit.SECONDS.toNanos(60);

    private static final String CLIENT = "the client";

    private enum Phase
    {
        JOINING,
        RUNNING,
        DRAINING,
        CLOSING,
        FINISHED
    }

    private final int number;
    private final ControlChannel control;
    private final PerfParameters parameters;
    private final PerfReport report;
    private final PerfText text;
    private final StringBuilder textOutput;
    private final Consumer<String> jsonOutput;
    private final Connection[] joined;
    private final StreamTotals[] clientTotals;
    private final List<PerfStream> streams = new ArrayList<>();
    private final DirectBuffer message;
    private final InetSocketAddress local;
    private final ProcessCpu wholeCpu = ProcessCpu.start();
    private ProcessCpu cpu = wholeCpu;
    private OmittedSeconds omitted;
    private Phase phase = Phase.JOINING;
    private long lastNowNs;
    private long deadlineNs;
    private IntervalClock intervals;
    private String failure;
    private List<Connection> closing = List.of();

    /**
     * @param number     the test's number at this server, for its lines.
     * @param control    the client's control connection, whose hello was read.
     * @param hello      the client's hello.
     * @param local      the server endpoint's address.
     * @param qdisc      the server endpoint's packet scheduler.
     * @param message    what the server's senders offer, at least {@link PerfParameters#MAX_MESSAGE_BYTES} long.
     * @param lines      where the text report goes (the server's output), or null in JSON mode.
     * @param jsonOutput where the JSON report goes at the end, or null in text mode.
     * @param nowNs      the time now.
     */
    ServerTest(
        final int number,
        final ControlChannel control,
        final PerfMessage.Hello hello,
        final InetSocketAddress local,
        final String qdisc,
        final DirectBuffer message,
        final Consumer<String> lines,
        final Consumer<String> jsonOutput,
        final long nowNs)
    {
        this.number = number;
        this.control = control;
        this.parameters = hello.parameters();
        this.message = message;
        this.local = local;
        this.jsonOutput = jsonOutput;
        this.joined = new Connection[parameters.dataConnections()];
        this.clientTotals = new StreamTotals[joined.length];
        final InetSocketAddress client = control.connection().remoteAddress();
        report = new PerfReport(false, hello.cookie(), parameters, System.currentTimeMillis(), client);
        report.congestionControl = control.connection().congestionControl();
        report.remoteCongestionControl = parameters.congestionControl();
        report.qdisc = qdisc;
        textOutput = parameters.serverOutput() ? new StringBuilder() : null;
        text = null == lines && null == textOutput ? null : new PerfText((line) ->
        {
            if (null != lines)
            {
                lines.accept(line);
            }
            if (null != textOutput)
            {
                textOutput.append(line).append('\n');
            }
        });
        lastNowNs = nowNs;
        deadlineNs = nowNs + JOIN_TIMEOUT_NS;
        final String software = null == hello.software() ? "software not given" : PerfCodec.printable(hello.software());
        print("Accepted connection from " + client.getAddress().getHostAddress() + ", port " + client.getPort() +
            " (test " + number + ", " + software + ")");
        control.send(new PerfMessage.Accepted(PerfMessage.PROTOCOL_VERSION, PerfJson.software(), qdisc));
    }

    /**
     * @return the test's id, which its data connections name.
     */
    String cookie()
    {
        return report.cookie;
    }

    /**
     * @param index      the data connection's index.
     * @param connection the connection, whose hello was read.
     * @throws TransportFailure if the connection cannot join (the caller closes it; the test goes on and times out
     *                          without it).
     */
    void join(final int index, final Connection connection)
    {
        if (Phase.JOINING != phase || index < 0 || index >= joined.length || null != joined[index])
        {
            throw new TransportFailure("data connection " + index + " of test " + number + " is not expected");
        }
        if (!parameters.congestionControl().equals(connection.congestionControl()))
        {
            fail("the client asked for " + parameters.congestionControl() + " but its connection runs " +
                connection.congestionControl() + " here");
            return;
        }
        joined[index] = connection;
    }

    /**
     * Step the test.
     *
     * @param nowNs  the time now.
     * @param nextId gives the server-wide id of each stream as the test starts.
     * @return work done.
     */
    int doWork(final long nowNs, final IntSupplier nextId)
    {
        lastNowNs = nowNs;
        try
        {
            return step(nowNs, nextId);
        }
        catch (final TransportFailure ex)
        {
            fail(ex.getMessage());
            return 1;
        }
        catch (final RuntimeException ex)
        {
            // What a client sent that no check foresaw ends its test, never the server and every other test in it
            // (as Agrona's AgentRunner hands a duty cycle's exception to its error handler and goes on).
            fail("the server could not go on with what the client sent: " + PerfCodec.quoted(ex.toString()));
            return 1;
        }
    }

    /**
     * @param deadlineNs a time.
     * @return the earlier of it and this test's next timer as of its last step: its running streams' (rate limits,
     * samples), its interval reports and omitted seconds while it runs, and the timeout of its phase if still ahead
     * (a timeout already past was acted on in that step, or never is: a byte-count test has no end in time).
     */
    long earlierDeadlineNs(final long deadlineNs)
    {
        long earliestNs = deadlineNs;
        if (deadlineNs - this.deadlineNs > 0 && this.deadlineNs - lastNowNs > 0)
        {
            earliestNs = this.deadlineNs;
        }
        if (Phase.RUNNING == phase || Phase.DRAINING == phase)
        {
            earliestNs = PerfStream.earlierDeadlineNs(streams, earliestNs, lastNowNs);
        }
        if (Phase.RUNNING == phase)
        {
            earliestNs = intervals.earlierDeadlineNs(omitted.earlierDeadlineNs(earliestNs));
        }
        return earliestNs;
    }

    /**
     * @return true once the test is over and its connections closed (or given up on).
     */
    boolean isFinished()
    {
        return Phase.FINISHED == phase;
    }

    /**
     * @return why the test failed, or null.
     */
    String failure()
    {
        return failure;
    }

    /**
     * The server is stopping: end the test now.
     */
    void abort()
    {
        if (Phase.CLOSING.compareTo(phase) > 0)
        {
            fail("the server was stopped");
        }
    }

    private int step(final long nowNs, final IntSupplier nextId)
    {
        switch (phase)
        {
            case JOINING:
                return join(nowNs, nextId);

            case RUNNING:
            case DRAINING:
                return run(nowNs);

            case CLOSING:
                if (ClosingConnections.allDecided(closing) || nowNs - deadlineNs > 0)
                {
                    ClosingConnections.abortUndecided(closing);
                    phase = Phase.FINISHED;
                }
                return 0;

            default:
                return 0;
        }
    }

    private int join(final long nowNs, final IntSupplier nextId)
    {
        for (final Connection connection : joined)
        {
            if (null == connection)
            {
                checkControl();
                if (nowNs - deadlineNs > 0)
                {
                    throw new TransportFailure("not every data connection joined within " +
                        TimeUnit.NANOSECONDS.toSeconds(JOIN_TIMEOUT_NS) + " s");
                }
                return 0;
            }
        }
        for (int index = 0; index < joined.length; index++)
        {
            final boolean sends = !parameters.clientSends(index);
            final int id = nextId.getAsInt();
            report.connected.add(new PerfReport.Connected(id, index, sends, local, joined[index].remoteAddress()));
            streams.add(new PerfStream(index, id, sends, joined[index], parameters, message, nowNs));
        }
        if (null != text)
        {
            text.connected(report);
        }
        intervals = new IntervalClock(nowNs, parameters.intervalNs());
        omitted = new OmittedSeconds(nowNs, parameters.omitNs());
        control.send(new PerfMessage.Start());
        phase = Phase.RUNNING;
        deadlineNs = nowNs + parameters.runNs() + CLIENT_SLACK_NS;
        return 1;
    }

    private int run(final long nowNs)
    {
        final int work = PerfStream.serviceAll(streams, nowNs, CLIENT);
        if (Phase.RUNNING == phase)
        {
            if (omitted.endsBy(nowNs))
            {
                cpu = ProcessCpu.start();
                report.endOmitted(streams, intervals, nowNs, text);
            }
            if (intervals.isDue(nowNs))
            {
                report.recordInterval(streams, intervals, nowNs, text);
            }
            final PerfMessage received = control.poll();
            if (received instanceof PerfMessage.Done done)
            {
                onDone(done, nowNs);
                return work + 1;
            }
            if (null != received)
            {
                throw unexpected(received);
            }
            checkControl();
            if (parameters.bytes() == 0 && nowNs - deadlineNs > 0)
            {
                throw new TransportFailure("the client did not end the test in time");
            }
        }
        else if (PerfStream.allReceived(streams) || nowNs - deadlineNs > 0)
        {
            sendResults();
            return work + 1;
        }
        return work;
    }

    private void onDone(final PerfMessage.Done done, final long nowNs)
    {
        if (intervals.hasPartial(nowNs))
        {
            report.recordInterval(streams, intervals, nowNs, text);
        }
        for (final PerfStream stream : streams)
        {
            stream.stop(nowNs);
        }
        if (null == done.streams())
        {
            throw new TransportFailure("the client's done message carries no streams");
        }
        for (final PerfMessage.RemoteStream sent : done.streams())
        {
            if (null == sent || sent.stream() < 0 || sent.stream() >= streams.size() ||
                streams.get(sent.stream()).sends() || null == sent.totals())
            {
                throw new TransportFailure("the client reported totals for stream " +
                    (null == sent ? "none" : sent.stream()) + ", which it does not send on");
            }
            if (sent.totals().bytes() < 0 || sent.totals().omittedBytes() < 0 || sent.totals().allBytes() < 0)
            {
                throw new TransportFailure("the client reported a negative byte count for stream " + sent.stream());
            }
            streams.get(sent.stream()).expect(sent.totals().allBytes());
            clientTotals[sent.stream()] = sent.totals();
        }
        phase = Phase.DRAINING;
        deadlineNs = nowNs + DRAIN_TIMEOUT_NS;
    }

    private void sendResults()
    {
        final List<PerfMessage.RemoteStream> remote = new ArrayList<>();
        for (final PerfStream stream : streams)
        {
            final StreamTotals totals = stream.totals();
            final StreamTotals client = clientTotals[stream.index()];
            report.ends.add(new PerfReport.StreamEnd(stream.id(), stream.index(), stream.sends(),
                report.isReverseGroup(stream.index()), stream.connection().congestionControl(),
                stream.sends() ? totals : client, stream.sends() ? null : totals));
            remote.add(new PerfMessage.RemoteStream(stream.index(), stream.connection().congestionControl(), totals,
                parameters.serverIntervals() ? report.intervalsOf(stream.id()) : null));
        }
        report.cpuPercent = cpu.percent();
        report.wholeCpuPercent = wholeCpu.percent();
        if (null != text)
        {
            text.summary(report);
        }
        final String json = PerfJson.write(report, false);
        if (null != jsonOutput)
        {
            jsonOutput.accept(json);
        }
        control.send(new PerfMessage.Results(remote, report.cpuPercent,
            null == textOutput ? null : textOutput.toString(),
            parameters.serverOutput() ? PerfCodec.tree(json.getBytes(StandardCharsets.UTF_8)) :
                null, report.wholeCpuPercent));
        close();
    }

    private void checkControl()
    {
        if (ConnectionState.CLOSED == control.connection().state())
        {
            throw new TransportFailure(TransportWaits.describeClose(control.connection(), CLIENT));
        }
    }

    private static TransportFailure unexpected(final PerfMessage message)
    {
        if (message instanceof PerfMessage.Failed failed)
        {
            return new TransportFailure("the client ended the test: " + failed.message());
        }
        return new TransportFailure("the client sent an unexpected " + message.getClass().getSimpleName() +
            " message");
    }

    private void fail(final String reason)
    {
        if (null != failure || Phase.CLOSING.compareTo(phase) <= 0)
        {
            return;
        }
        failure = reason;
        report.error = reason;
        if (null != text)
        {
            text.line("test " + number + " failed: " + reason);
        }
        if (null != jsonOutput)
        {
            jsonOutput.accept(PerfJson.write(report, false));
        }
        if (ConnectionState.CONNECTED == control.connection().state())
        {
            try
            {
                control.send(new PerfMessage.Failed(reason));
            }
            catch (final TransportFailure ignore)
            {
                // The client is gone or stuck: closing is all that is left.
            }
        }
        close();
    }

    /**
     * Close the test's connections gracefully; the test is finished once each one's outcome is decided, or a few
     * round trips later (see {@link ClosingConnections}).
     */
    private void close()
    {
        closing = connections();
        closing.forEach(Connection::close);
        phase = Phase.CLOSING;
        deadlineNs = lastNowNs + ClosingConnections.timeoutNs(closing);
    }

    private List<Connection> connections()
    {
        final List<Connection> connections = new ArrayList<>(joined.length + 1);
        connections.add(control.connection());
        for (final Connection connection : joined)
        {
            if (null != connection)
            {
                connections.add(connection);
            }
        }
        return connections;
    }

    private void print(final String line)
    {
        if (null != text)
        {
            text.line(line);
        }
    }
}
