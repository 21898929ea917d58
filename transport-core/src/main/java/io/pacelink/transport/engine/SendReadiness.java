package io.pacelink.transport.engine;

import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.schedule.SchedulableFlow;
import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stream.SendLog;

/**
 * What one connection may send now and, while it is open, what holds its ack-eliciting work back — the peer's
 * flow-control credit, the congestion window, or the scheduler — for the scheduler
 * ({@link SchedulableFlow#sendable}) and the send-limit counters. Asking changes nothing.
 */
final class SendReadiness
{
    /**
     * {@link #state}: the connection has ack-eliciting work but the peer's flow-control credit holds the data.
     */
    static final int LIMITED_BY_FLOW_CONTROL = 4;

    /**
     * {@link #state}: the connection has ack-eliciting work and the congestion window holds it.
     */
    static final int LIMITED_BY_CWND = 8;

    /**
     * {@link #state}: the connection has ack-eliciting work within its window: only the scheduler (pacing or the
     * duty cycle's send budget) can hold it.
     */
    static final int WITHIN_WINDOW = 16;

    private final ConnectionLifecycle lifecycle;
    private final ReceivedPacketTracker ackTracker;
    private final LossRecovery lossRecovery;
    private final SendLog sendLog;
    private final ControlFrames controlFrames;
    private final DeliveryReceipts receipts;
    private final ConnectionCounters counters;

    /**
     * The limit {@link #countLimits} found last (a time counter of {@link ConnectionCounters}, or -1 for none: nothing
     * to send, or not open) and when: the time until the next count is charged to it.
     */
    private int limitTimeCounter = -1;
    private long limitSinceNs;

    SendReadiness(
        final ConnectionLifecycle lifecycle,
        final ReceivedPacketTracker ackTracker,
        final LossRecovery lossRecovery,
        final ControlFrames controlFrames,
        final DeliveryReceipts receipts,
        final ConnectionHandle handle)
    {
        this.lifecycle = lifecycle;
        this.ackTracker = ackTracker;
        this.lossRecovery = lossRecovery;
        this.controlFrames = controlFrames;
        this.receipts = receipts;
        this.sendLog = handle.sendLog();
        this.counters = handle.counters();
    }

    /**
     * @return {@link SchedulableFlow#ACK_ELICITING}, {@link SchedulableFlow#ACK_DUE}, {@link #LIMITED_BY_FLOW_CONTROL},
     * {@link #LIMITED_BY_CWND} and {@link #WITHIN_WINDOW} combined.
     */
    int state(final long nowNs)
    {
        final ConnectionState state = lifecycle.state();
        final boolean isOpen = ConnectionState.CONNECTED == state || ConnectionState.CLOSING == state;
        // RFC 9000 section 10.2: once closing or draining, nothing is acknowledged any more.
        final boolean isLingering = lifecycle.isLingering();
        final boolean isCloseFramePending = lifecycle.isCloseFramePending();
        // A PATH_RESPONSE leaves at once, as an ACK does: the challenger's validation waits for it.
        int sendState = isOpen && !isLingering &&
            (ackTracker.isAckDue(nowNs) || controlFrames.isPathResponsePending()) ? SchedulableFlow.ACK_DUE : 0;
        if (isCloseFramePending)
        {
            sendState |= SchedulableFlow.ACK_ELICITING;
        }
        if (!isOpen || isLingering || isCloseFramePending)
        {
            return sendState;
        }

        // The send log's tail is read once (an acquire load of a slot the application's thread writes) and serves
        // both questions asked of the new data: whether any is unsent, and whether flow control lets some go.
        final SendLog log = sendLog;
        final long tailPosition = log.tailPosition();
        final long nextSendPosition = log.nextSendPosition();
        final boolean hasUnsentData = tailPosition > nextSendPosition;
        final boolean hasSendableData = hasUnsentData && Math.min(tailPosition, log.sendLimit()) > nextSendPosition;
        final boolean hasRetransmission = log.hasRetransmission();
        if (hasUnsentData && !hasSendableData && !hasRetransmission)
        {
            sendState |= LIMITED_BY_FLOW_CONTROL;
        }
        // The window is asked only of a connection with ack-eliciting work: the answer sets no bit otherwise, and
        // asking reads the sent-packet ring's slots and the controller.
        if (hasSendableData || hasRetransmission || hasAckElicitingControl())
        {
            sendState |= isWithinWindow() ? WITHIN_WINDOW | SchedulableFlow.ACK_ELICITING : LIMITED_BY_CWND;
        }
        if (lossRecovery.probesToSend() > 0)
        {
            sendState |= SchedulableFlow.ACK_ELICITING;
        }
        return sendState;
    }

    /**
     * @return true if the congestion window, and the sent-packet ring, have room for an ack-eliciting packet.
     */
    boolean isWithinWindow()
    {
        return lossRecovery.canSend() &&
            lossRecovery.bytesInFlight() < lossRecovery.controller().congestionWindowBytes();
    }

    /**
     * @return true if a frame other than new or retransmitted stream data makes a packet ack-eliciting: credit, a
     * PING, a delivery receipt, a NEW_TOKEN, or the stream's FIN not yet sent.
     */
    private boolean hasAckElicitingControl()
    {
        return controlFrames.isCreditPending() || controlFrames.isPingPending() || receipts.isPending() ||
            controlFrames.isNewTokenPending() || sendLog.isFinPending();
    }

    /**
     * Once per duty cycle, after sending: count what kept the connection from sending what it has, and charge the
     * time since the last count to what held it then. Between two duty cycles that serve the connection only its
     * application (an offer) or a deadline (a pacing release, a timer) can change what holds it, and either brings a
     * duty cycle, so the limit found after one cycle's sending is the limit until the next: the time counters add up
     * to how long the connection was held by each, as Linux's {@code tcpi_rwnd_limited} / {@code tcpi_sndbuf_limited}
     * / {@code tcpi_busy_time} ({@code tcp_chrono_start} in {@code net/ipv4/tcp_output.c}) do for a TCP socket.
     *
     * @return the {@link #state} it counted from, which holds until something serves the connection again.
     */
    int countLimits(final long nowNs)
    {
        final int sendState = state(nowNs);
        final int timeCounter;
        if (0 != (sendState & LIMITED_BY_FLOW_CONTROL))
        {
            counters.increment(ConnectionCounters.FLOW_CONTROL_LIMITED);
            timeCounter = ConnectionCounters.FLOW_CONTROL_LIMITED_NS;
        }
        else if (0 != (sendState & LIMITED_BY_CWND))
        {
            counters.increment(ConnectionCounters.CWND_LIMITED);
            timeCounter = ConnectionCounters.CWND_LIMITED_NS;
        }
        else if (0 != (sendState & WITHIN_WINDOW))
        {
            counters.increment(ConnectionCounters.PACING_LIMITED);
            timeCounter = ConnectionCounters.PACING_LIMITED_NS;
        }
        else
        {
            timeCounter = -1;
        }
        if (limitTimeCounter >= 0 && nowNs > limitSinceNs)
        {
            counters.add(limitTimeCounter, nowNs - limitSinceNs);
        }
        limitTimeCounter = timeCounter;
        limitSinceNs = nowNs;
        return sendState;
    }
}
