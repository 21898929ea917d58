package io.pacelink.transport.stats;

import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

/**
 * How large an endpoint's counters buffer is when the application did not say, and whether it has room for one more
 * connection. Agrona's {@link CountersManager} cannot grow (readers in other processes map it at its size), so the
 * default is sized up front to hold every connection the endpoint may hold at once: its established connections
 * ({@code maxConnections}) and its unconfirmed handshakes. In a counters file that costs nothing until used: the file
 * is sparse, so only the pages of counters in use are ever committed ({@link CountersFile}). In memory the buffers are
 * zero-filled when allocated, so an in-memory default is capped at {@link #MAX_IN_MEMORY_VALUES_BUFFER_BYTES}.
 */
public final class CountersSizing
{
    /**
     * Counters a congestion controller and its helpers may register for one connection (cubic with HyStart and bbr3
     * register 11): the reserve checked before a connection is opened.
     */
    public static final int MAX_CONTROLLER_COUNTERS = 17;

    /**
     * Counters one connection may register: the transport's, its controller's state and its controller's own.
     */
    public static final int COUNTERS_PER_CONNECTION = ConnectionCounters.COUNT + 1 + MAX_CONTROLLER_COUNTERS;

    /**
     * Counters of the endpoint itself (endpoint, port, security and scheduler counters, about 80 today), with room to
     * spare.
     */
    public static final int ENDPOINT_COUNTERS = 256;

    /**
     * Smallest values buffer, as {@code PacelinkContext.countersBufferBytes} accepts it.
     */
    public static final int MIN_VALUES_BUFFER_BYTES = 64 * 1024;

    /**
     * Largest values buffer (its metadata buffer is four times as large), as
     * {@code PacelinkContext.countersBufferBytes} accepts it.
     */
    public static final int MAX_VALUES_BUFFER_BYTES = 256 * 1024 * 1024;

    /**
     * Largest default values buffer kept in memory (zero-filled up front, 20 MiB with its metadata): about
     * 600 connections. An endpoint with its counters in memory and more connections sets its size by hand.
     */
    public static final int MAX_IN_MEMORY_VALUES_BUFFER_BYTES = 4 * 1024 * 1024;

    private CountersSizing()
    {
    }

    /**
     * @param connections connections held at once (established plus unconfirmed handshakes).
     * @return the smallest values buffer, a power of two, that holds the endpoint's counters and those of this many
     * connections, at most {@link #MAX_VALUES_BUFFER_BYTES}.
     */
    public static int valuesBufferBytesFor(final long connections)
    {
        final long bytes = (ENDPOINT_COUNTERS + connections * COUNTERS_PER_CONNECTION) * CountersReader.COUNTER_LENGTH;
        if (bytes >= MAX_VALUES_BUFFER_BYTES)
        {
            return MAX_VALUES_BUFFER_BYTES;
        }
        return Math.max(MIN_VALUES_BUFFER_BYTES, Integer.highestOneBit((int)bytes - 1) << 1);
    }

    /**
     * @param connections      connections held at once (established plus unconfirmed handshakes).
     * @param isMapped         true if the counters live in a sparse mapped file; false if in zero-filled memory.
     * @return the default values buffer size: {@link #valuesBufferBytesFor(long)}, capped at
     * {@link #MAX_IN_MEMORY_VALUES_BUFFER_BYTES} in memory.
     */
    public static int defaultValuesBufferBytes(final long connections, final boolean isMapped)
    {
        final int bytes = valuesBufferBytesFor(connections);
        return isMapped ? bytes : Math.min(bytes, MAX_IN_MEMORY_VALUES_BUFFER_BYTES);
    }

    /**
     * @param valuesBufferBytes a values buffer's size.
     * @return how many connections it holds beside the endpoint's own counters, each at
     * {@link #COUNTERS_PER_CONNECTION}: the figure a refusal names.
     */
    public static int connectionsHeld(final int valuesBufferBytes)
    {
        return Math.max(0, valuesBufferBytes / CountersReader.COUNTER_LENGTH - ENDPOINT_COUNTERS) /
            COUNTERS_PER_CONNECTION;
    }

    /**
     * Whether one more connection's counters fit. Counters are allocated upwards from the lowest id never used, after
     * reusing freed ones; so if the last {@link #COUNTERS_PER_CONNECTION} ids were never used there is room without
     * looking further. Only when the buffer is nearly full does this count the free list (Agrona's
     * {@link CountersManager#available()}), once per connection set-up, never per packet.
     *
     * @param countersManager the endpoint's counters.
     * @return true if a connection's counters fit.
     */
    public static boolean hasRoomForConnection(final CountersManager countersManager)
    {
        return hasRoomForConnection(countersManager, 0);
    }

    /**
     * @param countersManager  the endpoint's counters.
     * @param reservedCounters slots the open connections may still register ({@link CounterReservations}).
     * @return true if a connection's counters fit beside those.
     */
    public static boolean hasRoomForConnection(final CountersManager countersManager, final long reservedCounters)
    {
        // Ids above the highest ever used are allocated in order: if this one was never used, neither were those
        // after it, and they hold a connection beside the reserved slots.
        final long firstOfLast = countersManager.maxCounterId() - COUNTERS_PER_CONNECTION - reservedCounters + 1;
        if (firstOfLast >= 0 && CountersReader.RECORD_UNUSED == countersManager.getCounterState((int)firstOfLast))
        {
            return true;
        }
        return countersManager.available() - reservedCounters >= COUNTERS_PER_CONNECTION;
    }
}
