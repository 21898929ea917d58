package io.pacelink.transport.recovery;

import java.util.concurrent.TimeUnit;

/**
 * Configuration of one connection's {@link LossRecovery}: sizes, the RTT assumed before any sample, the loss thresholds
 * of RFC 9002 section 6 and an adaptive reordering rule after RFC 8985 section 6.2. Fluent setters, validated when a
 * {@link LossRecovery} is built from it; the values are copied, so one instance may configure many connections.
 */
public final class RecoveryConfig
{
    /**
     * Default number of sent packets tracked; must exceed the most packets ever in flight at once.
     */
    public static final int DEFAULT_SENT_PACKET_CAPACITY = 4096;

    /**
     * RFC 9002 section 6.2.2 kInitialRtt.
     */
    public static final long DEFAULT_INITIAL_RTT_NS = TimeUnit.MILLISECONDS.toNanos(333);

    /**
     * RFC 9002 section 6.1.1 kPacketThreshold.
     */
    public static final int DEFAULT_PACKET_THRESHOLD = 3;

    /**
     * Numerator of RFC 9002 section 6.1.2 kTimeThreshold = 9/8.
     */
    public static final int DEFAULT_TIME_THRESHOLD_NUMERATOR = 9;

    /**
     * Denominator of RFC 9002 section 6.1.2 kTimeThreshold = 9/8.
     */
    public static final int DEFAULT_TIME_THRESHOLD_DENOMINATOR = 8;

    /**
     * RFC 9002 section 6.1.2 kGranularity.
     */
    public static final long DEFAULT_GRANULARITY_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * Upper bound of the adaptive packet threshold (Linux {@code sysctl_tcp_max_reordering} defaults to 300; 256
     * keeps the same order of magnitude).
     */
    public static final int DEFAULT_MAX_PACKET_THRESHOLD = 256;

    /**
     * RFC 8985 section 6.2 / Linux {@code TCP_RACK_RECOVERY_THRESH}: recoveries a grown reordering window persists.
     */
    public static final int DEFAULT_REORDER_WINDOW_PERSIST_RECOVERIES = 16;

    /**
     * RFC 9002 section 6.2.4: ack-eliciting probes owed when the PTO expires ("one or two").
     */
    public static final int DEFAULT_PROBE_PACKETS = 2;

    /**
     * Default number of recently lost packets remembered for spurious-loss detection.
     */
    public static final int DEFAULT_LOST_PACKET_HISTORY = 256;

    private int sentPacketCapacity = DEFAULT_SENT_PACKET_CAPACITY;
    private long initialRttNs = DEFAULT_INITIAL_RTT_NS;
    private int packetThreshold = DEFAULT_PACKET_THRESHOLD;
    private int timeThresholdNumerator = DEFAULT_TIME_THRESHOLD_NUMERATOR;
    private int timeThresholdDenominator = DEFAULT_TIME_THRESHOLD_DENOMINATOR;
    private long granularityNs = DEFAULT_GRANULARITY_NS;
    private boolean adaptiveReordering = true;
    private int maxPacketThreshold = DEFAULT_MAX_PACKET_THRESHOLD;
    private int reorderWindowPersistRecoveries = DEFAULT_REORDER_WINDOW_PERSIST_RECOVERIES;
    private int probePackets = DEFAULT_PROBE_PACKETS;
    private int lostPacketHistory = DEFAULT_LOST_PACKET_HISTORY;
    private boolean ecn;
    private long minRttSampleNs;

    /**
     * @param capacity sent packets tracked at once, a power of two; sending stops while the packet
     *                 {@code capacity} numbers back is unresolved.
     * @return this.
     */
    public RecoveryConfig sentPacketCapacity(final int capacity)
    {
        this.sentPacketCapacity = capacity;
        return this;
    }

    /**
     * @return sent packets tracked at once.
     */
    public int sentPacketCapacity()
    {
        return sentPacketCapacity;
    }

    /**
     * @param minRttSampleNs RTT samples below this are rejected, not taken: no path is that fast, so such a sample
     *                       comes from an acknowledgement sent before the packet arrived (docs/security.md).
     * @return this.
     */
    public RecoveryConfig minRttSampleNs(final long minRttSampleNs)
    {
        this.minRttSampleNs = minRttSampleNs;
        return this;
    }

    /**
     * @return the smallest RTT sample taken; 0 (the default) takes every sample.
     */
    public long minRttSampleNs()
    {
        return minRttSampleNs;
    }

    /**
     * @param initialRttNs RTT assumed before the first sample.
     * @return this.
     */
    public RecoveryConfig initialRttNs(final long initialRttNs)
    {
        this.initialRttNs = initialRttNs;
        return this;
    }

    /**
     * @return RTT assumed before the first sample.
     */
    public long initialRttNs()
    {
        return initialRttNs;
    }

    /**
     * @param packetThreshold packets acknowledged after an unacknowledged one before it is lost.
     * @return this.
     */
    public RecoveryConfig packetThreshold(final int packetThreshold)
    {
        this.packetThreshold = packetThreshold;
        return this;
    }

    /**
     * @return packets acknowledged after an unacknowledged one before it is lost (initial value when adaptive).
     */
    public int packetThreshold()
    {
        return packetThreshold;
    }

    /**
     * @param numerator   time threshold numerator.
     * @param denominator time threshold denominator; the threshold must be at least 1.
     * @return this.
     */
    public RecoveryConfig timeThreshold(final int numerator, final int denominator)
    {
        this.timeThresholdNumerator = numerator;
        this.timeThresholdDenominator = denominator;
        return this;
    }

    /**
     * @return time threshold numerator.
     */
    public int timeThresholdNumerator()
    {
        return timeThresholdNumerator;
    }

    /**
     * @return time threshold denominator.
     */
    public int timeThresholdDenominator()
    {
        return timeThresholdDenominator;
    }

    /**
     * @param granularityNs timer granularity: the smallest loss delay and PTO variance term.
     * @return this.
     */
    public RecoveryConfig granularityNs(final long granularityNs)
    {
        this.granularityNs = granularityNs;
        return this;
    }

    /**
     * @return timer granularity.
     */
    public long granularityNs()
    {
        return granularityNs;
    }

    /**
     * @param adaptiveReordering true to widen the thresholds when losses prove spurious (after RFC 8985 section 6.2).
     * @return this.
     */
    public RecoveryConfig adaptiveReordering(final boolean adaptiveReordering)
    {
        this.adaptiveReordering = adaptiveReordering;
        return this;
    }

    /**
     * @return true if the thresholds adapt to observed reordering.
     */
    public boolean adaptiveReordering()
    {
        return adaptiveReordering;
    }

    /**
     * @param maxPacketThreshold cap of the adaptive packet threshold.
     * @return this.
     */
    public RecoveryConfig maxPacketThreshold(final int maxPacketThreshold)
    {
        this.maxPacketThreshold = maxPacketThreshold;
        return this;
    }

    /**
     * @return cap of the adaptive packet threshold.
     */
    public int maxPacketThreshold()
    {
        return maxPacketThreshold;
    }

    /**
     * @param recoveries recoveries without new evidence of reordering before the thresholds return to their base.
     * @return this.
     */
    public RecoveryConfig reorderWindowPersistRecoveries(final int recoveries)
    {
        this.reorderWindowPersistRecoveries = recoveries;
        return this;
    }

    /**
     * @return recoveries a widened threshold persists.
     */
    public int reorderWindowPersistRecoveries()
    {
        return reorderWindowPersistRecoveries;
    }

    /**
     * @param probePackets ack-eliciting probes owed per PTO expiry, 1 or 2.
     * @return this.
     */
    public RecoveryConfig probePackets(final int probePackets)
    {
        this.probePackets = probePackets;
        return this;
    }

    /**
     * @return ack-eliciting probes owed per PTO expiry.
     */
    public int probePackets()
    {
        return probePackets;
    }

    /**
     * @param lostPacketHistory recently lost packets remembered for spurious-loss detection.
     * @return this.
     */
    public RecoveryConfig lostPacketHistory(final int lostPacketHistory)
    {
        this.lostPacketHistory = lostPacketHistory;
        return this;
    }

    /**
     * @return recently lost packets remembered for spurious-loss detection.
     */
    public int lostPacketHistory()
    {
        return lostPacketHistory;
    }

    /**
     * @param ecn true to send packets ECN-capable, validating the path and the peer's counts
     *            ({@link EcnValidation}); only for a port that carries codepoints both ways.
     * @return this.
     */
    public RecoveryConfig ecn(final boolean ecn)
    {
        this.ecn = ecn;
        return this;
    }

    /**
     * @return true if connections start ECN validation; false (the default) if they never use ECN.
     */
    public boolean ecn()
    {
        return ecn;
    }

    /**
     * Fail fast on values that cannot work.
     *
     * @throws IllegalArgumentException naming the first bad value and the accepted range.
     */
    public void validate()
    {
        if (sentPacketCapacity < 2 || Integer.bitCount(sentPacketCapacity) != 1)
        {
            throw new IllegalArgumentException(
                "sentPacketCapacity=" + sentPacketCapacity + " must be a power of two >= 2");
        }
        requirePositive("initialRttNs", initialRttNs);
        requirePositive("granularityNs", granularityNs);
        requirePositive("lostPacketHistory", lostPacketHistory);
        if (minRttSampleNs < 0)
        {
            throw new IllegalArgumentException("minRttSampleNs=" + minRttSampleNs + " must be >= 0");
        }
        if (packetThreshold < 1 || packetThreshold > maxPacketThreshold)
        {
            throw new IllegalArgumentException("packetThreshold=" + packetThreshold +
                " must be in 1..maxPacketThreshold (" + maxPacketThreshold + ")");
        }
        if (timeThresholdDenominator < 1 || timeThresholdNumerator < timeThresholdDenominator)
        {
            throw new IllegalArgumentException("timeThreshold=" + timeThresholdNumerator + "/" +
                timeThresholdDenominator + " must be a fraction >= 1 with a positive denominator");
        }
        if (reorderWindowPersistRecoveries < 1)
        {
            throw new IllegalArgumentException(
                "reorderWindowPersistRecoveries=" + reorderWindowPersistRecoveries + " must be >= 1");
        }
        if (probePackets < 1 || probePackets > 2)
        {
            throw new IllegalArgumentException("probePackets=" + probePackets + " must be 1 or 2");
        }
    }

    private static void requirePositive(final String name, final long value)
    {
        if (value <= 0)
        {
            throw new IllegalArgumentException(name + "=" + value + " must be > 0");
        }
    }
}
