package io.pacelink.transport.agent;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;

import java.util.concurrent.TimeUnit;

/**
 * How long the default profile's agent keeps polling its socket instead of sleeping after it sent a client's hello
 * ({@link PortWaitIdleStrategy}): a server that answers within a fraction of a millisecond (a peer on the same host or
 * LAN) answers sooner than a sleeping thread wakes on a virtual machine, where a wake-up of an idle vCPU costs
 * hundreds of microseconds (perf/FINDINGS.md, "one connect at a time"), so one connect would pay the round trip and
 * that wake-up. Polling until the answer saves the wake-up at the price of the CPU of one round trip per connect.
 * <p>
 * Bounded by what the last answer took: the agent learns, from each connect it carries out, how long the server took to
 * answer (from the end of the duty cycle that sent the hello to its connection leaving CONNECTING, as the agent sees
 * it between duty cycles), and
 * polls after the next hello for at most {@link #SPIN_ANSWER_MULTIPLE} times that, never beyond {@link #MAX_SPIN_NS};
 * after an answer that took longer than that (a distant server) it does not poll at all, so a client that connects
 * across a WAN spends nothing here. The first connect, with nothing learned, polls up to {@link #MAX_SPIN_NS}. An
 * endpoint that opens no connections (a server) never polls: its idle cost stays nil.
 * <p>
 * Agent thread only; no allocation.
 */
public final class AnswerSpin
{
    /**
     * The longest poll after a hello: one default max ACK delay (RFC 9000 section 18.2, {@code max_ack_delay}).
     */
    public static final long MAX_SPIN_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * The poll after a hello lasts this many times the last answer's delay, so an answer a little later than the last
     * one is still caught.
     */
    public static final int SPIN_ANSWER_MULTIPLE = 2;

    /**
     * No answer is awaited, or the wait is not worth polling for.
     */
    public static final long NONE = Long.MIN_VALUE;

    private static final long UNKNOWN = -1;

    private Connection awaited;
    private boolean isHelloPending;
    private long connectNs;
    private long lastAnswerNs = UNKNOWN;
    private long spinEndNs = NONE;
    private long answersTimed;

    /**
     * A connect was carried out: its hello leaves in this duty cycle, and the poll for its answer starts as the cycle
     * ends ({@link #spinEndNs}). A connect carried out while another is awaited replaces it: the poll follows the
     * newest hello.
     *
     * @param connection the connection the agent created (CONNECTING), or null if it could not.
     */
    public void onConnect(final Connection connection)
    {
        if (null == connection || ConnectionState.CONNECTING != connection.state())
        {
            return;
        }
        awaited = connection;
        isHelloPending = true;
        spinEndNs = NONE;
    }

    /**
     * The duty cycle that sent the hello ended: poll until the answer is due if the last one came soon enough.
     */
    private void onHelloSent(final long nowNs)
    {
        isHelloPending = false;
        connectNs = nowNs;
        if (UNKNOWN == lastAnswerNs)
        {
            spinEndNs = nowNs + MAX_SPIN_NS;
        }
        else if (lastAnswerNs <= MAX_SPIN_NS)
        {
            spinEndNs = nowNs + Math.min(MAX_SPIN_NS, SPIN_ANSWER_MULTIPLE * lastAnswerNs);
        }
        else
        {
            spinEndNs = NONE;
        }
    }

    /**
     * Before the agent sleeps: learn the awaited answer's delay once its connection left CONNECTING, and say until when
     * to poll instead of sleeping.
     *
     * @param nowNs the time now.
     * @return the end of the poll (compare by difference), or {@link #NONE} if the agent may sleep.
     */
    public long spinEndNs(final long nowNs)
    {
        final Connection awaited = this.awaited;
        if (null == awaited)
        {
            return NONE;
        }
        final ConnectionState state = awaited.state();
        if (isHelloPending && ConnectionState.CONNECTING == state)
        {
            onHelloSent(nowNs);
        }
        if (ConnectionState.CONNECTING != state)
        {
            this.awaited = null;
            spinEndNs = NONE;
            if (ConnectionState.CONNECTED == state && !isHelloPending)
            {
                lastAnswerNs = nowNs - connectNs;
                answersTimed++;
            }
            isHelloPending = false;
            return NONE;
        }
        if (NONE != spinEndNs && nowNs - spinEndNs >= 0)
        {
            spinEndNs = NONE;
        }
        if (NONE == spinEndNs && nowNs - connectNs > MAX_SPIN_NS && UNKNOWN == lastAnswerNs)
        {
            // Not answered within the longest poll, and nothing learned yet: the server is at least that far away.
            lastAnswerNs = nowNs - connectNs;
        }
        return spinEndNs;
    }

    /**
     * @return how long the last timed answer took, in ns (-1 before one was timed).
     */
    public long lastAnswerNs()
    {
        return lastAnswerNs;
    }

    /**
     * @return how many answers were timed.
     */
    public long answersTimed()
    {
        return answersTimed;
    }
}
