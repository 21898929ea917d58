package io.pacelink.sim.results;

/**
 * One row of a connection trace, filled in by a {@link ConnectionSampler} from the connection's statistics. A reused
 * holder: the writer reads it during the call only.
 */
public final class ConnectionSample
{
    private long congestionWindowBytes;
    private long pacingRateBytesPerSecond;
    private long bytesInFlight;
    private long deliveryRateBytesPerSecond;
    private long smoothedRttNs;
    private long minRttNs;
    private String stateName = "";

    /**
     * @param congestionWindowBytes                  congestion window.
     * @param pacingRateBytesPerSecond   pacing rate.
     * @param bytesInFlight              bytes in flight.
     * @param deliveryRateBytesPerSecond latest delivery-rate sample.
     * @param smoothedRttNs              smoothed RTT.
     * @param minRttNs                   minimum RTT.
     * @param stateName                  the controller's state, e.g. {@code "STARTUP"}; a constant, not built per
     *                                   sample.
     * @return this.
     */
    public ConnectionSample set(
        final long congestionWindowBytes,
        final long pacingRateBytesPerSecond,
        final long bytesInFlight,
        final long deliveryRateBytesPerSecond,
        final long smoothedRttNs,
        final long minRttNs,
        final String stateName)
    {
        this.congestionWindowBytes = congestionWindowBytes;
        this.pacingRateBytesPerSecond = pacingRateBytesPerSecond;
        this.bytesInFlight = bytesInFlight;
        this.deliveryRateBytesPerSecond = deliveryRateBytesPerSecond;
        this.smoothedRttNs = smoothedRttNs;
        this.minRttNs = minRttNs;
        this.stateName = stateName;
        return this;
    }

    /**
     * @return congestion window in bytes.
     */
    public long congestionWindowBytes()
    {
        return congestionWindowBytes;
    }

    /**
     * @return pacing rate in bytes per second.
     */
    public long pacingRateBytesPerSecond()
    {
        return pacingRateBytesPerSecond;
    }

    /**
     * @return bytes in flight.
     */
    public long bytesInFlight()
    {
        return bytesInFlight;
    }

    /**
     * @return the latest delivery-rate sample in bytes per second.
     */
    public long deliveryRateBytesPerSecond()
    {
        return deliveryRateBytesPerSecond;
    }

    /**
     * @return smoothed RTT in ns.
     */
    public long smoothedRttNs()
    {
        return smoothedRttNs;
    }

    /**
     * @return minimum RTT in ns.
     */
    public long minRttNs()
    {
        return minRttNs;
    }

    /**
     * @return the controller's state name.
     */
    public String stateName()
    {
        return stateName;
    }
}
