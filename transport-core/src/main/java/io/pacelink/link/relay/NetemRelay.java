package io.pacelink.link.relay;

import io.pacelink.link.FlowKeys;
import io.pacelink.link.LinkDirection;
import io.pacelink.link.LinkPacket;
import io.pacelink.link.LinkPacketPool;
import io.pacelink.link.PathSpec;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.NioDatagramPort;
import io.pacelink.transport.port.PortGroupWait;
import io.pacelink.transport.port.RealtimePriority;
import io.pacelink.transport.port.ReceiveBatch;
import io.pacelink.transport.port.SendBatch;
import io.pacelink.transport.stats.CountersFile;
import io.pacelink.transport.wire.EcnCodepoint;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A real-time link emulator for UDP on loopback ({@code pacelink netem}): it listens on one port, forwards what
 * clients send to a server address, and sends the server's replies back to the client they are for, applying the
 * {@link LinkDirection} model of each direction in real time. Any two real processes can so be put on an emulated
 * path, and any number of clients on the same path to one server: each client gets a socket of its own towards the
 * server, as behind a NAT, so the server sees each at its own address and its replies find their way back
 * ({@link RelayClients}).
 *
 * <p>Its sockets are {@link DatagramPort}s ({@link Context#portFactory}): datagrams are read in batches and sent
 * in batches. On a port that {@link DatagramPort#carriesEcn() carries} the IP header's ECN field (the batched port),
 * each datagram enters the link with the codepoint it arrived with, a marking queue (fq_codel, red or sfqred with
 * ECN) may set it to CE, a middlebox may rewrite it ({@code ecn_rewrite=}), and it leaves with the result, so the
 * endpoints' ECN works across the relay. On the NIO port arriving codepoints cannot be read: everything is forwarded
 * not-ECT, as through a bleaching router.
 *
 * <p>One thread runs a timer loop: read what has arrived (stamped with the clock), offer it to the link, send every
 * packet whose delivery time has come, then wait for the next one: sleep on all its sockets at once
 * ({@link PortGroupWait}: one {@code ppoll(2)} on the batched port, one selector on NIO) until a datagram arrives or
 * the gap is nearly over, and busy-spin for the last {@link Context#spinThresholdNs() spin threshold} so that the
 * wake-up's slack does not make releases late. An arrival ends the sleep at once, so it is stamped when it came, and an
 * idle relay costs nothing. Where the sockets cannot be waited on together (ports of another kind), or for the
 * sub-millisecond part of a wait on NIO, it parks for at most {@link Context#maxParkNs()}, so that arrivals are
 * still noticed within that. The clock is read only through the injected {@link NanoClock}. How late each release
 * was is kept in a histogram.
 */
public final class NetemRelay implements AutoCloseable
{
    private static final long STATS_PUBLISH_INTERVAL_NS = 100_000_000L;
    private static final long CLOSE_TIMEOUT_MS = 5_000;
    private static final long MAX_TRACKED_LATE_NS = 10_000_000_000L;
    /**
     * The relay opens the next new client's socket ahead ({@link RelayClients#openSpare}) only when nothing is due for
     * at least this long: an opening took up to a millisecond on a busy two-core machine, and must not make a release
     * late.
     */
    private static final long SPARE_OPEN_MIN_GAP_NS = 2_000_000L;

    /**
     * Datagrams sent to a port in one call: one {@code sendmmsg(2)} on the batched port.
     */
    private static final int SEND_BATCH_DATAGRAMS = 64;

    /**
     * Room for 128 counters; the relay registers 36.
     */
    private static final int COUNTERS_VALUES_BUFFER_BYTES = 128 * CountersReader.COUNTER_LENGTH;

    // Per-direction socket counters, kept in a long[] indexed by these.
    private static final int RECEIVED_PACKETS = 0;
    private static final int RECEIVED_BYTES = 1;
    private static final int FORWARDED_PACKETS = 2;
    private static final int FORWARDED_BYTES = 3;
    private static final int SEND_FAILURES = 4;
    private static final int ECN_CAPABLE_PACKETS = 5;
    private static final int IO_COUNTERS = 6;

    private final Context context;
    private final NanoClock clock;
    private final DatagramPort listenPort;
    private final InetSocketAddress firstUpstreamAddress;
    private final boolean upstreamCarriesEcn;
    private final RelayClients clients;
    private final ReceiveBatch listenReceiveBatch;
    private final ReceiveBatch upstreamReceiveBatch;
    private final SendBatch sendBatch;
    private final InetSocketAddress forwardAddress;
    private final LinkPacketPool pool = new LinkPacketPool();
    private final LinkDirection forward;
    private final LinkDirection reverse;
    private final Histogram releaseLateNs = new Histogram(1_000, MAX_TRACKED_LATE_NS, 3);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final long[] forwardIo = new long[IO_COUNTERS];
    private final long[] reverseIo = new long[IO_COUNTERS];
    private final CountersFile countersFile;
    private final RelayCounters counters;
    private final PortGroupWait portWait;
    private final DatagramPort[] watchedPorts;

    private long noClientDrops;
    private long watchedMembership = -1;
    private long startNs;
    private long rebindAtNs = Long.MAX_VALUE;
    private boolean isRebindScheduled;
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

        this.listenPort = listenOn(context.portFactory(), context.listenAddress(), context.socketBufferBytes());
        final DatagramPort firstUpstream;
        try
        {
            // Opened now, for the first client, so that a forward address this host cannot reach is reported at once.
            firstUpstream = upstreamTo(
                context.portFactory(), forwardAddress, context.listenAddress(), context.socketBufferBytes());
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(listenPort);
            throw ex;
        }
        this.firstUpstreamAddress = firstUpstream.localAddress();
        this.upstreamCarriesEcn = firstUpstream.carriesEcn();
        this.listenReceiveBatch = listenPort.newReceiveBatch(context.receiveBatch());
        // One batch serves every client's port in turn: all come from the same factory.
        this.upstreamReceiveBatch = firstUpstream.newReceiveBatch(context.receiveBatch());
        this.clients = new RelayClients(
            firstUpstream,
            () -> upstreamTo(
                context.portFactory(), forwardAddress, context.listenAddress(), context.socketBufferBytes()),
            context.maxClients(),
            context.clientIdleTimeoutNs());
        this.sendBatch = new SendBatch(SEND_BATCH_DATAGRAMS, SEND_BATCH_DATAGRAMS * LinkPacket.MAX_DATAGRAM_BYTES);
        this.portWait = new PortGroupWait(context.maxParkNs());
        this.watchedPorts = new DatagramPort[context.maxClients() + 2]; // the listen port, the spare, every client's
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
                CloseHelper.quietClose(listenPort);
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
        return listenPort.localAddress();
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
     * @return true if the relay's ports (towards clients and towards the server) carry the ECN field, so codepoints
     * cross the relay and its queue can mark them; false on the NIO port, where everything is forwarded not-ECT.
     */
    public boolean carriesEcn()
    {
        return listenPort.carriesEcn() && upstreamCarriesEcn;
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
        CloseHelper.quietClose(listenPort);
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
        if (Context.NO_REALTIME_PRIORITY != context.realtimePriority())
        {
            final String refusal = RealtimePriority.applyToCurrentThread(context.realtimePriority());
            if (null != context.reporter())
            {
                context.reporter().onRealtimePriority(context.realtimePriority(), refusal);
            }
        }
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
                if (nowNs >= rebindAtNs)
                {
                    rebindAtNs = Long.MAX_VALUE;
                    final int rebound = clients.rebindAll();
                    if (null != context.reporter())
                    {
                        context.reporter().onRebinding(rebound);
                    }
                }
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
                    idle(nowNs, Math.min(nextPublishNs, rebindAtNs));
                }
            }
        }
        finally
        {
            portWait.close();
            stats = snapshot(clock.nanoTime(), releaseLateNs);
            publishCounters(clock.nanoTime());
            if (null != context.reporter())
            {
                context.reporter().onClose(stats);
            }
        }
    }

    /**
     * Read a batch of what clients sent (each new client gets its port towards the server) and offer each datagram to
     * the forward direction with the ECN codepoint it arrived with.
     */
    private int receiveFromClients()
    {
        listenPort.receive(listenReceiveBatch, context.receiveBatch());
        final ReceiveBatch batch = listenReceiveBatch;
        final int received = batch.size();
        for (int i = 0; i < received; i++)
        {
            final InetSocketAddress source = batch.source(i);
            countArrival(forwardIo, batch, i);
            final long nowNs = clock.nanoTime();
            if (!isRebindScheduled && Context.NO_REBINDING != context.rebindAfterNs())
            {
                isRebindScheduled = true;
                rebindAtNs = nowNs + context.rebindAfterNs();
            }
            if (null == clients.clientFor(source, nowNs))
            {
                forwardIo[SEND_FAILURES]++; // no port for a new client: the relay's own loss, like a full buffer
                continue;
            }
            // Its delay counts from its arrival, read before a new client's socket was opened (when no spare was
            // ready): the opening is the relay's own time, not the path's.
            offer(forward, batch, i, source, forwardAddress, nowNs);
        }
        batch.clear();
        return received;
    }

    /**
     * Read what the server sent to each client's port and offer it to the reverse direction, addressed to that client,
     * with the codepoint it arrived with. Datagrams to the port no client has yet are dropped and counted. An ICMP
     * port-unreachable reported on a restricted upstream port (the server is not up yet) counts in the port's answer
     * but is no datagram.
     */
    private int receiveFromServer()
    {
        final ReceiveBatch batch = upstreamReceiveBatch;
        int received = 0;
        final DatagramPort spare = clients.spare();
        if (null != spare)
        {
            spare.receive(batch, context.receiveBatch());
            received += batch.size();
            noClientDrops += batch.size();
            batch.clear();
        }
        for (int c = 0, size = clients.size(); c < size; c++)
        {
            final RelayClients.Client client = clients.client(c);
            client.upstream().receive(batch, context.receiveBatch());
            final int fromThisClient = batch.size();
            if (fromThisClient > 0)
            {
                client.touch(clock.nanoTime());
            }
            for (int i = 0; i < fromThisClient; i++)
            {
                countArrival(reverseIo, batch, i);
                offer(reverse, batch, i, batch.source(i), client.address(), clock.nanoTime());
            }
            batch.clear();
            received += fromThisClient;
        }
        return received;
    }

    private static void countArrival(final long[] io, final ReceiveBatch batch, final int i)
    {
        io[RECEIVED_PACKETS]++;
        io[RECEIVED_BYTES] += batch.length(i);
        if (EcnCodepoint.isEcnCapable(batch.ecnCodepoint(i)))
        {
            io[ECN_CAPABLE_PACKETS]++;
        }
    }

    private void offer(
        final LinkDirection link,
        final ReceiveBatch batch,
        final int i,
        final InetSocketAddress source,
        final InetSocketAddress destination,
        final long arrivalNs)
    {
        final int length = batch.length(i);
        final LinkPacket packet = pool.acquire(length);
        batch.buffer(i).getBytes(batch.offset(i), packet.data(), 0, length);
        packet.source(source).destination(destination).flowKey(FlowKeys.of(source, destination))
            .ecnCodepoint(batch.ecnCodepoint(i));
        link.offer(packet, arrivalNs);
    }

    /**
     * Send every packet whose delivery time has come, in batches, each with the ECN codepoint the link left it
     * (CE if the queue marked it): towards the server on its client's port, towards a client from the listen port. A
     * batch goes to one port, so a packet for another port sends the batch so far first.
     */
    private int release(final LinkDirection link, final long[] io, final Histogram intervalLateNs)
    {
        int released = 0;
        DatagramPort batchPort = null;
        LinkPacket packet;
        while (null != (packet = link.poll(clock.nanoTime())))
        {
            released++;
            final int length = packet.length();
            final DatagramPort port = portFor(link, packet);
            if (null == port)
            {
                io[SEND_FAILURES]++; // the client was forgotten while its datagram was on its way: the relay's loss
            }
            else
            {
                if (port != batchPort || !sendBatch.hasRoomFor(length))
                {
                    flush(batchPort, io);
                    batchPort = port;
                }
                sendBatch.buffer().putBytes(sendBatch.nextOffset(), packet.data(), 0, length);
                sendBatch.commit(length, (InetSocketAddress)packet.destination(), packet.ecnCodepoint());
            }
            final long lateNs = Math.max(0, clock.nanoTime() - link.lastDeliveryTimeNs());
            final long trackedLateNs = Math.min(lateNs, MAX_TRACKED_LATE_NS);
            releaseLateNs.recordValue(trackedLateNs);
            intervalLateNs.recordValue(trackedLateNs);
            pool.release(packet);
        }
        flush(batchPort, io);
        return released;
    }

    /**
     * @return the port a released packet leaves on: its client's port towards the server, or the listen port towards
     * a client; null if the client was forgotten.
     */
    private DatagramPort portFor(final LinkDirection link, final LinkPacket packet)
    {
        if (link == forward)
        {
            final RelayClients.Client client = clients.client((InetSocketAddress)packet.source());
            return null == client ? null : client.upstream();
        }
        return listenPort;
    }

    /**
     * Hand the batch to the port. A datagram not sent (a full socket buffer, or the server's port unreachable) is the
     * relay's own loss; the port sends a batch's datagrams in order, so those sent are the first ones.
     */
    private void flush(final DatagramPort port, final long[] io)
    {
        final int size = sendBatch.size();
        if (0 == size || null == port)
        {
            return;
        }
        final int sent = port.send(sendBatch);
        io[FORWARDED_PACKETS] += sent;
        io[FORWARDED_BYTES] += sent == size ? sendBatch.totalBytes() : sendBatch.offset(sent);
        io[SEND_FAILURES] += size - sent;
        sendBatch.clear();
    }

    /**
     * Wait for the next release: sleep on every socket until an arrival or the last spin threshold before the
     * release, or until the loop's own next duty (counters, a rebinding), whichever is first; spin the rest.
     */
    private void idle(final long nowNs, final long nextDutyNs)
    {
        final long nextEventNs = Math.min(forward.nextEventTimeNs(), reverse.nextEventTimeNs());
        final long gapNs = nextEventNs == Long.MAX_VALUE ? Long.MAX_VALUE : nextEventNs - nowNs;
        if (gapNs > SPARE_OPEN_MIN_GAP_NS && clients.openSpare(nowNs))
        {
            return; // the opening took time: look at the clock and the sockets again before waiting
        }
        if (gapNs > context.spinThresholdNs())
        {
            watchCurrentPorts();
            portWait.await(Math.min(Math.min(gapNs - context.spinThresholdNs(), nextDutyNs - nowNs),
                context.maxWaitNs()));
        }
        else
        {
            Thread.onSpinWait();
        }
    }

    /**
     * Point the wait at the sockets there are now, when clients came, went or were rebound since it last looked.
     */
    private void watchCurrentPorts()
    {
        final long membership = clients.membershipChanges();
        if (membership != watchedMembership)
        {
            watchedMembership = membership;
            int count = 0;
            watchedPorts[count++] = listenPort;
            watchedPorts[count++] = clients.spare();
            for (int c = 0, size = clients.size(); c < size; c++)
            {
                watchedPorts[count++] = clients.client(c).upstream();
            }
            portWait.watch(watchedPorts, count);
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
            io[SEND_FAILURES],
            io[ECN_CAPABLE_PACKETS],
            link.counters().queueMarkPackets());
    }

    /**
     * @return the port clients send to, bound; or a failure that says which address and why (e.g. "Address already
     * in use"), not only that the relay could not start.
     */
    private static DatagramPort listenOn(
        final PortFactory factory, final InetSocketAddress listenAddress, final int socketBufferBytes)
    {
        try
        {
            return factory.open(listenAddress, socketBufferBytes);
        }
        catch (final UncheckedIOException ex)
        {
            final IOException cause = ex.getCause();
            throw new UncheckedIOException("cannot listen on " + format(listenAddress) + ": " + cause.getMessage() +
                (cause instanceof BindException ? " (another relay or program may hold that port; pick another " +
                "with --listen)" : ""), cause);
        }
    }

    /**
     * @return the port towards the server: bound to the listen address's IP with a free port and restricted to the
     * forward address (a connected socket, which also hears of ICMP errors); or a failure that names the forward
     * address.
     */
    private static DatagramPort upstreamTo(
        final PortFactory factory,
        final InetSocketAddress forwardAddress,
        final InetSocketAddress listenAddress,
        final int socketBufferBytes)
    {
        final DatagramPort port = factory.open(new InetSocketAddress(listenAddress.getAddress(), 0), socketBufferBytes);
        if (!port.restrictTo(forwardAddress))
        {
            CloseHelper.quietClose(port);
            final boolean loopbackToElsewhere = listenAddress.getAddress().isLoopbackAddress() &&
                !forwardAddress.getAddress().isLoopbackAddress();
            throw new UncheckedIOException("cannot reach the forward address " + format(forwardAddress) + " from " +
                listenAddress.getAddress().getHostAddress() + ": the operating system refused to connect a socket " +
                "to it" + (loopbackToElsewhere ? " (a loopback listen address reaches this host only: listen on " +
                "0.0.0.0 or an address on the way to " + forwardAddress.getAddress().getHostAddress() + ")" : ""),
                new IOException("connect refused"));
        }
        return port;
    }

    private static String format(final InetSocketAddress address)
    {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    /**
     * Opens the relay's sockets.
     */
    @FunctionalInterface
    public interface PortFactory
    {
        /**
         * @param bindAddress       the local address.
         * @param socketBufferBytes SO_RCVBUF and SO_SNDBUF to request.
         * @return the open port.
         * @throws UncheckedIOException if it cannot be opened or bound.
         */
        DatagramPort open(InetSocketAddress bindAddress, int socketBufferBytes);
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
         * {@link #rebindAfterNs(long)}: the clients keep their source ports.
         */
        public static final long NO_REBINDING = Long.MAX_VALUE;

        /**
         * Default most clients at once, each holding a socket towards the server.
         */
        public static final int DEFAULT_MAX_CLIENTS = 64;

        /**
         * {@link #realtimePriority(int)}: the relay's thread keeps the normal scheduling policy.
         */
        public static final int NO_REALTIME_PRIORITY = 0;

        /**
         * Default time a client may be silent both ways before the relay forgets it and closes its socket: Linux
         * conntrack's {@code nf_conntrack_udp_timeout_stream}, 120 s.
         */
        public static final long DEFAULT_CLIENT_IDLE_TIMEOUT_NS = 120_000_000_000L;

        /**
         * Default spin threshold: spin instead of park when the next release is this close.
         */
        public static final long DEFAULT_SPIN_THRESHOLD_NS = 100_000L;

        /**
         * Default longest park where the relay's sockets cannot be waited on together (ports of another kind, or the
         * sub-millisecond part of a wait on NIO ports): bounds how late an arrival is noticed there.
         */
        public static final long DEFAULT_MAX_PARK_NS = 50_000L;

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
        private long maxWaitNs = Long.MAX_VALUE;
        private int receiveBatch = 64;
        private int maxClients = DEFAULT_MAX_CLIENTS;
        private long clientIdleTimeoutNs = DEFAULT_CLIENT_IDLE_TIMEOUT_NS;
        private long rebindAfterNs = NO_REBINDING;
        private int realtimePriority = NO_REALTIME_PRIORITY;
        private Path countersDirectory;
        private PortFactory portFactory = NioDatagramPort::open;

        Context conclude()
        {
            if (null == listenAddress || null == forwardAddress || null == path)
            {
                throw new IllegalStateException("listen address, forward address and path are required");
            }
            if (reportIntervalNs <= 0 || socketBufferBytes <= 0 || spinThresholdNs < 0 || maxParkNs <= 0 ||
                maxWaitNs <= 0 || receiveBatch <= 0 || maxClients <= 0 || clientIdleTimeoutNs <= 0 ||
                (NO_REBINDING != rebindAfterNs && rebindAfterNs <= 0))
            {
                throw new IllegalStateException("intervals, sizes, batch and client limits must be positive");
            }
            if (NO_REALTIME_PRIORITY != realtimePriority &&
                (realtimePriority < RealtimePriority.MIN || realtimePriority > RealtimePriority.MAX))
            {
                throw new IllegalStateException("realtimePriority must be a SCHED_FIFO priority, " +
                    RealtimePriority.MIN + "-" + RealtimePriority.MAX + ", or NO_REALTIME_PRIORITY (" +
                    NO_REALTIME_PRIORITY + "): " + realtimePriority);
            }
            return this;
        }

        /**
         * The relay's thread runs {@code SCHED_FIFO} at this priority ({@link RealtimePriority}), as a network's
         * forwarding runs beside the hosts rather than among their threads: at a normal priority, on a machine whose
         * cores the endpoints keep busy, its releases wait for the scheduler's next preemption point and the path's
         * delay grows with the endpoints' load. If the process may not, the relay runs as before and says why
         * ({@link RelayReporter#onRealtimePriority}).
         *
         * @param priority 1-99, or {@link #NO_REALTIME_PRIORITY} (the default) for the normal policy.
         * @return this.
         */
        public Context realtimePriority(final int priority)
        {
            this.realtimePriority = priority;
            return this;
        }

        /**
         * @return the relay thread's {@code SCHED_FIFO} priority, or {@link #NO_REALTIME_PRIORITY}.
         */
        public int realtimePriority()
        {
            return realtimePriority;
        }

        /**
         * @param rebindAfterNs how long after the first client's first datagram the relay gives every client a new
         *                      source port towards the server, once, as a NAT that rebinds
         *                      ({@link #NO_REBINDING}: never).
         * @return this.
         */
        public Context rebindAfterNs(final long rebindAfterNs)
        {
            this.rebindAfterNs = rebindAfterNs;
            return this;
        }

        /**
         * @return how long after the first datagram the clients' source ports change, or {@link #NO_REBINDING}.
         */
        public long rebindAfterNs()
        {
            return rebindAfterNs;
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
         * @param maxParkNs the longest single park where the sockets cannot be waited on together.
         * @return this.
         */
        public Context maxParkNs(final long maxParkNs)
        {
            this.maxParkNs = maxParkNs;
            return this;
        }

        /**
         * @return the longest single park where the sockets cannot be waited on together.
         */
        public long maxParkNs()
        {
            return maxParkNs;
        }

        /**
         * The longest single sleep on the sockets. By default none: the relay sleeps until an arrival, the last spin
         * threshold before its next release, or its next counters update (every 100 ms). Measured in the relay's
         * {@link #clock(NanoClock) clock} but slept in real time, so a clock that does not follow real time (a
         * test's) needs it short.
         *
         * @param maxWaitNs the longest single sleep, positive.
         * @return this.
         */
        public Context maxWaitNs(final long maxWaitNs)
        {
            this.maxWaitNs = maxWaitNs;
            return this;
        }

        /**
         * @return the longest single sleep on the sockets.
         */
        public long maxWaitNs()
        {
            return maxWaitNs;
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

        /**
         * @param factory opens the relay's sockets: the NIO port by default; the batched port (Linux
         *                {@code sendmmsg}/{@code recvmmsg}) carries the ECN field both ways, so ECN crosses the relay.
         * @return this.
         */
        public Context portFactory(final PortFactory factory)
        {
            this.portFactory = factory;
            return this;
        }

        /**
         * @return what opens the relay's sockets.
         */
        public PortFactory portFactory()
        {
            return portFactory;
        }
    }
}
