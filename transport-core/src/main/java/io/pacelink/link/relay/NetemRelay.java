package io.pacelink.link.relay;

import io.pacelink.link.FlowKeys;
import io.pacelink.link.LinkDirection;
import io.pacelink.link.LinkPacket;
import io.pacelink.link.LinkPacketPool;
import io.pacelink.link.PathSpec;
import io.pacelink.transport.stats.CountersFile;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A real-time link emulator for UDP on loopback ({@code pacelink netem}): it listens on one port, forwards what
 * clients send to a server address, and sends the server's replies back to the client they are for, applying the
 * {@link LinkDirection} model of each direction in real time. Any two real processes can so be put on an emulated
 * path, and any number of clients on the same path to one server: each client gets a socket of its own towards the
 * server, as behind a NAT, so the server sees each at its own address and its replies find their way back
 * ({@link RelayClients}).
 *
 * <p>One thread runs a timer loop: read what has arrived (stamped with the clock), offer it to the link, send every
 * packet whose delivery time has come, then wait for the next one: park for most of the gap, and busy-spin for the
 * last {@link Context#spinThresholdNs() spin threshold} so that parking's wake-up slack does not make releases late.
 * Parks are bounded by {@link Context#maxParkNs()} so that arrivals are noticed (and stamped) promptly. The clock is
 * read only through the injected {@link NanoClock}. How late each release was is kept in a histogram.
 */
public final class NetemRelay implements AutoCloseable
{
    private static final long STATS_PUBLISH_INTERVAL_NS = 100_000_000L;
    private static final long CLOSE_TIMEOUT_MS = 5_000;
    private static final long MAX_TRACKED_LATE_NS = 10_000_000_000L;

    /**
     * Room for 128 counters; the relay registers 32.
     */
    private static final int COUNTERS_VALUES_BUFFER_BYTES = 128 * CountersReader.COUNTER_LENGTH;

    // Per-direction socket counters, kept in a long[] indexed by these.
    private static final int RECEIVED_PACKETS = 0;
    private static final int RECEIVED_BYTES = 1;
    private static final int FORWARDED_PACKETS = 2;
    private static final int FORWARDED_BYTES = 3;
    private static final int SEND_FAILURES = 4;
    private static final int IO_COUNTERS = 5;

    private final Context context;
    private final NanoClock clock;
    private final DatagramChannel listenChannel;
    private final InetSocketAddress firstUpstreamAddress;
    private final RelayClients clients;
    private final InetSocketAddress forwardAddress;
    private final LinkPacketPool pool = new LinkPacketPool();
    private final LinkDirection forward;
    private final LinkDirection reverse;
    private final ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(LinkPacket.MAX_DATAGRAM_BYTES);
    private final ByteBuffer sendBuffer = ByteBuffer.allocateDirect(LinkPacket.MAX_DATAGRAM_BYTES);
    private final Histogram releaseLateNs = new Histogram(1_000, MAX_TRACKED_LATE_NS, 3);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final long[] forwardIo = new long[IO_COUNTERS];
    private final long[] reverseIo = new long[IO_COUNTERS];
    private final CountersFile countersFile;
    private final RelayCounters counters;

    private long noClientDrops;
    private long startNs;
    private volatile boolean running = true;
    private volatile boolean runStarted;
    private volatile RelayStats stats;
    private Thread thread;

    /**
     * Open and bind the sockets; nothing is forwarded until {@link #run()} or {@link #start()}.
     *
     * @param context the relay's configuration.
     * @throws UncheckedIOException if a socket cannot be opened or bound.
     */
    public NetemRelay(final Context context)
    {
        this.context = context.conclude();
        this.clock = context.clock();
        this.forwardAddress = context.forwardAddress();
        final PathSpec.Pair path = context.path();
        final long baseRttNs = path.baseRttNs();
        this.forward = new LinkDirection(path.forward(), baseRttNs, FlowKeys.mix(context.seed()), pool);
        this.reverse = new LinkDirection(path.reverse(), baseRttNs, FlowKeys.mix(context.seed() + 1), pool);

        this.listenChannel = listenOn(context.listenAddress(), context.socketBufferBytes());
        final DatagramChannel firstUpstream;
        try
        {
            // Opened now, for the first client, so that a forward address this host cannot reach is reported at once.
            firstUpstream = upstreamTo(forwardAddress, context.listenAddress(), context.socketBufferBytes());
        }
        catch (final UncheckedIOException ex)
        {
            closeQuietly(listenChannel);
            throw ex;
        }
        this.firstUpstreamAddress = localAddress(firstUpstream);
        this.clients = new RelayClients(
            firstUpstream,
            () -> upstreamTo(forwardAddress, context.listenAddress(), context.socketBufferBytes()),
            context.maxClients(),
            context.clientIdleTimeoutNs());
        this.stats = snapshot(0, releaseLateNs);

        if (null == context.countersDirectory())
        {
            countersFile = null;
            counters = null;
        }
        else
        {
            final String description = "netem " + listenAddress() + " -> " + forwardAddress;
            try
            {
                countersFile = CountersFile.create(
                    context.countersDirectory(), "netem", description, COUNTERS_VALUES_BUFFER_BYTES);
            }
            catch (final RuntimeException ex)
            {
                closeQuietly(listenChannel);
                clients.close();
                throw ex;
            }
            counters = new RelayCounters(countersFile.countersManager(), description);
            counters.publish(stats);
        }
    }

    /**
     * @return the address clients send to (with the actual port if port 0 was asked for).
     */
    public InetSocketAddress listenAddress()
    {
        return localAddress(listenChannel);
    }

    /**
     * @return the relay's address as the server sees the first client's datagrams come from; every further client
     * comes from an address of its own.
     */
    public InetSocketAddress upstreamAddress()
    {
        return firstUpstreamAddress;
    }

    /**
     * Run the timer loop on a new thread.
     *
     * @return this.
     */
    public NetemRelay start()
    {
        if (null != thread)
        {
            throw new IllegalStateException("already started");
        }
        thread = new Thread(this::run, "pacelink-netem");
        thread.setDaemon(true);
        runStarted = true;
        thread.start();
        return this;
    }

    /**
     * Run the timer loop on the calling thread until {@link #close()}; then report the summary.
     */
    public void run()
    {
        runStarted = true;
        try
        {
            loop();
        }
        finally
        {
            stopped.countDown();
        }
    }

    /**
     * @return the latest counters (refreshed every 100 ms and when the relay stops).
     */
    public RelayStats stats()
    {
        return stats;
    }

    /**
     * @return the memory-mapped file the relay's counters are in, or null without
     * {@link Context#countersDirectory(Path)}.
     */
    public Path countersFile()
    {
        return null == countersFile ? null : countersFile.path();
    }

    /**
     * Stop the loop, wait for it to finish (it reports its summary), close the sockets and delete the counters
     * file.
     */
    public void close()
    {
        running = false;
        if (runStarted)
        {
            try
            {
                if (!stopped.await(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS))
                {
                    throw new IllegalStateException("relay loop did not stop within " + CLOSE_TIMEOUT_MS + "ms");
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        closeQuietly(listenChannel);
        clients.close();
        CloseHelper.close(countersFile);
    }

    private void publishCounters(final long nowNs)
    {
        if (null != counters)
        {
            counters.publish(stats);
            countersFile.heartbeat(nowNs);
        }
    }

    private void loop()
    {
        startNs = clock.nanoTime();
        final Histogram intervalLateNs = new Histogram(1_000, MAX_TRACKED_LATE_NS, 3);
        long nextPublishNs = startNs + STATS_PUBLISH_INTERVAL_NS;
        long nextReportNs = startNs + context.reportIntervalNs();
        RelayStats lastReported = null;
        try
        {
            while (running)
            {
                int work = receiveFromClients();
                work += receiveFromServer();
                work += release(forward, forwardIo, intervalLateNs);
                work += release(reverse, reverseIo, intervalLateNs);

                final long nowNs = clock.nanoTime();
                if (nowNs >= nextPublishNs)
                {
                    nextPublishNs = nowNs + STATS_PUBLISH_INTERVAL_NS;
                    clients.expireIdle(nowNs);
                    stats = snapshot(nowNs, releaseLateNs);
                    publishCounters(nowNs);
                    if (nowNs >= nextReportNs && null != context.reporter())
                    {
                        nextReportNs += context.reportIntervalNs();
                        final RelayStats current = snapshot(nowNs, intervalLateNs);
                        context.reporter().onInterval(lastReported, current);
                        lastReported = current;
                        intervalLateNs.reset();
                    }
                }
                if (work == 0)
                {
                    idle(nowNs);
                }
            }
        }
        catch (final IOException ex)
        {
            if (running)
            {
                throw new UncheckedIOException(ex);
            }
        }
        finally
        {
            stats = snapshot(clock.nanoTime(), releaseLateNs);
            publishCounters(clock.nanoTime());
            if (null != context.reporter())
            {
                context.reporter().onClose(stats);
            }
        }
    }

    /**
     * Read what clients sent (each new client gets its socket towards the server) and offer it to the forward
     * direction.
     */
    private int receiveFromClients() throws IOException
    {
        int received = 0;
        while (received < context.receiveBatch())
        {
            receiveBuffer.clear();
            final InetSocketAddress source = (InetSocketAddress)receiveFrom(listenChannel);
            if (null == source)
            {
                break;
            }
            received++;
            forwardIo[RECEIVED_PACKETS]++;
            forwardIo[RECEIVED_BYTES] += receiveBuffer.position();
            if (null == clients.clientFor(source, clock.nanoTime()))
            {
                forwardIo[SEND_FAILURES]++; // no socket for a new client: the relay's own loss, like a full buffer
                continue;
            }
            offer(forward, source, forwardAddress);
        }
        return received;
    }

    /**
     * Read what the server sent to each client's socket and offer it to the reverse direction, addressed to that
     * client. Datagrams to the socket no client has yet are dropped and counted.
     */
    private int receiveFromServer() throws IOException
    {
        int received = 0;
        final DatagramChannel spare = clients.spare();
        if (null != spare)
        {
            receiveBuffer.clear();
            while (received < context.receiveBatch() && null != receiveFrom(spare))
            {
                received++;
                noClientDrops++;
                receiveBuffer.clear();
            }
        }
        for (int i = 0, size = clients.size(); i < size; i++)
        {
            final RelayClients.Client client = clients.client(i);
            int fromThisClient = 0;
            while (fromThisClient < context.receiveBatch())
            {
                receiveBuffer.clear();
                final SocketAddress source = receiveFrom(client.upstream());
                if (null == source)
                {
                    break;
                }
                fromThisClient++;
                reverseIo[RECEIVED_PACKETS]++;
                reverseIo[RECEIVED_BYTES] += receiveBuffer.position();
                client.touch(clock.nanoTime());
                offer(reverse, (InetSocketAddress)source, client.address());
            }
            received += fromThisClient;
        }
        return received;
    }

    private void offer(final LinkDirection link, final InetSocketAddress source, final InetSocketAddress destination)
    {
        final int length = receiveBuffer.position();
        final LinkPacket packet = pool.acquire(length);
        receiveBuffer.flip();
        receiveBuffer.get(packet.data(), 0, length);
        packet.source(source).destination(destination).flowKey(FlowKeys.of(source, destination));
        link.offer(packet, clock.nanoTime());
    }

    private int release(final LinkDirection link, final long[] io, final Histogram intervalLateNs)
        throws IOException
    {
        int released = 0;
        LinkPacket packet;
        while (null != (packet = link.poll(clock.nanoTime())))
        {
            released++;
            sendBuffer.clear();
            sendBuffer.put(packet.data(), 0, packet.length()).flip();
            final long lateNs = Math.max(0, clock.nanoTime() - link.lastDeliveryTimeNs());
            if (sendTo(link, packet))
            {
                io[FORWARDED_PACKETS]++;
                io[FORWARDED_BYTES] += packet.length();
            }
            else
            {
                io[SEND_FAILURES]++;
            }
            final long trackedLateNs = Math.min(lateNs, MAX_TRACKED_LATE_NS);
            releaseLateNs.recordValue(trackedLateNs);
            intervalLateNs.recordValue(trackedLateNs);
            pool.release(packet);
        }
        return released;
    }

    /**
     * @return the sender, or null if nothing is waiting. An ICMP port-unreachable reported on the connected upstream
     * socket (the server is not up yet) means the same: nothing to read.
     */
    private SocketAddress receiveFrom(final DatagramChannel channel) throws IOException
    {
        try
        {
            return channel.receive(receiveBuffer);
        }
        catch (final PortUnreachableException ex)
        {
            return null;
        }
    }

    /**
     * Send the datagram in the send buffer: to the server on its client's socket, or to its client from the listen
     * socket.
     *
     * @return true if it went out whole; false if the socket buffer was full, the server's port was unreachable or
     * the client was forgotten while the datagram was on its way (all count as the relay's own loss).
     */
    private boolean sendTo(final LinkDirection link, final LinkPacket packet) throws IOException
    {
        final int length = sendBuffer.remaining();
        try
        {
            if (link == forward)
            {
                final RelayClients.Client client = clients.client((InetSocketAddress)packet.source());
                return null != client && client.upstream().write(sendBuffer) == length;
            }
            return listenChannel.send(sendBuffer, (InetSocketAddress)packet.destination()) == length;
        }
        catch (final PortUnreachableException ex)
        {
            return false;
        }
    }

    /**
     * Wait for the next release: park for most of the gap (bounded, so arrivals are noticed), spin the rest.
     */
    private void idle(final long nowNs)
    {
        final long nextEventNs = Math.min(forward.nextEventTimeNs(), reverse.nextEventTimeNs());
        final long gapNs = nextEventNs == Long.MAX_VALUE ? Long.MAX_VALUE : nextEventNs - nowNs;
        if (gapNs > context.spinThresholdNs())
        {
            LockSupport.parkNanos(Math.min(gapNs - context.spinThresholdNs(), context.maxParkNs()));
        }
        else
        {
            Thread.onSpinWait();
        }
    }

    private RelayStats snapshot(final long nowNs, final Histogram lateNs)
    {
        final boolean empty = lateNs.getTotalCount() == 0;
        return new RelayStats(
            nowNs - startNs,
            direction(forward, forwardIo),
            direction(reverse, reverseIo),
            releaseLateNs.getTotalCount(),
            empty ? 0 : lateNs.getValueAtPercentile(50),
            empty ? 0 : lateNs.getValueAtPercentile(99),
            empty ? 0 : lateNs.getMaxValue(),
            noClientDrops,
            clients.size(),
            clients.opened(),
            clients.forgotten());
    }

    private static RelayStats.Direction direction(final LinkDirection link, final long[] io)
    {
        return new RelayStats.Direction(
            io[RECEIVED_PACKETS],
            io[RECEIVED_BYTES],
            io[FORWARDED_PACKETS],
            io[FORWARDED_BYTES],
            link.counters().randomLossPackets(),
            link.counters().policedPackets(),
            link.counters().queueDropPackets(),
            link.counters().duplicatedPackets(),
            link.counters().corruptedPackets(),
            link.queuedPackets(),
            link.queuedBytes(),
            io[SEND_FAILURES]);
    }

    /**
     * @return the channel clients send to, bound; or a failure that says which address and why (e.g. "Address already
     * in use"), not only that the relay could not start.
     */
    private static DatagramChannel listenOn(final InetSocketAddress listenAddress, final int socketBufferBytes)
    {
        DatagramChannel channel = null;
        try
        {
            channel = openChannel(socketBufferBytes);
            channel.bind(listenAddress);
            return channel;
        }
        catch (final IOException ex)
        {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot listen on " + format(listenAddress) + ": " + ex.getMessage() +
                (ex instanceof BindException ? " (another relay or program may hold that port; pick another with " +
                "--listen)" : ""), ex);
        }
    }

    /**
     * @return the channel towards the server: bound to the listen address's IP with a free port and connected to the
     * forward address; or a failure that names the forward address and the operating system's reason.
     */
    private static DatagramChannel upstreamTo(
        final InetSocketAddress forwardAddress, final InetSocketAddress listenAddress, final int socketBufferBytes)
    {
        DatagramChannel channel = null;
        try
        {
            channel = openChannel(socketBufferBytes);
            channel.bind(new InetSocketAddress(listenAddress.getAddress(), 0));
            channel.connect(forwardAddress);
            return channel;
        }
        catch (final IOException ex)
        {
            closeQuietly(channel);
            final boolean loopbackToElsewhere = listenAddress.getAddress().isLoopbackAddress() &&
                !forwardAddress.getAddress().isLoopbackAddress();
            throw new UncheckedIOException("cannot reach the forward address " + format(forwardAddress) + " from " +
                listenAddress.getAddress().getHostAddress() + ": " + ex.getMessage() + (loopbackToElsewhere ?
                " (a loopback listen address reaches this host only: listen on 0.0.0.0 or an address on the way to " +
                forwardAddress.getAddress().getHostAddress() + ")" : ""), ex);
        }
    }

    private static String format(final InetSocketAddress address)
    {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    private static DatagramChannel openChannel(final int socketBufferBytes) throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open();
        try
        {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, socketBufferBytes);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, socketBufferBytes);
            return channel;
        }
        catch (final IOException ex)
        {
            channel.close();
            throw ex;
        }
    }

    private static InetSocketAddress localAddress(final DatagramChannel channel)
    {
        try
        {
            return (InetSocketAddress)channel.getLocalAddress();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static void closeQuietly(final DatagramChannel channel)
    {
        if (null != channel)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // Closing on shutdown: nothing useful to do with the failure.
            }
        }
    }

    /**
     * The relay's configuration, with fluent setters (Aeron style). Required: listen and forward addresses and the
     * path; everything else has a default.
     */
    public static final class Context
    {
        /**
         * Default socket buffer size: 4 MiB, so bursts at 1 Gbit/s fit while the loop is busy.
         */
        public static final int DEFAULT_SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;

        /**
         * Default spin threshold: spin instead of park when the next release is this close.
         */
        public static final long DEFAULT_SPIN_THRESHOLD_NS = 100_000L;

        /**
         * Default longest park: bounds how late an arrival is noticed while idle.
         */
        public static final long DEFAULT_MAX_PARK_NS = 50_000L;

        /**
         * Default most clients at once, each holding a socket towards the server.
         */
        public static final int DEFAULT_MAX_CLIENTS = 64;

        /**
         * Default time a client may be silent both ways before the relay forgets it and closes its socket: Linux
         * conntrack's {@code nf_conntrack_udp_timeout_stream}, 120 s.
         */
        public static final long DEFAULT_CLIENT_IDLE_TIMEOUT_NS = 120_000_000_000L;

        private InetSocketAddress listenAddress;
        private InetSocketAddress forwardAddress;
        private PathSpec.Pair path;
        private long seed = 0x5EED;
        private NanoClock clock = SystemNanoClock.INSTANCE;
        private long reportIntervalNs = 1_000_000_000L;
        private RelayReporter reporter;
        private int socketBufferBytes = DEFAULT_SOCKET_BUFFER_BYTES;
        private long spinThresholdNs = DEFAULT_SPIN_THRESHOLD_NS;
        private long maxParkNs = DEFAULT_MAX_PARK_NS;
        private int receiveBatch = 64;
        private int maxClients = DEFAULT_MAX_CLIENTS;
        private long clientIdleTimeoutNs = DEFAULT_CLIENT_IDLE_TIMEOUT_NS;
        private Path countersDirectory;

        Context conclude()
        {
            if (null == listenAddress || null == forwardAddress || null == path)
            {
                throw new IllegalStateException("listen address, forward address and path are required");
            }
            if (reportIntervalNs <= 0 || socketBufferBytes <= 0 || spinThresholdNs < 0 || maxParkNs <= 0 ||
                receiveBatch <= 0 || maxClients <= 0 || clientIdleTimeoutNs <= 0)
            {
                throw new IllegalStateException("intervals, sizes, batch and client limits must be positive");
            }
            return this;
        }

        /**
         * @param address where clients send (a loopback address; port 0 picks a free one).
         * @return this.
         */
        public Context listenAddress(final InetSocketAddress address)
        {
            this.listenAddress = address;
            return this;
        }

        /**
         * @return where clients send.
         */
        public InetSocketAddress listenAddress()
        {
            return listenAddress;
        }

        /**
         * @param address the server datagrams are forwarded to.
         * @return this.
         */
        public Context forwardAddress(final InetSocketAddress address)
        {
            this.forwardAddress = address;
            return this;
        }

        /**
         * @return the server datagrams are forwarded to.
         */
        public InetSocketAddress forwardAddress()
        {
            return forwardAddress;
        }

        /**
         * @param path the link model: forward is client to server, reverse server to client.
         * @return this.
         */
        public Context path(final PathSpec.Pair path)
        {
            this.path = path;
            return this;
        }

        /**
         * @return the link model.
         */
        public PathSpec.Pair path()
        {
            return path;
        }

        /**
         * @param seed seeds loss, jitter and the other random choices (the relay is reproducible in its choices,
         *             not in its timing).
         * @return this.
         */
        public Context seed(final long seed)
        {
            this.seed = seed;
            return this;
        }

        /**
         * @return the seed.
         */
        public long seed()
        {
            return seed;
        }

        /**
         * @param clock the clock the loop reads (tests may inject one).
         * @return this.
         */
        public Context clock(final NanoClock clock)
        {
            this.clock = clock;
            return this;
        }

        /**
         * @return the clock.
         */
        public NanoClock clock()
        {
            return clock;
        }

        /**
         * @param intervalNs how often the reporter gets the counters.
         * @return this.
         */
        public Context reportIntervalNs(final long intervalNs)
        {
            this.reportIntervalNs = intervalNs;
            return this;
        }

        /**
         * @return how often the reporter gets the counters.
         */
        public long reportIntervalNs()
        {
            return reportIntervalNs;
        }

        /**
         * @param reporter gets per-interval counters and the summary, or null for none.
         * @return this.
         */
        public Context reporter(final RelayReporter reporter)
        {
            this.reporter = reporter;
            return this;
        }

        /**
         * @return the reporter, or null.
         */
        public RelayReporter reporter()
        {
            return reporter;
        }

        /**
         * @param bytes SO_RCVBUF and SO_SNDBUF of every socket (the OS may cap it: net.core.rmem_max).
         * @return this.
         */
        public Context socketBufferBytes(final int bytes)
        {
            this.socketBufferBytes = bytes;
            return this;
        }

        /**
         * @return the socket buffer size asked for.
         */
        public int socketBufferBytes()
        {
            return socketBufferBytes;
        }

        /**
         * @param thresholdNs spin instead of park when the next release is this close.
         * @return this.
         */
        public Context spinThresholdNs(final long thresholdNs)
        {
            this.spinThresholdNs = thresholdNs;
            return this;
        }

        /**
         * @return the spin threshold.
         */
        public long spinThresholdNs()
        {
            return spinThresholdNs;
        }

        /**
         * @param maxParkNs the longest single park.
         * @return this.
         */
        public Context maxParkNs(final long maxParkNs)
        {
            this.maxParkNs = maxParkNs;
            return this;
        }

        /**
         * @return the longest single park.
         */
        public long maxParkNs()
        {
            return maxParkNs;
        }

        /**
         * @param datagrams most datagrams read from one socket per loop turn.
         * @return this.
         */
        public Context receiveBatch(final int datagrams)
        {
            this.receiveBatch = datagrams;
            return this;
        }

        /**
         * @return most datagrams read from one socket per loop turn.
         */
        public int receiveBatch()
        {
            return receiveBatch;
        }

        /**
         * @param clients most clients at once; a new one beyond makes the least recently active one forgotten.
         * @return this.
         */
        public Context maxClients(final int clients)
        {
            this.maxClients = clients;
            return this;
        }

        /**
         * @return most clients at once.
         */
        public int maxClients()
        {
            return maxClients;
        }

        /**
         * @param timeoutNs how long a client may be silent both ways before it is forgotten and its socket towards
         *                  the server closed; its next datagram makes it a new client.
         * @return this.
         */
        public Context clientIdleTimeoutNs(final long timeoutNs)
        {
            this.clientIdleTimeoutNs = timeoutNs;
            return this;
        }

        /**
         * @return how long a client may be silent both ways before it is forgotten.
         */
        public long clientIdleTimeoutNs()
        {
            return clientIdleTimeoutNs;
        }

        /**
         * @param directory where to put the relay's memory-mapped counters file, so {@code pacelink stat} can
         *                  watch it (e.g. {@code CountersFile.defaultDirectory()}), or null for none (the default
         *                  for a relay embedded in a program or a test).
         * @return this.
         */
        public Context countersDirectory(final Path directory)
        {
            this.countersDirectory = directory;
            return this;
        }

        /**
         * @return where the counters file goes, or null for none.
         */
        public Path countersDirectory()
        {
            return countersDirectory;
        }
    }
}
