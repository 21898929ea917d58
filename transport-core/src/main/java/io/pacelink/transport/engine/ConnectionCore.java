package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.recovery.PathParameters;
import io.pacelink.transport.recovery.SentPacketDescriptor;
import io.pacelink.transport.schedule.SchedulableFlow;
import io.pacelink.transport.secure.AeadGuard;
import io.pacelink.transport.secure.PacketGuard;
import io.pacelink.transport.secure.PacketProtection;
import io.pacelink.transport.secure.SecureSession;
import io.pacelink.transport.stats.EndpointCounters;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.stream.SendLog;
import io.pacelink.transport.wire.EcnCodepoint;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.NoiseFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketWriter;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;

/**
 * The agent's side of one connection: what arrives (frames in wire order, to the stream logs, loss recovery and the
 * ACK tracker), its timers once per duty cycle, what it may send ({@link #sendable}), and the record of each packet
 * sent. Its parts, each with one job: the {@link ConnectionHandshake}, the {@link ConnectionLifecycle} (state, close
 * and outcome), {@link Liveness}, the {@link ControlFrames} owed, {@link PacketNumbers}, and the
 * {@link PacketAssembler} that writes its packets. Everything here runs on the agent thread with the time handed in;
 * nothing reads a clock or touches a socket.
 */
final class ConnectionCore implements SchedulableFlow, DeadlineHeap.Entry
{
    /**
     * The one stream every connection carries.
     */
    static final int STREAM_ID = 0;

    /**
     * The outcome's detail of a stateless reset that came before the server sent anything after its handshake answer.
     */
    static final String UNCONFIRMED_RESET_DETAIL = "before the server sent anything after the handshake: it gave up " +
        "waiting for this client's confirmation (its handshake timeout; an overloaded machine can slow a client that " +
        "much) or restarted";

    private final long localId;
    private InetSocketAddress remoteAddress;
    private final ConnectionHandle handle;
    private final PathParameters path;
    private final SendLog sendLog;
    private final LossRecovery lossRecovery;
    private final ControllerSource controllerSource;
    private final PathValidation pathValidation;
    private final ReceivedPacketTracker ackTracker;
    private final AckFrequencyRequests ackFrequency;
    private final SecurityCounters securityCounters;
    private final DeliveryReceipts receipts;
    private final ConnectionPublisher publisher;
    private final ConnectionHandshake handshake;
    private final ConnectionLifecycle lifecycle;
    private final Liveness liveness;
    private final ControlFrames controlFrames;
    private final PacketAssembler assembler;
    private final FrameReceiver frames;
    private final SendReadiness readiness;
    private final ConnectionTimers timers;
    private final PacketGuard plaintextGuard;
    private final AeadGuard.Buffers aeadBuffers;
    private AeadGuard aeadGuard;

    private long remoteId;
    private long previousKeysDiscardNs = Long.MAX_VALUE;
    private long keyUpdatePermittedNs = Long.MAX_VALUE;
    private boolean isSendStalled;
    private Throwable deferredFailure;
    private boolean hasSentSinceService;
    private boolean isCloseAssembled;

    // The endpoint's bookkeeping of this connection (ConnectionTable, ConnectionDeadlines): agent thread only.
    private int tableIndex = -1;
    private boolean isMarked;
    private long servedCycle = -1;
    private int heapIndex = DeadlineHeap.NOT_QUEUED;

    ConnectionCore(
        final long localId,
        final boolean isClient,
        final ConnectionHandle handle,
        final PathParameters path,
        final LossRecovery lossRecovery,
        final ControllerSource controllerSource,
        final ReceivedPacketTracker ackTracker,
        final SeededRandom random,
        final EndpointCounters endpointCounters,
        final SecurityCounters securityCounters,
        final PacelinkContext settings,
        final SecureSession secureSession,
        final PacketGuard plaintextGuard,
        final AeadGuard.Buffers aeadBuffers,
        final ServerTokens serverTokens,
        final long nowNs)
    {
        this.localId = localId;
        this.remoteAddress = handle.remoteAddress();
        this.handle = handle;
        this.path = path;
        this.sendLog = handle.sendLog();
        this.lossRecovery = lossRecovery;
        this.controllerSource = controllerSource;
        this.ackTracker = ackTracker;
        this.securityCounters = securityCounters;
        this.plaintextGuard = plaintextGuard;
        this.aeadBuffers = aeadBuffers;
        final PacketNumbers packetNumbers = new PacketNumbers(random, settings.packetNumberSkipping());
        this.receipts = new DeliveryReceipts(handle.receiveLog(), settings.receiveBufferBytes());
        this.publisher =
            new ConnectionPublisher(handle.counters(), sendLog, handle.receiveLog(), receipts, lossRecovery);
        this.pathValidation = new PathValidation(random, settings.initialRttNs());
        this.handshake = new ConnectionHandshake(
            isClient, secureSession, securityCounters, settings.initialRttNs(), settings.handshakeTimeoutNs(), nowNs);
        this.lifecycle = new ConnectionLifecycle(handle, receipts, lossRecovery, publisher, settings.lingerTimeoutNs(),
            isClient ? ConnectionState.CONNECTING : ConnectionState.CONNECTED);
        this.liveness = new Liveness(settings.idleTimeoutNs(), nowNs);
        this.controlFrames = new ControlFrames(handle.receiveLog(), receipts, settings.receiveBufferBytes());
        this.ackFrequency = new AckFrequencyRequests(settings.ackFrequency());
        this.assembler = new PacketAssembler(localId, handle, path, settings.maxAckDelayNs(), packetNumbers,
            handshake, lifecycle, liveness, controlFrames, receipts, ackTracker, lossRecovery, ackFrequency);
        this.frames = new FrameReceiver(handle, ackTracker, lossRecovery, receipts, lifecycle, controlFrames, liveness,
            publisher, endpointCounters, securityCounters,
            new ProgressWatch(settings.limits().maxPacketsWithoutProgress(), nowNs), ackFrequency, serverTokens);
        this.readiness = new SendReadiness(
            lifecycle, ackTracker, lossRecovery, controlFrames, receipts, handle);
        this.timers = new ConnectionTimers(handle, handshake, lifecycle, liveness, controlFrames, receipts, ackTracker,
            lossRecovery, frames, publisher, securityCounters, settings.limits().maxUnacknowledgedPtos());
    }

    long localId()
    {
        return localId;
    }

    /**
     * @return the connection's loss recovery, for tests of this package that look at its rate sampler.
     */
    LossRecovery lossRecovery()
    {
        return lossRecovery;
    }

    long remoteId()
    {
        return remoteId;
    }

    boolean isClient()
    {
        return handshake.isClient();
    }

    /**
     * @return what seals this connection's ONE_RTT and CLOSE packets and opens the peer's: its AEAD once the secure
     * handshake completed on this side, the endpoint's CRC32C before and in plaintext mode.
     */
    PacketGuard guard()
    {
        if (null == aeadGuard)
        {
            final PacketProtection protection = protection();
            if (null == protection)
            {
                return plaintextGuard;
            }
            aeadGuard = new AeadGuard(protection, aeadBuffers, securityCounters.keyUpdates());
        }
        return aeadGuard;
    }

    /**
     * @return the secure mode's packet protection once this side's handshake completed; null in plaintext mode and
     * before.
     */
    PacketProtection protection()
    {
        final SecureSession secureSession = handshake.secureSession();
        return null == secureSession ? null : secureSession.protection();
    }

    InetSocketAddress remoteAddress()
    {
        return remoteAddress;
    }

    ConnectionHandle handle()
    {
        return handle;
    }

    ConnectionState state()
    {
        return lifecycle.state();
    }

    boolean isClosed()
    {
        return lifecycle.isClosed();
    }

    /**
     * @return the maximum datagram size of the connection's path: the size of the packets it builds.
     */
    int maxDatagramSizeBytes()
    {
        return path.maxDatagramSizeBytes();
    }

    /**
     * @return the controller, for traces.
     */
    CongestionController controller()
    {
        return lossRecovery.controller();
    }

    // ---------------------------------------------------------------- handshake

    /**
     * @return true on the client, and on the server once the client confirmed the handshake.
     */
    boolean isHandshakeConfirmed()
    {
        return handshake.isConfirmed();
    }

    /**
     * A server handshake never confirmed gives its slot to a newer one (the handshake budget): it ends silently, as
     * at its handshake timeout, never having been the application's.
     */
    void evictHandshake()
    {
        lifecycle.endNow(CloseReason.HANDSHAKE_TIMEOUT, "dropped for a newer handshake: the handshake budget was full");
    }

    /**
     * The server saw the client's first packet after the handshake.
     */
    void confirmHandshake()
    {
        handshake.confirm();
    }

    /**
     * The server took its confirmed client: give it a token for its later connections (a NEW_TOKEN frame in the next
     * ack-eliciting packet).
     *
     * @param token       holding the token from offset 0.
     * @param tokenLength its length.
     */
    void giveNewToken(final UnsafeBuffer token, final int tokenLength)
    {
        controlFrames.giveNewToken(token, tokenLength);
    }

    /**
     * A client connection to a server that gave this endpoint a token: its hellos carry it, until a RETRY brings
     * another.
     *
     * @param token the token.
     */
    void helloWithNewToken(final byte[] token)
    {
        handshake.helloWithToken(token);
    }

    /**
     * Apply the peer's handshake parameters (both sides): negotiate the datagram size and idle timeout, take the
     * peer's flow-control credit and ACK delay, and whether it follows ACK_FREQUENCY frames.
     *
     * @param peerMinAckDelayUs the min ACK delay of the peer's MIN_ACK_DELAY frame, negative if it sent none.
     */
    void applyPeerHandshake(final HandshakeFrameFlyweight peer, final int peerMinAckDelayUs, final long nowNs)
    {
        ackFrequency.onPeerHandshake(peer.maxAckDelayUs() * 1_000L, peerMinAckDelayUs * 1_000L);
        remoteId = peer.sourceConnectionId();
        final int negotiatedDatagramSizeBytes = Math.min(path.maxDatagramSizeBytes(), peer.maxDatagramSize());
        if (negotiatedDatagramSizeBytes != path.maxDatagramSizeBytes())
        {
            lossRecovery.onMtuChanged(negotiatedDatagramSizeBytes);
        }
        liveness.negotiate(peer.idleTimeoutMs() * 1_000_000L);
        lossRecovery.peerMaxAckDelayNs(peer.maxAckDelayUs() * 1_000L);
        sendLog.connectionSendLimit(peer.initialMaxData());
        sendLog.streamSendLimit(peer.initialMaxStreamData());
        liveness.onHeard(nowNs);
    }

    /**
     * The client got the server's answer: if genuine and acceptable, the connection is established.
     */
    void onHandshakeResponse(
        final HandshakeFrameFlyweight answer,
        final NoiseFrameFlyweight noise,
        final int peerMinAckDelayUs,
        final long nowNs)
    {
        if (!lifecycle.isConnecting())
        {
            return; // a retransmitted answer
        }
        final int verdict = handshake.onAnswer(answer, noise, remoteAddress);
        if (ConnectionHandshake.ANSWER_DISTRUSTED == verdict)
        {
            lifecycle.endNow(CloseReason.AUTHENTICATION_FAILED, handshake.failureDetail());
        }
        else if (ConnectionHandshake.ANSWER_UNACCEPTABLE == verdict)
        {
            lifecycle.endNow(CloseReason.PROTOCOL_VIOLATION, "the server's handshake asks for an unsupported " +
                "version or a datagram size below " + PacelinkContext.MIN_DATAGRAM_SIZE_BYTES + " bytes");
        }
        else if (ConnectionHandshake.ANSWER_ACCEPTED == verdict)
        {
            handshake.rememberPeerResetToken(answer);
            applyPeerHandshake(answer, peerMinAckDelayUs, nowNs);
            lifecycle.connected();
            handshake.onAnswerAccepted(nowNs);
        }
    }

    /**
     * The server answered the hello with a RETRY: send the hello again at once, echoing its token; a server key it
     * carries that is not the one this client pinned fails the connect at once
     * ({@link ConnectionHandshake#followRetry}).
     *
     * @param buffer      holding the token.
     * @param tokenOffset of the first token byte.
     * @param tokenLength number of token bytes, at most {@link RetryPacketFlyweight#MAX_TOKEN_LENGTH}.
     * @param serverKey   the server's static public key the RETRY carried, or null.
     * @param nowNs       the current time.
     */
    void onRetry(
        final DirectBuffer buffer,
        final int tokenOffset,
        final int tokenLength,
        final byte[] serverKey,
        final long nowNs)
    {
        if (lifecycle.isConnecting() && !handshake.followRetry(buffer, tokenOffset, tokenLength, serverKey, nowNs))
        {
            lifecycle.endNow(CloseReason.AUTHENTICATION_FAILED, handshake.failureDetail());
        }
    }

    /**
     * The server refused this client's handshake ({@link ConnectionLifecycle#onRefused}).
     *
     * @param errorCode the CLOSE frame's code.
     * @param detail    the server's reason, e.g. "the server has its maximum of connections".
     */
    void onRejected(final int errorCode, final String detail)
    {
        if (lifecycle.isConnecting())
        {
            lifecycle.onRefused(errorCode, detail);
        }
    }

    /**
     * A server connection's handshake answers give its client this stateless reset token (RFC 9000 section 10.3).
     */
    void answerWithResetToken(final UnsafeBuffer token)
    {
        handshake.answerWithResetToken(token);
    }

    /**
     * @return true if this client connection's server gave a stateless reset token in its handshake answer.
     */
    boolean hasPeerResetToken()
    {
        return handshake.hasPeerResetToken();
    }

    /**
     * @param head the first 8 bytes of a datagram's last 16, little-endian.
     * @param tail the last 8.
     * @return true if they are the stateless reset token the server gave (compared in constant time: no early exit
     * tells a forger how many bytes it got right).
     */
    boolean isPeerResetToken(final long head, final long tail)
    {
        return handshake.hasPeerResetToken() &&
            0 == ((head ^ handshake.peerResetTokenHead()) | (tail ^ handshake.peerResetTokenTail()));
    }

    /**
     * @return the first 8 bytes of the server's stateless reset token: the key {@link PeerResetTokens} finds this
     * connection by.
     */
    long peerResetTokenHead()
    {
        return handshake.peerResetTokenHead();
    }

    /**
     * The server sent a stateless reset: it no longer knows this connection. It ends at once, sending nothing (the
     * peer has no state to close). A reset before the server sent anything after its handshake answer most likely
     * means the server gave up waiting for this client's confirmation (its handshake timeout, from its side of the
     * handshake) — on a loaded machine a client can be that slow — so the outcome says so rather than blaming a
     * restart.
     */
    void onStatelessReset()
    {
        if (!lifecycle.isClosed())
        {
            lifecycle.endNow(CloseReason.PEER_RESET, handshake.hasHeardFromPeerSinceHandshake() ? "" :
                UNCONFIRMED_RESET_DETAIL);
        }
    }

    /**
     * The server got a retransmitted client handshake: its answer was lost, send it again — unless it sent it within
     * the last quarter of its initial RTT ({@link ConnectionHandshake#onHelloRetransmitted}).
     */
    void onHandshakeRetransmission(final long nowNs)
    {
        handshake.onHelloRetransmitted(nowNs);
        liveness.onHeard(nowNs);
    }

    /**
     * @return true if a handshake packet (client request or server answer) should be sent now.
     */
    boolean isHandshakeDue(final long nowNs)
    {
        return handshake.isDue(nowNs, lifecycle.isConnecting());
    }

    /**
     * The operating system reported the peer's port unreachable (ICMP). A handshake ends at once: there is nothing
     * to lose and nobody to wait for. An established connection only suspects it and probes with a PING: a live
     * peer answers, which clears the suspicion, while a second report after some PTOs without a word from the peer
     * confirms it ({@link Liveness}).
     */
    void onPeerUnreachable(final long nowNs)
    {
        if (lifecycle.isConnecting())
        {
            lifecycle.endNow(CloseReason.PEER_UNREACHABLE, "");
            return;
        }
        if (lifecycle.isClosed() || lifecycle.isLingering())
        {
            return;
        }
        if (liveness.onUnreachableReport(nowNs))
        {
            controlFrames.requestPing();
        }
    }

    // ---------------------------------------------------------------- receive

    /**
     * @return how long this side may hold an ACK now: its announced max ACK delay, or the one the peer asked for
     * (the agent may hold this connection's arrivals as long, {@code WakeCoalescing}).
     */
    long ackDelayNs()
    {
        return ackTracker.maxAckDelayNs();
    }

    /**
     * @return true if the packet is a duplicate (already received): the caller drops it.
     */
    boolean isDuplicate(final long packetNumber)
    {
        return ackTracker.isDuplicate(packetNumber);
    }

    /**
     * @return the largest packet number received from the peer, -1 before the first.
     */
    long largestReceivedPacketNumber()
    {
        return ackTracker.largestReceived();
    }

    /**
     * @return true if the packet number lies so far beyond the largest received that no sender could have sent it:
     * the caller drops it unacknowledged, since acknowledging it would make this side look like an optimistic ACKer.
     */
    boolean isBeyondPacketNumberWindow(final long packetNumber)
    {
        return ackTracker.isBeyondWindow(packetNumber);
    }

    /**
     * Apply a validated ONE_RTT or CLOSE packet ({@link FrameReceiver#onPacket}).
     */
    void onPacket(
        final PacketDecoder decoder,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final int ecnCodepoint,
        final long arrivalNs,
        final long nowNs)
    {
        handshake.onPeerPacket();
        frames.onPacket(decoder, buffer, offset, length, ecnCodepoint, arrivalNs, nowNs);
        if (frames.hasPathResponse())
        {
            onPathResponse(frames.pathResponseData());
        }
        if (null != aeadGuard)
        {
            onKeyPhase(aeadGuard.protection(), nowNs);
        }
    }

    /**
     * The key-update handshake's part that needs time and acknowledgements (RFC 9001 section 6.5): the next update
     * waits for an acknowledgement of a packet of the current phase and three probe timeouts more (the peer keeps its
     * previous key that long for late packets: an update sooner would leave them unreadable), and the previous
     * phase's receiving key is discarded three probe timeouts after the peer's packets moved to the new one.
     */
    private void onKeyPhase(final PacketProtection protection, final long nowNs)
    {
        if (protection.onLargestAcknowledged(lossRecovery.largestAckedPacketNumber()))
        {
            keyUpdatePermittedNs = nowNs + 3 * lossRecovery.ptoPeriodNs();
        }
        if (protection.takeReceivePhaseChange())
        {
            previousKeysDiscardNs = nowNs + 3 * lossRecovery.ptoPeriodNs();
        }
    }

    // ---------------------------------------------------------------- a parked ACK frame (FrameReceiver#onAck)

    /**
     * Before a service fires this connection's timers: an ACK frame parked by this duty cycle, or by an earlier one
     * when the service is not the one that sends the application's answer, is applied now — as it is whenever a
     * timer of this connection is due or it is closing, so no timer fires on what the frame already answered.
     *
     * @param isAnswerService true in the service that sends what the application offered between two duty cycles.
     * @return true if a frame was applied.
     */
    boolean applyParkedAckBeforeTimers(final boolean isAnswerService, final long nowNs)
    {
        final int parked = frames.parkedAck();
        if (FrameReceiver.NO_PARKED_ACK == parked)
        {
            return false;
        }
        if (FrameReceiver.ACK_PARKED == parked && !isAnswerService || lossRecovery.timerDeadlineNs() <= nowNs ||
            lifecycle.isClosing())
        {
            frames.applyParkedAck();
            return true;
        }
        return false;
    }

    /**
     * Apply the ACK frame an earlier duty cycle parked, if any: the application's answer has been sent, or the cycle
     * after the one that parked it has begun.
     *
     * @return true if a frame was applied.
     */
    boolean applyEarlierParkedAck()
    {
        if (FrameReceiver.ACK_PARKED == frames.parkedAck())
        {
            frames.applyParkedAck();
            return true;
        }
        return false;
    }

    /**
     * Whether the duty cycle that just received a request for this connection may leave its service to the answer's
     * send (the next cycle's, which comes at once): the request's ACK frame was parked this cycle (a packet with
     * application data while this side's own data is in flight: {@link FrameReceiver#onAck}), nothing of this
     * connection is due now — no timer, and no ACK that must go at once (RFC 9000 section 13.2.1: an out-of-order
     * packet, a CE mark, an IMMEDIATE_ACK, the second ack-eliciting packet; the ACK deadline says so) — and it is not
     * closing. What that service would do then — fire no timer, find nothing to send — the answer's service does
     * before the answer leaves.
     *
     * @return true if the service may wait for the next duty cycle.
     */
    boolean leavesServiceToAnswer(final long nowNs)
    {
        return FrameReceiver.ACK_PARKED_THIS_CYCLE == frames.parkedAck() && null == deferredFailure &&
            !lifecycle.isClosing() && nextDeadlineNs() > nowNs;
    }

    /**
     * The duty cycle ends ({@link FrameReceiver#ageParkedAck}).
     *
     * @return true if this cycle parked an ACK frame that now waits for the next.
     */
    boolean ageParkedAck()
    {
        return FrameReceiver.ACK_PARKED_THIS_CYCLE == frames.parkedAck() && frames.ageParkedAck();
    }

    // ---------------------------------------------------------------- migration (RFC 9000 section 9)

    /**
     * @return true if a packet from another address than the peer's may start path validation toward it: only a
     * server's confirmed connection follows its client (RFC 9000 section 9: clients migrate, and a NAT in front of a
     * client rebinds), and only while open.
     */
    boolean acceptsMigration()
    {
        return !handshake.isClient() && handshake.isConfirmed() && !lifecycle.isClosing();
    }

    /**
     * An authenticated packet arrived from {@code source}, not the peer's address: validate that address
     * ({@link PathValidation}); the packet itself is acted on as usual, everything this side sends still goes to the
     * validated address.
     */
    void onPacketFromNewAddress(final InetSocketAddress source, final int lengthBytes, final long nowNs)
    {
        pathValidation.onPacketFrom(source, lengthBytes, lossRecovery.ptoPeriodNs(), nowNs);
    }

    /**
     * @return the size of the PATH_CHALLENGE datagram due now toward the address being validated, or 0.
     */
    int pathChallengeSizeDue(final int smallestBytes, final long nowNs)
    {
        return lossRecovery.canSend() && !lifecycle.isClosing() ?
            pathValidation.challengeSizeDue(nowNs, smallestBytes) : 0;
    }

    /**
     * @return the address being validated, or null.
     */
    InetSocketAddress pathCandidate()
    {
        return pathValidation.candidate();
    }

    /**
     * Write the PATH_CHALLENGE packet that is due ({@link PacketAssembler#assemblePathChallenge}).
     */
    int assemblePathChallenge(
        final PacketWriter writer, final int sizeBytes, final int trailerBytes, final long nowNs,
        final SentPacketDescriptor sent)
    {
        return assembler.assemblePathChallenge(
            writer, remoteId, pathValidation.challengeData(), sizeBytes, trailerBytes, nowNs, sent);
    }

    /**
     * The PATH_CHALLENGE packet left, sealed: tracked as an ACK-only packet, charged to the candidate's budget.
     */
    void onPathChallengeSent(final SentPacketDescriptor sent)
    {
        lossRecovery.onPacketSent(sent);
        pathValidation.onChallengeSent(sent.sizeBytes(), lossRecovery.ptoPeriodNs(), sent.sentTimeNs());
        hasSentSinceService = true;
    }

    /**
     * A PATH_RESPONSE arrived: if it echoes the challenge toward the candidate, the peer receives there, and the
     * connection moves. A new port alone keeps the controller and the RTT estimate, as RFC 9000 section 9.4 allows:
     * a NAT that rebinds keeps the path and only renames its end. A new address starts both over (section 9.4).
     */
    void onPathResponse(final long pathData)
    {
        final InetSocketAddress candidate = pathValidation.candidate();
        if (!pathValidation.onResponse(pathData))
        {
            return;
        }
        final boolean isPortOnly = candidate.getAddress().equals(remoteAddress.getAddress());
        remoteAddress = candidate;
        handle.remoteAddress(candidate);
        if (!isPortOnly)
        {
            lossRecovery.onPathChanged(controllerSource.newController());
        }
        securityCounters.migrations().incrementRelease();
    }

    // ---------------------------------------------------------------- timers

    /**
     * Fire due timers and refresh flow-control credit ({@link ConnectionTimers#onDutyCycle}). Called once per duty
     * cycle; a connection stalled in the last one may be released again.
     *
     * @return work done.
     */
    int onDutyCycle(final long nowNs)
    {
        isSendStalled = false;
        hasSentSinceService = false;
        if (nowNs >= previousKeysDiscardNs)
        {
            previousKeysDiscardNs = Long.MAX_VALUE;
            aeadGuard.protection().discardPreviousReceiveKeys();
        }
        if (nowNs >= keyUpdatePermittedNs)
        {
            keyUpdatePermittedNs = Long.MAX_VALUE;
            aeadGuard.protection().permitKeyUpdate();
        }
        if (pathValidation.isAbandoned(nowNs))
        {
            // No answer from the new address in time: the connection stays on its old path (RFC 9000 section 8.2.4).
            securityCounters.pathValidationsFailed().incrementRelease();
        }
        return timers.onDutyCycle(nowNs);
    }

    /**
     * Whether the next duty cycle must serve this connection although nothing arrives for it and no timer of its is
     * due: it has something to send (the scheduler needs it activated again), it stalled, or it sent since it was
     * served (its timers check once more what it has left, e.g. whether it became application-limited).
     *
     * @param sendState what {@link #countSendLimits} answered in this service.
     */
    boolean isServiceNeeded(final int sendState)
    {
        return isSendStalled || hasSentSinceService ||
            0 != (sendState & (SchedulableFlow.ACK_ELICITING | SchedulableFlow.ACK_DUE));
    }

    /**
     * @return the earliest time this connection needs the agent ({@link ConnectionTimers#nextDeadlineNs}).
     */
    long nextDeadlineNs()
    {
        final long deadlineNs = timers.nextDeadlineNs();
        return lifecycle.isClosed() ? deadlineNs :
            Math.min(Math.min(deadlineNs, pathValidation.nextDeadlineNs()), Math.min(previousKeysDiscardNs,
            keyUpdatePermittedNs));
    }

    // ---------------------------------------------------------------- close

    /**
     * The server's application does not take this connection (or the endpoint is closing): close it with a CLOSE
     * (REJECTED) that tells the client why.
     *
     * @param reason the refusal's reason phrase.
     */
    void refuse(final DirectBuffer reason)
    {
        lifecycle.closeReasonText(reason);
        abortWithClose(ConnectionLifecycle.REJECTED_ERROR, CloseReason.REJECTED);
    }

    /**
     * Close immediately with a CLOSE frame (errors, aborts, endpoint shutdown); a connection whose outcome is already
     * decided keeps it.
     */
    void abortWithClose(final int errorCode, final CloseReason reason)
    {
        lifecycle.abortWithClose(errorCode, reason);
    }

    /**
     * This endpoint's own code failed for the connection ({@link ConnectionFailures}): end it with an internal error
     * and a CLOSE to the peer.
     *
     * @param detail what failed, for this side's outcome.
     * @return false if it was already closing (its outcome stays; it should go at once).
     */
    boolean failInternally(final String detail)
    {
        return lifecycle.failInternally(detail);
    }

    /**
     * The connection is gone ({@link ConnectionLifecycle#finish}).
     */
    void finishClose()
    {
        lifecycle.finish();
    }

    /**
     * The connection is gone: credit its sent-packet records to the memory budget (the endpoint credits its stream
     * buffers through the handle).
     */
    void releaseMemory()
    {
        frames.dropParkedAck();
        lossRecovery.releaseMemory();
    }

    // ---------------------------------------------------------------- send

    public long flowId()
    {
        return localId;
    }

    public int sendable(final long nowNs)
    {
        try
        {
            // A connection that could not make progress is not released again before the next duty cycle.
            return isSendStalled ? 0 :
                readiness.state(nowNs) & (SchedulableFlow.ACK_ELICITING | SchedulableFlow.ACK_DUE);
        }
        catch (final RuntimeException ex)
        {
            // Thrown inside the scheduler's walk, where the endpoint cannot end the connection (removing a flow would
            // change the lists being walked): kept for the endpoint's next service of it, which this asks for.
            deferredFailure = ex;
            isSendStalled = true;
            handle.signal();
            return 0;
        }
    }

    /**
     * Whether the answer its application offered may leave by the lone answer's shortcut (the endpoint's
     * {@code sendLoneAnswer}: one packet built, sealed and sent before the scheduler is told, without the send phase's
     * handshake and path checks): the connection has an ack-eliciting packet to send within its window, and nothing
     * that makes the general send phase do anything else first or instead — no handshake packet due, no address
     * being validated (a PATH_CHALLENGE), no CLOSE pending, no range to retransmit, no probe owed — and it runs in
     * plaintext (a sealed packet goes the general way). No ACK_FREQUENCY frame is pending either: writing one changes
     * the peer's max ACK delay, which the controller's context shows, and the shortcut reads the controller's values
     * after the packet is built. Anything else it may carry (the ACK frame its request needs, credit, a receipt) the
     * same assembly writes as the general path would.
     *
     * @param sendable what {@link #sendable} answered in this service.
     * @param nowNs    the service's time.
     * @return true if its packet may take the shortcut; the scheduler must agree ({@code releasesAloneNow}).
     */
    boolean isLoneAnswer(final int sendable, final long nowNs)
    {
        return 0 != (sendable & SchedulableFlow.ACK_ELICITING) && null == handshake.secureSession() &&
            !lifecycle.isCloseFramePending() && 0 == lossRecovery.probesToSend() && !sendLog.hasRetransmission() &&
            null == pathValidation.candidate() && !ackFrequency.isPending() &&
            !handshake.isDue(nowNs, lifecycle.isConnecting());
    }

    /**
     * @return an exception {@link #sendable} caught, for the endpoint to end the connection with
     * ({@link ConnectionFailures}); null if none. Cleared by the call.
     */
    Throwable takeDeferredFailure()
    {
        final Throwable failure = deferredFailure;
        if (null != failure)
        {
            deferredFailure = null; // no write on the common path: this is asked at every service
        }
        return failure;
    }

    /**
     * Once per duty cycle, after sending: count what kept this connection from sending what it has
     * ({@link SendReadiness#countLimits}).
     *
     * @return the send state counted from, for {@link #isServiceNeeded}.
     */
    int countSendLimits(final long nowNs)
    {
        return readiness.countLimits(nowNs);
    }

    /**
     * Once per service, after its send phase: publish what the applications did ({@link
     * ConnectionPublisher#publishApplication}). Published after the send rather than before it, with the timers, so
     * these counters are not on the path from an application's answer to its packet; counters are read by the
     * statistics only, never by the protocol.
     */
    void publishApplication()
    {
        publisher.publishApplication();
    }

    /**
     * Write the handshake packet that is due ({@link #isHandshakeDue}); handshake packets always carry a CRC32C.
     *
     * @param writer wrapped around where the packet goes, with room for it without its trailer.
     * @return the packet's length without the trailer.
     */
    int assembleHandshake(final PacketWriter writer, final long nowNs)
    {
        return assembler.assembleHandshake(writer, remoteId, controlFrames.receiveWindowBytes(), nowNs);
    }

    /**
     * Write the packet this connection was released for (late binding: only when it may leave): its CLOSE if one is
     * to be sent, else a ONE_RTT packet.
     *
     * @param writer   wrapped around where the packet goes ({@link #guard()}), with room for it without its trailer.
     * @param ackOnly  true if the scheduler released the connection only for an ACK it owes.
     * @param nowNs    the send time.
     * @param sent     filled with the packet's description, but for its size.
     * @param gathered where a ONE_RTT packet's DATA payload is left in place instead of copied, if it can be
     *                 ({@link PacketAssembler#assembleOneRtt}); null to copy it.
     * @return the packet's length without the trailer.
     */
    int assemble(
        final PacketWriter writer,
        final boolean ackOnly,
        final long nowNs,
        final SentPacketDescriptor sent,
        final GatheredPayload gathered)
    {
        isCloseAssembled = lifecycle.isCloseFramePending();
        if (isCloseAssembled)
        {
            // Not tracked by loss recovery, so never counted by ECN validation: sent not-ECT.
            sent.ecnCodepoint(EcnCodepoint.NOT_ECT);
            return assembler.assembleClose(writer, remoteId, nowNs);
        }
        return assembler.assembleOneRtt(writer, remoteId, ackOnly, readiness.isWithinWindow(), nowNs, sent, gathered);
    }

    /**
     * Record the packet the last {@link #assemble} wrote, now sealed: loss recovery tracks it (a CLOSE is not
     * tracked), the keep-alive restarts, and a release for ack-eliciting work that built none stalls the connection
     * until the next duty cycle.
     *
     * @param sent    the packet, with its size (trailer included).
     * @param ackOnly true if it was released only for an ACK.
     * @return true if the packet is ack-eliciting.
     */
    /**
     * Right after a packet was built: whether the connection's stream has more to send — bytes offered and never
     * sent, or a range to send again — so another packet of it will follow in this send phase.
     *
     * @return true if stream data is left to send.
     */
    boolean hasStreamDataLeft()
    {
        return sendLog.hasUnsentData() || sendLog.hasRetransmission();
    }

    boolean onPacketSent(final SentPacketDescriptor sent, final boolean ackOnly)
    {
        hasSentSinceService = true;
        if (isCloseAssembled)
        {
            return false;
        }
        lossRecovery.onPacketSent(sent);
        if (sent.isAckEliciting())
        {
            liveness.onAckElicitingSent(sent.sentTimeNs());
        }
        else if (!ackOnly)
        {
            // Released for ack-eliciting work and built none: whatever disagreement between what this connection
            // said it could send and what it could put in a packet, it must not take the duty cycle's whole send
            // budget for packets that carry nothing (the spin a tiny negotiated datagram size once caused).
            isSendStalled = true;
            securityCounters.stalledSends().incrementRelease();
        }
        publisher.publishSent(sent.sizeBytes());
        return sent.isAckEliciting();
    }

    // ---------------------------------------------------------------- the endpoint's bookkeeping

    int tableIndex()
    {
        return tableIndex;
    }

    void tableIndex(final int index)
    {
        tableIndex = index;
    }

    boolean isMarked()
    {
        return isMarked;
    }

    void isMarked(final boolean marked)
    {
        isMarked = marked;
    }

    long servedCycle()
    {
        return servedCycle;
    }

    void servedCycle(final long cycle)
    {
        servedCycle = cycle;
    }

    public int heapIndex()
    {
        return heapIndex;
    }

    public void heapIndex(final int index)
    {
        heapIndex = index;
    }

    public String toString()
    {
        return "ConnectionCore{local=" + Long.toHexString(localId) + ", remote=" + Long.toHexString(remoteId) +
            ", " + remoteAddress + ", state=" + lifecycle.state() + "}";
    }
}
