package io.pacelink.transport.schedule;

/**
 * Decides which connection of an endpoint sends next and when: the endpoint asks {@link #nextFlow(long)} in a loop
 * while it may send, builds one packet for the returned flow (late binding: the packet is built only when it may
 * leave), and reports it with {@link #onPacketSent}. Runs on the agent thread; must not allocate in steady state.
 * <p>
 * Flows that become able to send (new data offered, cwnd opened by an ACK, a timer fired) are announced with
 * {@link #activate(SchedulableFlow, long)}; the scheduler may call {@link SchedulableFlow#hasPacketToSend(long)} to
 * find out whether a listed flow still has work.
 */
public interface PacketScheduler
{
    /**
     * @param flow a new connection of the endpoint.
     */
    void addFlow(SchedulableFlow flow);

    /**
     * @param flow a connection that closed; the scheduler forgets it.
     */
    void removeFlow(SchedulableFlow flow);

    /**
     * The flow may have become able to send.
     *
     * @param flow  the flow.
     * @param nowNs current time.
     */
    void activate(SchedulableFlow flow, long nowNs);

    /**
     * @param nowNs current time.
     * @return the flow that may send one packet now, or null if none may (all idle, blocked or paced into the future).
     */
    SchedulableFlow nextFlow(long nowNs);

    /**
     * @return true if the flow last returned by {@link #nextFlow(long)} was released only because it owes an ACK
     * while its data is paced into the future: the endpoint must build an ACK-only packet (pure ACKs are never
     * paced, sch_fq rule).
     */
    boolean releasedForAckOnly();

    /**
     * The endpoint sent one packet for a flow returned by {@link #nextFlow(long)}.
     *
     * @param flow      the flow.
     * @param sizeBytes datagram size.
     * @param ackOnly   true if the packet carried only ACK (and padding) frames: never paced or charged.
     * @param nowNs     send time.
     */
    void onPacketSent(SchedulableFlow flow, int sizeBytes, boolean ackOnly, long nowNs);

    /**
     * @return the earliest time a throttled flow becomes eligible, or {@link Long#MAX_VALUE} if none is throttled;
     * the agent's idle strategy must not sleep past it.
     */
    long nextReleaseTimeNs();

    /**
     * @return a short name, e.g. {@code "rr"}, {@code "fq"}, {@code "fifo"}.
     */
    String name();
}
