package io.pacelink.bbr.v1;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * BBRv1's modes in Linux {@code enum bbr_mode} order (the counter value is the ordinal).
 */
public enum Bbr1State
{
    /**
     * Ramp up the sending rate rapidly to fill the pipe.
     */
    STARTUP("STARTUP"),

    /**
     * Drain the queue created in STARTUP.
     */
    DRAIN("DRAIN"),

    /**
     * Discover and share bandwidth: pace around the estimate with the 8-phase gain cycle.
     */
    PROBE_BW("PROBE_BW"),

    /**
     * Cut inflight to 4 packets to re-measure min_rtt.
     */
    PROBE_RTT("PROBE_RTT");

    /**
     * Every mode's state name, in ordinal order.
     */
    static final List<String> STATE_NAMES =
        Arrays.stream(values()).map(Bbr1State::stateName).collect(Collectors.toUnmodifiableList());

    private final String stateName;

    Bbr1State(final String stateName)
    {
        this.stateName = stateName;
    }

    /**
     * @return the constant state name the controller reports.
     */
    public String stateName()
    {
        return stateName;
    }
}
