package io.pacelink.transport.schedule;

/**
 * Decides which connection of an endpoint sends next and when. Once per duty cycle the endpoint activates every flow
 * that has something to send, then pulls releases: {@link #next(long)} answers which flow may send one packet now (and
 * whether only an ACK), asking flows only {@link SchedulableFlow#sendable(long)}; the endpoint builds that packet
 * (late binding: only when it may leave) and reports it with {@link #onSent}, which charges the flow's credit and
 * pacing; then it asks again, until the scheduler has nothing more or the endpoint's send batch is done. The scheduler
 * never calls the endpoint. Runs on the agent thread; must not allocate in steady state.
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
     * {@link #activate(SchedulableFlow, long, int, long)} with the flow's congestion window, which a scheduler may
     * use to keep a burst a small part of it ({@link PacingQuantum}); the endpoint calls this form. By default the
     * window is not used.
     *
     * @param flow                     the flow.
     * @param pacingRateBytesPerSecond the rate to pace it at; 0 or {@link Long#MAX_VALUE} for unpaced.
     * @param sendQuantumBytes         bytes it may send back to back before pacing applies.
     * @param congestionWindowBytes    its controller's congestion window.
     * @param nowNs                    current time.
     */
    default void activate(
        final F flow,
        final long pacingRateBytesPerSecond,
        final int sendQuantumBytes,
        final long congestionWindowBytes,
        final long nowNs)
    {
        activate(flow, pacingRateBytesPerSecond, sendQuantumBytes, nowNs);
    }

    /**
     * The next release: the flow that may send one packet now, released for an ack-eliciting packet or, if its data is
     * paced into the future or it has none, for the ACK it owes. The caller builds that one packet and reports it with
     * {@link #onSent} before calling this again.
     *
     * @param nowNs current time.
     * @return the release, a reused instance valid until the next call; null if no flow may send now (then
     * {@link #nextReleaseTimeNs()} says when one may).
     */
    Release<F> next(long nowNs);

    /**
     * Report the packet built for the flow of the last {@link #next(long)}: an ack-eliciting packet of a flow released
     * for one is charged to its credit and moves its pacing; an ACK-only packet is never charged.
     *
     * @param flow           the flow released.
     * @param lengthBytes    the datagram's length, integrity trailer included.
     * @param isAckEliciting true if the packet must be acknowledged.
     * @param nowNs          current time, as given to {@link #next(long)}.
     */
    void onSent(F flow, int lengthBytes, boolean isAckEliciting, long nowNs);

    /**
     * The lone answer's shortcut: whether {@link #next(long)}, right after
     * {@link #activate(SchedulableFlow, long, int, long, long)} of this flow at {@code nowNs}, would release this flow
     * — and no other — for an ack-eliciting packet, whatever rate, quantum and window the activation passes: no other
     * flow is active or due, and this one has credit and its pacing time has come. The endpoint asks when one
     * connection's application offered an answer and it has that packet to send: it then builds and sends the packet
     * without the activation and the release, and reports it with {@link #onSentAlone}. The answer must err towards
     * false (the general path is exact); by default it is false.
     *
     * @param flow  a flow that has an ack-eliciting packet to send now ({@link SchedulableFlow#ACK_ELICITING}).
     * @param nowNs current time.
     * @return true if that flow would be the next release, alone, for an ack-eliciting packet.
     */
    default boolean releasesAloneNow(final F flow, final long nowNs)
    {
        return false;
    }

    /**
     * The packet the endpoint sent for a flow {@link #releasesAloneNow} answered true for at the same time, with
     * nothing asked of the scheduler in between: leaves the scheduler exactly as
     * {@link #activate(SchedulableFlow, long, int, long, long)} with these values, {@link #next(long)} releasing the
     * flow for an ack-eliciting packet and {@link #onSent} with its length would have left it. The endpoint may then
     * call {@link #next(long)} as after {@link #onSent}.
     *
     * @param flow                     the flow.
     * @param pacingRateBytesPerSecond its controller's pacing rate, taken before the packet was built.
     * @param sendQuantumBytes         its controller's send quantum, taken then.
     * @param congestionWindowBytes    its controller's congestion window, taken then.
     * @param lengthBytes              the datagram's length, integrity trailer included (0 if building it failed).
     * @param isAckEliciting           true if the packet must be acknowledged.
     * @param nowNs                    the time {@link #releasesAloneNow} was asked at.
     * @throws UnsupportedOperationException if the scheduler never answers {@link #releasesAloneNow} true.
     */
    default void onSentAlone(
        final F flow,
        final long pacingRateBytesPerSecond,
        final int sendQuantumBytes,
        final long congestionWindowBytes,
        final int lengthBytes,
        final boolean isAckEliciting,
        final long nowNs)
    {
        throw new UnsupportedOperationException(name() + " never releases a flow alone");
    }

    /**
     * Release flows that may send now, one packet at a time, until none may or {@code limit} packets were sent: the
     * push form of {@link #next(long)} and {@link #onSent}, on which it is built.
     *
     * @param nowNs  current time.
     * @param limit  the most packets to send.
     * @param sender builds and sends each packet.
     * @return packets sent.
     * @deprecated the endpoint pulls releases with {@link #next(long)} and reports with {@link #onSent}; this form
     * calls back into its caller for every packet. To be removed in the next minor version.
     */
    @Deprecated
    default int sendPackets(final long nowNs, final int limit, final PacketSender<F> sender)
    {
        int sent = 0;
        Release<F> release;
        while (sent < limit && null != (release = next(nowNs)))
        {
            final F flow = release.flow();
            final int sentPacket = sender.sendPacket(flow, release.isAckOnly(), nowNs);
            onSent(flow, SentPacket.lengthBytes(sentPacket), SentPacket.isAckEliciting(sentPacket), nowNs);
            sent++;
        }
        return sent;
    }

    /**
     * @return the earliest time a throttled flow becomes eligible, or {@link Long#MAX_VALUE} if none is throttled;
     * the agent's idle strategy must not sleep past it. Up to date once {@link #next(long)} returned null.
     */
    long nextReleaseTimeNs();

    /**
     * How far ahead of {@link #nextReleaseTimeNs()} a real-clock agent may serve it: a release less than this away may
     * be served this long from now instead, and the scheduler then releases what fell due meanwhile without losing
     * rate (its catch-up absorbs the lateness). The agent's wake granularity, never used by the simulator.
     *
     * @return the pacing quantum for the next release, at least {@link PacingQuantum#MIN_QUANTUM_NS}; by default
     * exactly that.
     */
    default long nextReleaseQuantumNs()
    {
        return PacingQuantum.MIN_QUANTUM_NS;
    }

    /**
     * Called once, before the first release, by an endpoint whose real-clock agent sleeps in pacing quanta
     * ({@link #nextReleaseQuantumNs()}; the default profile's port wait): a paced flow whose deadline has come may then
     * send ahead of its schedule by up to its quantum and wait for its schedule to come due again, so each wake
     * sends a quantum of its rate — Linux TCP's burst of about a millisecond ({@code tcp_tso_autosize} in
     * {@code net/ipv4/tcp_output.c}), which sch_fq releases as one unit — instead of what fell due while the previous
     * duty cycle ran: an agent whose cycles take longer than a packet's time at the rate otherwise finds a packet or
     * two due after every cycle, and runs cycle after cycle without sleeping, each with its own system calls. The
     * simulator never calls it (its duty cycles take no time). By default nothing changes.
     * <p>
     * A scheduler that releases ahead makes its releases a quantum apart itself, so the agent serves each on time
     * instead of a quantum from now ({@code WakeCoalescing}): deferring it again at every wake that comes between
     * (an ACK's arrival) would make the release later and later.
     *
     * @param enabled true to release ahead of the schedule by up to the quantum.
     * @return true if the scheduler now releases ahead; by default false.
     */
    default boolean releaseAheadInQuanta(final boolean enabled)
    {
        return false;
    }

    /**
     * @return a short name, e.g. {@code "rr"}, {@code "fq"}, {@code "fifo"}.
     */
    String name();
}
