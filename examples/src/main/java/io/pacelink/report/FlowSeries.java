package io.pacelink.report;

import java.util.Arrays;

/**
 * One flow's time series in a run, one row per sampling interval from the flow's start: goodput, congestion window,
 * pacing rate, smoothed RTT and the queueing delay its packets saw at the bottleneck. A value that does not exist at
 * a time (no RTT sample yet, no packet served in the interval, an unpaced sender) is NaN.
 */
public final class FlowSeries
{
    /**
     * The quantities, in column order, with their units.
     */
    public enum Quantity
    {
        /**
         * Message bytes delivered to the receiving application over a trailing window (see {@link RunRecorder}).
         */
        GOODPUT("goodput", "Mbit/s", "goodput_mbps"),
        /**
         * The sender's congestion window at the sample.
         */
        CWND("cwnd", "kB", "cwnd_kb"),
        /**
         * The sender's pacing rate at the sample.
         */
        PACING_RATE("pacing", "Mbit/s", "pacing_rate_mbps"),
        /**
         * The sender's smoothed RTT (RFC 9002 section 5.3) at the sample.
         */
        RTT("sRTT", "ms", "srtt_ms"),
        /**
         * The mean time the flow's packets waited in the bottleneck queue over the interval (the forward direction).
         */
        QUEUE_DELAY("queue delay", "ms", "queue_delay_ms");

        private final String label;
        private final String unit;
        private final String column;

        Quantity(final String label, final String unit, final String column)
        {
            this.label = label;
            this.unit = unit;
            this.column = column;
        }

        /**
         * @return e.g. {@code goodput (Mbit/s)}.
         */
        public String axisLabel()
        {
            return label + " (" + unit + ")";
        }

        /**
         * @return the column name in the data files, e.g. {@code goodput_mbps}.
         */
        public String column()
        {
            return column;
        }
    }

    private static final int QUANTITIES = Quantity.values().length;

    private final int flowIndex;
    private final String congestionControl;
    private final String label;
    private double[] timesSeconds = new double[64];
    private double[] values = new double[64 * QUANTITIES];
    private int size;

    /**
     * @param flowIndex         the flow, in scenario order.
     * @param congestionControl its controller.
     */
    public FlowSeries(final int flowIndex, final String congestionControl)
    {
        this(flowIndex, congestionControl, "flow " + flowIndex + " " + congestionControl);
    }

    /**
     * @param flowIndex         the flow, in order (its colour).
     * @param congestionControl its controller.
     * @param label             its name in a legend, e.g. {@code stream 3 bbr}.
     */
    public FlowSeries(final int flowIndex, final String congestionControl, final String label)
    {
        this.flowIndex = flowIndex;
        this.congestionControl = congestionControl;
        this.label = label;
    }

    /**
     * @param timeSeconds the sample's time.
     * @param row         one value per {@link Quantity}, in order.
     */
    public void add(final double timeSeconds, final double... row)
    {
        if (row.length != QUANTITIES)
        {
            throw new IllegalArgumentException("a row has " + QUANTITIES + " values");
        }
        if (size == timesSeconds.length)
        {
            timesSeconds = Arrays.copyOf(timesSeconds, size * 2);
            values = Arrays.copyOf(values, size * 2 * QUANTITIES);
        }
        timesSeconds[size] = timeSeconds;
        System.arraycopy(row, 0, values, size * QUANTITIES, QUANTITIES);
        size++;
    }

    /**
     * @return the flow's index.
     */
    public int flowIndex()
    {
        return flowIndex;
    }

    /**
     * @return the flow's controller.
     */
    public String congestionControl()
    {
        return congestionControl;
    }

    /**
     * @return e.g. {@code flow 0 bbr}.
     */
    public String label()
    {
        return label;
    }

    /**
     * @return rows.
     */
    public int size()
    {
        return size;
    }

    /**
     * @param row a row.
     * @return its time in seconds.
     */
    public double timeSeconds(final int row)
    {
        return timesSeconds[row];
    }

    /**
     * @param row      a row.
     * @param quantity a quantity.
     * @return its value (NaN where it does not exist).
     */
    public double value(final int row, final Quantity quantity)
    {
        return values[row * QUANTITIES + quantity.ordinal()];
    }
}
