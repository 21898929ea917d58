package io.pacelink.perf.scale;

import io.pacelink.perf.loopback.ResultLine;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.stats.EndpointCounters;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One process of a scale run, started by {@link ScaleSuite}; both endpoints run in the default profile (DEDICATED
 * agent, back-off idle strategy), bound to loopback:
 * <pre>
 * ScaleRole server PORT CONNECTIONS MAX_CONNECTIONS SCHEDULER SEND_BUFFER RECEIVE_BUFFER SENT_PACKET_CAPACITY
 *                  COUNTERS_BUFFER
 * ScaleRole client PORT CONNECTIONS CONCURRENT ONE_AT_A_TIME PRIMING_MS IDLE_SECONDS ACTIVE_SECONDS SCHEDULER
 *                  SEND_BUFFER RECEIVE_BUFFER SENT_PACKET_CAPACITY COUNTERS_BUFFER [PING_PORT]
 * </pre>
 * (a size or MAX_CONNECTIONS of 0 and a SCHEDULER of {@code default} keep the transport's defaults; CONNECTIONS is how
 * many the run opens, for the per-source handshake limits below). The server accepts every connection, reads every
 * message that arrives, and prints a {@code STATUS} line
 * every second: connections accepted, its memory ({@link ProcessMemory}) and the CPU it used in that second (the whole
 * process's, and its endpoint's agent thread's alone: {@link AgentCpu}); once
 * the count has been steady for {@link #STEADY_SECONDS} it collects garbage and marks that line {@code after_gc}, so
 * heap figures are of live objects. The client opens {@code CONCURRENT} connections at once and times each from its
 * {@code connect} call to CONNECTED, then opens the rest in one burst (the handshake rate), then stays idle for
 * {@code IDLE_SECONDS} measuring its own CPU; with ACTIVE_SECONDS above 0 it then sends on every connection at once
 * ({@link ActivePhase}: each connection's share of the bytes acknowledged and Jain's index over them), and prints its
 * {@link ResultLine}.
 */
public final class ScaleRole
{
    private static final long STATUS_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int STEADY_SECONDS = 3;
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    private static final long POLL_PARK_NS = TimeUnit.MICROSECONDS.toNanos(50);
    /**
     * A single connect on loopback takes a few hundred microseconds: polled every 20 µs (plus the kernel's timer
     * slack, 50 µs by default) the error stays a small part of the millisecond the figure is judged against, and one
     * polling thread beside two agents leaves them the cores for the few milliseconds this phase lasts.
     */
    private static final long ONE_CONNECT_POLL_PARK_NS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final long PING_TIMEOUT_MS = 5_000;
    private static final long PING_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(PING_TIMEOUT_MS);
    /**
     * Pings before the first timed one: the first waits for the server's loop, the next ones compile the echo path.
     */
    private static final int PING_WARM_UP = 200;

    /**
     * Longest sleep of the server's loop while nothing arrives: short enough that a burst of handshakes cannot fill
     * the endpoint's accept queue (1,024) before the loop takes them.
     */
    private static final long MAX_IDLE_SLEEP_MS = 32;

    private ScaleRole()
    {
    }

    /**
     * @param args the role and its values.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        if (args.length == 9 && "server".equals(args[0]))
        {
            serve(Integer.parseInt(args[1]), new Limits(Integer.parseInt(args[2]), Integer.parseInt(args[3]), args[4]),
                EndpointSizing.fromArgs(args, 5), System.out);
        }
        else if ((args.length == 13 || args.length == 14) && "client".equals(args[0]))
        {
            final int connections = Integer.parseInt(args[2]);
            final int pingPort = args.length == 14 ? Integer.parseInt(args[13]) : 0;
            connect(Integer.parseInt(args[1]), pingPort, connections, Integer.parseInt(args[3]),
                Integer.parseInt(args[4]), TimeUnit.MILLISECONDS.toNanos(Integer.parseInt(args[5])),
                Integer.parseInt(args[6]), Integer.parseInt(args[7]), new Limits(connections, 0, args[8]),
                EndpointSizing.fromArgs(args, 9), System.out);
        }
        else
        {
            System.err.println("usage: ScaleRole server PORT CONNECTIONS MAX_CONNECTIONS SCHEDULER SIZES... | client " +
                "PORT CONNECTIONS CONCURRENT ONE_AT_A_TIME PRIMING_MS IDLE_SECONDS ACTIVE_SECONDS SCHEDULER SIZES... " +
                "(SIZES: " +
                "send buffer, receive buffer, sent-packet capacity, counters buffer; 0 or 'default' = the " +
                "transport's default)");
            System.exit(2);
        }
        System.out.flush();
        System.exit(0);
    }

    /**
     * What a role sets beyond the sizes.
     *
     * @param connections    connections the run opens, all from one address.
     * @param maxConnections {@link PacelinkContext#maxConnections(int)}, or 0 for the default.
     * @param scheduler      {@link PacelinkContext#packetScheduler(String)}, or {@code default}.
     */
    record Limits(int connections, int maxConnections, String scheduler)
    {
    }

    private static PacelinkContext context(final int port, final Limits limits, final EndpointSizing sizing)
    {
        final PacelinkContext context = new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", port));
        if (limits.maxConnections() > 0)
        {
            context.maxConnections(limits.maxConnections());
        }
        if (!"default".equals(limits.scheduler()))
        {
            context.packetScheduler(limits.scheduler());
        }
        // Every client of this test comes from one address, which the per-source handshake limits (docs/security.md)
        // would hold to 100 a second and 128 unconfirmed: the test measures the endpoint, as if its connections came
        // from as many hosts, not those limits. For the same reason its concurrent connects may all be unconfirmed at
        // once.
        final int unconfirmed = Math.max(limits.connections(), context.limits().maxUnconfirmedHandshakes());
        context.limits().handshakesPerSecondPerSource(1_000_000).handshakeBurstPerSource(1_000_000)
            .maxUnconfirmedHandshakes(unconfirmed).maxUnconfirmedHandshakesPerSource(unconfirmed)
            .unvalidatedAnswersPerSecondPerSource(1_000_000);
        return sizing.applyTo(context);
    }

    static void serve(final int port, final Limits limits, final EndpointSizing sizing, final PrintStream out)
        throws InterruptedException
    {
        ResultLine.processCpuNs();
        // Every message is read and dropped, but a ping (the client's path round trip) is echoed.
        final PathPing pings = new PathPing(ONE_CONNECT_POLL_PARK_NS);
        try (Endpoint endpoint = Endpoint.launch(context(port, limits, sizing).acceptConnections(true)))
        {
            final EndpointCounters counters = endpoint.counters();
            out.println(ResultLine.READY + " port=" + endpoint.localAddress().getPort() + " ping_port=" +
                UdpPing.startEcho());
            out.flush();
            final List<Connection> accepted = new ArrayList<>();
            long lastStatusNs = System.nanoTime();
            long lastCpuNs = ResultLine.processCpuNs();
            final AgentCpu agentCpu = new AgentCpu(endpoint);
            long lastAgentCpuNs = agentCpu.cpuNs();
            int steadyCount = -1;
            int steadySeconds = 0;
            boolean collected = false;
            long datagramsSeen = 0;
            long sleepMs = 1;
            while (true)
            {
                final int before = accepted.size();
                for (Connection connection = endpoint.accept(); null != connection; connection = endpoint.accept())
                {
                    accepted.add(connection);
                }
                // Read only after datagrams arrived, and sleep longer while nothing happens: the idle figure is the
                // endpoint's, not this loop's (10,000 polls a millisecond would be most of it).
                final long datagrams = counters.datagramsReceived().get();
                final boolean isBusy = datagrams != datagramsSeen || accepted.size() != before;
                if (datagrams != datagramsSeen)
                {
                    datagramsSeen = datagrams;
                    for (int i = 0, size = accepted.size(); i < size; i++)
                    {
                        pings.serve(accepted.get(i));
                    }
                }
                sleepMs = isBusy ? 1 : Math.min(MAX_IDLE_SLEEP_MS, 2 * sleepMs);
                final long nowNs = System.nanoTime();
                if (nowNs - lastStatusNs >= STATUS_INTERVAL_NS)
                {
                    final long cpuNs = ResultLine.processCpuNs();
                    final double cpuPercent = 100.0 * (cpuNs - lastCpuNs) / (nowNs - lastStatusNs);
                    final long agentCpuNs = agentCpu.cpuNs();
                    final double agentCpuPercent = 100.0 * (agentCpuNs - lastAgentCpuNs) / (nowNs - lastStatusNs);
                    steadySeconds = accepted.size() == steadyCount ? steadySeconds + 1 : 0;
                    steadyCount = accepted.size();
                    final boolean collect = steadySeconds == STEADY_SECONDS && !collected;
                    if (collect)
                    {
                        System.gc();
                        collected = true;
                    }
                    else if (0 == steadySeconds)
                    {
                        collected = false;
                    }
                    final ProcessMemory memory = ProcessMemory.now();
                    out.println("STATUS " + new ResultLine()
                        .put("accepted", accepted.size())
                        .put("connections_opened", counters.connectionsOpened().get())
                        .put("connections_rejected", counters.connectionsRejected().get())
                        .put("connections_refused_limit", counters.connectionsRefusedLimit().get())
                        .put("connections_refused_counters", counters.connectionsRefusedCounters().get())
                        .put("errors", counters.errors().get())
                        .put("resident_bytes", memory.residentBytes())
                        .put("heap_used_bytes", memory.heapUsedBytes())
                        .put("heap_committed_bytes", memory.heapCommittedBytes())
                        .put("direct_bytes", memory.directBytes())
                        .put("cpu_percent", cpuPercent)
                        .put("agent_cpu_percent", agentCpuPercent)
                        .put("after_gc", collect ? 1 : 0)
                        .format().substring(ResultLine.PREFIX.length()));
                    out.flush();
                    lastStatusNs = System.nanoTime();
                    lastCpuNs = ResultLine.processCpuNs();
                    lastAgentCpuNs = agentCpu.cpuNs();
                }
                TimeUnit.MILLISECONDS.sleep(sleepMs);
            }
        }
    }

    static void connect(
        final int port,
        final int pingPort,
        final int connections,
        final int concurrent,
        final int oneAtATime,
        final long primingNs,
        final int idleSeconds,
        final int activeSeconds,
        final Limits limits,
        final EndpointSizing sizing,
        final PrintStream out) throws InterruptedException
    {
        ResultLine.processCpuNs();
        final InetSocketAddress server = new InetSocketAddress("127.0.0.1", port);
        // A client primes its handshake path only when told to (PacelinkContext.handshakePrimingNs): this one opens
        // hundreds of connections, as a pool or a load generator would.
        final PacelinkContext context =
            context(0, limits, sizing).acceptConnections(false).handshakePrimingNs(primingNs);
        try (Endpoint endpoint = Endpoint.launch(context))
        {
            final ResultLine result = new ResultLine().put("role", "client").put("connections", connections)
                .put("concurrent", concurrent);
            final List<Connection> open = new ArrayList<>(connections);

            // 1. CONCURRENT connects at once, first thing after start-up (cold: class loading and the interpreter
            // on both ends): each one's latency from its own connect() call, and the whole burst's.
            timeBurst(endpoint, server, Math.min(concurrent, connections), open, result, "");

            // 2. The rest in one burst: handshakes per second.
            final long restStartNs = System.nanoTime();
            final int opened = open.size();
            boolean more = true;
            while (more && open.size() < connections)
            {
                more = openOne(endpoint, server, open, result);
            }
            final long restNs = awaitConnected(open, opened) - restStartNs;
            // 2b. CONCURRENT more at once with both ends warm (beyond CONNECTIONS, so the idle phase keeps them).
            final int warmFrom = open.size();
            timeBurst(endpoint, server, concurrent, open, result, "warm_");
            // A connection read in the duty cycle it turned CONNECTED may not have published its first RTT sample
            // yet (0): the least of the samples published is the path's.
            result.put("warm_min_rtt_us", open.subList(warmFrom, open.size()).stream()
                .filter((c) -> ConnectionState.CONNECTED == c.state())
                .mapToLong((c) -> c.stats().minRttNs()).filter((rttNs) -> rttNs > 0).min().orElse(-1) / 1e3);
            // 2c. ONE_AT_A_TIME connects, each alone on warm ends: what one connect costs when nothing queues
            // beside it (one round trip when the server does not ask for a RETRY, plus both ends' work).
            timeOneAtATime(endpoint, server, pingPort, oneAtATime, open, result);
            final int connected = count(open, ConnectionState.CONNECTED);
            result.put("connected", connected)
                .put("failed", open.size() - connected)
                .put("first_failure", firstFailure(open))
                .put("burst_connections", open.size() - opened)
                .put("burst_ms", restNs / 1e6)
                .put("handshakes_per_second", (open.size() - opened) * 1e9 / Math.max(1, restNs));

            // 3. Idle: what the open connections cost this endpoint.
            final long idleStartCpuNs = ResultLine.processCpuNs();
            final long idleStartNs = System.nanoTime();
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(idleSeconds));
            final long idleNs = System.nanoTime() - idleStartNs;
            final ProcessMemory memory = ProcessMemory.now();
            result.put("idle_cpu_percent", 100.0 * (ResultLine.processCpuNs() - idleStartCpuNs) / idleNs)
                .put("still_connected", count(open, ConnectionState.CONNECTED))
                .put("resident_bytes", memory.residentBytes())
                .put("direct_bytes", memory.directBytes());

            // 4. Active: every connection sends at once.
            if (activeSeconds > 0)
            {
                new ActivePhase(open, context.maxMessageLengthBytes()).run(activeSeconds, result);
            }
            out.println(result.format());
        }
        catch (final RuntimeException | OutOfMemoryError ex)
        {
            out.println(new ResultLine().put("role", "client").put("error", ex.toString()).format());
        }
    }

    /**
     * Open {@code count} connections at once and time each from its own {@code connect} call to CONNECTED, and the
     * whole burst; the figures go to {@code result} under {@code prefix + "concurrent_..."}.
     */
    private static void timeBurst(
        final Endpoint endpoint,
        final InetSocketAddress server,
        final int count,
        final List<Connection> open,
        final ResultLine result,
        final String prefix) throws InterruptedException
    {
        final int from = open.size();
        final Histogram callNs = new Histogram(3);
        final BurstTimer timer = new BurstTimer(count, CONNECT_TIMEOUT_NS);
        final long burstStartNs = System.nanoTime();
        for (int i = 0; i < count; i++)
        {
            final long calledAtNs = System.nanoTime();
            if (!openOne(endpoint, server, open, result))
            {
                break;
            }
            callNs.recordValue(Math.max(1, System.nanoTime() - calledAtNs));
            timer.opened(i, calledAtNs, open.get(open.size() - 1));
        }
        final long burstNs = timer.finish(open.size() - from) - burstStartNs;
        final Histogram latencyNs = timer.latencyNs();
        result.put(prefix + "concurrent_connected", count(open.subList(from, open.size()), ConnectionState.CONNECTED))
            .put(prefix + "concurrent_all_connected_ms", burstNs / 1e6)
            .put(prefix + "concurrent_latency_p50_ms", latencyNs.getValueAtPercentile(50) / 1e6)
            .put(prefix + "concurrent_latency_p99_ms", latencyNs.getValueAtPercentile(99) / 1e6)
            .put(prefix + "concurrent_latency_max_ms", latencyNs.getMaxValue() / 1e6)
            .put(prefix + "connect_call_p50_us", callNs.getValueAtPercentile(50) / 1e3)
            .put(prefix + "connect_call_max_us", callNs.getMaxValue() / 1e3);
    }

    /**
     * Open {@code count} connections one after another, each once the one before it stopped CONNECTING, and time each
     * from its {@code connect} call to CONNECTED (polled every {@link #ONE_CONNECT_POLL_PARK_NS}, which bounds the
     * error), beside the least RTT those connections measured; the figures go to {@code result} under
     * {@code "one_connect_..."}.
     */
    private static void timeOneAtATime(
        final Endpoint endpoint,
        final InetSocketAddress server,
        final int pingPort,
        final int count,
        final List<Connection> open,
        final ResultLine result)
    {
        final PathPing ping = new PathPing(ONE_CONNECT_POLL_PARK_NS);
        final Connection pinger = count > 0 ? openPinger(endpoint, server, ping) : null;
        final UdpPing udp = count > 0 && pingPort > 0 ? UdpPing.to(pingPort, (int)PING_TIMEOUT_MS) : null;
        for (int i = 0; null != udp && i < PING_WARM_UP; i++)
        {
            udp.roundTripNs();
        }
        final int from = open.size();
        final Histogram latencyNs = new Histogram(3);
        final Histogram pingNs = new Histogram(3);
        final Histogram udpPingNs = new Histogram(3);
        final long[] connectNs = new long[count];
        final long[] pairedPingNs = new long[count];
        final long[] udpConnectNs = new long[count];
        final long[] pairedUdpPingNs = new long[count];
        int pairs = 0;
        int udpPairs = 0;
        for (int i = 0; i < count; i++)
        {
            final long calledAtNs = System.nanoTime();
            if (!openOne(endpoint, server, open, result))
            {
                break;
            }
            final Connection connection = open.get(open.size() - 1);
            final long deadlineNs = calledAtNs + CONNECT_TIMEOUT_NS;
            while (ConnectionState.CONNECTING == connection.state() && System.nanoTime() - deadlineNs < 0)
            {
                LockSupport.parkNanos(ONE_CONNECT_POLL_PARK_NS);
            }
            final long doneNs = System.nanoTime();
            // The path's round trip of the moment, right after the connect between the same two processes: a bare
            // UDP ping, then one through the two endpoints.
            final long udpRoundTripNs = null == udp ? -1 : udp.roundTripNs();
            final long roundTripNs = null == pinger ? -1 : ping.roundTripNs(pinger, PING_TIMEOUT_NS);
            if (udpRoundTripNs > 0)
            {
                udpPingNs.recordValue(udpRoundTripNs);
            }
            if (roundTripNs > 0)
            {
                pingNs.recordValue(roundTripNs);
            }
            if (ConnectionState.CONNECTED == connection.state())
            {
                latencyNs.recordValue(doneNs - calledAtNs);
                if (roundTripNs > 0)
                {
                    connectNs[pairs] = doneNs - calledAtNs;
                    pairedPingNs[pairs++] = roundTripNs;
                }
                if (udpRoundTripNs > 0)
                {
                    udpConnectNs[udpPairs] = doneNs - calledAtNs;
                    pairedUdpPingNs[udpPairs++] = udpRoundTripNs;
                }
            }
        }
        if (null != pinger)
        {
            pinger.close();
        }
        if (null != udp)
        {
            udp.close();
        }
        final long[] minRttsNs = open.subList(from, open.size()).stream()
            .filter((c) -> ConnectionState.CONNECTED == c.state())
            .mapToLong((c) -> c.stats().minRttNs()).filter((rttNs) -> rttNs > 0).sorted().toArray();
        // Four readings of "1 RTT" beside the p50 (scale.sh's header): the least RTT any of these connections
        // measured (a minimum: the connect whose wake-ups were all quick), the median of each one's least RTT (the
        // same statistic as the p50; a connection's first sample is its handshake's, hello sent to answer read, so it
        // also holds the server's work on the hello), and the medians of the pings taken right after each connect
        // between the same two processes: bare UDP (the path's round trip of the moment, one idle thread's wake-up at
        // each end) and through the two endpoints (a message and its echo: both agents' wake-ups each way and the
        // applications' polls), each with the median of every connect's excess over its own ping.
        result.put("one_connect_count", latencyNs.getTotalCount())
            .put("one_connect_p50_ms", latencyNs.getValueAtPercentile(50) / 1e6)
            .put("one_connect_p99_ms", latencyNs.getValueAtPercentile(99) / 1e6)
            .put("one_connect_max_ms", latencyNs.getMaxValue() / 1e6)
            .put("one_connect_min_rtt_us", (0 == minRttsNs.length ? -1 : minRttsNs[0]) / 1e3)
            .put("one_connect_median_rtt_us", medianNs(minRttsNs) / 1e3)
            .put("one_connect_ping_count", pingNs.getTotalCount())
            .put("one_connect_ping_p50_us", 0 == pingNs.getTotalCount() ? -1 : pingNs.getValueAtPercentile(50) / 1e3)
            .put("one_connect_ping_min_us", 0 == pingNs.getTotalCount() ? -1 : pingNs.getMinValue() / 1e3)
            .put("one_connect_over_ping_p50_us", medianExcessNs(connectNs, pairedPingNs, pairs) / 1e3)
            .put("one_connect_udp_ping_count", udpPingNs.getTotalCount())
            .put("one_connect_udp_ping_p50_us",
                0 == udpPingNs.getTotalCount() ? -1 : udpPingNs.getValueAtPercentile(50) / 1e3)
            .put("one_connect_udp_ping_min_us", 0 == udpPingNs.getTotalCount() ? -1 : udpPingNs.getMinValue() / 1e3)
            .put("one_connect_over_udp_ping_p50_us", medianExcessNs(udpConnectNs, pairedUdpPingNs, udpPairs) / 1e3);
    }

    /**
     * The connection the client pings on, open and answered once: the server's loop takes the first ping (it sleeps
     * up to {@link #MAX_IDLE_SLEEP_MS} between reads) and hands the connection to its echo thread, and a few more
     * pings warm both ends' echo path before the first is timed.
     *
     * @return the connection, or null if it could not be opened or was not answered.
     */
    private static Connection openPinger(final Endpoint endpoint, final InetSocketAddress server, final PathPing ping)
    {
        try
        {
            final Connection pinger = endpoint.connect(server);
            final long deadlineNs = System.nanoTime() + CONNECT_TIMEOUT_NS;
            while (ConnectionState.CONNECTING == pinger.state() && System.nanoTime() - deadlineNs < 0)
            {
                LockSupport.parkNanos(POLL_PARK_NS);
            }
            for (int i = 0; i < PING_WARM_UP; i++)
            {
                if (ping.roundTripNs(pinger, PING_TIMEOUT_NS) < 0)
                {
                    pinger.closeNow();
                    return null;
                }
            }
            return pinger;
        }
        catch (final RuntimeException ex)
        {
            return null;
        }
    }

    /**
     * @return the median of {@code a[i] - b[i]} over the first {@code n}, or -1 if n is 0.
     */
    static double medianExcessNs(final long[] a, final long[] b, final int n)
    {
        final long[] excessNs = new long[n];
        for (int i = 0; i < n; i++)
        {
            excessNs[i] = a[i] - b[i];
        }
        Arrays.sort(excessNs);
        return medianNs(excessNs);
    }

    /**
     * @param sortedNs values in ascending order.
     * @return their median (the mean of the middle two of an even count), or -1 if there are none.
     */
    static double medianNs(final long[] sortedNs)
    {
        final int n = sortedNs.length;
        if (0 == n)
        {
            return -1;
        }
        return 1 == (n & 1) ? sortedNs[n / 2] : (sortedNs[n / 2 - 1] + sortedNs[n / 2]) / 2.0;
    }

    /**
     * Open one more connection; an endpoint that cannot (out of memory, out of counters, at its limit) says so in
     * the result instead of ending the run.
     *
     * @return true if it was opened.
     */
    private static boolean openOne(
        final Endpoint endpoint, final InetSocketAddress server, final List<Connection> open, final ResultLine result)
    {
        try
        {
            open.add(endpoint.connect(server));
            return true;
        }
        catch (final RuntimeException | OutOfMemoryError ex)
        {
            result.put("connect_error", "connection " + (open.size() + 1) + ": " + ex);
            return false;
        }
    }

    /**
     * @return when the last of {@code connections[from..]} stopped CONNECTING (or the timeout).
     */
    private static long awaitConnected(final List<Connection> connections, final int from)
    {
        final boolean[] done = new boolean[connections.size() - from];
        int remaining = done.length;
        final long deadlineNs = System.nanoTime() + CONNECT_TIMEOUT_NS;
        long lastNs = System.nanoTime();
        while (remaining > 0 && System.nanoTime() - deadlineNs < 0)
        {
            for (int i = 0; i < done.length; i++)
            {
                if (!done[i] && ConnectionState.CONNECTING != connections.get(from + i).state())
                {
                    done[i] = true;
                    remaining--;
                    lastNs = System.nanoTime();
                }
            }
            LockSupport.parkNanos(POLL_PARK_NS);
        }
        return lastNs;
    }

    private static int count(final List<Connection> connections, final ConnectionState state)
    {
        return (int)connections.stream().filter((c) -> state == c.state()).count();
    }

    private static String firstFailure(final List<Connection> connections)
    {
        return connections.stream().filter((c) -> ConnectionState.CONNECTED != c.state())
            .map((c) -> c.state() + " " + c.closeReason()).findFirst().orElse("-");
    }
}
