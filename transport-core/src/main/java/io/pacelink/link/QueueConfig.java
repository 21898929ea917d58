package io.pacelink.link;

/**
 * A bottleneck queue's limits and discipline parameters, as resolved from a path spec: a limit in packets and/or
 * bytes (a {@code queue=Nbdp} limit is resolved to bytes from the link's rate and delay before it gets here), and
 * the fair-queue parameters ({@code quantum=}, {@code flows=}, CoDel's {@code target=} and {@code interval=}).
 *
 * @param limitPackets   maximum packets queued, {@link Integer#MAX_VALUE} for no packet limit.
 * @param limitBytes     maximum bytes queued, {@link Long#MAX_VALUE} for no byte limit.
 * @param quantumBytes   DRR quantum for fair queues (fq_codel default 1514).
 * @param flowBuckets    number of flow buckets for hashing fair queues (fq_codel default 1024).
 * @param codelTargetNs  CoDel target sojourn time (default 5 ms).
 * @param codelIntervalNs CoDel interval (default 100 ms).
 * @param seed           seed for hash perturbation (sfq), from the scenario's seed.
 */
public record QueueConfig(
    int limitPackets,
    long limitBytes,
    int quantumBytes,
    int flowBuckets,
    long codelTargetNs,
    long codelIntervalNs,
    long seed)
{
    /**
     * fq_codel's default quantum: one Ethernet MTU including the header.
     */
    public static final int DEFAULT_QUANTUM_BYTES = 1514;

    /**
     * fq_codel's default number of flows.
     */
    public static final int DEFAULT_FLOW_BUCKETS = 1024;

    /**
     * CoDel's default target (RFC 8289 section 4.4).
     */
    public static final long DEFAULT_CODEL_TARGET_NS = 5_000_000L;

    /**
     * CoDel's default interval (RFC 8289 section 4.3).
     */
    public static final long DEFAULT_CODEL_INTERVAL_NS = 100_000_000L;
}
