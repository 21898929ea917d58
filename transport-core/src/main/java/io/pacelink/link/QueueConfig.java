package io.pacelink.link;

/**
 * A bottleneck queue's limits and discipline parameters, as resolved from a path spec: a limit in packets and/or
 * bytes (a {@code queue=Nbdp} limit is resolved to bytes from the link's rate and delay before it gets here), the
 * fair-queue parameters ({@code quantum=}, {@code flows=}, CoDel's {@code target=} and {@code interval=}), the AQM and
 * ECN settings ({@link AqmSpec}) and the link's rate (RED's idle decay).
 *
 * @param limitPackets   maximum packets queued, {@link Integer#MAX_VALUE} for no packet limit.
 * @param limitBytes     maximum bytes queued, {@link Long#MAX_VALUE} for no byte limit.
 * @param quantumBytes   DRR quantum for fair queues (fq_codel default 1514).
 * @param flowBuckets    number of flow buckets for hashing fair queues (fq_codel default 1024).
 * @param codelTargetNs  CoDel target sojourn time (default 5 ms).
 * @param codelIntervalNs CoDel interval (default 100 ms).
 * @param seed           seed for hash perturbation (sfq), from the scenario's seed.
 * @param aqm            ECN marking, RED and step-marking settings.
 * @param rateBitsPerSecond the link's nominal rate, {@link RateSchedule#UNLIMITED_BITS_PER_SECOND} for none.
 */
public record QueueConfig(
    int limitPackets,
    long limitBytes,
    int quantumBytes,
    int flowBuckets,
    long codelTargetNs,
    long codelIntervalNs,
    long seed,
    AqmSpec aqm,
    long rateBitsPerSecond)
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

    /**
     * @param packetBytes the size a packet counts for when the limit is in packets.
     * @return the byte limit, or for a limit in packets that many packets of {@code packetBytes}: what RED's
     * thresholds derive from.
     */
    public long limitBytesCountingPacketsAs(final int packetBytes)
    {
        return Long.MAX_VALUE != limitBytes ? limitBytes : (long)limitPackets * packetBytes;
    }

    /**
     * A configuration with every AQM setting at its default and no link rate, as before ECN settings existed.
     *
     * @param limitPackets    maximum packets queued.
     * @param limitBytes      maximum bytes queued.
     * @param quantumBytes    DRR quantum.
     * @param flowBuckets     number of flow buckets.
     * @param codelTargetNs   CoDel target.
     * @param codelIntervalNs CoDel interval.
     * @param seed            hash perturbation seed.
     * @deprecated give the AQM settings and the rate: {@link #QueueConfig(int, long, int, int, long, long, long,
     * AqmSpec, long)}; to be removed in the next minor version.
     */
    @Deprecated
    public QueueConfig(
        final int limitPackets,
        final long limitBytes,
        final int quantumBytes,
        final int flowBuckets,
        final long codelTargetNs,
        final long codelIntervalNs,
        final long seed)
    {
        this(limitPackets, limitBytes, quantumBytes, flowBuckets, codelTargetNs, codelIntervalNs, seed,
            AqmSpec.DEFAULT, RateSchedule.UNLIMITED_BITS_PER_SECOND);
    }
}
