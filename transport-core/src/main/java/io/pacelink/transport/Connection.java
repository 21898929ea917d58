package io.pacelink.transport;

import io.pacelink.transport.stream.OfferResult;
import org.agrona.DirectBuffer;

import java.net.InetSocketAddress;

/**
 * One reliable, ordered, message-oriented connection.
 * <p>
 * <b>Two kinds of call.</b> {@link #offer(DirectBuffer, int, int)} and {@link #poll(MessageHandler, int)} never
 * block and never allocate: the fast path for a loop that has other work. Each has a waiting twin with a timeout
 * ({@link #offer(DirectBuffer, int, int, long)}, {@link #poll(MessageHandler, int, long)}), as do the close
 * ({@link #close(long)}, {@link #awaitOutcome(long)}) and the endpoint's connect and accept: they idle with the
 * endpoint context's idle strategy between checks, so a waiting thread does not burn a core, and they allocate
 * nothing once warm.
 * <p>
 * <b>Threads.</b>
 * <ul>
 *     <li>{@code offer} (both forms): one thread at a time, the producer (like Aeron's
 *     {@code ExclusivePublication}).</li>
 *     <li>{@code poll} (both forms): one thread at a time, the consumer; it may be another thread than the
 *     producer.</li>
 *     <li>Everything else ({@code state}, {@code outcome}, {@code stats}, {@code close}, {@code closeNow},
 *     {@code awaitOutcome}): any thread.</li>
 *     <li>A wait runs the endpoint's duty cycle on the waiting thread when that thread drives the agent:
 *     in {@link ThreadingMode#INVOKER} mode only the thread that calls {@link Endpoint#invoke()} may wait; in
 *     {@link ThreadingMode#SHARED} mode a wait on the agent's own thread runs the agent.</li>
 *     <li>Never wait inside a {@link MessageHandler}: the handler runs inside {@code poll}.</li>
 * </ul>
 * <p>
 * <b>Closing.</b> {@link #close()} is graceful: no more offers; what was offered is still delivered; the connection
 * ends once the peer's <em>application</em> has read everything up to this side's end of stream (the peer confirms
 * it; packet acknowledgements alone do not count), or fails with {@link CloseReason#LINGER_TIMEOUT} when that does
 * not happen within the linger timeout. The peer's application sees {@link #isEndOfStream()} after reading the last
 * message. Messages the peer sends after this side's close completed are not delivered here (the peer's outcome says
 * so); to read the peer's last messages, poll until {@link #isEndOfStream()} before closing, or let the peer close
 * first. {@link #closeNow()} aborts. {@link #outcome()} says how it ended and whether everything arrived.
 */
public interface Connection extends AutoCloseable
{
    /**
     * The send buffer is full: try again after the peer acknowledged data.
     */
    long BACK_PRESSURED = OfferResult.BACK_PRESSURED;

    /**
     * The connection is still connecting: try again when {@link #state()} is CONNECTED.
     */
    long NOT_CONNECTED = OfferResult.NOT_CONNECTED;

    /**
     * The connection is closing or closed: nothing more can be sent.
     */
    long CLOSED = OfferResult.CLOSED;

    /**
     * The message is longer than the endpoint's {@code maxMessageLengthBytes}.
     */
    long MAX_MESSAGE_LENGTH_EXCEEDED = OfferResult.MAX_MESSAGE_LENGTH_EXCEEDED;

    /**
     * Copy a message into the connection's send buffer. Never blocks, never allocates. Producer thread.
     *
     * @param buffer holding the message.
     * @param offset of the message in the buffer.
     * @param length of the message in bytes (0 is allowed).
     * @return the stream position after the message (positive) if accepted, otherwise {@link #BACK_PRESSURED},
     * {@link #NOT_CONNECTED}, {@link #CLOSED} or {@link #MAX_MESSAGE_LENGTH_EXCEEDED}.
     */
    long offer(DirectBuffer buffer, int offset, int length);

    /**
     * Copy a message into the connection's send buffer, waiting up to {@code timeoutNs} for room (and for the
     * connection to be established). Producer thread.
     *
     * @param buffer    holding the message.
     * @param offset    of the message in the buffer.
     * @param length    of the message in bytes (0 is allowed).
     * @param timeoutNs longest wait; 0 is the same as {@link #offer(DirectBuffer, int, int)}.
     * @return the stream position after the message (positive) if accepted; {@link #BACK_PRESSURED} or
     * {@link #NOT_CONNECTED} if the timeout passed first; {@link #CLOSED} at once if the connection closes (see
     * {@link #outcome()}); {@link #MAX_MESSAGE_LENGTH_EXCEEDED}.
     */
    long offer(DirectBuffer buffer, int offset, int length, long timeoutNs);

    /**
     * Deliver received messages, in order, to the handler. Never blocks, never allocates. Consumer thread. A
     * {@link MessagePartHandler} is handed a message that spans the receive log's segments in its parts, in place;
     * any other handler gets it whole, copied into one region first.
     *
     * @param handler called once per message (a {@link MessagePartHandler}: once per part of a message in parts); the
     *                buffer is valid only during the call.
     * @param limit   most messages to deliver.
     * @return the number of messages delivered.
     */
    int poll(MessageHandler handler, int limit);

    /**
     * Deliver received messages, in order, waiting up to {@code timeoutNs} for the first. Consumer thread.
     *
     * @param handler   called once per message; the buffer is valid only during the call.
     * @param limit     most messages to deliver.
     * @param timeoutNs longest wait; 0 is the same as {@link #poll(MessageHandler, int)}.
     * @return the number of messages delivered: 0 if the timeout passed first, or at once when no more can come
     * ({@link #isEndOfStream()}, or the connection closed and everything received was delivered).
     */
    int poll(MessageHandler handler, int limit, long timeoutNs);

    /**
     * @return the connection's life-cycle state.
     */
    ConnectionState state();

    /**
     * @return shorthand for {@code outcome().reason()}: how the connection ended, or {@link CloseReason#NONE} while
     * open.
     */
    CloseReason closeReason();

    /**
     * @return how the connection ended and whether everything offered reached the peer's application;
     * {@link ConnectionOutcome#OPEN} until that is decided (it is decided when the connection starts its final
     * close, slightly before {@link #state()} turns CLOSED).
     */
    ConnectionOutcome outcome();

    /**
     * Wait up to {@code timeoutNs} for the connection to end. Any thread.
     *
     * @param timeoutNs longest wait.
     * @return the final outcome, or {@link ConnectionOutcome#OPEN} if the timeout passed first.
     */
    ConnectionOutcome awaitOutcome(long timeoutNs);

    /**
     * @return true once the peer closed its sending side and every message it sent has been polled.
     */
    boolean isEndOfStream();

    /**
     * @return the peer's address: on a server, the client's current one — a connection follows its client to a new
     * address once path validation proved it (a NAT that rebinds, RFC 9000 section 9; docs/security.md, "Connection
     * migration").
     */
    InetSocketAddress remoteAddress();

    /**
     * @return the id this endpoint knows the connection by (also the key of its counters); on a connection
     * {@link Endpoint#connect(InetSocketAddress)} just returned this waits for the agent to create it (0 if it
     * never did: the endpoint closed first).
     */
    long connectionId();

    /**
     * @return the name of the connection's congestion controller (on a server, the one its client asked for when
     * the server has it).
     */
    String congestionControl();

    /**
     * @return live statistics (cwnd, pacing rate, RTT, application bytes and messages, ...); on a connection
     * {@link Endpoint#connect(InetSocketAddress)} just returned this waits for the agent to create it.
     */
    ConnectionStats stats();

    /**
     * Close gracefully with the context's linger timeout ({@link PacelinkContext#lingerTimeoutNs(long)}): no more
     * offers, what was offered is still delivered, and the connection ends once the peer's application has read it
     * all. Does not block; {@link #awaitOutcome(long)} waits for the result. Any thread; idempotent.
     */
    void close();

    /**
     * Close gracefully and wait for the result: "everything I offered was read by the peer's application"
     * ({@link ConnectionOutcome#isDelivered()}) or why not. Any thread.
     *
     * @param lingerTimeoutNs how long the close may take, instead of the context's linger timeout; after it the close
     *                        fails with {@link CloseReason#LINGER_TIMEOUT} and the connection is aborted.
     * @return the final outcome, or {@link ConnectionOutcome#OPEN} if the endpoint's agent did not carry out the
     * close in time (it is not running).
     */
    ConnectionOutcome close(long lingerTimeoutNs);

    /**
     * Abort: the peer is told at once and whatever it has not read is lost ({@link CloseReason#ABORTED} here,
     * {@link CloseReason#PEER_ABORTED} there). Does not block. Any thread.
     */
    void closeNow();
}
