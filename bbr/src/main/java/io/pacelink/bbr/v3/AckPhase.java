package io.pacelink.bbr.v3;

/**
 * What the incoming ACK stream says about bandwidth probing (draft {@code BBR.ack_phase}, Linux v3
 * {@code bbr_ack_phase}): used to know when samples reflect a probe and when to advance the max_bw filter.
 */
enum AckPhase
{
    /**
     * Not probing; not getting probe feedback.
     */
    INIT,

    /**
     * Sending at the estimated bandwidth to fill the pipe (REFILL).
     */
    REFILLING,

    /**
     * Inflight rising to probe bandwidth (first round of UP).
     */
    PROBE_STARTING,

    /**
     * Getting feedback from bandwidth probing.
     */
    PROBE_FEEDBACK,

    /**
     * Stopped probing; still getting feedback from the probe.
     */
    PROBE_STOPPING
}
