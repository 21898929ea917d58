package io.pacelink.cli;

/**
 * Decides whether G1's periodic collection is on: only while the server's endpoint is quiet. G1 starts one when no
 * collection came for {@code G1PeriodicGCInterval} (JEP 346) — meant for an idle JVM, on the assumption that a busy
 * one collects anyway. A Pacelink server is the exception: a transfer allocates nothing, so a server receiving at
 * 1 Gbit/s went 15 s without a collection and got the periodic one in the middle of a `perf` test — a young pause,
 * a remark and a cleanup, up to ~70 ms in which the receiver read nothing (perf/FINDINGS.md, the receivers' three
 * pauses "in every run, with every build"). So while the endpoint receives more than
 * {@link IdleCompaction#QUIET_DATAGRAMS_PER_SECOND} datagrams a second the interval is 0 (G1's "off"), and it is set
 * back once a check finds the endpoint quiet again; G1 then collects at its next check if the busy spell outlasted the
 * interval, which is the collection after a burst that returns memory ({@link ServerHeap}, {@link IdleCompaction}).
 * <p>
 * The same threshold as the compaction's, so a ping or keep-alives leave it on. The values come from the caller (a
 * check a second on the JVM's own timer thread, {@link ServerHeap#watchTraffic}); this class reads no clock.
 */
final class PeriodicCollectionGate
{
    /**
     * What {@link #onCheck} returns when the interval stays as it is.
     */
    static final long UNCHANGED = -1;

    private static final long MILLIS_PER_SECOND = 1_000L;

    private final long intervalMs;
    private boolean isOn = true;
    private long previousCheckMs = -1;
    private long previousDatagramsReceived;

    /**
     * @param intervalMs the periodic interval while quiet, in milliseconds (positive).
     */
    PeriodicCollectionGate(final long intervalMs)
    {
        if (intervalMs <= 0)
        {
            throw new IllegalArgumentException("the periodic interval must be positive: " + intervalMs + " ms");
        }
        this.intervalMs = intervalMs;
    }

    /**
     * A check: how busy the endpoint was since the previous one decides the interval.
     *
     * @param nowMs             the check's time, in milliseconds of any monotonic clock.
     * @param datagramsReceived the endpoint's datagrams received so far.
     * @return the interval to set now, in milliseconds (0 turns the periodic collection off), or {@link #UNCHANGED}.
     */
    long onCheck(final long nowMs, final long datagramsReceived)
    {
        final long sinceMs = nowMs - previousCheckMs;
        final boolean isFirst = previousCheckMs < 0;
        final long received = datagramsReceived - previousDatagramsReceived;
        previousCheckMs = nowMs;
        previousDatagramsReceived = datagramsReceived;
        if (isFirst || sinceMs <= 0)
        {
            return UNCHANGED;
        }
        final boolean isQuiet = received * MILLIS_PER_SECOND <= sinceMs * IdleCompaction.QUIET_DATAGRAMS_PER_SECOND;
        if (isQuiet == isOn)
        {
            return UNCHANGED;
        }
        isOn = isQuiet;
        return isOn ? intervalMs : 0;
    }

    /**
     * @return true while the periodic collection is on.
     */
    boolean isOn()
    {
        return isOn;
    }
}
