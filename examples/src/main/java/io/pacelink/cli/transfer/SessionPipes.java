package io.pacelink.cli.transfer;

import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.TimeUnit;

/**
 * What a session's file thread (the {@link SendWorker} or {@link ReceiveWorker}) and its network thread (the
 * {@link TransferChannel}) share: the messages going out, the messages that came in, and the session's status. The
 * file thread never touches the connection; when it must wait for a slot or a message it backs off with its own
 * idle strategy and learns here if the network failed or the session was asked to stop.
 */
public final class SessionPipes
{
    private final SlotPipe outbound;
    private final SlotPipe inbound;
    private final IdleStrategy idleStrategy;
    private volatile String failure;
    private volatile String stopReason;
    private volatile boolean finished;

    /**
     * @param outbound     this side's messages, from the file thread to the network thread.
     * @param inbound      the peer's messages, from the network thread to the file thread.
     * @param idleStrategy how the file thread waits (backs off; never spins on a core).
     */
    public SessionPipes(final SlotPipe outbound, final SlotPipe inbound, final IdleStrategy idleStrategy)
    {
        this.outbound = outbound;
        this.inbound = inbound;
        this.idleStrategy = idleStrategy;
    }

    /**
     * File thread: a slot to write the next outgoing message into, waiting while the network thread has every slot.
     *
     * @return the slot; hand it to {@link #send(Slot, int)}.
     * @throws TransferException if the network failed meanwhile or the session was asked to stop.
     */
    public Slot claim() throws TransferException
    {
        checkStop();
        Slot slot;
        while (null == (slot = outbound.claim()))
        {
            checkNetwork();
            checkStop();
            idleStrategy.idle();
        }
        idleStrategy.reset();
        return slot;
    }

    /**
     * File thread: a slot if one is free and the network still works, without waiting (for a last message while
     * giving up).
     *
     * @return the slot, or null.
     */
    public Slot tryClaim()
    {
        return null == failure ? outbound.claim() : null;
    }

    /**
     * File thread: send a message written into a claimed slot.
     *
     * @param slot   from {@link #claim()}.
     * @param length the message's length.
     */
    public void send(final Slot slot, final int length)
    {
        slot.length(length);
        outbound.commit(slot);
    }

    /**
     * File thread: the peer's next message, waiting for it. Messages that arrived before a failure are still
     * returned; only then does the failure show.
     *
     * @return its slot; hand it back with {@link #release(Slot)}.
     * @throws TransferException if the network failed or the session was asked to stop.
     */
    public Slot receive() throws TransferException
    {
        return receive(Long.MAX_VALUE);
    }

    /**
     * File thread: as {@link #receive()}, giving up after a while.
     *
     * @param timeoutNs how long to wait.
     * @return the message's slot.
     * @throws TransferException if the network failed, the session was asked to stop, or nothing came in time.
     */
    public Slot receive(final long timeoutNs) throws TransferException
    {
        final long startNs = System.nanoTime();
        Slot slot;
        while (true)
        {
            // The failure is read before the pipe, never after: the network thread commits what it received before
            // it fails, so a poll that follows a failure seen sees every message that came first. Polling first and
            // then finding the failure could miss one committed in between: the receiver's DONE, just before its
            // close ended the connection, turned a complete session into a failed one.
            final String networkFailure = failure;
            slot = inbound.poll();
            if (null != slot)
            {
                break;
            }
            if (null != networkFailure)
            {
                throw new TransferException(networkFailure);
            }
            checkStop();
            if (System.nanoTime() - startNs > timeoutNs)
            {
                throw new TransferException("nothing arrived for " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) +
                    " s");
            }
            idleStrategy.idle();
        }
        idleStrategy.reset();
        return slot;
    }

    /**
     * File thread: the peer's next message if one is waiting.
     *
     * @return its slot, or null.
     */
    public Slot poll()
    {
        return inbound.poll();
    }

    /**
     * File thread: done with a received message.
     *
     * @param slot from {@link #receive()} or {@link #poll()}.
     */
    public void release(final Slot slot)
    {
        inbound.release(slot);
    }

    /**
     * File thread: every message of the session has been sent; the network thread delivers them and ends.
     */
    public void finish()
    {
        finished = true;
    }

    /**
     * Any thread: ask the file thread to end the session (Ctrl-C, or another session takes over a file).
     *
     * @param reason why, as the session's failure.
     */
    public void stop(final String reason)
    {
        stopReason = reason;
    }

    /**
     * File thread: fail if the session was asked to stop.
     *
     * @throws TransferException with the reason.
     */
    public void checkStop() throws TransferException
    {
        final String reason = stopReason;
        if (null != reason)
        {
            throw new TransferException(reason);
        }
    }

    /**
     * Network thread: the connection can carry nothing more.
     *
     * @param reason why.
     */
    void fail(final String reason)
    {
        if (null == failure)
        {
            failure = reason;
        }
    }

    /**
     * @return why the network failed, or null.
     */
    public String failure()
    {
        return failure;
    }

    SlotPipe outbound()
    {
        return outbound;
    }

    SlotPipe inbound()
    {
        return inbound;
    }

    boolean isFinished()
    {
        return finished;
    }

    boolean isStopped()
    {
        return null != stopReason;
    }

    private void checkNetwork() throws TransferException
    {
        final String reason = failure;
        if (null != reason)
        {
            throw new TransferException(reason);
        }
    }
}
