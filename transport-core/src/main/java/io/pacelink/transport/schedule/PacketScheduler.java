package io.pacelink.transport.schedule;

/**
 * Decides which connection of an endpoint sends next and when. Once per duty cycle the endpoint activates every flow
 * that has something to send, then calls {@link #sendPackets}: the scheduler releases flows one packet at a time
 * (each asked for {@link SchedulableFlow#sendable(long)}), has the {@link PacketSender} build and send the packet
 * (late binding), and charges what it reports. Runs on the agent thread; must not allocate in steady state.
 *
 * @param <F> the endpoint's flows.
 */
public interface PacketScheduler<F extends SchedulableFlow>
{
    /**
     * @param flow a new connection of the endpoint.
     */
    void addFlow(F flow);

    /**
     * @param flow a connection that closed; the scheduler forgets it.
     */
    void removeFlow(F flow);

    /**
     * The flow may have become able to send. Its controller's pacing rate and send quantum, taken now, pace the
     * flow's packets until its next activation: the endpoint activates every flow with something to send once per
     * duty cycle, after ACKs and timers, and nothing changes them before it sends.
     *
     * @param flow                     the flow.
     * @param pacingRateBytesPerSecond the rate to pace it at; 0 or {@link Long#MAX_VALUE} for unpaced.
     * @param sendQuantumBytes         bytes it may send back to back before pacing applies.
     * @param nowNs                    current time.
     */
    void activate(F flow, long pacingRateBytesPerSecond, int sendQuantumBytes, long nowNs);

    /**
     * Release flows that may send now, one packet at a time, until none may or {@code limit} packets were sent.
     *
     * @param nowNs  current time.
     * @param limit  the most packets to send.
     * @param sender builds and sends each packet.
     * @return packets sent.
     */
    int sendPackets(long nowNs, int limit, PacketSender<F> sender);

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
