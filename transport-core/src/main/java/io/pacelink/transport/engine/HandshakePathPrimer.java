package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.SecurityConfig;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.schedule.PacketSchedulers;
import io.pacelink.transport.secure.X25519;
import io.pacelink.transport.stats.CountersBuffers;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Runs an endpoint's handshake path — both ends of it, in the endpoint's security mode — over and over in a fresh
 * process before the endpoint serves anyone, so that the code is compiled, not only loaded, when the first clients
 * (or the first burst of a flood) arrive. In a fresh JVM the handshake path runs interpreted and then C1-compiled for
 * its first few hundred connects, while the compilers take the cores the agents need: one connect at a time took
 * 1.8–2.5 ms on loopback after ~220 connects where a warm process takes ~0.1 ms, a server's first connect took 3–7
 * round trips, and a flood's first second stalled the agent behind the JIT compiling the very code it ran
 * (perf/FINDINGS.md, "Trust round 4", "One connect at a time, on warm ends"). HotSpot compiles a method once it has
 * run often enough (tiered compilation's invocation and back-edge thresholds), so the only way to have it compiled
 * before the first client is to run it before the first client.
 * <p>
 * The handshakes run between throwaway endpoint cores over an in-memory network ({@link PrimingNetwork}) in virtual
 * time: a server with a throwaway key (or pre-shared key) and the endpoint's controller, scheduler and AEAD, a client
 * that pins that key and, in the secure mode, a client that learns it from the server's RETRY and trusts it on first
 * use as the command-line clients do (so the RETRY path, its token and the tokened hello run too); each connect is
 * followed by an abortive close of both sides and a pause long enough for the server's per-source limits. Nothing of
 * the endpoint itself is touched: its counters, memory budget, keys and tables never see a primed connection. The loop
 * stops after {@code maxHandshakes} connects or when {@code budgetNs} of wall time has passed, whichever is first;
 * what it costs is that time on the launching thread, plus the compilations it triggers, which the JIT's own threads
 * finish in the background.
 */
public final class HandshakePathPrimer
{
    /**
     * Most connects one priming runs: enough for HotSpot to compile with C2 what runs several times per handshake,
     * and with C1 (its tier-3 threshold is 200 invocations) what runs once.
     */
    public static final int DEFAULT_MAX_HANDSHAKES = 2_000;

    /**
     * Most connects the launch's priming and the background one after it run in all: past HotSpot's tier-4 (C2)
     * invocation threshold (5,000) for what runs once a handshake, so that a server's hello path is C2-compiled before
     * a flood that comes in its first idle seconds.
     */
    public static final int BACKGROUND_MAX_HANDSHAKES = 6_000;

    /**
     * Virtual time between two duty cycles while datagrams are on the way.
     */
    private static final long STEP_NS = TimeUnit.MICROSECONDS.toNanos(50);

    /**
     * Virtual time from one connect to the next: 83 a second from the one address both clients share, under a
     * server's default per-source limits ({@link io.pacelink.transport.EndpointLimits#handshakesPerSecondPerSource}),
     * so no hello is dropped or delayed by them.
     */
    private static final long CONNECT_SPACING_NS = TimeUnit.MILLISECONDS.toNanos(12);

    /**
     * Every this many connects, the trust-on-first-use client connects instead of the pinning one (secure mode).
     */
    private static final int LEARNING_CLIENT_EVERY = 4;

    /**
     * The priming network's round trip is a few steps: a closed connection's closing or draining period (three PTOs,
     * RFC 9000 section 10.2), which starts from this estimate on a side without an RTT sample, is then a few
     * milliseconds, and the server holds a few connections at a time, not the last hundreds.
     */
    private static final long INITIAL_RTT_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * The priming cores hold a few connections at a time: their counters need little room.
     */
    private static final int COUNTERS_BUFFER_BYTES = 256 * 1024;

    /**
     * What each security mode's priming did in this process, by {@link #mode}: the JIT's state is the process's, so
     * each mode is primed once.
     */
    private static final Map<String, Result> RESULTS_BY_MODE = new ConcurrentHashMap<>();

    /**
     * What each security mode's background priming did in this process, by {@link #mode}, once it ended.
     */
    private static final Map<String, Result> BACKGROUND_RESULTS_BY_MODE = new ConcurrentHashMap<>();

    private final List<EndpointCore> cores = new ArrayList<>();
    private final ArrayDeque<Connection> accepted = new ArrayDeque<>();
    private final PrimingNetwork network = new PrimingNetwork();
    private final InetSocketAddress serverAddress;
    private final EndpointCore server;
    private final EndpointCore pinningClient;
    private final EndpointCore learningClient;
    private long nowNs = TimeUnit.SECONDS.toNanos(1);
    private String mode;
    private int remaining;
    private int backgroundConnects;
    private int backgroundConnected;

    /**
     * What a priming did.
     *
     * @param connects  connects started.
     * @param connected of them, connects that reached CONNECTED.
     * @param elapsedNs wall time it took.
     */
    public record Result(int connects, int connected, long elapsedNs)
    {
    }

    private HandshakePathPrimer(final PacelinkContext endpointContext, final CongestionControlRegistry registry)
    {
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        serverAddress = new InetSocketAddress(loopback, 1);
        final SecurityConfig security = endpointContext.security();
        // The endpoint's own random source (SecureRandom for every endpoint that primes): keys nobody else sees.
        final LongSupplier random = endpointContext.newRandomSource();
        byte[] serverKey = null;
        byte[] serverPublicKey = null;
        byte[] preSharedKey = null;
        if (null != security.preSharedKey())
        {
            preSharedKey = randomKey(random);
        }
        else if (security.isSecure())
        {
            serverKey = randomKey(random);
            serverPublicKey = new X25519().publicKey(serverKey);
        }

        final PacelinkContext serverContext = context(endpointContext, serverAddress).acceptConnections(true);
        serverContext.security().serverPrivateKey(serverKey).preSharedKey(preSharedKey);
        server = core(serverContext, registry, accepted::add);

        final PacelinkContext pinningContext =
            context(endpointContext, new InetSocketAddress(loopback, 2)).acceptConnections(false);
        pinningContext.security().serverPublicKey(serverPublicKey).preSharedKey(preSharedKey);
        pinningClient = core(pinningContext, registry, (connection) -> false);

        if (null != serverKey)
        {
            final PacelinkContext learningContext =
                context(endpointContext, new InetSocketAddress(loopback, 3)).acceptConnections(false);
            learningContext.security().serverKeyVerifier((address, key) -> null);
            learningClient = core(learningContext, registry, (connection) -> false);
        }
        else
        {
            learningClient = null;
        }
    }

    /**
     * Prime the handshake path for an endpoint about to be launched with this context, unless this process already
     * did for its security mode or the context's {@link PacelinkContext#handshakePrimingNs()} is 0. Endpoints launched
     * at once on several threads may each prime.
     *
     * @param endpointContext the endpoint's context, concluded; read, never changed.
     * @param registry        the controllers the endpoint has.
     * @return what the priming did, or null if none ran.
     */
    public static Result primeOnce(final PacelinkContext endpointContext, final CongestionControlRegistry registry)
    {
        final String mode = mode(endpointContext.security());
        if (0 == endpointContext.handshakePrimingNs() || RESULTS_BY_MODE.containsKey(mode))
        {
            return null;
        }
        final Result result = prime(endpointContext, registry, DEFAULT_MAX_HANDSHAKES,
            endpointContext.handshakePrimingNs(), endpointContext.nanoClock());
        RESULTS_BY_MODE.put(mode, result);
        return result;
    }

    /**
     * A priming to go on with after the endpoint's launch, up to {@link #BACKGROUND_MAX_HANDSHAKES} connects in all
     * (io.pacelink.transport.agent.BackgroundPriming runs it, one connect at a time, while the endpoint idles). The
     * launch's priming stops at {@link #DEFAULT_MAX_HANDSHAKES} or after its second, and on a slow or loaded machine
     * that second ran only tens to a few hundred secure handshakes: below C1's tier-3 threshold (200 invocations) for
     * what runs once a handshake, and every time below C2's (HotSpot's {@code Tier4InvocationThreshold}, 5,000), so a
     * flood that comes in a server's first seconds met its hello path interpreted or C1-compiled, and C2 compiling it
     * 4-5 s into the flood beside the agent (perf/FINDINGS.md, "The flood check: the probes follow the attacker"). One
     * per security mode and process, as the launch's priming.
     *
     * @param endpointContext the endpoint's context, concluded; read, never changed.
     * @param registry        the controllers the endpoint has.
     * @return the priming to go on with, or null if the launch's did not run or one goes on already.
     */
    public static HandshakePathPrimer continuing(
        final PacelinkContext endpointContext, final CongestionControlRegistry registry)
    {
        final String mode = mode(endpointContext.security());
        final Result launched = RESULTS_BY_MODE.get(mode);
        if (null == launched || launched.connects() >= BACKGROUND_MAX_HANDSHAKES ||
            0 == endpointContext.handshakePrimingNs() ||
            null != BACKGROUND_RESULTS_BY_MODE.putIfAbsent(mode, new Result(0, 0, 0)))
        {
            return null;
        }
        final HandshakePathPrimer primer =
            forConnects(endpointContext, registry, BACKGROUND_MAX_HANDSHAKES - launched.connects());
        primer.mode = mode;
        return primer;
    }

    /**
     * A priming of {@code connects} connects, run one at a time by {@link #primeOne()}; what it did is recorded
     * nowhere but in {@link #finish}'s result.
     *
     * @param endpointContext the endpoint's context, concluded; read, never changed.
     * @param registry        the controllers the endpoint has.
     * @param connects        the most connects to run.
     * @return the priming.
     */
    public static HandshakePathPrimer forConnects(
        final PacelinkContext endpointContext, final CongestionControlRegistry registry, final int connects)
    {
        final HandshakePathPrimer primer = new HandshakePathPrimer(endpointContext, registry);
        primer.remaining = connects;
        return primer;
    }

    /**
     * Run the next connect of a {@link #continuing} priming.
     *
     * @return false, running nothing, once it ran the connects the launch's priming left.
     */
    public boolean primeOne()
    {
        if (backgroundConnects >= remaining)
        {
            return false;
        }
        final EndpointCore client = null != learningClient &&
            LEARNING_CLIENT_EVERY - 1 == backgroundConnects % LEARNING_CLIENT_EVERY ? learningClient : pinningClient;
        backgroundConnects++;
        backgroundConnected += connectOnce(client) ? 1 : 0;
        return true;
    }

    /**
     * End a {@link #continuing} priming: its cores closed, what it did recorded.
     *
     * @param elapsedNs the wall time it went on for.
     * @return what it did.
     */
    public Result finish(final long elapsedNs)
    {
        close();
        final Result result = new Result(backgroundConnects, backgroundConnected, elapsedNs);
        if (null != mode)
        {
            BACKGROUND_RESULTS_BY_MODE.put(mode, result);
        }
        return result;
    }

    /**
     * @param security an endpoint's security settings.
     * @return what this process's background priming for that security mode did once it ended (connects 0 while it
     * runs), or null if none was started.
     */
    public static Result primedInBackground(final SecurityConfig security)
    {
        return BACKGROUND_RESULTS_BY_MODE.get(mode(security));
    }

    /**
     * @param security an endpoint's security settings.
     * @return what this process's priming for that security mode did, or null if it has not primed it.
     */
    public static Result primed(final SecurityConfig security)
    {
        return RESULTS_BY_MODE.get(mode(security));
    }

    /**
     * @return the security mode's name: the handshakes a priming runs differ only by it.
     */
    private static String mode(final SecurityConfig security)
    {
        return null != security.preSharedKey() ? "psk" : security.isSecure() ? "secure" : "plaintext";
    }

    /**
     * Prime the handshake path of an endpoint about to be launched with this context.
     *
     * @param endpointContext the endpoint's context, concluded; read, never changed.
     * @param registry        the controllers the endpoint has.
     * @param maxHandshakes   the most connects to run.
     * @param budgetNs        the longest wall time to spend; no connect starts after it.
     * @param clock           the wall clock the budget is measured on.
     * @return what it did.
     */
    public static Result prime(
        final PacelinkContext endpointContext,
        final CongestionControlRegistry registry,
        final int maxHandshakes,
        final long budgetNs,
        final NanoClock clock)
    {
        final long startNs = clock.nanoTime();
        final HandshakePathPrimer primer = new HandshakePathPrimer(endpointContext, registry);
        int connects = 0;
        int connected = 0;
        while (connects < maxHandshakes && clock.nanoTime() - startNs < budgetNs)
        {
            final EndpointCore client = null != primer.learningClient &&
                LEARNING_CLIENT_EVERY - 1 == connects % LEARNING_CLIENT_EVERY ?
                primer.learningClient : primer.pinningClient;
            connects++;
            connected += primer.connectOnce(client) ? 1 : 0;
        }
        primer.close();
        return new Result(connects, connected, clock.nanoTime() - startNs);
    }

    /**
     * One connect, to CONNECTED or the handshake timeout, then both sides closed at once and the spacing waited.
     *
     * @return true if the connect reached CONNECTED.
     */
    private boolean connectOnce(final EndpointCore client)
    {
        final Connection connection = client.connect(serverAddress, null, nowNs);
        final long giveUpNs = nowNs + PacelinkContext.DEFAULT_HANDSHAKE_TIMEOUT_NS;
        while (ConnectionState.CONNECTING == connection.state() && nowNs - giveUpNs < 0)
        {
            step(giveUpNs);
        }
        final boolean isConnected = ConnectionState.CONNECTED == connection.state();
        // The server takes the connection when the client's first packet confirms it: a step or two later.
        final long nextConnectNs = nowNs + CONNECT_SPACING_NS;
        while (isConnected && accepted.isEmpty() && nowNs - nextConnectNs < 0)
        {
            step(nextConnectNs);
        }
        connection.closeNow();
        for (Connection serverSide = accepted.poll(); null != serverSide; serverSide = accepted.poll())
        {
            serverSide.closeNow();
        }
        while (nowNs - nextConnectNs < 0)
        {
            step(nextConnectNs);
        }
        return isConnected;
    }

    /**
     * One duty cycle of every core at the current virtual time, then time moves on: by a step while datagrams are on
     * the way, else to the earliest deadline of any core (at most {@code untilNs}).
     */
    private void step(final long untilNs)
    {
        for (int i = 0, size = cores.size(); i < size; i++)
        {
            cores.get(i).doWork(nowNs);
        }
        long nextNs = untilNs;
        if (network.inFlight() > 0)
        {
            nextNs = nowNs + STEP_NS;
        }
        else
        {
            for (int i = 0, size = cores.size(); i < size; i++)
            {
                final long deadlineNs = cores.get(i).nextDeadlineNs();
                nextNs = deadlineNs - nextNs < 0 ? deadlineNs : nextNs;
            }
        }
        nowNs = Math.max(nowNs + STEP_NS, Math.min(nextNs, untilNs));
    }

    private void close()
    {
        for (final EndpointCore core : cores)
        {
            core.close(nowNs);
        }
        cores.clear();
    }

    private static byte[] randomKey(final LongSupplier random)
    {
        final byte[] key = new byte[SecurityConfig.KEY_LENGTH];
        final UnsafeBuffer view = new UnsafeBuffer(key);
        for (int i = 0; i < key.length; i += Long.BYTES)
        {
            view.putLong(i, random.getAsLong());
        }
        return key;
    }

    private static PacelinkContext context(final PacelinkContext endpointContext, final InetSocketAddress address)
    {
        final PacelinkContext context = new PacelinkContext()
            .congestionControl(endpointContext.congestionControl())
            .controllerParameters(endpointContext.controllerParameters())
            .packetScheduler(endpointContext.packetScheduler())
            .schedulerParameters(endpointContext.schedulerParameters())
            .ackFrequency(endpointContext.ackFrequency())
            .initialRttNs(INITIAL_RTT_NS)
            .countersBufferBytes(COUNTERS_BUFFER_BYTES)
            .countersFile(false)
            .bindAddress(address);
        context.security().aead(endpointContext.security().aead().noiseName());
        return context;
    }

    private EndpointCore core(
        final PacelinkContext context, final CongestionControlRegistry registry, final AcceptHandler acceptHandler)
    {
        final PrimingNetwork.Port port = network.newPort(context.bindAddress());
        context.datagramPort(port).conclude();
        final CountersManager counters = CountersBuffers.newManager(context.countersBufferBytes());
        final EndpointCore core = new EndpointCore(context, port, registry,
            PacketSchedulers.newScheduler(context.packetScheduler(), context.schedulerParameters(), counters),
            counters, acceptHandler);
        cores.add(core);
        return core;
    }
}
