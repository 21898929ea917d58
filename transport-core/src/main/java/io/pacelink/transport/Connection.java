package io.pacelink.transport;

import io.pacelink.transport.stream.OfferResult;
import org.agrona.DirectBuffer;

import java.net.InetSocketAddress;

/**
 * One reliable, ordered, message-oriented connection. {@link #offer} is for one application thread at a time (like
 * Aeron's {@code ExclusivePublication}) and {@link #poll} for one application thread at a time; both are
 * allocation-free and never block.
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
     * Copy a message into the connection's send buffer.
     *
     * @param buffer holding the message.
     * @param offset of the message in the buffer.
     * @param length of the message in bytes (0 is allowed).
     * @return the stream position after the message (positive) if accepted, otherwise {@link #BACK_PRESSURED},
     * {@link #NOT_CONNECTED}, {@link #CLOSED} or {@link #MAX_MESSAGE_LENGTH_EXCEEDED}.
     */
    long offer(DirectBuffer buffer, int offset, int length);

    /**
     * Deliver received messages, in order, to the handler.
     *
     * @param handler called once per message; the buffer is valid only during the call.
     * @param limit   most messages to deliver.
     * @return the number of messages delivered.
     */
    int poll(MessageHandler handler, int limit);

    /**
     * @return the connection's life-cycle state.
     */
    ConnectionState state();

    /**
     * @return why the connection closed, or {@link CloseReason#NONE} while open.
     */
    CloseReason closeReason();

    /**
     * @return true once the peer closed its sending side and every message it sent has been polled.
     */
    boolean isEndOfStream();

    /**
     * @return the peer's address.
     */
    InetSocketAddress remoteAddress();

    /**
     * @return the id this endpoint knows the connection by (also the key of its counters).
     */
    long connectionId();

    /**
     * @return the name of the connection's congestion controller.
     */
    String congestionControl();

    /**
     * @return live statistics (cwnd, pacing rate, RTT, bandwidth estimate, retransmissions, ...).
     */
    ConnectionStats stats();

    /**
     * Close gracefully: data already offered is still delivered, then the connection closes. Does not block.
     */
    void close();
}
