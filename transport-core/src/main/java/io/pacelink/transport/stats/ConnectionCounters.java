package io.pacelink.transport.stats;

import io.pacelink.transport.cc.ControllerCounters;
import org.agrona.collections.ArrayUtil;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The live per-connection counters (like {@code ss -i} for one socket): written by the agent thread with release
 * stores, readable from any thread and, when the counters file is memory-mapped, from another process. Indexed by the
 * constants below so that the connection's stats view and {@code pacelink stat} share one list of names. Also hands out
 * the controller's own counters.
 * <p>
 * A transport counter is registered in the counters buffer when it first holds a value other than 0; until then it
 * reads 0 here and is absent from the buffer, where a reader takes it as 0 ({@code pacelink stat} does). Most of a
 * connection's counters (losses, retransmissions, ECN, ACK frequency, limits) stay 0 for most connections, and each
 * registration writes a 512-byte metadata record: registering all of them was most of what opening a connection cost
 * (perf/FINDINGS.md, "Scale round 4" and "Scale round 6"). {@link #STATE} is registered at once, so every connection
 * is listed from its first moment.
 */
public final class ConnectionCounters implements ControllerCounters, AutoCloseable
{
    public static final int STATE = 0;
    public static final int CWND_BYTES = 1;
    public static final int PACING_RATE_BYTES_PER_SECOND = 2;
    public static final int DELIVERY_RATE_BYTES_PER_SECOND = 3;
    public static final int MIN_RTT_NS = 4;
    public static final int SMOOTHED_RTT_NS = 5;
    public static final int LATEST_RTT_NS = 6;
    public static final int BYTES_IN_FLIGHT = 7;
    public static final int BYTES_SENT = 8;
    public static final int PACKETS_SENT = 9;
    public static final int STREAM_BYTES_ACKED = 10;
    public static final int BYTES_RETRANSMITTED = 11;
    public static final int PACKETS_RETRANSMITTED = 12;
    public static final int PACKETS_LOST = 13;
    public static final int BYTES_LOST = 14;
    public static final int SPURIOUS_LOSSES = 15;
    public static final int PROBE_TIMEOUTS = 16;
    public static final int STREAM_BYTES_RECEIVED = 17;
    public static final int CWND_LIMITED = 18;
    public static final int PACING_LIMITED = 19;
    public static final int FLOW_CONTROL_LIMITED = 20;
    public static final int APP_LIMITED = 21;
    public static final int DUPLICATE_PACKETS = 22;
    public static final int RTT_SAMPLES = 23;
    public static final int MESSAGES_OFFERED = 24;
    public static final int APP_BYTES_OFFERED = 25;
    public static final int MESSAGES_DELIVERED = 26;
    public static final int APP_BYTES_DELIVERED = 27;
    public static final int MESSAGES_RECEIVED = 28;
    public static final int APP_BYTES_RECEIVED = 29;
    public static final int ECN_STATE = 30;
    public static final int ECN_FAILURE = 31;
    public static final int ECN_MARKED_SENT = 32;
    public static final int ECN_CE_REPORTED = 33;
    public static final int ECN_CE_REACTIONS = 34;
    public static final int ECN_CE_RECEIVED = 35;
    public static final int ACK_FREQUENCY_SENT = 36;
    public static final int ACK_FREQUENCY_IGNORED = 37;
    public static final int CWND_LIMITED_NS = 38;
    public static final int PACING_LIMITED_NS = 39;
    public static final int FLOW_CONTROL_LIMITED_NS = 40;

    /**
     * Names, with units, in index order.
     */
    private static final String[] NAMES =
    {
        "state",
        "cwnd-bytes",
        "pacing-rate-Bps",
        "delivery-rate-Bps",
        "min-rtt-ns",
        "srtt-ns",
        "latest-rtt-ns",
        "bytes-in-flight",
        "bytes-sent",
        "packets-sent",
        "stream-bytes-acked",
        "bytes-retransmitted",
        "packets-retransmitted",
        "packets-lost",
        "bytes-lost",
        "spurious-losses",
        "probe-timeouts",
        "stream-bytes-received",
        "cwnd-limited",
        "pacing-limited",
        "flow-control-limited",
        "app-limited",
        "duplicate-packets",
        "rtt-samples",
        "messages-offered",
        "app-bytes-offered",
        "messages-delivered",
        "app-bytes-delivered",
        "messages-received",
        "app-bytes-received",
        "ecn-state",
        "ecn-failure",
        "ecn-marked-sent",
        "ecn-ce-reported",
        "ecn-ce-reactions",
        "ecn-ce-received",
        "ack-frequency-sent",
        "ack-frequency-ignored",
        "cwnd-limited-ns",
        "pacing-limited-ns",
        "flow-control-limited-ns",
    };

    /**
     * Number of transport counters per connection.
     */
    public static final int COUNT = NAMES.length;

    /**
     * {@link #NAMES} as bytes (ASCII, so the key's and the label's are the same), encoded once for every connection.
     */
    private static final byte[][] NAME_BYTES = new byte[COUNT][];

    static
    {
        for (int i = 0; i < COUNT; i++)
        {
            NAME_BYTES[i] = NAMES[i].getBytes(StandardCharsets.US_ASCII);
        }
    }

    /**
     * Name of the counter holding the controller's state as an index into its
     * {@link io.pacelink.transport.cc.CongestionController#stateNames()}; its label ends with those names, see
     * {@link #controllerStateLabel(String, List)}.
     */
    public static final String CONTROLLER_STATE_NAME = "cc-state";

    /**
     * Published in {@link #CONTROLLER_STATE_NAME} when the controller reports a state it did not list.
     */
    public static final long UNKNOWN_STATE = -1;

    /**
     * The controller state label's name part, {@code "cc-state [NAME0 NAME1 ...]"} in UTF-8, by the identity of the
     * controller's state name list (a constant of each controller type): built once per type, not per connection.
     * Bounded, in case a controller makes a new list every time.
     */
    private static final Map<List<String>, byte[]> STATE_LABEL_NAMES = new IdentityHashMap<>();
    private static final int MAX_CACHED_STATE_LABELS = 64;

    /**
     * Stores of a newly registered counter into {@link #counters} are releases and reads from threads other than the
     * agent's acquires, so a reader that sees the counter sees it whole.
     */
    private static final VarHandle COUNTERS = MethodHandles.arrayElementVarHandle(AtomicCounter[].class);

    private static final byte[] CONTROLLER_STATE_NAME_BYTES = CONTROLLER_STATE_NAME.getBytes(StandardCharsets.US_ASCII);

    private final CounterRegistrar registrar;
    private final AtomicCounter[] counters = new AtomicCounter[COUNT];

    /**
     * The value each counter was last given, in one dense array only the agent thread touches. A counters buffer gives
     * every counter two cache lines of its own ({@link org.agrona.concurrent.status.CountersReader#COUNTER_LENGTH}),
     * and a duty cycle publishes a connection's figures whether or not they moved (most of them do not between two
     * ACKs): comparing here first leaves the counter's lines alone when nothing changed, which with many connections
     * is a cache miss each (the simulator's 50 flows) and on a real endpoint a line a {@code pacelink stat} reader
     * may share. Every write goes through {@link #set} and {@link #add} (one writer), so this is the counter's value.
     */
    private final long[] lastValues = new long[COUNT];
    private AtomicCounter[] controllerCounters = new AtomicCounter[0];
    private AtomicCounter controllerState;
    private List<String> controllerStateNames = List.of();
    private String publishedStateName;
    private final CounterReservations reservations;
    private int unregistered;
    private boolean isClosed;

    /**
     * @param countersManager where to register the counters.
     * @param connectionId    the local connection id, stored as each counter's key.
     * @param labelPrefix     e.g. {@code "conn 1f2e... 127.0.0.1:4000 bbr"}.
     */
    public ConnectionCounters(final CountersManager countersManager, final long connectionId, final String labelPrefix)
    {
        this(countersManager, connectionId, labelPrefix, new CounterReservations());
    }

    /**
     * @param countersManager where to register the counters.
     * @param connectionId    the local connection id, stored as each counter's key.
     * @param labelPrefix     e.g. {@code "conn 1f2e... 127.0.0.1:4000 bbr"}.
     * @param reservations    the endpoint's: the counters not registered yet are reserved there until registered or
     *                        closed.
     */
    public ConnectionCounters(
        final CountersManager countersManager,
        final long connectionId,
        final String labelPrefix,
        final CounterReservations reservations)
    {
        this.registrar = new CounterRegistrar(countersManager, connectionId, labelPrefix);
        this.reservations = reservations;
        register(STATE);
        unregistered = COUNT - 1;
        reservations.reserve(unregistered);
    }

    /**
     * @param index one of the constants of this class.
     * @return the counter's name with its unit.
     */
    public static String name(final int index)
    {
        return NAMES[index];
    }

    /**
     * @param index one of the constants of this class.
     * @return the counter, registered now if it was not yet (agent thread).
     * @throws IllegalStateException if the counters are closed and this one was never registered.
     * @deprecated a counter is registered when it first holds a value other than 0: write through {@link #set},
     * {@link #increment} or {@link #add}, read through {@link #get}. To be removed in the next minor version. A
     * value written straight into the returned counter is not seen by those methods, which keep the last value they
     * stored: the next {@link #set}, {@link #increment} or {@link #add} of that counter overwrites it.
     */
    @Deprecated
    public AtomicCounter counter(final int index)
    {
        final AtomicCounter counter = counters[index];
        if (null != counter)
        {
            return counter;
        }
        if (isClosed)
        {
            throw new IllegalStateException("the connection's counters are closed");
        }
        return register(index);
    }

    /**
     * Publish a value (release store: a reader on another thread sees a consistent long); agent thread. Registers
     * the counter if the value is its first other than 0, unless the counters are closed.
     *
     * @param index one of the constants of this class.
     * @param value the value.
     */
    public void set(final int index, final long value)
    {
        if (lastValues[index] == value)
        {
            return;
        }
        lastValues[index] = value;
        final AtomicCounter counter = counters[index];
        if (null != counter)
        {
            counter.setRelease(value);
        }
        else if (0 != value && !isClosed)
        {
            register(index).setRelease(value);
        }
    }

    /**
     * Add 1 (release store); agent thread. Registers the counter if this is its first value.
     *
     * @param index one of the constants of this class.
     */
    public void increment(final int index)
    {
        add(index, 1);
    }

    /**
     * Add to a counter (release store); agent thread. Registers the counter if this is its first value other than 0.
     *
     * @param index one of the constants of this class.
     * @param delta what to add.
     */
    public void add(final int index, final long delta)
    {
        if (0 != delta)
        {
            set(index, lastValues[index] + delta);
        }
    }

    /**
     * @param index one of the constants of this class.
     * @return the current value: 0 for a counter not registered (any thread).
     */
    public long get(final int index)
    {
        final AtomicCounter counter = (AtomicCounter)COUNTERS.getAcquire(counters, index);
        return null == counter ? 0 : counter.get();
    }

    /**
     * @param index one of the constants of this class.
     * @return true if the counter is in the counters buffer: it has held a value other than 0 (or is
     * {@link #STATE}).
     */
    public boolean isRegistered(final int index)
    {
        return null != COUNTERS.getAcquire(counters, index);
    }

    private AtomicCounter register(final int index)
    {
        final AtomicCounter counter = registrar.allocate(CounterType.CONNECTION, NAME_BYTES[index], NAME_BYTES[index]);
        COUNTERS.setRelease(counters, index, counter);
        if (STATE != index)
        {
            unregistered--;
            reservations.release(1);
        }
        return counter;
    }

    /**
     * {@inheritDoc}
     */
    public AtomicCounter newCounter(final String name)
    {
        final AtomicCounter counter = registrar.allocate(CounterType.CONTROLLER, name);
        controllerCounters = ArrayUtil.add(controllerCounters, counter);
        return counter;
    }

    /**
     * Register the {@link #CONTROLLER_STATE_NAME} counter once the connection's controller exists (agent thread).
     *
     * @param stateNames the controller's {@link io.pacelink.transport.cc.CongestionController#stateNames()}.
     */
    public void registerControllerState(final List<String> stateNames)
    {
        controllerStateNames = stateNames;
        controllerState = registrar.allocate(CounterType.CONTROLLER, CONTROLLER_STATE_NAME_BYTES,
            stateLabelName(stateNames));
        controllerCounters = ArrayUtil.add(controllerCounters, controllerState);
    }

    /**
     * @return {@code "cc-state [NAME0 NAME1 ...]"} in UTF-8: the label {@link #controllerStateLabel} writes, less the
     * prefix and its separator.
     */
    private static byte[] stateLabelName(final List<String> stateNames)
    {
        synchronized (STATE_LABEL_NAMES)
        {
            byte[] name = STATE_LABEL_NAMES.get(stateNames);
            if (null == name)
            {
                name = controllerStateLabel(CONTROLLER_STATE_NAME, stateNames).getBytes(StandardCharsets.UTF_8);
                if (STATE_LABEL_NAMES.size() < MAX_CACHED_STATE_LABELS)
                {
                    STATE_LABEL_NAMES.put(stateNames, name);
                }
            }
            return name;
        }
    }

    /**
     * Publish the controller's state. Costs one reference comparison unless the state changed (names are
     * constants), so it can run on every ACK.
     *
     * @param stateName the controller's {@link io.pacelink.transport.cc.CongestionController#stateName()}.
     */
    public void publishControllerState(final String stateName)
    {
        if (stateName != publishedStateName)
        {
            publishedStateName = stateName;
            controllerState.setRelease(controllerStateNames.indexOf(stateName));
        }
    }

    /**
     * @param label      the counter's label.
     * @param stateNames the names its values index.
     * @return {@code label [NAME0 NAME1 ...]}: the value {@code i} means the {@code i}th name.
     */
    public static String controllerStateLabel(final String label, final List<String> stateNames)
    {
        return label + " [" + String.join(" ", stateNames) + "]";
    }

    /**
     * @param label a {@link #CONTROLLER_STATE_NAME} counter's label, as written by
     *              {@link #controllerStateLabel(String, List)}.
     * @return the state names its values index; empty if the label has none (e.g. it was truncated).
     */
    public static List<String> controllerStateNames(final String label)
    {
        final int start = label.lastIndexOf('[');
        final int end = label.lastIndexOf(']');
        if (start < 0 || end < start + 2)
        {
            return List.of();
        }
        return List.of(label.substring(start + 1, end).split(" "));
    }

    /**
     * Free the controller's counters, its state counter included, for a fresh controller to register its own (the
     * connection moved to a new path, RFC 9000 section 9.4; agent thread).
     */
    public void releaseControllerCounters()
    {
        for (final AtomicCounter counter : controllerCounters)
        {
            counter.close();
        }
        controllerCounters = new AtomicCounter[0];
        publishedStateName = null;
    }

    /**
     * Free every counter registered (agent thread); none is registered after this.
     */
    public void close()
    {
        if (!isClosed)
        {
            reservations.release(unregistered);
            unregistered = 0;
        }
        isClosed = true;
        for (final AtomicCounter counter : counters)
        {
            if (null != counter)
            {
                counter.close();
            }
        }
        for (final AtomicCounter counter : controllerCounters)
        {
            counter.close();
        }
    }
}
