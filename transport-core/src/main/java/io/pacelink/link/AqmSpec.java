package io.pacelink.link;

import java.util.Set;
import java.util.StringJoiner;

/**
 * The active-queue-management and ECN settings of a path direction's bottleneck queue, as the path spec gives them
 * (tc's vocabulary): whether the queue marks ECN-capable packets instead of dropping them ({@code ecn=on|off}), RED's
 * thresholds ({@code min=}, {@code max=}, {@code probability=}, {@code avpkt=}, {@code harddrop=}), SFQ-RED's per-flow
 * limit ({@code redflowlimit=}) and head drop ({@code headdrop=}), and a step marking threshold for L4S-style marking
 * ({@code ce_threshold=}). Which keys a discipline reads is its {@link BottleneckQueueFactory#aqmKeys()}; the parser
 * refuses the others. Zero means "derive it as tc does" for the byte thresholds.
 *
 * @param ecn            {@link Toggle#DEFAULT}: the discipline's default (fq_codel and sfqred mark, red drops).
 * @param minBytes       RED {@code min}: average backlog where marking starts; 0 for {@code max / 3}.
 * @param maxBytes       RED {@code max}: average backlog where every packet is marked or dropped; 0 for a quarter of
 *                       the (per-flow) limit.
 * @param probability    RED {@code probability}: the marking probability reached at {@code max} (tc's default 0.02).
 * @param avpktBytes     RED {@code avpkt}: the mean packet size the EWMA and its idle decay are sized for (1000).
 * @param flowLimitBytes SFQ-RED {@code redflowlimit}: the per-flow byte limit the thresholds derive from; 0 for the
 *                       queue's limit.
 * @param hardDrop       RED {@code harddrop}: above {@code max}, drop even ECN-capable packets.
 * @param headDrop       SFQ {@code headdrop}: drop or mark the flow's oldest packet rather than the arriving one.
 * @param ceThresholdNs  fq_codel {@code ce_threshold}: mark every ECN-capable packet that waited longer; 0 for off.
 */
public record AqmSpec(
    Toggle ecn,
    long minBytes,
    long maxBytes,
    double probability,
    int avpktBytes,
    long flowLimitBytes,
    boolean hardDrop,
    boolean headDrop,
    long ceThresholdNs)
{
    /**
     * tc's default RED {@code probability}.
     */
    public static final double DEFAULT_PROBABILITY = 0.02;

    /**
     * tc's default RED {@code avpkt}.
     */
    public static final int DEFAULT_AVPKT_BYTES = 1000;

    /**
     * No AQM setting given: every discipline's defaults.
     */
    public static final AqmSpec DEFAULT =
        new AqmSpec(Toggle.DEFAULT, 0, 0, DEFAULT_PROBABILITY, DEFAULT_AVPKT_BYTES, 0, false, false, 0);

    /**
     * Path-spec key: mark instead of drop ({@code on}/{@code off}).
     */
    public static final String ECN = "ecn";

    /**
     * Path-spec key: RED's minimum threshold.
     */
    public static final String MIN = "min";

    /**
     * Path-spec key: RED's maximum threshold.
     */
    public static final String MAX = "max";

    /**
     * Path-spec key: RED's maximum marking probability.
     */
    public static final String PROBABILITY = "probability";

    /**
     * Path-spec key: RED's mean packet size.
     */
    public static final String AVPKT = "avpkt";

    /**
     * Path-spec key: SFQ-RED's per-flow limit.
     */
    public static final String REDFLOWLIMIT = "redflowlimit";

    /**
     * Path-spec key: RED's hard drop above {@code max}.
     */
    public static final String HARDDROP = "harddrop";

    /**
     * Path-spec key: SFQ's head drop.
     */
    public static final String HEADDROP = "headdrop";

    /**
     * Path-spec key: the step marking threshold.
     */
    public static final String CE_THRESHOLD = "ce_threshold";

    /**
     * The keys RED reads.
     */
    public static final Set<String> RED_KEYS = Set.of(ECN, MIN, MAX, PROBABILITY, AVPKT, HARDDROP);

    /**
     * Every key of this record.
     */
    public static final Set<String> KEYS =
        Set.of(ECN, MIN, MAX, PROBABILITY, AVPKT, REDFLOWLIMIT, HARDDROP, HEADDROP, CE_THRESHOLD);

    /**
     * A switch that may be left to the discipline's default.
     */
    public enum Toggle
    {
        /**
         * Not given: the discipline decides.
         */
        DEFAULT,

        /**
         * Given as {@code on}.
         */
        ON,

        /**
         * Given as {@code off}.
         */
        OFF;

        /**
         * @param disciplineDefault what the discipline does when not told.
         * @return the effective setting.
         */
        public boolean isOn(final boolean disciplineDefault)
        {
            return DEFAULT == this ? disciplineDefault : ON == this;
        }
    }

    /**
     * @param ecn            mark or drop, or the discipline's default.
     * @param minBytes       RED min, 0 to derive.
     * @param maxBytes       RED max, 0 to derive.
     * @param probability    RED max probability.
     * @param avpktBytes     RED mean packet size.
     * @param flowLimitBytes SFQ-RED per-flow limit, 0 to derive.
     * @param hardDrop       drop above max even if ECN-capable.
     * @param headDrop       drop or mark the head instead of the arrival.
     * @param ceThresholdNs  step marking threshold, 0 for off.
     */
    public AqmSpec
    {
        if (minBytes < 0 || maxBytes < 0 || flowLimitBytes < 0 || ceThresholdNs < 0)
        {
            throw new IllegalArgumentException("min, max, redflowlimit and ce_threshold must not be negative");
        }
        if (!(probability > 0 && probability <= 1))
        {
            throw new IllegalArgumentException("probability must be in (0, 1], e.g. 0.02 or 2%");
        }
        if (avpktBytes <= 0)
        {
            throw new IllegalArgumentException("avpkt must be a positive number of bytes");
        }
        if (minBytes > 0 && maxBytes > 0 && minBytes >= maxBytes)
        {
            throw new IllegalArgumentException("min (" + minBytes + " bytes) must be below max (" + maxBytes + ")");
        }
    }

    /**
     * @param key a path-spec key.
     * @return true if it is one of this record's keys (which a discipline must read for it to be given).
     */
    public static boolean isAqmKey(final String key)
    {
        return KEYS.contains(key);
    }

    /**
     * @param spec the canonical path-spec text being built: every setting that differs from its default is added.
     */
    void appendTo(final StringJoiner spec)
    {
        if (Toggle.DEFAULT != ecn)
        {
            spec.add(ECN + "=" + (Toggle.ON == ecn ? "on" : "off"));
        }
        if (minBytes != 0)
        {
            spec.add(MIN + "=" + SpecUnits.formatBytes(minBytes));
        }
        if (maxBytes != 0)
        {
            spec.add(MAX + "=" + SpecUnits.formatBytes(maxBytes));
        }
        if (probability != DEFAULT_PROBABILITY)
        {
            spec.add(PROBABILITY + "=" + SpecUnits.formatPercent(probability));
        }
        if (avpktBytes != DEFAULT_AVPKT_BYTES)
        {
            spec.add(AVPKT + "=" + SpecUnits.formatBytes(avpktBytes));
        }
        if (flowLimitBytes != 0)
        {
            spec.add(REDFLOWLIMIT + "=" + SpecUnits.formatBytes(flowLimitBytes));
        }
        if (hardDrop)
        {
            spec.add(HARDDROP + "=on");
        }
        if (headDrop)
        {
            spec.add(HEADDROP + "=on");
        }
        if (ceThresholdNs != 0)
        {
            spec.add(CE_THRESHOLD + "=" + SpecUnits.formatTime(ceThresholdNs));
        }
    }
}
