package io.pacelink.bbr.v3;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The seven states of the BBRv3 state machine (draft-ietf-ccwg-bbr "State Machine"; Linux v3 {@code bbr_mode} plus
 * the four {@code bbr_pacing_gain_phase} values of PROBE_BW). {@link #name()} is the controller's
 * {@code stateName()}; {@link #code()} is the value published in the {@code bbr3-state} counter.
 */
public enum Bbr3State
{
    /**
     * Exponential search for the bottleneck bandwidth ("Startup").
     */
    STARTUP(0),

    /**
     * Drain the queue Startup built ("Drain").
     */
    DRAIN(1),

    /**
     * Decelerate below the estimate to drain queue and leave headroom ("ProbeBW_DOWN").
     */
    PROBE_BW_DOWN(2),

    /**
     * Send at the estimate, reacting to loss ("ProbeBW_CRUISE").
     */
    PROBE_BW_CRUISE(3),

    /**
     * One round at the estimate to refill the pipe before probing ("ProbeBW_REFILL").
     */
    PROBE_BW_REFILL(4),

    /**
     * Accelerate above the estimate to probe for more bandwidth ("ProbeBW_UP").
     */
    PROBE_BW_UP(5),

    /**
     * Cut inflight to re-measure the two-way propagation delay ("ProbeRTT").
     */
    PROBE_RTT(6);

    /**
     * Every state's name, in {@link #code()} order.
     */
    static final List<String> STATE_NAMES =
        Arrays.stream(values()).map(Enum::name).collect(Collectors.toUnmodifiableList());

    private final int code;

    Bbr3State(final int code)
    {
        this.code = code;
    }

    /**
     * @return the stable number published in the state counter.
     */
    public int code()
    {
        return code;
    }

    /**
     * @return true for the four ProbeBW states (draft {@code IsInAProbeBWState}).
     */
    public boolean isProbeBw()
    {
        return this == PROBE_BW_DOWN || this == PROBE_BW_CRUISE || this == PROBE_BW_REFILL || this == PROBE_BW_UP;
    }

    /**
     * @return true in the states that accelerate to probe for bandwidth: Startup, REFILL and UP (draft
     * {@code IsProbingBW}, Linux {@code bbr_is_probing_bandwidth}).
     */
    public boolean isProbingBandwidth()
    {
        return this == STARTUP || this == PROBE_BW_REFILL || this == PROBE_BW_UP;
    }
}
