package io.pacelink.cli.perf;

import io.pacelink.cli.ServerHeap;
import io.pacelink.cli.net.TransportFailure;
import io.pacelink.cli.net.TransportWaits;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.schedule.PacketSchedulers;
import org.agrona.collections.ArrayListUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * {@code pacelink perf -s}: serves perf tests and pings from any number of clients at once, each test with its own
 * connections and report, on one thread that also runs the endpoint's duty cycle. A new connection must say what it
 * is within {@link #HELLO_TIMEOUT_NS} (the perf protocol's hello, see {@link PerfMessage}); anything else is closed.
 * Runs until stopped, or after one test with {@code -1}.
 */
public final class PerfServer
{
    /**
     * Longest message the server's endpoint accepts: the largest data message or control message.
     */
    static final int MAX_MESSAGE_BYTES =
        Math.max(PerfParameters.MAX_MESSAGE_BYTES, PerfCodec.MAX_CONTROL_MESSAGE_BYTES);

    /**
     * Most connections at once: each holds its own send and receive buffers (32 MiB each by default), so this bounds
     * the server's memory at a few GiB whatever clients ask for.
     */
    static final int MAX_CONNECTIONS = 64;

    /**
     * How long a new connection may take to say what it is.
     */
    static final long HELLO_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * Longest test cookie taken from a client.
     */
    static final int MAX_COOKIE_CHARS = 64;

    /**
     * Longest park of a server with nothing open: how late it may notice a new client.
     */
    static final long DORMANT_PARK_NS = TimeUnit.MILLISECONDS.toNanos(2);

    /**
     * What to serve and how.
     *
     * @param bind     where to listen.
     * @param oneOff   stop after one test ({@code -1}).
     * @param json     one JSON report per test, on one line, instead of text.
     * @param qdisc    the endpoint's packet scheduler, or null for the preferred one.
     * @param busySpin the low-latency profile (spin instead of backing off; one core always busy).
     * @param security applies the secure mode's keys (or nothing) to the endpoint's context.
     */
    public record Options(
        InetSocketAddress bind,
        boolean oneOff,
        boolean json,
        String qdisc,
        boolean busySpin,
        Consumer<PacelinkContext> security)
    {
    }

    /**
     * A connection that has not said what it is yet.
     */
    private record Newcomer(ControlChannel channel, long deadlineNs)
    {
    }

    private final Options options;
    private final Consumer<String> out;
    private final Consumer<String> log;
    private final BooleanSupplier stopRequested;
    private final CongestionControlRegistry registry = CongestionControlRegistry.load();
    private final ArrayList<Newcomer> newcomers = new ArrayList<>();
    private final ArrayList<ServerTest> tests = new ArrayList<>();
    private final ArrayList<EchoSession> pings = new ArrayList<>();
    private final Map<String, ServerTest> testsByCookie = new HashMap<>();
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(PerfParameters.MAX_MESSAGE_BYTES));
    private String qdisc;
    private volatile InetSocketAddress localAddress;
    private int testCount;
    private int nextStreamId = 1;
    private final IntSupplier nextId = () -> nextStreamId++;
    private int failedTests;

    /**
     * @param options       what to serve.
     * @param out           where each line of the tests' reports goes.
     * @param log           where the server's own lines go: that it listens, connections it refused.
     * @param stopRequested true stops the server (Ctrl-C).
     */
    public PerfServer(
        final Options options, final Consumer<String> out, final Consumer<String> log,
        final BooleanSupplier stopRequested)
    {
        this.options = options;
        this.out = out;
        this.log = log;
        this.stopRequested = stopRequested;
    }

    /**
     * @return the address the server listens on, once its endpoint is open (null before): a server started on port 0
     * in the same process ({@link LoopbackTraining}) is found there.
     */
    public InetSocketAddress localAddress()
    {
        return localAddress;
    }

    /**
     * Serve until stopped (or after one test with {@code -1}).
     *
     * @return 0, or 1 if a {@code -1} server's test failed.
     * @throws TransportFailure if the server cannot bind.
     */
    public int run()
    {
        PerfCodec.warmUpInBackground();
        final PacelinkContext context = TransportWaits.invokerContext(options.bind(), options.busySpin())
            .packetScheduler(options.qdisc())
            .maxMessageLengthBytes(MAX_MESSAGE_BYTES)
            .maxConnections(MAX_CONNECTIONS);
        options.security().accept(context);
        qdisc = PacketSchedulers.resolveName(options.qdisc());
        final Endpoint endpoint;
        try
        {
            endpoint = Endpoint.launch(context);
        }
        catch (final UncheckedIOException ex)
        {
            throw new TransportFailure("cannot listen on " + options.bind() + ": " + ex.getCause().getMessage());
        }
        try
        {
            final TransportWaits waits = new TransportWaits(endpoint, context);
            ServerHeap.watchTraffic(endpoint.counters().datagramsReceived()::get);
            localAddress = endpoint.localAddress();
            log.accept("-----------------------------------------------------------");
            log.accept("Server listening on " + endpoint.localAddress().getAddress().getHostAddress() + " port " +
                endpoint.localAddress().getPort() + " (pacelink perf, protocol " + PerfMessage.PROTOCOL_VERSION +
                ", qdisc " + qdisc + ")");
            log.accept("-----------------------------------------------------------");
            serve(endpoint, waits);
            tests.forEach(ServerTest::abort);
            final List<Connection> open = new ArrayList<>();
            newcomers.forEach((newcomer) -> open.add(newcomer.channel().connection()));
            pings.forEach((ping) -> open.add(ping.connection()));
            waits.close(open);
            while (!tests.isEmpty())
            {
                final long nowNs = waits.nowNs();
                waits.turn(stepTests(nowNs));
            }
        }
        finally
        {
            // Every connection's outcome is decided by now (or it was aborted): their draining periods need no wait.
            endpoint.closeNow();
        }
        return options.oneOff() && failedTests > 0 ? 1 : 0;
    }

    private void serve(final Endpoint endpoint, final TransportWaits waits)
    {
        while (!stopRequested.getAsBoolean())
        {
            int work = 0;
            Connection connection = endpoint.accept();
            // The clock is read only for a turn with newcomers or tests, whose timers use it: a turn that only echoes
            // (a ping's) answers without the read, which on a virtual machine is tens of nanoseconds on the echo's
            // path (perf/FINDINGS.md, branch lat19).
            final boolean isEchoOnly = null == connection && newcomers.isEmpty() && tests.isEmpty();
            final long nowNs = isEchoOnly ? 0 : waits.nowNs();
            while (null != connection)
            {
                final ControlChannel channel =
                    new ControlChannel(connection, "the client", PerfCodec.MAX_CLIENT_MESSAGE_BYTES);
                newcomers.add(new Newcomer(channel, nowNs + HELLO_TIMEOUT_NS));
                work++;
                connection = endpoint.accept();
            }
            if (!isEchoOnly)
            {
                work += greetNewcomers(nowNs);
                work += stepTests(nowNs);
            }
            for (int i = pings.size() - 1; i >= 0; i--)
            {
                final EchoSession ping = pings.get(i);
                work += ping.echo();
                if (ping.isClosed())
                {
                    ArrayListUtil.fastUnorderedRemove(pings, i);
                }
            }
            if (options.oneOff() && testCount > 0 && tests.isEmpty())
            {
                return;
            }
            if (tests.isEmpty() && pings.isEmpty() && newcomers.isEmpty())
            {
                waits.dormantTurn(DORMANT_PARK_NS);
            }
            else if (isEchoOnly)
            {
                waits.turnWithin(work, TransportWaits.MAX_TURN_SLEEP_NS);
            }
            else
            {
                waits.turn(work, nextDeadlineNs(nowNs));
            }
        }
    }

    /**
     * @param nowNs the time of this turn.
     * @return when the loop's next timer is due: a newcomer's hello timeout, a test's ({@link ServerTest}); an echo
     * session has none (it answers arrivals).
     */
    private long nextDeadlineNs(final long nowNs)
    {
        long deadlineNs = nowNs + TransportWaits.MAX_TURN_SLEEP_NS;
        for (int i = 0, size = newcomers.size(); i < size; i++)
        {
            final long helloDeadlineNs = newcomers.get(i).deadlineNs();
            if (helloDeadlineNs - nowNs > 0)
            {
                deadlineNs = TransportWaits.earlier(helloDeadlineNs, deadlineNs);
            }
        }
        for (int i = 0, size = tests.size(); i < size; i++)
        {
            deadlineNs = tests.get(i).earlierDeadlineNs(deadlineNs);
        }
        return deadlineNs;
    }

    /**
     * Each test's share of the duty cycle, once each. Not a counted loop: a finished test's place takes the last
     * test, which runs next at the same index. A counted loop down to 0 here took C2's loop-limit trap
     * ({@code loop_limit_check}) mid-test in every 1 Gbit/s run, recompiling the server's duty-cycle root (into which
     * this is inlined) while it received (perf/FINDINGS.md, branches thr11 and thr12).
     */
    private int stepTests(final long nowNs)
    {
        int work = 0;
        int i = 0;
        while (i < tests.size())
        {
            final ServerTest test = tests.get(i);
            work += test.doWork(nowNs, nextId);
            if (test.isFinished())
            {
                ArrayListUtil.fastUnorderedRemove(tests, i);
                testsByCookie.remove(test.cookie());
                if (null != test.failure())
                {
                    failedTests++;
                }
            }
            else
            {
                i++;
            }
        }
        return work;
    }

    private int greetNewcomers(final long nowNs)
    {
        int work = 0;
        for (int i = newcomers.size() - 1; i >= 0; i--)
        {
            final Newcomer newcomer = newcomers.get(i);
            final ControlChannel channel = newcomer.channel();
            try
            {
                final PerfMessage hello = channel.poll();
                if (null != hello)
                {
                    ArrayListUtil.fastUnorderedRemove(newcomers, i);
                    greet(channel, hello, nowNs);
                    work++;
                }
                else if (ConnectionState.CLOSED == channel.connection().state())
                {
                    ArrayListUtil.fastUnorderedRemove(newcomers, i);
                }
                else if (nowNs - newcomer.deadlineNs() > 0)
                {
                    ArrayListUtil.fastUnorderedRemove(newcomers, i);
                    refuse(channel, "no hello within " + TimeUnit.NANOSECONDS.toSeconds(HELLO_TIMEOUT_NS) + " s");
                }
            }
            catch (final TransportFailure ex)
            {
                newcomers.remove(newcomer);
                refuse(channel, ex.getMessage());
            }
            catch (final RuntimeException ex)
            {
                // A hello no check foresaw ends its connection, never the server.
                newcomers.remove(newcomer);
                refuse(channel, "the server could not use the client's hello: " + PerfCodec.quoted(ex.toString()));
            }
        }
        return work;
    }

    private void greet(final ControlChannel channel, final PerfMessage message, final long nowNs)
    {
        if (!(message instanceof PerfMessage.Hello hello))
        {
            throw new TransportFailure("the first message was not a hello");
        }
        if (null == hello.role())
        {
            // A switch on a null enum throws NullPointerException, which would end the server, not this connection.
            throw new TransportFailure("a hello without a role (control, stream or ping)");
        }
        if (PerfMessage.PROTOCOL_VERSION != hello.protocol())
        {
            throw new TransportFailure("this server speaks perf protocol " + PerfMessage.PROTOCOL_VERSION +
                ", the client " + hello.protocol() + ": use pacelink builds of the same protocol");
        }
        switch (hello.role())
        {
            case CONTROL -> startTest(channel, hello, nowNs);
            case STREAM ->
            {
                final ServerTest test = testsByCookie.get(hello.cookie());
                if (null == test)
                {
                    throw new TransportFailure("no test with cookie " + PerfCodec.quoted(hello.cookie()));
                }
                test.join(hello.stream(), channel.connection());
            }
            case PING ->
            {
                channel.send(new PerfMessage.Accepted(PerfMessage.PROTOCOL_VERSION, PerfJson.software(), qdisc));
                pings.add(new EchoSession(channel.connection()));
            }
            default -> throw new TransportFailure("unknown role " + hello.role());
        }
    }

    private void startTest(final ControlChannel channel, final PerfMessage.Hello hello, final long nowNs)
    {
        final PerfParameters parameters = hello.parameters();
        final String problem = null == parameters ? "no parameters" : parameters.problem();
        if (null != problem)
        {
            throw new TransportFailure("cannot run this test: " + problem);
        }
        if (!registry.names().contains(parameters.congestionControl()))
        {
            throw new TransportFailure("this server has no congestion controller " +
                PerfCodec.quoted(parameters.congestionControl()) + "; it has " + registry.names());
        }
        if (null == hello.cookie() || hello.cookie().isEmpty() || hello.cookie().length() > MAX_COOKIE_CHARS ||
            testsByCookie.containsKey(hello.cookie()))
        {
            // The cookie is kept for the test's life and written into its report: a client's is 16 hex digits.
            throw new TransportFailure("the test's cookie is missing, longer than " + MAX_COOKIE_CHARS +
                " characters or already in use");
        }
        final ServerTest test = new ServerTest(++testCount, channel, hello, localAddress, qdisc, message,
            options.json() ? null : out, options.json() ? out : null, nowNs);
        tests.add(test);
        testsByCookie.put(hello.cookie(), test);
    }

    private void refuse(final ControlChannel channel, final String reason)
    {
        log.accept("refused a connection from " + channel.connection().remoteAddress() + ": " + reason);
        if (ConnectionState.CONNECTED == channel.connection().state())
        {
            try
            {
                channel.send(new PerfMessage.Failed(reason));
            }
            catch (final TransportFailure ignore)
            {
                // Closing is all that is left.
            }
        }
        channel.connection().close();
    }
}
