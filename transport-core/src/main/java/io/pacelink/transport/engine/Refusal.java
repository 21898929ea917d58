package io.pacelink.transport.engine;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Why a server refuses a connection: the reason phrase of its CLOSE frame (error code REJECTED), so that the client's
 * outcome, and the tool in front of a user, can say which refusal it was.
 */
final class Refusal
{
    static final DirectBuffer NOT_ACCEPTING = phrase("the server does not accept connections");
    static final DirectBuffer CONNECTION_LIMIT = phrase("the server has its maximum of connections");
    static final DirectBuffer ACCEPT_QUEUE_FULL = phrase("the server application's accept queue is full");
    static final DirectBuffer CLOSING = phrase("the server is closing");

    private Refusal()
    {
    }

    private static DirectBuffer phrase(final String text)
    {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.US_ASCII));
    }
}
