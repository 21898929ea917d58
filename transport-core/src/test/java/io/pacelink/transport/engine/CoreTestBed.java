package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.schedule.RoundRobinScheduler;
import io.pacelink.transport.stats.CountersBuffers;
import io.pacelink.transport.testing.TestNetwork;
import org.agrona.concurrent.NanoClock;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Endpoint cores driven by hand for the engine's tests: cores over an in-memory network, small buffers and the
 * fixed-window test controller, time advanced in steps by the test. No sockets, no threads, no sleeps, and no
 * unseeded randomness: every core draws from a seed of its own unless the test gives one
 * ({@link PacelinkContext#randomSeed(long)}), so a run repeats the last one exactly.
 */
final class CoreTestBed
{
    static final long STEP_NS = TimeUnit.MICROSECONDS.toNanos(100);

    /**
     * The first core's seed; each core made after it takes the next. From {@code SecureRandom} the cores drew their
     * connection ids and their skipped packet numbers (RFC 9000 section 21.4) differently in every run: a skip that
     * fell on a counted packet made the peer acknowledge at once (RFC 9000 section 13.2.1), and a test that counts
     * a duty cycle's services failed in about one run in 200 (DutyCycleClockTest).
     */
    static final long FIRST_SEED = 0x5EED_0001L;

    private final TestNetwork network = new TestNetwork();
    private final List<EndpointCore> cores = new ArrayList<>();
    private final Map<EndpointCore, ArrayDeque<Connection>> acceptedBy = new IdentityHashMap<>();
    private final Map<EndpointCore, Integer> acceptCapacityBy = new IdentityHashMap<>();
    private final long idleTimeoutNs;
    private final long handshakeTimeoutNs;
    private final Map<EndpointCore, RunningClock> clockBy = new IdentityHashMap<>();
    private long nowNs = TimeUnit.SECONDS.toNanos(1);
    private int countersBufferBytes = 256 * 1024;
    private long coresMade;

    /**
     * @param idleTimeoutNs      every core's idle timeout.
     * @param handshakeTimeoutNs every core's handshake timeout.
     */
    CoreTestBed(final long idleTimeoutNs, final long handshakeTimeoutNs)
    {
        this.idleTimeoutNs = idleTimeoutNs;
        this.handshakeTimeoutNs = handshakeTimeoutNs;
    }

    /**
     * @param bytes the counters buffer of the cores made from now on (256 KiB unless set).
     */
    void countersBufferBytes(final int bytes)
    {
        countersBufferBytes = bytes;
    }

    TestNetwork network()
    {
        return network;
    }

    long nowNs()
    {
        return nowNs;
    }

    EndpointCore newCore(final TestNetwork.Port port, final boolean accept, final int maxConnections)
    {
        return newCore(port, accept, maxConnections, new PacelinkContext(), new ArrayList<>(), null);
    }

    /**
     * @param port        the core's port: the in-memory network's, or a real socket's.
     * @param context     settings beyond the test bed's (which it sets on top); without a seed of its own the core
     *                    gets the bed's next ({@link #FIRST_SEED}).
     * @param controllers receives every controller the core creates.
     * @param registry    the controllers the endpoint has, or null for the fixed-window test controller only.
     */
    EndpointCore newCore(
        final DatagramPort port,
        final boolean accept,
        final int maxConnections,
        final PacelinkContext context,
        final List<FixedWindowController> controllers,
        final CongestionControlRegistry registry)
    {
        if (null == context.randomSeed())
        {
            context.randomSeed(FIRST_SEED + coresMade);
        }
        coresMade++;
        context
            .congestionControl(FixedWindowController.NAME)
            .acceptConnections(accept)
            .maxConnections(maxConnections)
            .sendBufferBytes(256 * 1024)
            .receiveBufferBytes(256 * 1024)
            .maxMessageLengthBytes(64 * 1024)
            .idleTimeoutNs(idleTimeoutNs)
            .handshakeTimeoutNs(handshakeTimeoutNs)
            .initialRttNs(TimeUnit.MILLISECONDS.toNanos(10))
            .countersBufferBytes(countersBufferBytes);
        final ArrayDeque<Connection> accepted = new ArrayDeque<>();
        final EndpointCore[] self = new EndpointCore[1];
        final EndpointCore core = new EndpointCore(
            context,
            port,
            null != registry ? registry :
                CongestionControlRegistry.of(FixedWindowController.factory(64 * 1024, controllers)),
            new RoundRobinScheduler(),
            CountersBuffers.newManager(countersBufferBytes),
            (connection) -> accepted.size() < acceptCapacityBy.getOrDefault(self[0], Integer.MAX_VALUE) &&
                accepted.add(connection));
        self[0] = core;
        cores.add(core);
        acceptedBy.put(core, accepted);
        return core;
    }

    /**
     * @param core     a core of this test bed.
     * @param capacity how many accepted connections its application's queue holds from now on.
     */
    void acceptCapacity(final EndpointCore core, final int capacity)
    {
        acceptCapacityBy.put(core, capacity);
    }

    /**
     * Stop driving a core, as a process that stopped: what reaches its port stays there.
     */
    void stop(final EndpointCore core)
    {
        cores.remove(core);
    }

    Connection accept(final EndpointCore core)
    {
        return acceptedBy.get(core).poll();
    }

    void run(final BooleanSupplier until, final long maxNs, final String what)
    {
        final long endNs = nowNs + maxNs;
        while (!until.getAsBoolean())
        {
            assertTrue(nowNs < endNs, () -> "timed out waiting for " + what);
            step();
        }
    }

    void runFor(final long durationNs)
    {
        final long endNs = nowNs + durationNs;
        while (nowNs < endNs)
        {
            step();
        }
    }

    /**
     * Drive a core's duty cycles on a running clock ({@link EndpointCore#doWork(NanoClock)}) that moves on by
     * {@code nsPerRead} at every read, as on a machine where each step of a cycle takes time; the test bed's time
     * catches it up at the start of every cycle, so its time never goes back.
     */
    void runOnClock(final EndpointCore core, final long nsPerRead)
    {
        clockBy.put(core, new RunningClock(nsPerRead));
    }

    void step()
    {
        nowNs += STEP_NS;
        for (final EndpointCore core : cores)
        {
            final RunningClock clock = clockBy.get(core);
            if (null == clock)
            {
                core.doWork(nowNs);
            }
            else
            {
                clock.catchUp(nowNs);
                core.doWork(clock);
            }
        }
    }

    /**
     * A clock that moves on at every read.
     */
    private static final class RunningClock implements NanoClock
    {
        private final long nsPerRead;
        private long timeNs;

        RunningClock(final long nsPerRead)
        {
            this.nsPerRead = nsPerRead;
        }

        void catchUp(final long nowNs)
        {
            timeNs = Math.max(timeNs, nowNs);
        }

        public long nanoTime()
        {
            final long readNs = timeNs;
            timeNs += nsPerRead;
            return readNs;
        }
    }

    /**
     * @return the client's and the server's side of a new connection, both CONNECTED.
     */
    Connection[] connect(final EndpointCore client, final EndpointCore server, final DatagramPort serverPort)
    {
        final Connection clientSide = client.connect(serverPort.localAddress(), null, nowNs);
        final Connection[] serverSide = new Connection[1];
        run(() -> (null != serverSide[0] || null != (serverSide[0] = accept(server))) &&
            ConnectionState.CONNECTED == clientSide.state(), TimeUnit.SECONDS.toNanos(1), "connect");
        return new Connection[]{ clientSide, serverSide[0] };
    }
}
