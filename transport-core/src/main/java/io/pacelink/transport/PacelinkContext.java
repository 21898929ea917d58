package io.pacelink.transport;

import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.ImpairmentConfig;
import io.pacelink.transport.port.PortType;
import io.pacelink.transport.stats.CountersFile;
import io.pacelink.transport.stats.CountersSizing;
import org.agrona.ErrorHandler;
import io.pacelink.transport.agent.DeadlineIdleStrategy;
import io.pacelink.transport.agent.PortWaitIdleStrategy;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Configuration of an {@link Endpoint}, with validated fluent setters: a bad value fails at the setter with a
 * message that says which setting, what was given and what is accepted. Durations are in nanoseconds and sizes in
 * bytes, as the setters' names say.
 */
public final class PacelinkContext
{
    /**
     * UDP payload of a 1500-byte Ethernet MTU over IPv4: 1500 - 20 (IP) - 8 (UDP).
     */
    public static final int DEFAULT_MAX_DATAGRAM_SIZE_BYTES = 1472;

    /**
     * Smallest datagram a path must carry (QUIC's minimum, RFC 9000 section 14).
     */
    public static final int MIN_DATAGRAM_SIZE_BYTES = 1200;

    /**
     * Largest UDP payload.
     */
    public static final int MAX_DATAGRAM_SIZE_BYTES = 65_507;

    /**
     * 1 ms, LAN friendly (the ACK policy of docs/wire-format.md).
     */
    public static final long DEFAULT_MAX_ACK_DELAY_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * Largest {@link #maxThinnedAckThreshold(int)}: an ACK frame acknowledges a whole batch anyway, but a sender
     * whose window holds fewer packets than this would wait for the pause that ends a thinned ACK's wait.
     */
    public static final int MAX_THINNED_ACK_THRESHOLD = 64;

    /**
     * RFC 9002 section 6.2.2 kInitialRtt.
     */
    public static final long DEFAULT_INITIAL_RTT_NS = TimeUnit.MILLISECONDS.toNanos(333);

    public static final long DEFAULT_IDLE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    public static final long DEFAULT_HANDSHAKE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * How long a graceful close may take by default: as long as the idle timeout, so a peer that is alive but has
     * stopped reading fails the close about when a dead one would time out.
     */
    public static final long DEFAULT_LINGER_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    /**
     * The longest the launch of an endpoint that accepts connections spends running its handshake path before it
     * serves anyone, by default ({@link #handshakePrimingNs(long)}).
     */
    public static final long DEFAULT_HANDSHAKE_PRIMING_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long UNSET_HANDSHAKE_PRIMING_NS = -1;

    /**
     * System property: {@code off} makes the priming a launch runs by default none in this JVM — the handshake
     * priming of an endpoint that accepts connections ({@link #handshakePrimingNs()}), and the transfer priming of a
     * {@code pacelink perf} client ({@code --prime}) — while a priming set explicitly still runs; {@code on} (or
     * unset) keeps the defaults. For processes that live for seconds and are not measured: a test harness's child
     * processes, a one-off command in a script. Any other value fails the launch saying so.
     */
    public static final String LAUNCH_PRIMING_PROPERTY = "pacelink.launchPriming";
    public static final int DEFAULT_SEND_BUFFER_BYTES = 32 * 1024 * 1024;
    public static final int DEFAULT_RECEIVE_BUFFER_BYTES = 32 * 1024 * 1024;

    /**
     * How many bytes may wait unsent in a connection's send buffer before {@code offer} back-pressures the
     * application, by default: 1 GiB, the largest send buffer, so the mark never binds and only the buffer's capacity
     * back-pressures (Linux's {@code TCP_NOTSENT_LOWAT} is off by default too). Measured on two cores (loopback bulk,
     * perf/FINDINGS.md, "log14"), a 1-MiB mark lowered an INVOKER sender's CPU per byte and raised its throughput,
     * but raised the default profile's (DEDICATED) CPU per byte and lowered its throughput: there the application's
     * thread shares the cores with the agents, and a mark must also cover a scheduler's time slice. An INVOKER
     * endpoint has its own default, {@link #DEFAULT_INVOKER_UNSENT_LOW_WATERMARK_BYTES}.
     */
    public static final int DEFAULT_UNSENT_LOW_WATERMARK_BYTES = 1 << 30;

    /**
     * The unsent low watermark of an {@link ThreadingMode#INVOKER} endpoint by default, unless one duty cycle's sends
     * ({@link #sendBatchLimit()} datagrams of {@link #maxDatagramSizeBytes()}) are more. An INVOKER application's
     * thread runs the duty cycle itself and offers again right after it, so the mark needs to cover only what one
     * duty cycle sends ({@link #DEFAULT_INVOKER_SEND_BATCH_LIMIT} datagrams: 188 KB at 1,472 bytes) and what the
     * pacer releases while that thread waits for the endpoint's next deadline; the scheduler's time slice that a
     * DEDICATED agent may send through while the
     * application's thread waits for a core (the reason {@link #DEFAULT_UNSENT_LOW_WATERMARK_BYTES} is off) does not
     * arise. What it buys on loopback (perf/FINDINGS.md, "bulk15"): the application writes each byte a few duty cycles
     * before a packet copies it out, into segments the log reuses, instead of a whole 32-MiB buffer earlier, so both
     * copies find their bytes in the cache.
     */
    public static final int DEFAULT_INVOKER_UNSENT_LOW_WATERMARK_BYTES = 1 << 20;

    /**
     * The datagrams one duty cycle sends at most by default ({@link #sendBatchLimit()}): one {@code sendmmsg} of up
     * to 64 messages on the batched port.
     */
    public static final int DEFAULT_SEND_BATCH_LIMIT = 64;

    /**
     * The datagrams one duty cycle of an {@link ThreadingMode#INVOKER} endpoint sends at most by default. Such an
     * endpoint's application runs the duty cycle in its own loop and offers again right after it, so a bulk sender's
     * cycles follow each other without a wait, and each pays its receive call, clock reads, ACK service and
     * scheduling once however many packets it sends: twice the datagrams a cycle halves that part of a packet's cost
     * (perf/FINDINGS.md, branch bulk24). The limit binds only where the pacer does not hold the sender (loopback):
     * on a paced path a cycle ends at the pacer's release first (at most 64 KiB ahead). The batched port sends up to
     * 64 messages per {@code sendmmsg}, so a cycle of 128 datagrams without GSO takes two calls. DEDICATED and
     * SHARED keep {@link #DEFAULT_SEND_BATCH_LIMIT}.
     */
    public static final int DEFAULT_INVOKER_SEND_BATCH_LIMIT = 128;

    /**
     * The smallest unsent low watermark: 16 KiB, about eleven full packets, the value commonly used with Linux's
     * {@code TCP_NOTSENT_LOWAT} for latency-sensitive streams.
     */
    public static final int MIN_UNSENT_LOW_WATERMARK_BYTES = 16 * 1024;

    /**
     * The largest unsent low watermark, and the default: the largest send buffer, 1 GiB. A mark at or above
     * {@link #sendBufferBytes()} never binds: only the buffer's capacity back-pressures, as before the mark existed.
     */
    public static final int MAX_UNSENT_LOW_WATERMARK_BYTES = DEFAULT_UNSENT_LOW_WATERMARK_BYTES;
    public static final int DEFAULT_MAX_MESSAGE_LENGTH_BYTES = 16 * 1024 * 1024;
    public static final int DEFAULT_SENT_PACKET_CAPACITY = 64 * 1024;

    /**
     * What the default memory budget ({@link EndpointLimits#DEFAULT_MEMORY_BUDGET_BYTES}, 1 GiB) holds at the 64 KiB
     * an idle connection may cost (docs/security.md, "Memory"; an idle connection measures well under that).
     */
    public static final int DEFAULT_MAX_CONNECTIONS = 16_384;

    /**
     * The UDP socket's receive and send buffer to ask for: 8 MiB, so a receiver that falls behind a 1 Gbit/s arrival
     * for tens of milliseconds (descheduled on a busy machine) loses nothing, as kernel TCP's autotuned receive buffer
     * does not (its {@code tcp_rmem} maximum is 6 MiB by default, and often raised). The kernel caps the request at
     * {@code net.core.rmem_max} / {@code wmem_max}; the batched port of a privileged process goes past the cap
     * (docs/io.md, "Socket buffers"). A socket holds memory only for what is queued in it.
     */
    public static final int DEFAULT_SOCKET_BUFFER_BYTES = 8 * 1024 * 1024;

    /**
     * The counters buffer's size before it was sized from {@link #maxConnections()}; now the largest default kept in
     * memory ({@link CountersSizing#MAX_IN_MEMORY_VALUES_BUFFER_BYTES}).
     *
     * @deprecated the default is sized to hold {@link #maxConnections()} connections (see
     * {@link #countersBufferBytes()}); this constant goes in the next minor version.
     */
    @Deprecated
    public static final int DEFAULT_COUNTERS_BUFFER_BYTES = CountersSizing.MAX_IN_MEMORY_VALUES_BUFFER_BYTES;

    private static final long DEFAULT_IDLE_SPINS = 10;
    private static final long DEFAULT_IDLE_YIELDS = 20;
    private static final long DEFAULT_IDLE_MIN_PARK_NS = 1_000;

    /**
     * The default profile's idle strategy supplier: recognised by identity, so the DEDICATED agent sleeps in its
     * port's wait ({@link PortWaitIdleStrategy}) rather than in this back-off.
     */
    private static final Supplier<IdleStrategy> DEFAULT_IDLE_STRATEGY_SUPPLIER = PacelinkContext::defaultIdleStrategy;

    private InetSocketAddress bindAddress = new InetSocketAddress(0);
    private DatagramPort datagramPort;
    private PortType portType = PortType.AUTO;
    private boolean gso = true;
    private ImpairmentConfig sendImpairment = ImpairmentConfig.NONE;
    private ImpairmentConfig receiveImpairment = ImpairmentConfig.NONE;
    private int maxDatagramSizeBytes = DEFAULT_MAX_DATAGRAM_SIZE_BYTES;
    private long maxAckDelayNs = DEFAULT_MAX_ACK_DELAY_NS;
    private int maxThinnedAckThreshold = ReceivedPacketTracker.DEFAULT_MAX_THINNED_THRESHOLD;
    private boolean isAckFrequency = true;
    private long initialRttNs = DEFAULT_INITIAL_RTT_NS;
    private long idleTimeoutNs = DEFAULT_IDLE_TIMEOUT_NS;
    private long handshakeTimeoutNs = DEFAULT_HANDSHAKE_TIMEOUT_NS;
    private long lingerTimeoutNs = DEFAULT_LINGER_TIMEOUT_NS;
    private int sendBufferBytes = DEFAULT_SEND_BUFFER_BYTES;
    private int receiveBufferBytes = DEFAULT_RECEIVE_BUFFER_BYTES;
    /**
     * 0 until set: the default then follows the threading mode ({@link #unsentLowWatermarkBytes()}).
     */
    private int unsentLowWatermarkBytes;
    private int maxMessageLengthBytes = DEFAULT_MAX_MESSAGE_LENGTH_BYTES;
    private int sentPacketCapacity = DEFAULT_SENT_PACKET_CAPACITY;
    private int maxConnections = DEFAULT_MAX_CONNECTIONS;
    private int socketBufferBytes = DEFAULT_SOCKET_BUFFER_BYTES;
    private int countersBufferBytes;
    private Boolean countersFile;
    private Path countersDirectory = CountersFile.defaultDirectory();
    private boolean acceptConnections = true;
    private boolean ecn = true;
    /**
     * Null until set: the default then follows the threading mode ({@link #kernelReceiveTimes()}).
     */
    private Boolean kernelReceiveTimes;
    private String congestionControl = "cubic";
    private ControllerParameters controllerParameters = ControllerParameters.EMPTY;
    private String packetScheduler;
    private ControllerParameters schedulerParameters = ControllerParameters.EMPTY;
    private ThreadingMode threadingMode = ThreadingMode.DEDICATED;
    private Supplier<IdleStrategy> idleStrategySupplier = DEFAULT_IDLE_STRATEGY_SUPPLIER;
    private NanoClock nanoClock = SystemNanoClock.INSTANCE;
    private ErrorHandler errorHandler = Throwable::printStackTrace;
    private Long randomSeed;
    private boolean isPacketNumberSkipping = true;
    private long handshakePrimingNs = UNSET_HANDSHAKE_PRIMING_NS;
    private final EndpointLimits limits = new EndpointLimits();
    private final SecurityConfig security = new SecurityConfig();
    private int receiveBatchLimit = 64;
    /**
     * 0 until set: the default then follows the threading mode ({@link #sendBatchLimit()}).
     */
    private int sendBatchLimit;

    /**
     * @param address the local UDP address to bind (port 0 picks a free port). The default is the wildcard address
     *                with a free port ({@code 0.0.0.0:0}), which reaches any host: right for a client. A server names
     *                its port, and binds a loopback address such as {@code 127.0.0.1} to be reachable from this
     *                host only (such an endpoint cannot connect to other hosts).
     * @return this.
     */
    public PacelinkContext bindAddress(final InetSocketAddress address)
    {
        if (null == address)
        {
            throw new IllegalArgumentException("bindAddress must not be null; use e.g. 0.0.0.0:0");
        }
        this.bindAddress = address;
        return this;
    }

    public InetSocketAddress bindAddress()
    {
        return bindAddress;
    }

    /**
     * Use this port instead of binding a UDP socket: a simulated host's port, or an impairing decorator.
     *
     * @param port the datagram port; the endpoint closes it on close.
     * @return this.
     */
    public PacelinkContext datagramPort(final DatagramPort port)
    {
        this.datagramPort = port;
        return this;
    }

    public DatagramPort datagramPort()
    {
        return datagramPort;
    }

    /**
     * Which datagram port an endpoint on its own socket opens (docs/io.md): {@link PortType#AUTO} (the default) takes
     * the batched port ({@code sendmmsg}/{@code recvmmsg}, UDP GSO and GRO, per-datagram ECN) where the kernel and the
     * native library allow, else the NIO port, logging the reason once and showing it in the endpoint's counters;
     * {@link PortType#BATCHED} makes {@link Endpoint#launch} fail, saying why, where it is unavailable;
     * {@link PortType#NIO} always takes the NIO port. Ignored when a {@link #datagramPort(DatagramPort)} is given.
     *
     * @param type the port.
     * @return this.
     */
    public PacelinkContext port(final PortType type)
    {
        if (null == type)
        {
            throw new IllegalArgumentException("port must be AUTO, NIO or BATCHED");
        }
        portType = type;
        return this;
    }

    /**
     * @param type {@code auto}, {@code nio} or {@code batched}.
     * @return this.
     * @see #port(PortType)
     */
    public PacelinkContext port(final String type)
    {
        return port(PortType.parse(type));
    }

    public PortType port()
    {
        return portType;
    }

    /**
     * @param enabled whether the batched port sends each run of equal-sized datagrams to one peer as one UDP GSO
     *                message ({@code UDP_SEGMENT}: the kernel cuts it into datagrams); default true. Off, every
     *                datagram is its own message, still many per {@code sendmmsg}. The NIO port ignores it.
     * @return this.
     */
    public PacelinkContext gso(final boolean enabled)
    {
        gso = enabled;
        return this;
    }

    public boolean gso()
    {
        return gso;
    }

    /**
     * Inject seeded loss, duplication and reordering into what this endpoint sends (like Aeron's loss generators),
     * to test an application against an imperfect network without one.
     *
     * @param impairment what to inject; {@link ImpairmentConfig#NONE} for nothing.
     * @return this.
     */
    public PacelinkContext sendImpairment(final ImpairmentConfig impairment)
    {
        sendImpairment = null == impairment ? ImpairmentConfig.NONE : impairment;
        return this;
    }

    public ImpairmentConfig sendImpairment()
    {
        return sendImpairment;
    }

    /**
     * @param impairment seeded loss, duplication and reordering applied to what this endpoint receives.
     * @return this.
     */
    public PacelinkContext receiveImpairment(final ImpairmentConfig impairment)
    {
        receiveImpairment = null == impairment ? ImpairmentConfig.NONE : impairment;
        return this;
    }

    public ImpairmentConfig receiveImpairment()
    {
        return receiveImpairment;
    }

    /**
     * @param bytes largest datagram this endpoint sends (negotiated down to the peer's value), 1200..65507.
     * @return this.
     */
    public PacelinkContext maxDatagramSizeBytes(final int bytes)
    {
        maxDatagramSizeBytes =
            requireRange("maxDatagramSizeBytes", bytes, MIN_DATAGRAM_SIZE_BYTES, MAX_DATAGRAM_SIZE_BYTES);
        return this;
    }

    public int maxDatagramSizeBytes()
    {
        return maxDatagramSizeBytes;
    }

    /**
     * @param ns how long the receiver may delay an ACK (advertised to the peer), 0..1 s.
     * @return this.
     */
    public PacelinkContext maxAckDelayNs(final long ns)
    {
        maxAckDelayNs = requireRange("maxAckDelayNs", ns, 0, TimeUnit.SECONDS.toNanos(1));
        return this;
    }

    public long maxAckDelayNs()
    {
        return maxAckDelayNs;
    }

    /**
     * @param packets most ack-eliciting packets one ACK waits for when packets arrive fast (ACK thinning, see
     *                {@link ReceivedPacketTracker}; default
     *                {@value ReceivedPacketTracker#DEFAULT_MAX_THINNED_THRESHOLD}), 2..64; 2 acknowledges every
     *                second packet at any rate (RFC 9000 section 13.2.2).
     * @return this.
     */
    public PacelinkContext maxThinnedAckThreshold(final int packets)
    {
        maxThinnedAckThreshold = requireRange("maxThinnedAckThreshold", packets,
            ReceivedPacketTracker.DEFAULT_ACK_ELICITING_THRESHOLD, MAX_THINNED_ACK_THRESHOLD);
        return this;
    }

    public int maxThinnedAckThreshold()
    {
        return maxThinnedAckThreshold;
    }

    /**
     * ACK frequency negotiated per path (draft-ietf-quic-ack-frequency; docs/architecture.md, "ACK policy"): the
     * handshake announces that this side follows a peer's ACK_FREQUENCY frames, and this side asks a peer that
     * announced the same for one ACK per 10 packets or per quarter of the min RTT (at least the peer's max ACK delay,
     * at most 25 ms). Off, the endpoint behaves as a build without the extension: it announces nothing, asks nothing,
     * and acknowledges within its own {@link #maxAckDelayNs(long)}.
     * <p>
     * Nothing is asked while the congestion controller is in its initial slow start or STARTUP, which grow per ACK,
     * nor, for CUBIC and Reno, during the recovery that answers slow start's overshoot (perf/FINDINGS.md, branches
     * {@code ack8}, {@code ack9} and {@code cpu10}). On by default: it takes a receiver from about one ACK per 4.5
     * data packets to one per 15 at 50 Mbit/s and 40 ms, with the same goodput and losses.
     *
     * @param isOn true (the default) to offer the extension; false behaves as a build without it.
     * @return this.
     */
    public PacelinkContext ackFrequency(final boolean isOn)
    {
        isAckFrequency = isOn;
        return this;
    }

    /**
     * @return true if the endpoint negotiates ACK frequency with its peers (default true).
     */
    public boolean ackFrequency()
    {
        return isAckFrequency;
    }

    /**
     * @param ns RTT assumed before the first sample (RFC 9002 kInitialRtt), 1 µs..10 s.
     * @return this.
     */
    public PacelinkContext initialRttNs(final long ns)
    {
        initialRttNs = requireRange("initialRttNs", ns, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.SECONDS.toNanos(10));
        return this;
    }

    public long initialRttNs()
    {
        return initialRttNs;
    }

    /**
     * @param ns a connection that receives nothing for this long is closed (negotiated to the smaller of both
     *           sides'), 1 ms..1 day.
     * @return this.
     */
    public PacelinkContext idleTimeoutNs(final long ns)
    {
        idleTimeoutNs = requireRange("idleTimeoutNs", ns, TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.DAYS.toNanos(1));
        return this;
    }

    public long idleTimeoutNs()
    {
        return idleTimeoutNs;
    }

    /**
     * @param ns a connect that gets no answer for this long fails, 1 ms..10 min.
     * @return this.
     */
    public PacelinkContext handshakeTimeoutNs(final long ns)
    {
        handshakeTimeoutNs = requireRange(
            "handshakeTimeoutNs", ns, TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.MINUTES.toNanos(10));
        return this;
    }

    public long handshakeTimeoutNs()
    {
        return handshakeTimeoutNs;
    }

    /**
     * @param ns how long a graceful close ({@link Connection#close()}, {@link Endpoint#close()}) may wait for the
     *           peer's application to read everything offered; after it the close fails with
     *           {@link CloseReason#LINGER_TIMEOUT} and the connection is aborted. 0..1 day.
     * @return this.
     */
    public PacelinkContext lingerTimeoutNs(final long ns)
    {
        lingerTimeoutNs = requireRange("lingerTimeoutNs", ns, 0, TimeUnit.DAYS.toNanos(1));
        return this;
    }

    public long lingerTimeoutNs()
    {
        return lingerTimeoutNs;
    }

    /**
     * @param bytes per-connection send buffer (holds data until acknowledged), a power of two, 64 KiB..1 GiB.
     * @return this.
     */
    public PacelinkContext sendBufferBytes(final int bytes)
    {
        sendBufferBytes = requirePowerOfTwo("sendBufferBytes", bytes, 64 * 1024, 1 << 30);
        return this;
    }

    public int sendBufferBytes()
    {
        return sendBufferBytes;
    }

    /**
     * Bound how far ahead of the pacer the application's bytes may wait, as Linux's {@code TCP_NOTSENT_LOWAT} does
     * ({@code tcp_stream_memory_free} in {@code net/ipv4/tcp.c}): {@code offer} accepts a message only while fewer
     * than this many bytes of the connection's send buffer are not yet sent, and otherwise returns
     * {@link Connection#BACK_PRESSURED}, as for a full buffer. Bytes in flight do not count (the congestion window
     * bounds them, and the buffer keeps them for retransmission); bytes that flow control holds back do. A message
     * that starts below the mark is accepted whole, so a message longer than the mark is sent too. What it buys:
     * the bytes are still in the cache when a packet copies them out of the buffer, the buffer holds memory only
     * for what is in flight plus the mark, and a newly offered message waits behind at most a mark's worth of
     * others. Too small a mark makes a connection application-limited: it must cover what the connection sends
     * between two of the application's offers (see {@link #DEFAULT_UNSENT_LOW_WATERMARK_BYTES}).
     *
     * @param bytes 16 KiB..1 GiB; default {@link #DEFAULT_UNSENT_LOW_WATERMARK_BYTES} (1 GiB: off), and for an
     *              {@link ThreadingMode#INVOKER} endpoint {@link #DEFAULT_INVOKER_UNSENT_LOW_WATERMARK_BYTES}, or one
     *              duty cycle's sends if more. At or above {@link #sendBufferBytes()} it never binds.
     * @return this.
     */
    public PacelinkContext unsentLowWatermarkBytes(final int bytes)
    {
        unsentLowWatermarkBytes = (int)requireRange(
            "unsentLowWatermarkBytes", bytes, MIN_UNSENT_LOW_WATERMARK_BYTES, MAX_UNSENT_LOW_WATERMARK_BYTES);
        return this;
    }

    /**
     * @return the mark set, or else the default for the threading mode set (so read it once the mode is chosen):
     * off ({@link #DEFAULT_UNSENT_LOW_WATERMARK_BYTES}) for DEDICATED and SHARED, for INVOKER the larger of
     * {@link #DEFAULT_INVOKER_UNSENT_LOW_WATERMARK_BYTES} and one duty cycle's sends.
     */
    public int unsentLowWatermarkBytes()
    {
        if (0 != unsentLowWatermarkBytes)
        {
            return unsentLowWatermarkBytes;
        }
        if (ThreadingMode.INVOKER != threadingMode)
        {
            return DEFAULT_UNSENT_LOW_WATERMARK_BYTES;
        }
        final long dutyCycleBytes = (long)sendBatchLimit() * maxDatagramSizeBytes;
        return (int)Math.min(MAX_UNSENT_LOW_WATERMARK_BYTES,
            Math.max(DEFAULT_INVOKER_UNSENT_LOW_WATERMARK_BYTES, dutyCycleBytes));
    }

    /**
     * @param bytes per-connection receive buffer (reassembly and flow-control window), a power of two,
     *              64 KiB..1 GiB.
     * @return this.
     */
    public PacelinkContext receiveBufferBytes(final int bytes)
    {
        receiveBufferBytes = requirePowerOfTwo("receiveBufferBytes", bytes, 64 * 1024, 1 << 30);
        return this;
    }

    public int receiveBufferBytes()
    {
        return receiveBufferBytes;
    }

    /**
     * @param bytes largest message {@code offer} accepts; must fit with its 4-byte length prefix in both buffers
     *              (checked when the endpoint starts).
     * @return this.
     */
    public PacelinkContext maxMessageLengthBytes(final int bytes)
    {
        maxMessageLengthBytes = requireRange("maxMessageLengthBytes", bytes, 1, 1 << 29);
        return this;
    }

    public int maxMessageLengthBytes()
    {
        return maxMessageLengthBytes;
    }

    /**
     * @param packets how many sent packets a connection tracks until acknowledged (bounds packets in flight), a
     *                power of two, 256..4 Mi.
     * @return this.
     */
    public PacelinkContext sentPacketCapacity(final int packets)
    {
        sentPacketCapacity = requirePowerOfTwo("sentPacketCapacity", packets, 256, 1 << 22);
        return this;
    }

    public int sentPacketCapacity()
    {
        return sentPacketCapacity;
    }

    /**
     * @param count established connections an endpoint holds at once, 1..1,000,000 (default
     *              {@link #DEFAULT_MAX_CONNECTIONS}). A connection past it is refused, never half-opened: a server
     *              answers the hello with a CLOSE saying "the server has its maximum of connections", a client's
     *              {@link Endpoint#connect} returns a connection already CLOSED ({@link CloseReason#REJECTED}) saying
     *              so; both count it in {@code connections-rejected} and {@code connections-refused-limit}.
     *              Unconfirmed handshakes are held apart ({@link EndpointLimits#maxUnconfirmedHandshakes(int)}).
     * @return this.
     */
    public PacelinkContext maxConnections(final int count)
    {
        maxConnections = requireRange("maxConnections", count, 1, 1_000_000);
        return this;
    }

    public int maxConnections()
    {
        return maxConnections;
    }

    /**
     * @param bytes SO_RCVBUF and SO_SNDBUF requested for the UDP socket, 64 KiB..256 MiB.
     * @return this.
     */
    public PacelinkContext socketBufferBytes(final int bytes)
    {
        socketBufferBytes = requireRange("socketBufferBytes", bytes, 64 * 1024, 256 * 1024 * 1024);
        return this;
    }

    public int socketBufferBytes()
    {
        return socketBufferBytes;
    }

    /**
     * @param bytes size of the counters' values buffer (the metadata buffer is four times as large), a power of
     *              two, 64 KiB..256 MiB; see {@link #countersBufferBytes()} for the default.
     * @return this.
     */
    public PacelinkContext countersBufferBytes(final int bytes)
    {
        countersBufferBytes = requirePowerOfTwo("countersBufferBytes", bytes, CountersSizing.MIN_VALUES_BUFFER_BYTES,
            CountersSizing.MAX_VALUES_BUFFER_BYTES);
        return this;
    }

    /**
     * The size set by {@link #countersBufferBytes(int)}, or by default one that holds the counters of
     * {@link #maxConnections()} connections and {@link EndpointLimits#maxUnconfirmedHandshakes()} handshakes (128
     * bytes a counter, {@link CountersSizing#COUNTERS_PER_CONNECTION} reserved a connection): 128 MiB for the
     * defaults, which costs only the pages of counters in use in the sparse counters file ({@link #countersFile()}).
     * Kept in memory instead, where the buffers are zero-filled up front, the default is at most 4 MiB (about 600
     * connections). A connection whose counters do not fit is refused like one past {@link #maxConnections()}, counted
     * in {@code connections-refused-counters}.
     *
     * @return the size of the counters' values buffer.
     */
    public int countersBufferBytes()
    {
        if (0 != countersBufferBytes)
        {
            return countersBufferBytes;
        }
        return CountersSizing.defaultValuesBufferBytes(
            (long)maxConnections + limits.maxUnconfirmedHandshakes(), countersFile());
    }

    /**
     * Whether the endpoint's counters live in a memory-mapped file under {@link #countersDirectory()}, where
     * {@code pacelink stat} reads them from another process (like Aeron's CnC file), or only in this process's
     * memory. Either way they are written the same way on the hot path; the file costs one small sparse file per
     * endpoint (only the pages of counters in use take memory) and a heartbeat store every 100 ms.
     * <p>
     * Default: on for an endpoint that binds its own UDP socket, so any real endpoint can be watched without being
     * set up for it; off when a {@link #datagramPort(DatagramPort)} is given (the simulator and in-process tests,
     * where nobody outside the process could connect the file to anything and thousands of files would be made).
     *
     * @param enabled true for the mapped file, false for in-memory counters.
     * @return this.
     */
    public PacelinkContext countersFile(final boolean enabled)
    {
        countersFile = enabled;
        return this;
    }

    /**
     * @return whether the counters go to a memory-mapped file (see {@link #countersFile(boolean)} for the default).
     */
    public boolean countersFile()
    {
        return null == countersFile ? null == datagramPort : countersFile;
    }

    /**
     * @param directory where the counters file is created, e.g. to give each application its own; default
     *                  {@link CountersFile#defaultDirectory()} ({@code /dev/shm/pacelink-<user>}).
     * @return this.
     */
    public PacelinkContext countersDirectory(final Path directory)
    {
        if (null == directory)
        {
            throw new IllegalArgumentException("countersDirectory must not be null; use countersFile(false) to " +
                "keep counters in memory only");
        }
        countersDirectory = directory;
        return this;
    }

    public Path countersDirectory()
    {
        return countersDirectory;
    }

    /**
     * @param accept whether peers may open connections to this endpoint ({@link Endpoint#accept()}).
     * @return this.
     */
    public PacelinkContext acceptConnections(final boolean accept)
    {
        acceptConnections = accept;
        return this;
    }

    public boolean acceptConnections()
    {
        return acceptConnections;
    }

    /**
     * @param ecn whether connections mark their packets ECN-capable and answer CE marks (RFC 9000 section 13.4,
     *            docs/ecn.md): on by default, where the port {@link DatagramPort#sendsEcn() sends} codepoints; each
     *            connection validates the path and the peer's counts first and turns ECN off by itself if they fail.
     *            Off: every packet leaves not-ECT. Arriving codepoints are counted and reported either way, as a
     *            receiver must.
     * @return this.
     */
    public PacelinkContext ecn(final boolean ecn)
    {
        this.ecn = ecn;
        return this;
    }

    public boolean ecn()
    {
        return ecn;
    }

    /**
     * @param kernelReceiveTimes whether the batched port asks the kernel for each datagram's receive time
     *                           ({@code SO_TIMESTAMPNS}, socket(7)), which times an ACK's delivery-rate sample and the
     *                           ACK Delay a receiver reports by when the datagram arrived rather than when the agent
     *                           read it (docs/io.md, "Receive times"). It is not free, and not only for this endpoint:
     *                           while any socket on the host asks, Linux stamps every packet it receives
     *                           ({@code net_timestamp_check} behind the global {@code netstamp_needed_key},
     *                           {@code net/core/dev.c}), and over loopback that stamp is taken inside the sender's own
     *                           send call. Default: on for DEDICATED and SHARED, whose agent waits in time quanta and
     *                           holds arrivals, so reads can come late; off for INVOKER, whose application runs the
     *                           duty cycle in its own loop, and off for a busy-spinning idle strategy
     *                           ({@link #lowLatencyProfile()}), whose thread reads each datagram within one empty
     *                           receive of its arrival, so the time read after the receive is the arrival's. Set it on
     *                           for an INVOKER endpoint whose loop can leave the socket unread for long and whose
     *                           controller uses rate samples (BBR).
     * @return this.
     */
    public PacelinkContext kernelReceiveTimes(final boolean kernelReceiveTimes)
    {
        this.kernelReceiveTimes = kernelReceiveTimes;
        return this;
    }

    /**
     * @return the choice set, or else the default for the threading mode and idle strategy set (so read it once both
     * are chosen): true for DEDICATED and SHARED, false for INVOKER and for a busy-spinning idle strategy.
     */
    public boolean kernelReceiveTimes()
    {
        if (null != kernelReceiveTimes)
        {
            return kernelReceiveTimes;
        }
        return ThreadingMode.INVOKER != threadingMode && !spinsWhenIdle();
    }

    /**
     * @return true if the idle strategy set busy-spins: the thread that runs the duty cycle reads the socket again at
     * once after an empty receive ({@link BusySpinIdleStrategy}, {@link NoOpIdleStrategy}). The default profile's
     * strategy sleeps in the port's wait, which may hold arrivals on purpose.
     */
    private boolean spinsWhenIdle()
    {
        if (isDefaultIdleStrategy())
        {
            return false;
        }
        final IdleStrategy idleStrategy = idleStrategySupplier.get();
        return idleStrategy instanceof BusySpinIdleStrategy || idleStrategy instanceof NoOpIdleStrategy;
    }

    /**
     * @param name congestion controller for new connections, e.g. {@code reno}, {@code cubic}, {@code bbr},
     *             {@code bbr3}; checked against the controllers on the class path when the endpoint starts.
     * @return this.
     */
    public PacelinkContext congestionControl(final String name)
    {
        if (null == name || name.isBlank())
        {
            throw new IllegalArgumentException("congestionControl must name a controller, e.g. cubic or bbr");
        }
        congestionControl = name;
        return this;
    }

    public String congestionControl()
    {
        return congestionControl;
    }

    /**
     * @param parameters named controller parameters, e.g. {@code cubic.beta=0.7}.
     * @return this.
     */
    public PacelinkContext controllerParameters(final ControllerParameters parameters)
    {
        controllerParameters = null == parameters ? ControllerParameters.EMPTY : parameters;
        return this;
    }

    public ControllerParameters controllerParameters()
    {
        return controllerParameters;
    }

    /**
     * @param name packet scheduler ({@code fq}, {@code fifo}, {@code rr}); null picks the preferred one on the class
     *             path ({@code fq} when the qdisc-fq module is present, else {@code rr}).
     * @return this.
     */
    public PacelinkContext packetScheduler(final String name)
    {
        packetScheduler = name;
        return this;
    }

    public String packetScheduler()
    {
        return packetScheduler;
    }

    /**
     * @param parameters named scheduler parameters, e.g. {@code fq.quantum=3028}.
     * @return this.
     */
    public PacelinkContext schedulerParameters(final ControllerParameters parameters)
    {
        schedulerParameters = null == parameters ? ControllerParameters.EMPTY : parameters;
        return this;
    }

    public ControllerParameters schedulerParameters()
    {
        return schedulerParameters;
    }

    /**
     * @param mode how the endpoint's agent runs.
     * @return this.
     */
    public PacelinkContext threadingMode(final ThreadingMode mode)
    {
        if (null == mode)
        {
            throw new IllegalArgumentException("threadingMode must be DEDICATED, SHARED or INVOKER");
        }
        threadingMode = mode;
        return this;
    }

    public ThreadingMode threadingMode()
    {
        return threadingMode;
    }

    /**
     * @param supplier idle strategy for the DEDICATED agent thread, instead of the default, which sleeps in the
     *                 port's wait until the next deadline or an arrival ({@link PortWaitIdleStrategy}). A custom
     *                 strategy is wrapped so it never sleeps past the endpoint's next deadline (pacing release, ACK
     *                 delay, timers) provided one park lasts at most {@link DeadlineIdleStrategy#DEFAULT_MAX_PARK_NS};
     *                 a busy-spin strategy is used as it is.
     * @return this.
     * @see #lowLatencyProfile()
     */
    public PacelinkContext idleStrategySupplier(final Supplier<IdleStrategy> supplier)
    {
        if (null == supplier)
        {
            throw new IllegalArgumentException("idleStrategySupplier must not be null");
        }
        idleStrategySupplier = supplier;
        return this;
    }

    public Supplier<IdleStrategy> idleStrategySupplier()
    {
        return idleStrategySupplier;
    }

    /**
     * @return true unless {@link #idleStrategySupplier(Supplier)} or {@link #lowLatencyProfile()} chose another idle
     * strategy: the agent then sleeps in its port's wait.
     */
    public boolean isDefaultIdleStrategy()
    {
        return DEFAULT_IDLE_STRATEGY_SUPPLIER == idleStrategySupplier;
    }

    /**
     * The low-latency profile: the agent gets its own thread (DEDICATED) that busy-spins
     * ({@link BusySpinIdleStrategy}) and never parks, so pacing releases and ACK deadlines are met within a duty
     * cycle (microseconds) and new work is noticed at once. It costs one CPU core per endpoint, always busy. Choose
     * it when departure jitter matters more than a core: pacing above a few hundred Mbit/s, where packets are only
     * microseconds apart, or latency-critical request/response traffic, on a machine with a core to spare (at most
     * one spinning agent per free core). Its batched port asks the kernel for no receive time per datagram: the
     * spinning thread reads each within a turn of its arrival (docs/io.md, "Receive times").
     * <p>
     * The default profile instead never spins: its agent sleeps in the port's wait ({@link PortWaitIdleStrategy}:
     * {@code ppoll} on the batched port, a selector on the NIO port) until the next deadline, a datagram's arrival or
     * the application's next command (an offer wakes it only when it sleeps), so an idle endpoint costs nothing and a
     * request is handled as it arrives, a wake-up later (microseconds).
     *
     * @return this.
     */
    public PacelinkContext lowLatencyProfile()
    {
        threadingMode = ThreadingMode.DEDICATED;
        idleStrategySupplier = BusySpinIdleStrategy::new;
        return this;
    }

    /**
     * @return the default profile's idle strategy for application threads that wait for data, and for the agent of a
     * port that cannot wait: back off from spinning to yielding to parking at most
     * {@link DeadlineIdleStrategy#DEFAULT_MAX_PARK_NS}. (The DEDICATED agent itself sleeps in its port's wait.)
     */
    public static IdleStrategy defaultIdleStrategy()
    {
        return new BackoffIdleStrategy(
            DEFAULT_IDLE_SPINS,
            DEFAULT_IDLE_YIELDS,
            DEFAULT_IDLE_MIN_PARK_NS,
            DeadlineIdleStrategy.DEFAULT_MAX_PARK_NS);
    }

    /**
     * @param clock the clock the agent reads once per duty cycle; the protocol core never reads a clock itself.
     * @return this.
     */
    public PacelinkContext nanoClock(final NanoClock clock)
    {
        if (null == clock)
        {
            throw new IllegalArgumentException("nanoClock must not be null");
        }
        nanoClock = clock;
        return this;
    }

    public NanoClock nanoClock()
    {
        return nanoClock;
    }

    /**
     * @param handler told about exceptions caught on the agent thread (which never lets one escape).
     * @return this.
     */
    public PacelinkContext errorHandler(final ErrorHandler handler)
    {
        if (null == handler)
        {
            throw new IllegalArgumentException("errorHandler must not be null");
        }
        errorHandler = handler;
        return this;
    }

    public ErrorHandler errorHandler()
    {
        return errorHandler;
    }

    /**
     * Make the endpoint deterministic, for the simulator and tests driven in virtual time: connection ids, the
     * address-validation key, skipped packet numbers and controller randomness all derive from this seed, so a run
     * is reproducible. Never for an endpoint that faces a network: its connection ids would be predictable
     * (docs/security.md), which is why {@link #conclude()} refuses a seed unless a {@link #datagramPort} is given.
     * Without a seed every one of those draws from {@link SecureRandom}.
     *
     * @param seed the root of every random choice.
     * @return this.
     */
    public PacelinkContext randomSeed(final long seed)
    {
        randomSeed = seed;
        return this;
    }

    /**
     * @return the seed given to {@link #randomSeed(long)}, or null: draw from {@link SecureRandom}.
     */
    public Long randomSeed()
    {
        return randomSeed;
    }

    /**
     * Switch off the skipped packet numbers of the optimistic-ACK defence (RFC 9000 section 21.4, docs/security.md),
     * for simulated endpoints only: each skip makes the receiver acknowledge at once, which moves where a
     * measurement's rounds fall (Linux's HyStart ACK train, for one), and an experiment may want the transport without
     * them. {@link #conclude()} refuses it unless a {@link #datagramPort} is given: an endpoint facing a network keeps
     * the defence.
     *
     * @param isSkipping false to number packets without gaps.
     * @return this.
     */
    public PacelinkContext packetNumberSkipping(final boolean isSkipping)
    {
        isPacketNumberSkipping = isSkipping;
        return this;
    }

    /**
     * @return true (the default) if connections skip a packet number now and then.
     */
    public boolean packetNumberSkipping()
    {
        return isPacketNumberSkipping;
    }

    /**
     * How long {@link Endpoint#launch} may spend, once per process and security mode, running the handshake path
     * before the endpoint serves anyone: throwaway endpoints over an in-memory network connect up to
     * {@link io.pacelink.transport.engine.HandshakePathPrimer#DEFAULT_MAX_HANDSHAKES} times, so the code of a
     * handshake — both ends, the key exchanges of the secure mode, a RETRY — is compiled by the JIT before the first
     * client, and not while it, or a flood's first burst, waits (docs/architecture.md, "Handshake priming").
     * By default a server (an endpoint that {@link #acceptConnections accepts connections}) spends up to
     * {@link #DEFAULT_HANDSHAKE_PRIMING_NS} on it and a client nothing: a process that opens one connection and exits
     * gains nothing from it, while a client that opens many (a pool, a load generator) may set it. Deterministic
     * endpoints ({@link #randomSeed(long)}) never prime.
     *
     * @param ns the longest wall time the launch spends on it, 0..10 s; 0 switches it off.
     * @return this.
     */
    public PacelinkContext handshakePrimingNs(final long ns)
    {
        handshakePrimingNs = requireRange("handshakePrimingNs", ns, 0, TimeUnit.SECONDS.toNanos(10));
        return this;
    }

    /**
     * @return the longest time a launch spends priming the handshake path: as set, else
     * {@link #DEFAULT_HANDSHAKE_PRIMING_NS} for an endpoint that accepts connections and 0 for one that does not (and
     * 0 for either where {@link #LAUNCH_PRIMING_PROPERTY} is {@code off}).
     */
    public long handshakePrimingNs()
    {
        if (UNSET_HANDSHAKE_PRIMING_NS != handshakePrimingNs)
        {
            return handshakePrimingNs;
        }
        return acceptConnections && isLaunchPrimingByDefault() ? DEFAULT_HANDSHAKE_PRIMING_NS : 0;
    }

    /**
     * @return false if this JVM's {@link #LAUNCH_PRIMING_PROPERTY} is {@code off}: no priming unless one is set.
     * @throws IllegalArgumentException if the property is neither {@code on} nor {@code off}.
     */
    public static boolean isLaunchPrimingByDefault()
    {
        final String value = System.getProperty(LAUNCH_PRIMING_PROPERTY);
        if (null == value || "on".equals(value))
        {
            return true;
        }
        if ("off".equals(value))
        {
            return false;
        }
        throw new IllegalArgumentException(
            "-D" + LAUNCH_PRIMING_PROPERTY + " must be on or off, got '" + value + "'");
    }

    /**
     * @return where the endpoint draws its random numbers: a generator seeded by {@link #randomSeed(long)} when one
     * was given (reproducible), else {@link SecureRandom}. Connection ids, the address-validation key and the seeds of
     * per-connection randomness come from it; it is called only when a connection is created, never per packet.
     */
    public LongSupplier newRandomSource()
    {
        if (null != randomSeed)
        {
            return new SplittableRandom(randomSeed)::nextLong;
        }
        return new SecureRandom()::nextLong;
    }

    /**
     * @return the limits this endpoint holds peers to (rates, memory, reassembly, dead peers); change them in place.
     */
    public EndpointLimits limits()
    {
        return limits;
    }

    /**
     * @return the secure mode's keys and choices (docs/security.md, "Secure mode"); change them in place. With none
     * set the endpoint speaks plaintext.
     */
    public SecurityConfig security()
    {
        return security;
    }

    /**
     * @param datagrams most datagrams received per duty cycle, 1..4096.
     * @return this.
     */
    public PacelinkContext receiveBatchLimit(final int datagrams)
    {
        receiveBatchLimit = requireRange("receiveBatchLimit", datagrams, 1, 4096);
        return this;
    }

    public int receiveBatchLimit()
    {
        return receiveBatchLimit;
    }

    /**
     * @param datagrams most datagrams sent per duty cycle, 1..4096; default {@link #DEFAULT_SEND_BATCH_LIMIT}, and for
     *                  an {@link ThreadingMode#INVOKER} endpoint {@link #DEFAULT_INVOKER_SEND_BATCH_LIMIT}.
     * @return this.
     */
    public PacelinkContext sendBatchLimit(final int datagrams)
    {
        sendBatchLimit = requireRange("sendBatchLimit", datagrams, 1, 4096);
        return this;
    }

    /**
     * @return the limit set, or else the default for the threading mode set (so read it once the mode is chosen).
     */
    public int sendBatchLimit()
    {
        if (0 != sendBatchLimit)
        {
            return sendBatchLimit;
        }
        return ThreadingMode.INVOKER == threadingMode ? DEFAULT_INVOKER_SEND_BATCH_LIMIT : DEFAULT_SEND_BATCH_LIMIT;
    }

    /**
     * Check the settings that depend on each other.
     *
     * @throws IllegalStateException saying which settings conflict and how to fix them.
     */
    public void conclude()
    {
        // A message is delivered only when all of it has arrived, so one whole message (with its 4-byte length
        // prefix) must fit in each buffer.
        final long largestMessageBytes = maxMessageLengthBytes + 4L;
        if (largestMessageBytes > sendBufferBytes || largestMessageBytes > receiveBufferBytes)
        {
            throw new IllegalStateException("maxMessageLengthBytes=" + maxMessageLengthBytes +
                " does not fit (with its 4-byte length prefix) in sendBufferBytes=" + sendBufferBytes +
                " / receiveBufferBytes=" + receiveBufferBytes + ": raise both buffers to at least " +
                Long.highestOneBit(largestMessageBytes) * 2 + " or lower maxMessageLengthBytes");
        }
        if (null != randomSeed && null == datagramPort)
        {
            throw new IllegalStateException("randomSeed makes connection ids predictable: it is for simulated " +
                "endpoints (a datagramPort); an endpoint on a real socket draws from SecureRandom, so drop the seed");
        }
        if (!isPacketNumberSkipping && null == datagramPort)
        {
            throw new IllegalStateException("packetNumberSkipping(false) drops the optimistic-ACK defence: it is for " +
                "simulated endpoints (a datagramPort); an endpoint on a real socket skips packet numbers");
        }
        limits.conclude(this);
    }

    static long requireRange(final String name, final long value, final long min, final long max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(name + "=" + value + " is out of range; expected " + min + ".." + max);
        }
        return value;
    }

    static int requireRange(final String name, final int value, final int min, final int max)
    {
        return (int)requireRange(name, (long)value, min, max);
    }

    private static int requirePowerOfTwo(final String name, final int value, final int min, final int max)
    {
        requireRange(name, value, min, max);
        if (Integer.bitCount(value) != 1)
        {
            throw new IllegalArgumentException(name + "=" + value + " must be a power of two, e.g. " +
                Integer.highestOneBit(value) + " or " + (Integer.highestOneBit(value) << 1));
        }
        return value;
    }
}
