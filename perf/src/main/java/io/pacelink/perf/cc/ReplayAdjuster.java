package io.pacelink.perf.cc;

/**
 * How recorded values are adjusted when replayed, so a trace can be replayed forever into a controller whose state
 * drifts from the recorded one:
 * <ul>
 *     <li>laps: each time a replay wraps around, time, the delivered and lost byte counters and packet numbers move
 *     forward by what they advanced over the recorded window, so the controller sees them grow monotonically
 *     (durations such as RTTs are not shifted);</li>
 *     <li>bytes in flight are bounded by the replayed controller's congestion window, as they are once the ACKs
 *     after a window cut drain the excess; this closes the loop enough for a window cut or BBR's PROBE_RTT to see
 *     the in-flight drop it waits for, which the recording showed only where the recorded controller made the same
 *     move at the same time.</li>
 * </ul>
 * Shared by all fixtures of one {@link ControllerTrace}; only one replay may use it at a time.
 */
public final class ReplayAdjuster
{
    private long timeStepNs;
    private long deliveredStepBytes;
    private long lostStepBytes;
    private long packetNumberStep;

    private long timeOffsetNs;
    private long deliveredOffsetBytes;
    private long lostOffsetBytes;
    private long packetNumberOffset;
    private long inFlightCapBytes = Long.MAX_VALUE;

    /**
     * Set what one lap advances; called once when recording ends.
     *
     * @param timeStepNs         length of the recorded window.
     * @param deliveredStepBytes bytes delivered over the window.
     * @param lostStepBytes      bytes declared lost over the window.
     * @param packetNumberStep   packet numbers used over the window.
     */
    void steps(
        final long timeStepNs, final long deliveredStepBytes, final long lostStepBytes, final long packetNumberStep)
    {
        if (timeStepNs <= 0 || deliveredStepBytes <= 0 || lostStepBytes < 0 || packetNumberStep <= 0)
        {
            throw new IllegalArgumentException("a lap must advance time, delivery and packet numbers: timeStepNs=" +
                timeStepNs + " deliveredStepBytes=" + deliveredStepBytes + " lostStepBytes=" + lostStepBytes +
                " packetNumberStep=" + packetNumberStep);
        }
        this.timeStepNs = timeStepNs;
        this.deliveredStepBytes = deliveredStepBytes;
        this.lostStepBytes = lostStepBytes;
        this.packetNumberStep = packetNumberStep;
    }

    /**
     * Start again at the recorded values, for a new replay with a new controller.
     */
    void rewind()
    {
        timeOffsetNs = 0;
        deliveredOffsetBytes = 0;
        lostOffsetBytes = 0;
        packetNumberOffset = 0;
        inFlightCapBytes = Long.MAX_VALUE;
    }

    /**
     * The replay wrapped around: the next lap starts.
     */
    void nextLap()
    {
        timeOffsetNs += timeStepNs;
        deliveredOffsetBytes += deliveredStepBytes;
        lostOffsetBytes += lostStepBytes;
        packetNumberOffset += packetNumberStep;
    }

    /**
     * @param congestionWindowBytes the replayed controller's window before the next event.
     */
    void congestionWindowBytes(final long congestionWindowBytes)
    {
        inFlightCapBytes = congestionWindowBytes;
    }

    long timeNs(final long recordedNs)
    {
        return recordedNs + timeOffsetNs;
    }

    long deliveredBytes(final long recordedBytes)
    {
        return recordedBytes + deliveredOffsetBytes;
    }

    long lostBytes(final long recordedBytes)
    {
        return recordedBytes + lostOffsetBytes;
    }

    long packetNumber(final long recordedPacketNumber)
    {
        return recordedPacketNumber + packetNumberOffset;
    }

    long inFlightBytes(final long recordedBytes)
    {
        return Math.min(recordedBytes, inFlightCapBytes);
    }

    /**
     * @return the length of one lap in virtual time.
     */
    public long timeStepNs()
    {
        return timeStepNs;
    }
}
