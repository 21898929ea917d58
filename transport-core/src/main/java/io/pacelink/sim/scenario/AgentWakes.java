package io.pacelink.sim.scenario;

/**
 * When the simulator runs each endpoint's duty cycle: the model of the agent thread's wakes. The duty cycle itself
 * is the same code either way; what differs is how many datagrams and pacing releases each one finds, and so the
 * times packets leave and are acknowledged.
 */
public enum AgentWakes
{
    /**
     * At every deadline exactly and at every datagram's arrival: each pacing release and each arrival is a duty cycle
     * of its own, as an agent that never sleeps past anything would run (a busy-spinning one, without its cost). The
     * default, and what every result before this option was taken with.
     */
    EXACT,

    /**
     * As the default profile's agent on real sockets wakes ({@code WakeCoalescing}, docs/io.md "Waits in time
     * quanta"), on hosts whose network card moderates its receive interrupts: a pacing release less than the pacer's
     * quantum away is served a quantum after the cycle, with everything that fell due meanwhile released back to back
     * (the burst Linux sizes a TSO packet by, {@code tcp_tso_autosize} in {@code net/ipv4/tcp_output.c}); a datagram's
     * arrival runs the agent {@link #INTERRUPT_DELAY_NS} later, with whatever arrived meanwhile; and after cycles that
     * received two datagrams or more and sent at most half as many, arrivals do not wake the agent until a hold of
     * about eight arrival gaps (at most the ACK delay) ends, and one receive then takes them all, each with its own
     * arrival time. Timers are never moved. Fewer duty cycles per data packet, at other times than {@link #EXACT}'s:
     * results differ.
     */
    COALESCED;

    /**
     * {@link #COALESCED}'s receive interrupt moderation: 50 µs, 20,000 interrupts a second, Intel's i40e driver's
     * default receive interrupt throttling ({@code I40E_ITR_20K} in
     * {@code drivers/net/ethernet/intel/i40e/i40e_txrx.h}).
     */
    public static final long INTERRUPT_DELAY_NS = 50_000L;
}
