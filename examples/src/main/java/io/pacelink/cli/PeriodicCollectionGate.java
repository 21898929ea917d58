package io.pacelink.cli;

/**
 * Decides whether G1's periodic collection is on: only while the server's endpoint is quiet, and only until it has run
 * twice after work. G1 starts one when no collection came for {@code G1PeriodicGCInterval} (JEP 346) — meant for an
 * idle JVM, on the assumption that a busy one collects anyway. A Pacelink server is the exception: a transfer allocates
 * nothing, so a server receiving at 1 Gbit/s went 15 s without a collection and got the periodic one in the middle of
 * a `perf` test — a young pause, a remark and a cleanup, up to ~70 ms in which the receiver read nothing
 * (perf/FINDINGS.md, the receivers' three pauses "in every run, with every build"). So while the endpoint receives more
 * than {@link IdleCompaction#QUIET_DATAGRAMS_PER_SECOND} datagrams a second the interval is 0 (G1's "off"), and it is
 * set back once a check finds the endpoint quiet again; G1 then collects at its next check if the busy spell outlasted
 * the interval, which is the collection after a burst that returns memory ({@link ServerHeap}, {@link IdleCompaction}).
 * <p>
 * And it rests once they have done their work: G1 would start one every interval for as long as the server idles — a
 * concurrent cycle and its JMX notification, whose handling the JIT kept compiling: 0.4 % of a core on an idle echo
 * server against 0.12 % without them (perf/FINDINGS.md, "An idle server's periodic collections"). After work the
 * first periodic collection returns memory (its remark resizes the heap; the C heap is trimmed) and the second may
 * compact the heap ({@link IdleCompaction} waits for one whose endpoint was quiet since the collection before it,
 * which after a busy spell is the second); a third with nothing between finds the heap as the second left it. So
 * after {@link #PERIODIC_COLLECTIONS_AFTER_WORK} periodic collections in a row, with no collection of another cause and
 * no busy spell between, the interval goes to 0, and back at the next sign of work: a collection of another cause (the
 * server allocated a young generation's worth) or a busy spell that ended. A periodic collection and one of another
 * cause within one check count as work (which came first is unknown, and an extra collection costs less than memory
 * kept).
 * <p>
 * The same threshold as the compaction's, so a ping or keep-alives leave it on. The values come from the caller (a
 * check a second on the JVM's own timer thread, {@link ServerHeap#watchTraffic}, with the collection counts of
 * {@link ServerHeap}'s listener); this class reads no clock.
 */
final class PeriodicCollectionGate
{
    /**
     * What {@link #onCheck} returns when the interval stays as it is.
     */
    static final long UNCHANGED = -1;

    /**
     * The periodic collections in a row after work that can still return memory (above); then it rests.
     */
    static final int PERIODIC_COLLECTIONS_AFTER_WORK = 2;

    private static final long MILLIS_PER_SECOND = 1_000L;

    private final long intervalMs;
    private boolean isOn = true;
    private long periodicCollectionsSinceWork;
    private long previousCheckMs = -1;
    private long previousDatagramsReceived;
    private long previousPeriodicCollections;
    private long previousWorkCollections;

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
     * A check: how busy the endpoint was since the previous one, and which collections came, decide the interval.
     *
     * @param nowMs               the check's time, in milliseconds of any monotonic clock.
     * @param datagramsReceived   the endpoint's datagrams received so far.
     * @param periodicCollections G1's periodic collections so far.
     * @param workCollections     the collections of other causes than the periodic one and a compaction so far
     *                            (allocation: work).
     * @return the interval to set now, in milliseconds (0 turns the periodic collection off), or {@link #UNCHANGED}.
     */
    long onCheck(final long nowMs, final long datagramsReceived, final long periodicCollections,
        final long workCollections)
    {
        final long sinceMs = nowMs - previousCheckMs;
        final boolean isFirst = previousCheckMs < 0;
        final long received = datagramsReceived - previousDatagramsReceived;
        final long newPeriodicCollections = periodicCollections - previousPeriodicCollections;
        final boolean hasCollectedForWork = workCollections != previousWorkCollections;
        previousCheckMs = nowMs;
        previousDatagramsReceived = datagramsReceived;
        previousPeriodicCollections = periodicCollections;
        previousWorkCollections = workCollections;
        if (isFirst || sinceMs <= 0)
        {
            return UNCHANGED;
        }
        final boolean isQuiet = received * MILLIS_PER_SECOND <= sinceMs * IdleCompaction.QUIET_DATAGRAMS_PER_SECOND;
        if (!isQuiet || hasCollectedForWork)
        {
            periodicCollectionsSinceWork = 0;
        }
        else
        {
            periodicCollectionsSinceWork += newPeriodicCollections;
        }
        final boolean isWanted = isQuiet && periodicCollectionsSinceWork < PERIODIC_COLLECTIONS_AFTER_WORK;
        if (isWanted == isOn)
        {
            return UNCHANGED;
        }
        isOn = isWanted;
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
