package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.stream.SendLog;

/**
 * One connection's timers, fired once per duty cycle at the time handed in, and the one answer to when the connection
 * next needs the agent ({@link #nextDeadlineNs()}): the closing period, the handshake's retries and timeout, the
 * loss and probe timer (with the dead-peer limit), the ACK deadline, the confirmation PING, the idle timeout and the
 * keep-alive, an unreachable suspicion, and the graceful close's linger timeout. Each part owns its deadline; this
 * class asks them in one order and acts on what is due.
 */
final class ConnectionTimers
{
    private final ConnectionHandle handle;
    private final ConnectionHandshake handshake;
    private final ConnectionLifecycle lifecycle;
    private final Liveness liveness;
    private final ControlFrames controlFrames;
    private final DeliveryReceipts receipts;
    private final ReceivedPacketTracker ackTracker;
    private final LossRecovery lossRecovery;
    private final FrameReceiver frames;
    private final ConnectionPublisher publisher;
    private final SecurityCounters securityCounters;
    private final SendLog sendLog;
    private final ConnectionCounters counters;
    private final int maxUnacknowledgedPtos;

    ConnectionTimers(
        final ConnectionHandle handle,
        final ConnectionHandshake handshake,
        final ConnectionLifecycle lifecycle,
        final Liveness liveness,
        final ControlFrames controlFrames,
        final DeliveryReceipts receipts,
        final ReceivedPacketTracker ackTracker,
        final LossRecovery lossRecovery,
        final FrameReceiver frames,
        final ConnectionPublisher publisher,
        final SecurityCounters securityCounters,
        final int maxUnacknowledgedPtos)
    {
        this.handle = handle;
        this.handshake = handshake;
        this.lifecycle = lifecycle;
        this.liveness = liveness;
        this.controlFrames = controlFrames;
        this.receipts = receipts;
        this.ackTracker = ackTracker;
        this.lossRecovery = lossRecovery;
        this.frames = frames;
        this.publisher = publisher;
        this.securityCounters = securityCounters;
        this.sendLog = handle.sendLog();
        this.counters = handle.counters();
        this.maxUnacknowledgedPtos = maxUnacknowledgedPtos;
    }

    /**
     * Fire due timers and refresh flow-control credit. Called once per duty cycle.
     *
     * @return work done.
     */
    int onDutyCycle(final long nowNs)
    {
        if (lifecycle.isClosed())
        {
            return 0;
        }
        if (lifecycle.isLingerOver(nowNs))
        {
            lifecycle.finish();
            return 1;
        }
        if (lifecycle.isConnecting())
        {
            return onConnectingDutyCycle(nowNs);
        }
        if (lifecycle.isEnding())
        {
            return 0; // the outcome is decided: only the CLOSE and the closing or draining period remain
        }
        if (!handshake.isConfirmed() && handshake.isTimedOut(nowNs))
        {
            // The client never answered the server's handshake from its address: never handed to the application.
            securityCounters.handshakeTimeouts().incrementRelease();
            lifecycle.endNow(CloseReason.HANDSHAKE_TIMEOUT, "");
            return 1;
        }
        if (handle.isAbortRequested())
        {
            lifecycle.abortWithClose(ConnectionLifecycle.ABORTED_ERROR, CloseReason.ABORTED);
            return 1;
        }
        if (liveness.isIdleTimedOut(nowNs))
        {
            lifecycle.endNow(CloseReason.IDLE_TIMEOUT, "");
            return 1;
        }
        if (liveness.isUnreachableConfirmed(nowNs, lossRecovery.ptoPeriodNs()))
        {
            lifecycle.endNow(CloseReason.PEER_UNREACHABLE, "");
            return 1;
        }

        int work = 0;
        checkAppLimited();
        if (lossRecovery.timerDeadlineNs() <= nowNs)
        {
            lossRecovery.onTimeout(nowNs, frames);
            publisher.publishRecovery();
            work++;
            if (lossRecovery.lossDetector().ptoCount() >= maxUnacknowledgedPtos)
            {
                // A peer that keeps the connection alive but acknowledges nothing is dead to this side (Linux's
                // tcp_retries2 limit plays this part for TCP; QUIC relies on the idle timeout alone).
                securityCounters.deadPeerCloses().incrementRelease();
                lifecycle.closeReasonText(CloseReasonTexts.PEER_UNRESPONSIVE);
                lifecycle.abortWithClose(ConnectionLifecycle.ABORTED_ERROR, CloseReason.PEER_UNRESPONSIVE);
                return work;
            }
        }
        if (handshake.takeConfirmationDue(nowNs))
        {
            // The application sent nothing when it heard of the connection: confirm the handshake on its own.
            controlFrames.requestPing();
            work++;
        }
        // Keep an idle connection alive: an ack-eliciting PING at half the idle timeout (RFC 9000 section 10.1.2).
        if (liveness.isKeepAliveDue(nowNs))
        {
            controlFrames.requestPing();
        }
        work += controlFrames.refreshCredit();
        if (receipts.checkDue())
        {
            work++;
        }
        work += lifecycle.progressGracefulClose(nowNs);
        return work;
    }

    /**
     * The handshake timer, and a close or abort before the server answered: nothing can have been offered yet
     * (offers wait for the connection), so nothing is lost.
     */
    private int onConnectingDutyCycle(final long nowNs)
    {
        if (handle.isAbortRequested() || handle.isCloseRequested())
        {
            lifecycle.endNow(handle.isAbortRequested() ? CloseReason.ABORTED : CloseReason.LOCAL_CLOSE, "");
            return 1;
        }
        if (handshake.isTimedOut(nowNs))
        {
            lifecycle.endNow(handshake.timeoutReason(), handshake.timeoutDetail());
            return 1;
        }
        return 0;
    }

    /**
     * @return the earliest time this connection needs the agent: loss/PTO timer, ACK deadline, handshake retry,
     * timeout and confirmation, idle/keep-alive, linger, unreachable-confirmation and closing timers. The endpoint
     * serves a connection only when one of these is due, a datagram arrives for it, or its application acted, so
     * every timer {@link #onDutyCycle} fires must be here.
     */
    long nextDeadlineNs()
    {
        if (lifecycle.isClosed())
        {
            return Long.MAX_VALUE;
        }
        if (lifecycle.isLingering())
        {
            return lifecycle.closeDeadlineNs();
        }
        if (lifecycle.isConnecting())
        {
            return handshake.connectingDeadlineNs();
        }
        long deadline = Math.min(lossRecovery.timerDeadlineNs(), ackTracker.ackDeadlineNs());
        deadline = Math.min(deadline, liveness.nextDeadlineNs(lossRecovery.ptoPeriodNs()));
        deadline = Math.min(deadline, lifecycle.lingerDeadlineNs());
        if (!handshake.isConfirmed())
        {
            // A server's connection the client never confirmed ends at the handshake timeout.
            deadline = Math.min(deadline, handshake.timeoutDeadlineNs());
        }
        return Math.min(deadline, handshake.confirmationDueNs());
    }

    /**
     * Once per duty cycle, before timers may transmit: mark the connection application-limited when it has less than a
     * packet of unsent data and cwnd has room (draft-ietf-ccwg-bbr {@code CheckIfApplicationLimited}). Late binding
     * means nothing ever waits below the transport.
     */
    private void checkAppLimited()
    {
        final boolean wasAppLimited = lossRecovery.rateSampler().isAppLimited();
        final long unsentBytes = sendLog.tailPosition() - sendLog.nextSendPosition();
        if (lossRecovery.onAppLimitedCheck(unsentBytes, true, !sendLog.hasRetransmission()) && !wasAppLimited)
        {
            counters.increment(ConnectionCounters.APP_LIMITED);
        }
    }

}
