package io.pacelink.cli;

/**
 * Decides when a server's heap is compacted once a burst of work is over: at a periodic collection (G1's sign that no
 * collection was needed for a while) that follows work, when the server's endpoint has been quiet since the collection
 * before it, the heap holds at least {@link #MIN_RETURNED_BYTES} more than a compaction would leave (what it uses plus
 * {@code MaxHeapFreeRatio}), and what it uses is small enough for a short pause. One compaction per burst: after it,
 * only work — a collection of another cause — makes another due.
 * <p>
 * Why a compaction at all: G1's periodic collection returns memory only at its remark, which sizes the heap to the
 * regions in use, counted whole. After a flood of handshakes the old generation holds the flood's promoted connection
 * state scattered over many regions; the mixed collections that follow leave a region whose live part is above G1's
 * thresholds where it is, and stop once what is left to reclaim is under {@code G1HeapWastePercent} of the heap — so
 * 10 MiB live kept 36–40 MiB of heap for minutes (perf/FINDINGS.md, "The heap after a flood"). A full collection
 * compacts the live objects into few regions and then resizes the heap to them plus {@code MaxHeapFreeRatio}, as the
 * JVM did at the server's start. Its pause (15–20 ms for ~10 MiB live here) is why it waits for a quiet endpoint and
 * a small heap: Eclipse OpenJ9 does the same when it finds the VM idle ({@code -XX:+IdleTuningGcOnIdle}: "a garbage
 * collection cycle runs, the object heap is compacted, and free memory pages are released",
 * https://eclipse.dev/openj9/docs/xxidletuningminidlewaittime/).
 * <p>
 * Quiet means the endpoint received at most {@link #QUIET_DATAGRAMS_PER_SECOND} datagrams a second between the
 * reads of its counter at the collection before the periodic one and at the periodic one — a ping, keep-alives — so
 * a server still serving (a transfer, a flood) is never paused by it, however little it allocates: a zero-garbage
 * transfer needs no collection for minutes, and its periodic ones find it busy. Not the process's CPU: a server's own
 * idle work after a flood (closing what the flood opened) took 1–4 % of a core for a minute, as much as a 50 Mbit/s
 * transfer's receiver.
 * <p>
 * The rate is the counter's change over the time between its two reads, not between the collections' ends: the JVM
 * delivers the notifications on one thread, late when that thread waits to be scheduled, and two delivered back to
 * back read the counter a moment apart though the collections ended seconds apart — a busy server then looked quiet
 * and was paused. Reads closer than {@link #MIN_JUDGED_INTERVAL_MS} tell too little to call the endpoint quiet, so
 * such a periodic collection is passed over and the next one decides. The values come from the collections'
 * notifications, the endpoint's counter and the caller's clock; this class reads no clock and keeps no thread.
 */
final class IdleCompaction
{
    /**
     * The most datagrams a second the endpoint may have received since the previous collection to count as quiet.
     */
    static final int QUIET_DATAGRAMS_PER_SECOND = 20;

    /**
     * The least time, in milliseconds, between two reads of the endpoint's counter that can show it quiet: closer
     * reads (notifications delivered together) would call any server quiet.
     */
    static final long MIN_JUDGED_INTERVAL_MS = 250;

    /**
     * The least heap, in bytes, a compaction must be able to return to be worth its pause: the committed heap less
     * what a full collection would size it to (what is used plus the free share the JVM keeps).
     */
    static final long MIN_RETURNED_BYTES = 8L * 1024 * 1024;

    /**
     * The most heap in use, in bytes, that is compacted: a full collection's pause grows with what is live.
     */
    static final long MAX_COMPACTED_USED_BYTES = 64L * 1024 * 1024;

    private static final long MILLIS_PER_SECOND = 1_000L;
    private static final int PERCENT = 100;

    private final int maxHeapFreePercent;
    private boolean hasWorkedSinceCompaction;
    private long previousReadMs = -1;
    private long previousDatagramsReceived;

    /**
     * @param maxHeapFreePercent the JVM's {@code MaxHeapFreeRatio}: the most of the heap, in percent, a full
     *                           collection leaves free when it resizes the heap (0–99).
     */
    IdleCompaction(final int maxHeapFreePercent)
    {
        if (maxHeapFreePercent < 0 || maxHeapFreePercent >= PERCENT)
        {
            throw new IllegalArgumentException("maxHeapFreePercent must be 0-99: " + maxHeapFreePercent);
        }
        this.maxHeapFreePercent = maxHeapFreePercent;
    }

    /**
     * Told after each collection, in the order the JVM ran them.
     *
     * @param kind                what caused it.
     * @param readMs              when the endpoint's counter was read for it, in milliseconds of a monotonic clock.
     * @param datagramsReceived   how many datagrams the server's endpoint had received at {@code readMs}.
     * @param heapCommittedBytes  the heap's committed size after it.
     * @param heapUsedBytes       the heap's used size after it.
     * @return true if the heap should be compacted now.
     */
    boolean onCollection(
        final Kind kind, final long readMs, final long datagramsReceived, final long heapCommittedBytes,
        final long heapUsedBytes)
    {
        final boolean isQuiet = previousReadMs >= 0 && readMs - previousReadMs >= MIN_JUDGED_INTERVAL_MS &&
            (datagramsReceived - previousDatagramsReceived) * MILLIS_PER_SECOND <=
                (readMs - previousReadMs) * QUIET_DATAGRAMS_PER_SECOND;
        previousReadMs = readMs;
        previousDatagramsReceived = datagramsReceived;
        switch (kind)
        {
            case WORK:
                hasWorkedSinceCompaction = true;
                return false;
            case EXPLICIT:
                // A full collection someone asked for (or this class's own) compacted the heap already.
                hasWorkedSinceCompaction = false;
                return false;
            default:
                break;
        }
        // After a young collection "used" still holds the old generation's garbage: the estimate errs towards less.
        final long compactedBytes = heapUsedBytes * PERCENT / (PERCENT - maxHeapFreePercent);
        if (!hasWorkedSinceCompaction || !isQuiet || heapUsedBytes > MAX_COMPACTED_USED_BYTES ||
            heapCommittedBytes - compactedBytes < MIN_RETURNED_BYTES)
        {
            return false;
        }
        hasWorkedSinceCompaction = false;
        return true;
    }

    /**
     * What caused a collection, as far as the decision goes.
     */
    enum Kind
    {
        /**
         * G1's periodic collection: no collection was needed for its interval.
         */
        PERIODIC,
        /**
         * {@code System.gc()}: a full collection asked for (G1 compacts at it, unless the JVM was told otherwise).
         */
        EXPLICIT,
        /**
         * Any other cause: the heap filled with work.
         */
        WORK
    }
}
