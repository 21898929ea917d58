package io.pacelink.bbr;

/**
 * The hold at the end of every BBR's ProbeRTT (Linux {@code bbr_update_min_rtt}, draft {@code BBRHandleProbeRTT}):
 * once inflight is down to the ProbeRTT floor, stay there for the ProbeRTT duration and at least one packet-timed
 * round, then ProbeRTT may end.
 */
public final class ProbeRttHold
{
    private boolean isHolding;
    private long endNs;
    private boolean isRoundDone;

    /**
     * ProbeRTT began: the hold starts when inflight first reaches the floor.
     */
    public void restart()
    {
        isHolding = false;
    }

    /**
     * @param nowNs         current time.
     * @param inflightBytes bytes in flight.
     * @param floorBytes    the ProbeRTT floor.
     * @param durationNs    the ProbeRTT duration.
     * @return true if the hold began now: the caller starts a packet-timed round.
     */
    public boolean beginAtFloor(
        final long nowNs, final long inflightBytes, final long floorBytes, final long durationNs)
    {
        if (isHolding || inflightBytes > floorBytes)
        {
            return false;
        }
        isHolding = true;
        endNs = nowNs + durationNs;
        isRoundDone = false;
        return true;
    }

    /**
     * @param isRoundStart whether this ACK started a packet-timed round.
     * @return true once a whole round passed in the hold: the caller may check {@link #isOver(long)}.
     */
    public boolean onAck(final boolean isRoundStart)
    {
        if (isRoundStart)
        {
            isRoundDone = true;
        }
        return isRoundDone;
    }

    /**
     * @return true while holding.
     */
    public boolean isHolding()
    {
        return isHolding;
    }

    /**
     * @param nowNs current time.
     * @return true if the hold's time has passed.
     */
    public boolean isOver(final long nowNs)
    {
        return isHolding && nowNs - endNs > 0;
    }
}
