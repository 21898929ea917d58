package io.pacelink.sim.scenario;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.ConnectionOutcome;

import java.util.Locale;

/**
 * How one connection of a flow stood at the end of a run: still open, closed gracefully, or closed abnormally (a
 * protocol violation, a timeout, an abort), with when and why. A simulated flow's connections normally stay open to
 * the end of the run, so a closed one is news the results must carry: its flow's figures stop where it closed.
 *
 * @param isPresent  whether the connection existed: the sender connected (even if its handshake then failed), the
 *                   receiver accepted it.
 * @param outcome    its outcome: {@link ConnectionOutcome#OPEN} while open, else the reason and what was delivered.
 * @param closedAtNs simulated time the flow's application first saw it closed, or {@link #NOT_CLOSED}.
 */
public record ConnectionEnd(boolean isPresent, ConnectionOutcome outcome, long closedAtNs)
{
    /**
     * {@link #closedAtNs()} of a connection that did not close.
     */
    public static final long NOT_CLOSED = Long.MIN_VALUE;

    /**
     * A connection that never existed: the receiver never accepted one, or the flow never started.
     */
    public static final ConnectionEnd ABSENT = new ConnectionEnd(false, ConnectionOutcome.OPEN, NOT_CLOSED);

    /**
     * @return true if it closed during the run.
     */
    public boolean isClosed()
    {
        return outcome.isClosed();
    }

    /**
     * @return true if it closed otherwise than gracefully (by this side's or the peer's application): a protocol
     * violation, a timeout, an abort, a refusal.
     */
    public boolean isAbnormal()
    {
        final CloseReason reason = outcome.reason();
        return isClosed() && CloseReason.LOCAL_CLOSE != reason && CloseReason.PEER_CLOSE != reason;
    }

    /**
     * @return e.g. "open", "never connected", or "closed at 3.214 s: a protocol violation: reassembly limit: ...;
     * 0 of 412 messages (0 of 431,750,144 bytes) delivered".
     */
    public String describe()
    {
        if (!isPresent)
        {
            return "never connected";
        }
        if (!isClosed())
        {
            return "open";
        }
        return String.format(Locale.ROOT, "closed at %.3f s: %s", closedAtNs / 1e9, outcome);
    }
}
