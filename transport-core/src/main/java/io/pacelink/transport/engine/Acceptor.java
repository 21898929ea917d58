package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.admission.AddressValidator;
import io.pacelink.transport.admission.HandshakeBudget;
import io.pacelink.transport.admission.HelloAdmission;
import io.pacelink.transport.admission.KeyExchangeBudget;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.secure.AeadAlgorithm;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.secure.EndpointKeys;
import io.pacelink.transport.secure.HelloMac;
import io.pacelink.transport.secure.NoiseProfile;
import io.pacelink.transport.secure.SecureSession;
import io.pacelink.transport.stats.EndpointCounters;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.NoiseFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;

/**
 * The server's side of a new connection (docs/security.md, "Admission"): whether a client's hello gets a connection,
 * a RETRY (carrying this server's static key when it answers a Noise NK hello), a refusal that says why, or nothing —
 * its mode (plaintext or secure, and a profile this server has a key for: a mismatch is refused as SECURITY_MISMATCH),
 * its MAC (one that does not check is refused as AUTHENTICATION_FAILED, to a validated address only), a replay or a
 * retransmission of a hello already answered, {@link HelloAdmission} (address validation and the per-source rate),
 * this endpoint's willingness, connection limit and memory budget — then the connection with the controller its
 * client asked for; and, when the client confirms with its first ONE_RTT packet, whether the application takes it. A
 * client of another wire-format version is refused in its own version. Agent thread only.
 */
final class Acceptor
{
    private final PacelinkContext context;
    private final ConnectionTable connections;
    private final ConnectionFactory factory;
    private final HelloAdmission admission;
    private final EndpointKeys keys;
    private final CongestionControlRegistry registry;
    private final AcceptHandler acceptHandler;
    private final StatelessReplies replies;
    private final EndpointCounters endpointCounters;
    private final SecurityCounters securityCounters;
    private final HandshakeBudget handshakeBudget;
    private final KeyExchangeBudget keyExchanges;
    private final int keyExchangesPerDutyCycle;
    private final long keyExchangeTimePerDutyCycleNs;
    private int keyExchangesThisDutyCycle;
    private final UnsafeBuffer retryToken = new UnsafeBuffer(new byte[AddressValidator.TOKEN_LENGTH]);
    private final UnsafeBuffer newToken = new UnsafeBuffer(new byte[AddressValidator.TOKEN_LENGTH]);
    private boolean isClosing;

    Acceptor(
        final PacelinkContext context,
        final ConnectionTable connections,
        final ConnectionFactory factory,
        final HelloAdmission admission,
        final HandshakeBudget handshakeBudget,
        final KeyExchangeBudget keyExchanges,
        final EndpointKeys keys,
        final CongestionControlRegistry registry,
        final AcceptHandler acceptHandler,
        final StatelessReplies replies,
        final EndpointCounters endpointCounters,
        final SecurityCounters securityCounters)
    {
        this.context = context;
        this.connections = connections;
        this.factory = factory;
        this.admission = admission;
        this.handshakeBudget = handshakeBudget;
        this.keyExchanges = keyExchanges;
        this.keyExchangesPerDutyCycle = context.limits().keyExchangesPerDutyCycle();
        this.keyExchangeTimePerDutyCycleNs = context.limits().keyExchangeTimePerDutyCycleNs();
        this.keys = keys;
        this.registry = registry;
        this.acceptHandler = acceptHandler;
        this.replies = replies;
        this.endpointCounters = endpointCounters;
        this.securityCounters = securityCounters;
    }

    /**
     * A duty cycle starts: its share of key exchanges is whole again.
     */
    void startDutyCycle()
    {
        keyExchangesThisDutyCycle = 0;
    }

    /**
     * @return true once this duty cycle performed its {@code keyExchangesPerDutyCycle}: the hellos still in its receive
     * batch wait for the next cycle (which starts at once), so a burst of hellos is spread over cycles a few
     * milliseconds long rather than stalling every connection behind one long cycle — and, unlike a drop, costs its
     * clients no retransmission.
     */
    boolean isKeyExchangeCapReached()
    {
        return keyExchangesThisDutyCycle >= keyExchangesPerDutyCycle;
    }

    /**
     * @return true if this duty cycle performed a key exchange: from then on its time counts too
     * ({@link #isKeyExchangeTimeSpent}).
     */
    boolean hasExchangedKeysThisDutyCycle()
    {
        return keyExchangesThisDutyCycle > 0;
    }

    /**
     * The cap in time beside the cap in count: a key exchange costs a quarter of a millisecond once compiled, many
     * times that while the JIT has not compiled it yet or has just thrown its code away, and a cycle that has run
     * {@code keyExchangeTimePerDutyCycleNs} starts no further one — it performed at least one, so a stream of hellos
     * always makes progress. The hellos left wait for the next cycle, as at the cap in count.
     *
     * @param dutyCycleElapsedNs how long this duty cycle has run so far, on the clock it runs on.
     * @return true if this cycle performed a key exchange and has run its time for them.
     */
    boolean isKeyExchangeTimeSpent(final long dutyCycleElapsedNs)
    {
        return keyExchangesThisDutyCycle > 0 && dutyCycleElapsedNs >= keyExchangeTimePerDutyCycleNs;
    }

    /**
     * The endpoint is closing gracefully: new handshakes are refused, saying so.
     */
    void beginClosing()
    {
        isClosing = true;
    }

    /**
     * A validated hello (a HANDSHAKE packet to connection id 0) of this version.
     *
     * @param decoder       the decoder that validated it, positioned on its frames.
     * @param hello         its HANDSHAKE frame.
     * @param hasNoise      true if it carries a NOISE frame (a secure hello).
     * @param namesController true if it carries a CONGESTION_CONTROL frame.
     * @param minAckDelayUs the min ACK delay of its MIN_ACK_DELAY frame, negative if it carries none.
     * @param buffer        holding the packet.
     * @param offset        of the packet.
     * @param length        of the packet without its integrity trailer.
     * @param source        where it came from.
     * @param nowNs         when it was received.
     */
    void onHello(
        final PacketDecoder decoder,
        final HandshakeFrameFlyweight hello,
        final boolean hasNoise,
        final boolean namesController,
        final int minAckDelayUs,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress source,
        final long nowNs)
    {
        final long clientId = hello.sourceConnectionId();
        if (keys.isSecureServer() != hasNoise)
        {
            refuseMode(clientId, source, keys.isSecureServer() ?
                CloseReasonTexts.SECURE_MODE_REQUIRED : CloseReasonTexts.SECURE_MODE_UNSUPPORTED, nowNs);
            return;
        }
        NoiseProfile profile = null;
        boolean isMacValid = true;
        if (hasNoise)
        {
            // WireGuard's mac1: a hello without the right MAC costs one HMAC, never a Diffie-Hellman.
            final NoiseFrameFlyweight noise = decoder.noise();
            profile = NoiseProfile.fromWireId(noise.profile());
            final HelloMac mac = keys.serverMac(profile);
            if (null == mac)
            {
                refuseMode(clientId, source,
                    NoiseProfile.NK == profile ? CloseReasonTexts.NO_STATIC_KEY : CloseReasonTexts.NO_PRE_SHARED_KEY,
                    nowNs);
                return;
            }
            // A key request (an empty message) cannot carry a MAC for a key its client does not know.
            isMacValid = NoiseFrameFlyweight.KEY_REQUEST_LENGTH != noise.messageLength() &&
                mac.isValid(buffer, offset, noise.macOffset());
        }

        final ConnectionCore existing = isMacValid ? connections.serverByClientId(clientId) : null;
        if (null != existing && !existing.isClosed() && existing.remoteAddress().equals(source))
        {
            if (existing.isHandshakeConfirmed())
            {
                // The client confirmed long ago and never sends its hello again: someone replays it.
                securityCounters.hellosReplayed().incrementRelease();
                return;
            }
            existing.onHandshakeRetransmission(nowNs);
            return;
        }

        if (hasNoise && isMacValid && hello.tokenLength() > 0 && !keyExchanges.hasCredit(source.getAddress(), nowNs))
        {
            // A token buys one key exchange, not one hello: a hello the key-exchange budget cannot serve now is
            // dropped before admission spends its token, so its client's retransmission, echoing the same token, is
            // served once there is credit — rather than treated as a reused token, and the client sent through
            // RETRYs it follows only twice. (Checking it here also spares the flood's hellos the token's HMAC.)
            securityCounters.keyExchangesLimited().incrementRelease();
            return;
        }

        // The floor applies to the datagram, integrity trailer included (handshake packets always carry a CRC32C).
        // A hello whose MAC does not check goes through admission too: a client whose key differs from this server's
        // learns so — at first from the key a RETRY to an NK hello carries, then from a refusal to its validated
        // address — rather than from silence that reads like a dead host. Neither answer costs public-key work, and
        // such a hello gets its RETRY in every retry mode: it is how a key request learns the key.
        final int verdict = admission.admit(hello, length + Crc32cPacketCheck.TRAILER_LENGTH, source, nowNs,
            retryToken, 0, handshakeBudget.isUnderPressure(), handshakeBudget.isSourceOverShare(source.getAddress()),
            !isMacValid);
        if (HelloAdmission.RETRY == verdict)
        {
            replies.sendRetry(
                clientId, retryToken, NoiseProfile.NK == profile ? keys.serverPublicKey() : null, source, nowNs);
            return;
        }
        if (HelloAdmission.ACCEPT != verdict && HelloAdmission.ACCEPT_UNVALIDATED != verdict)
        {
            return;
        }
        if (!isMacValid)
        {
            securityCounters.hellosBadMac().incrementRelease();
            endpointCounters.connectionsRejected().incrementRelease();
            replies.sendRejection(clientId, ConnectionLifecycle.AUTHENTICATION_FAILED_ERROR,
                NoiseProfile.NK == profile ? CloseReasonTexts.WRONG_SERVER_KEY : CloseReasonTexts.WRONG_PRE_SHARED_KEY,
                0, source, nowNs);
            return;
        }

        // Each refusal is far smaller than the hello it answers, and passes the rates of answers to unproven
        // addresses. Unconfirmed handshakes have their own budget: the limit counts established connections.
        final DirectBuffer refusal = !context.acceptConnections() ? CloseReasonTexts.NOT_ACCEPTING :
            isClosing ? CloseReasonTexts.CLOSING :
            isAtConnectionLimit() ? CloseReasonTexts.CONNECTION_LIMIT : null;
        if (null != refusal)
        {
            if (CloseReasonTexts.CONNECTION_LIMIT == refusal)
            {
                endpointCounters.connectionsRefusedLimit().incrementRelease();
            }
            refuse(clientId, source, refusal, nowNs);
            return;
        }
        if (!factory.hasCountersForNewConnection())
        {
            endpointCounters.connectionsRefusedCounters().incrementRelease();
            refuse(clientId, source, CloseReasonTexts.COUNTERS_FULL, nowNs);
            return;
        }
        if (!factory.hasMemoryForNewConnection())
        {
            securityCounters.handshakesRefusedMemory().incrementRelease();
            refuse(clientId, source, CloseReasonTexts.MEMORY_BUDGET, nowNs);
            return;
        }

        final String requestedController = namesController ? decoder.congestionControl().name() : null;
        final String controllerName = serverController(requestedController);
        SecureSession secureSession = null;
        if (hasNoise)
        {
            // The Diffie-Hellman budget caps the agent's share a flood of valid hellos can take; the client sends its
            // hello again after its retry delay. (How many one duty cycle performs is capped before the hello gets
            // here: see isKeyExchangeCapReached.)
            if (!keyExchanges.tryAcquire(source.getAddress(), nowNs))
            {
                securityCounters.keyExchangesLimited().incrementRelease();
                return;
            }
            keyExchangesThisDutyCycle++;
            final NoiseFrameFlyweight noise = decoder.noise();
            secureSession = SecureSession.server(keys, profile, AeadAlgorithm.fromWireId(noise.aead()),
                noise.message(), ConnectionHandshake.transcript(buffer, hello.offset(), requestedController));
            if (null == secureSession)
            {
                securityCounters.handshakeAuthFailures().incrementRelease();
                return;
            }
        }
        makeRoomForHandshake(source);
        final ConnectionCore connection = factory.open(
            factory.nextId(connections.isIdInUse()), source, controllerName, false, secureSession, nowNs);
        connection.answerWithResetToken(replies.resetToken(connection.localId()));
        connections.add(connection);
        handshakeBudget.add(connection.localId(), source.getAddress());
        connection.applyPeerHandshake(hello, minAckDelayUs, nowNs);
        connections.indexByClientId(clientId, connection);
    }

    /**
     * @return true if the established connections (the unconfirmed handshakes have their own budget) have reached
     * {@link PacelinkContext#maxConnections}.
     */
    private boolean isAtConnectionLimit()
    {
        return connections.establishedCount() >= context.maxConnections();
    }

    /**
     * A new handshake from this source is about to be held: if its source, or the whole budget, is full, the oldest
     * unconfirmed handshake of the source (or of all) ends silently to make room.
     */
    private void makeRoomForHandshake(final InetSocketAddress source)
    {
        final long victimId = handshakeBudget.victim(source.getAddress());
        if (HandshakeBudget.NONE != victimId)
        {
            handshakeBudget.remove(victimId);
            final ConnectionCore victim = connections.byId(victimId);
            if (null != victim)
            {
                victim.evictHandshake();
            }
            securityCounters.handshakesEvicted().incrementRelease();
        }
    }

    /**
     * The server runs the controller its client asked for when it has it (as a TCP server honours a
     * {@code TCP_CONGESTION} set on the accepted socket), else its own: a client may name a controller this build
     * does not have, and should still be served. The application sees which through
     * {@link Connection#congestionControl()}.
     */
    private String serverController(final String requestedController)
    {
        if (null != requestedController && registry.names().contains(requestedController))
        {
            return requestedController;
        }
        return context.congestionControl();
    }

    /**
     * A server connection's first ONE_RTT packet from the address the handshake came from: only now is it the
     * application's. An application that does not take connections, or an endpoint closing, refuses it, as at the
     * connection limit, rather than hold one nobody reads.
     *
     * A connection handed over gets a token for its client's later connections (RFC 9000 section 8.1.3): the client
     * has now proven its address.
     *
     * @param nowNs when the confirming packet was received.
     * @return true if the connection is handed to the application; false if it was refused.
     */
    boolean confirm(final ConnectionCore connection, final long nowNs)
    {
        final boolean isAtLimit = isAtConnectionLimit();
        connections.onConfirmed(connection);
        connection.confirmHandshake();
        if (isClosing || isAtLimit || !acceptHandler.onAccepted(connection.handle()))
        {
            endpointCounters.connectionsRejected().incrementRelease();
            if (isAtLimit && !isClosing)
            {
                endpointCounters.connectionsRefusedLimit().incrementRelease();
            }
            connection.refuse(isClosing ? CloseReasonTexts.CLOSING :
                isAtLimit ? CloseReasonTexts.CONNECTION_LIMIT : CloseReasonTexts.ACCEPT_QUEUE_FULL);
            return false;
        }
        if (admission.issuesNewTokens())
        {
            connection.giveNewToken(newToken, admission.mintNewToken(connection.remoteAddress(), nowNs, newToken, 0));
        }
        return true;
    }

    /**
     * Refuse a hello whose mode does not match this server's: plaintext to a secure server, secure to a plaintext
     * one, or a profile this server has no key for. The CLOSE (SECURITY_MISMATCH) says which, so the operator knows
     * what to configure; it is far smaller than the hello.
     */
    private void refuseMode(
        final long clientId, final InetSocketAddress source, final DirectBuffer reason, final long nowNs)
    {
        securityCounters.handshakesRefusedMode().incrementRelease();
        replies.sendRejection(clientId, ConnectionLifecycle.SECURITY_MISMATCH_ERROR, reason, 0, source, nowNs);
    }

    /**
     * Refuse a client of another wire-format version clearly (docs/wire-format.md, "Versions"): a CLOSE in the
     * client's own version, which it can parse, with error code REJECTED and a reason naming this endpoint's version.
     * Only for a full-size hello, so the refusal is far smaller than what the client sent.
     */
    void refuseVersion(final DirectBuffer buffer, final int offset, final InetSocketAddress source, final long nowNs)
    {
        securityCounters.handshakesRefusedVersion().incrementRelease();
        final int clientVersion = buffer.getByte(offset + PacketHeaderFlyweight.VERSION_OFFSET) & 0xFF;
        final long clientId = buffer.getLong(
            offset + PacketHeaderFlyweight.HEADER_LENGTH + HandshakeFrameFlyweight.SOURCE_CONNECTION_ID_OFFSET,
            PacketHeaderFlyweight.BYTE_ORDER);
        replies.sendRejection(clientId, ConnectionLifecycle.REJECTED_ERROR, CloseReasonTexts.VERSION_REFUSED,
            clientVersion, source, nowNs);
    }

    /**
     * Refuse a client's handshake with a CLOSE (REJECTED) that says why, and count it; no state is kept.
     */
    private void refuse(
        final long clientId, final InetSocketAddress source, final DirectBuffer reason, final long nowNs)
    {
        endpointCounters.connectionsRejected().incrementRelease();
        replies.sendRejection(clientId, ConnectionLifecycle.REJECTED_ERROR, reason, 0, source, nowNs);
    }
}
