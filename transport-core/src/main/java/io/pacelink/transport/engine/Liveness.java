package io.pacelink.transport.engine;

/**
 * Whether the peer is still there: the idle timeout (RFC 9000 section 10.1), the keep-alive PING at half of it
 * (section 10.1.2), and a suspicion raised by an ICMP port-unreachable report. Times in, verdicts out; the connection
 * acts on them.
 */
final class Liveness
{
    /**
     * An ICMP port-unreachable report ends an established connection only if, for this many PTOs after it, nothing
     * arrives from the peer and a second report confirms it (RFC 1122 section 4.2.3.9 lets a transport act on hard
     * ICMP errors, and RFC 5927 section 4.1 warns they can be forged: a live peer answers the probe within a PTO).
     * The second report may come later than that: Linux holds one pending error per socket, which the next call
     * consumes — a {@code sendmmsg} that already sent a datagram drops it (net/socket.c, {@code __sys_sendmmsg}), and
     * ICMP errors are rate-limited ({@code icmp_msgs_per_sec}) — so the reports of a dead peer are sparse and may
     * come only with the back-off's probes. The suspicion therefore lasts until the peer is heard from.
     */
    private static final int UNREACHABLE_CONFIRMATION_PTOS = 3;

    private long idleTimeoutNs;
    private long lastReceiveTimeNs;
    private long lastAckElicitingSentNs;
    private boolean isUnreachableSuspected;
    private long unreachableSinceNs;
    private int unreachableReports;

    /**
     * @param idleTimeoutNs this side's idle timeout, until the peer's handshake may lower it.
     * @param nowNs         the connection's start, its first sign of life.
     */
    Liveness(final long idleTimeoutNs, final long nowNs)
    {
        this.idleTimeoutNs = idleTimeoutNs;
        this.lastReceiveTimeNs = nowNs;
    }

    /**
     * @return the negotiated idle timeout.
     */
    long idleTimeoutNs()
    {
        return idleTimeoutNs;
    }

    /**
     * @param peerIdleTimeoutNs the peer's idle timeout, 0 for none: the smaller one applies (RFC 9000 section 10.1).
     */
    void negotiate(final long peerIdleTimeoutNs)
    {
        if (peerIdleTimeoutNs > 0)
        {
            idleTimeoutNs = Math.min(idleTimeoutNs, peerIdleTimeoutNs);
        }
    }

    /**
     * The peer was heard from (a handshake packet).
     */
    void onHeard(final long nowNs)
    {
        lastReceiveTimeNs = nowNs;
    }

    /**
     * A packet of the connection arrived: the peer is there, whatever an ICMP report said.
     */
    void onPacket(final long nowNs)
    {
        lastReceiveTimeNs = nowNs;
        isUnreachableSuspected = false;
    }

    /**
     * An ack-eliciting packet left.
     */
    void onAckElicitingSent(final long nowNs)
    {
        lastAckElicitingSentNs = nowNs;
    }

    /**
     * @return true if nothing arrived for the idle timeout.
     */
    boolean isIdleTimedOut(final long nowNs)
    {
        return nowNs - lastReceiveTimeNs >= idleTimeoutNs;
    }

    /**
     * @return true if neither side sent anything ack-eliciting for half the idle timeout: a PING keeps it alive.
     */
    boolean isKeepAliveDue(final long nowNs)
    {
        return nowNs - lastAckElicitingSentNs >= idleTimeoutNs / 2 && nowNs - lastReceiveTimeNs >= idleTimeoutNs / 2;
    }

    /**
     * The operating system reported the peer's port unreachable.
     *
     * @return true if this raises the suspicion: a PING is to probe it.
     */
    boolean onUnreachableReport(final long nowNs)
    {
        final boolean isNew = !isUnreachableSuspected;
        if (isNew)
        {
            isUnreachableSuspected = true;
            unreachableSinceNs = nowNs;
            unreachableReports = 0;
        }
        unreachableReports++;
        return isNew;
    }

    /**
     * @param ptoPeriodNs the connection's probe timeout.
     * @return true if nothing arrived from the peer for {@link #UNREACHABLE_CONFIRMATION_PTOS} PTOs since the first
     * report and a second report came, before that time or after it.
     */
    boolean isUnreachableConfirmed(final long nowNs, final long ptoPeriodNs)
    {
        return isUnreachableSuspected && unreachableReports >= 2 &&
            nowNs - unreachableSinceNs >= UNREACHABLE_CONFIRMATION_PTOS * ptoPeriodNs;
    }

    /**
     * @param ptoPeriodNs the connection's probe timeout.
     * @return the earliest of the idle timeout, the keep-alive and the confirmation of a suspicion that a second
     * report backs (a lone report needs no timer: the next report is checked when it comes).
     */
    long nextDeadlineNs(final long ptoPeriodNs)
    {
        long deadline = Math.min(
            lastReceiveTimeNs + idleTimeoutNs, Math.max(lastAckElicitingSentNs, lastReceiveTimeNs) + idleTimeoutNs / 2);
        if (isUnreachableSuspected && unreachableReports >= 2)
        {
            deadline = Math.min(deadline, unreachableSinceNs + UNREACHABLE_CONFIRMATION_PTOS * ptoPeriodNs);
        }
        return deadline;
    }
}
