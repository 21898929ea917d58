package io.pacelink.bbr.v1;

/**
 * Where BBRv1's state machine is: the state, the PROBE_BW gain-cycle phase, and the pacing and cwnd gains that follow
 * from them ({@code bbr_update_gains}).
 */
final class Bbr1Mode
{
    private static final double[] PROBE_BW_PACING_GAINS = { 1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0 };

    private final Bbr1Parameters parameters;
    private Bbr1State state = Bbr1State.STARTUP;
    private int cycleIndex;
    private double pacingGain;
    private double cwndGain;

    Bbr1Mode(final Bbr1Parameters parameters)
    {
        this.parameters = parameters;
    }

    void enter(final Bbr1State newState)
    {
        state = newState;
    }

    void setCycleIndex(final int index)
    {
        cycleIndex = index;
    }

    /**
     * {@code bbr_update_gains}.
     *
     * @param isLongTermBandwidthInUse while policed, PROBE_BW paces at the long-term rate without cycling.
     */
    void updateGains(final boolean isLongTermBandwidthInUse)
    {
        switch (state)
        {
            case STARTUP:
                pacingGain = parameters.startupPacingGain();
                cwndGain = parameters.startupCwndGain();
                break;

            case DRAIN:
                pacingGain = parameters.drainPacingGain();
                cwndGain = parameters.startupCwndGain();  // keep cwnd while the queue drains
                break;

            case PROBE_BW:
                pacingGain = isLongTermBandwidthInUse ? 1.0 : PROBE_BW_PACING_GAINS[cycleIndex];
                cwndGain = parameters.cwndGain();
                break;

            case PROBE_RTT:
                pacingGain = 1.0;
                cwndGain = 1.0;
                break;
        }
    }

    /**
     * Linux {@code bbr_lt_bw_sampling} sets {@code pacing_gain = BBR_UNIT} the moment the long-term rate is in use.
     */
    void paceAtEstimate()
    {
        pacingGain = 1.0;
    }

    Bbr1State state()
    {
        return state;
    }

    boolean is(final Bbr1State candidate)
    {
        return candidate == state;
    }

    int cycleIndex()
    {
        return cycleIndex;
    }

    /**
     * @return true in PROBE_BW's 5/4 phase.
     */
    boolean isProbingUp()
    {
        return Bbr1State.PROBE_BW == state && 0 == cycleIndex;
    }

    double pacingGain()
    {
        return pacingGain;
    }

    double cwndGain()
    {
        return cwndGain;
    }
}
