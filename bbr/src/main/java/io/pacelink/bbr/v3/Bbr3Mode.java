package io.pacelink.bbr.v3;

/**
 * The state BBRv3 is in and the pacing and cwnd gains that come with it (draft section 5.6.1's table), set only
 * through {@link #enter(Bbr3State)} so that a state never runs with another state's gains.
 */
final class Bbr3Mode
{
    private final Bbr3Parameters config;
    private Bbr3State state;
    private double pacingGain;
    private double cwndGain;

    Bbr3Mode(final Bbr3Parameters config)
    {
        this.config = config;
    }

    void enter(final Bbr3State newState)
    {
        state = newState;
        switch (newState)
        {
            case STARTUP:
                pacingGain = config.startupPacingGain;
                cwndGain = config.startupCwndGain;
                break;
            case DRAIN:
                pacingGain = config.drainPacingGain;
                cwndGain = config.startupCwndGain;
                break;
            case PROBE_BW_DOWN:
                pacingGain = config.downPacingGain;
                cwndGain = config.cwndGain;
                break;
            case PROBE_BW_UP:
                pacingGain = config.upPacingGain;
                cwndGain = config.upCwndGain;
                break;
            case PROBE_RTT:
                pacingGain = 1.0;
                cwndGain = config.probeRttCwndGain;
                break;
            default: // CRUISE and REFILL
                pacingGain = 1.0;
                cwndGain = config.cwndGain;
                break;
        }
    }

    Bbr3State state()
    {
        return state;
    }

    boolean is(final Bbr3State candidate)
    {
        return candidate == state;
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
