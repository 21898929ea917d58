package io.pacelink.transport.engine;

import io.pacelink.transport.wire.PacketHeaderFlyweight;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * The reasons a CLOSE frame carries to the peer (RFC 9000 section 19.19's reason phrase): constant UTF-8 buffers, so
 * closing allocates nothing. A protocol violation names the rule broken and a refusal (error code REJECTED) says why
 * the server refused, so the peer's application and operator learn why without this side's logs (the client's
 * {@code ConnectionOutcome.detail()}).
 */
final class CloseReasonTexts
{
    static final UnsafeBuffer ACK_OF_UNSENT_PACKET = text("ACK of a packet number never sent");
    static final UnsafeBuffer MALFORMED_ACK = text("ACK ranges not descending and disjoint");
    static final UnsafeBuffer ACK_FREQUENCY_DELAY =
        text("ACK_FREQUENCY asks for a max ACK delay below the min ACK delay announced, or of 2^14 ms or more");
    static final UnsafeBuffer ACK_FREQUENCY_NOT_OFFERED =
        text("ACK_FREQUENCY or IMMEDIATE_ACK to an endpoint that announced no min ACK delay");
    static final UnsafeBuffer REASSEMBLY_LIMIT =
        text("reassembly limit: out-of-order ranges beyond the receive window's memory");
    static final UnsafeBuffer DATA_MISMATCH = text("different bytes sent for the same stream offsets");
    static final UnsafeBuffer FLOW_CONTROL = text("data beyond the flow-control credit");
    static final UnsafeBuffer FINAL_SIZE = text("data beyond the final size, or the final size changed");
    static final UnsafeBuffer MESSAGE_FRAMING = text("message longer than the maximum, or the stream ended inside one");
    static final UnsafeBuffer RECEIPT_BEYOND_SENT = text("CONSUMED receipt for stream data never sent");
    static final UnsafeBuffer UNEXPECTED_HANDSHAKE = text("HANDSHAKE frame in a ONE_RTT packet");
    static final UnsafeBuffer NEW_TOKEN_FROM_CLIENT = text("NEW_TOKEN frame from a client");
    static final UnsafeBuffer PEER_UNRESPONSIVE = text("nothing acknowledged through the probe-timeout limit");
    static final UnsafeBuffer NO_PROGRESS = text("only PINGs and ACKs for the idle timeout, beyond a keep-alive's");
    static final UnsafeBuffer INTERNAL_ERROR = text("internal error");
    static final UnsafeBuffer NOT_ACCEPTING = text("the server does not accept connections");
    static final UnsafeBuffer CONNECTION_LIMIT = text("the server has its maximum of connections");
    static final UnsafeBuffer MEMORY_BUDGET = text("the server's memory budget is spent");
    static final UnsafeBuffer COUNTERS_FULL = text("the server's counters buffer is full");
    static final UnsafeBuffer ACCEPT_QUEUE_FULL = text("the server application's accept queue is full");
    static final UnsafeBuffer CLOSING = text("the server is closing");
    static final UnsafeBuffer VERSION_REFUSED = text(
        "unsupported wire-format version: this endpoint speaks version " + PacketHeaderFlyweight.CURRENT_VERSION);

    static final UnsafeBuffer SECURE_MODE_REQUIRED = text(
        "secure mode required: this server speaks only the secure mode; the client gave no key (pin the server's " +
        "public key, or share its pre-shared key)");

    static final UnsafeBuffer SECURE_MODE_UNSUPPORTED = text(
        "secure mode unsupported: this server has no key and speaks plaintext only");

    static final UnsafeBuffer NO_STATIC_KEY = text(
        "this server has no static key: it answers pre-shared-key (Noise NNpsk0) hellos only; give the client its " +
        "pre-shared key");

    static final UnsafeBuffer NO_PRE_SHARED_KEY = text(
        "this server has no pre-shared key: it answers Noise NK hellos only; pin its public key instead");

    static final UnsafeBuffer WRONG_SERVER_KEY = text(
        "wrong server key: the hello is not for this server's key (the client pinned another one)");

    static final UnsafeBuffer WRONG_PRE_SHARED_KEY = text(
        "wrong pre-shared key: the hello's MAC does not check with this server's pre-shared key (the two ends " +
        "hold different ones)");

    private CloseReasonTexts()
    {
    }

    private static UnsafeBuffer text(final String reason)
    {
        return new UnsafeBuffer(reason.getBytes(StandardCharsets.UTF_8));
    }
}
