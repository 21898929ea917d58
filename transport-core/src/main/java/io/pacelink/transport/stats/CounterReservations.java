package io.pacelink.transport.stats;

/**
 * Counter slots an endpoint's open connections may still register: a connection registers most of its transport
 * counters only when they first hold a value other than 0 ({@link ConnectionCounters}), so the room it needs is
 * reserved when it opens and given back as it registers them or closes. A connection is admitted only if the counters
 * buffer holds a whole connection's counters beyond what is reserved ({@link CountersSizing#hasRoomForConnection}),
 * so a registration on the packet path always finds a slot. Agent thread only.
 */
public final class CounterReservations
{
    private long reservedCounters;

    /**
     * @return counter slots reserved and not yet registered.
     */
    public long reservedCounters()
    {
        return reservedCounters;
    }

    void reserve(final int counters)
    {
        reservedCounters += counters;
    }

    void release(final int counters)
    {
        reservedCounters -= counters;
    }
}
