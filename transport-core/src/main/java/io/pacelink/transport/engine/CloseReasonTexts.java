package io.pacelink.transport.engine;

import io.pacelink.transport.wire.PacketHeaderFlyweight;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * The reasons a CLOSE frame carries to the peer when this side closes a connection for something the peer did
 * (RFC 9000 section 19.19's reason phrase): constant UTF-8 buffers, so closing allocates nothing. Each names the rule
 * broken, so the peer's operator learns why without this side's logs.
 */
final class CloseReasonTexts
{
    static final UnsafeBuffer ACK_OF_UNSENT_PACKET = text("ACK of a packet number never sent");
    static final UnsafeBuffer MALFORMED_ACK = text("ACK ranges not descending and disjoint");
    static final UnsafeBuffer REASSEMBLY_LIMIT = text("reassembly limit: too many out-of-order ranges");
    static final UnsafeBuffer DATA_MISMATCH = text("different bytes sent for the same stream offsets");
    static final UnsafeBuffer FLOW_CONTROL = text("data beyond the flow-control credit");
    static final UnsafeBuffer FINAL_SIZE = text("data beyond the final size, or the final size changed");
    static final UnsafeBuffer MESSAGE_FRAMING = text("message longer than the maximum, or the stream ended inside one");
    static final UnsafeBuffer UNEXPECTED_HANDSHAKE = text("HANDSHAKE frame in a ONE_RTT packet");
    static final UnsafeBuffer PEER_UNRESPONSIVE = text("nothing acknowledged through the probe-timeout limit");
    static final UnsafeBuffer VERSION_REFUSED = text(
        "unsupported wire-format version: this endpoint speaks version " + PacketHeaderFlyweight.CURRENT_VERSION);

    static final UnsafeBuffer SECURE_MODE_REQUIRED = text(
        "secure mode required: this endpoint answers only Noise hellos of a profile it has a key for " +
        "(pin its public key, or share its pre-shared key)");

    static final UnsafeBuffer SECURE_MODE_UNSUPPORTED = text(
        "secure mode unsupported: this endpoint has no key and speaks plaintext only");

    private CloseReasonTexts()
    {
    }

    private static UnsafeBuffer text(final String reason)
    {
        return new UnsafeBuffer(reason.getBytes(StandardCharsets.UTF_8));
    }
}
