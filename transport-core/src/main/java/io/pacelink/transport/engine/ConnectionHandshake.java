package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.secure.SecureSession;
import io.pacelink.transport.secure.StatelessResetTokens;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.wire.FrameHeaderFlyweight;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.NoiseFrameFlyweight;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;

/**
 * One connection's handshake, both sides (docs/wire-format.md, "Handshake"): when the client sends its hello again
 * (backing off from the initial RTT) and with which RETRY token, when the server sends its answer again, whether an
 * answer is genuine and acceptable, and the confirmation — the client's first ONE_RTT packet from the address its
 * hello came from, which alone hands a server connection to its application (RFC 9000 section 8.1). The packets
 * themselves are written by the {@link PacketAssembler}; the connection applies the verdicts.
 */
final class ConnectionHandshake
{
    /**
     * {@link #onAnswer}: the answer is genuine and acceptable; the connection is established.
     */
    static final int ANSWER_ACCEPTED = 0;

    /**
     * {@link #onAnswer}: forged or tampered (secure mode): ignored, so the genuine one can still complete it.
     */
    static final int ANSWER_FORGED = 1;

    /**
     * {@link #onAnswer}: the server asks for an unsupported version or a datagram size below the floor: the
     * connection must fail.
     */
    static final int ANSWER_UNACCEPTABLE = 2;

    /**
     * {@link #onAnswer}: genuine, from a server whose key the application does not trust
     * ({@link SecureSession#verifyServer}): the connection fails, {@link #failureDetail()} says why.
     */
    static final int ANSWER_DISTRUSTED = 3;

    /**
     * Handshake retries back off from the initial RTT, doubling (RFC 9002 section 6.2.1 applied to the handshake).
     */
    private static final int MAX_BACKOFF_SHIFT = 6;

    /**
     * RETRY packets a client follows in one connection attempt: one is the normal case, a second covers a token that
     * expired while the client retransmitted; more would let a forger keep the client busy (RFC 9000 section 17.2.5.2
     * allows a single one).
     */
    private static final int MAX_RETRIES = 2;

    /**
     * A server sends its answer again for a repeated hello at most once per this share of its initial RTT. A client
     * repeats its hello after twice its initial RTT at the soonest ({@link #onHelloSent}), so with the default initial
     * RTT on both sides every repetition of a lost answer's client is answered, and a client set to a shorter one
     * waits one of its backed-off retries more at worst; a flood repeating a hello thousands of times a second draws
     * no more than this rate per handshake rather than an answer each duty cycle (RFC 9002 section 6.2.3 lets a server
     * answer a repeated hello early, within its anti-amplification limit).
     */
    private static final int ANSWER_INTERVAL_SHARE_OF_INITIAL_RTT = 4;

    private final boolean isClient;
    private final SecureSession secureSession;
    private final SecurityCounters securityCounters;
    private final long initialRttNs;
    private final long timeoutNs;
    private final long startNs;
    private long retryDeadlineNs = Long.MAX_VALUE;
    private int attempts;
    private boolean isAnswerPending;
    private long answerSentNs;
    private UnsafeBuffer retryToken;
    private int retryTokenLength;
    private int retriesFollowed;
    private int answersNotAuthenticated;
    private String failureDetail;
    private long confirmationDueNs = Long.MAX_VALUE;
    private boolean isConfirmed;
    private boolean hasHeardFromPeerSinceHandshake;
    private boolean hasPeerResetToken;
    private long peerResetTokenHead;
    private long peerResetTokenTail;

    /**
     * @param isClient         true for the side that sends the hello.
     * @param secureSession    the secure mode's session, or null in plaintext.
     * @param securityCounters counts forged answers.
     * @param initialRttNs     the first retry's delay.
     * @param timeoutNs        how long the handshake may take.
     * @param nowNs            its start: a client's first hello is due now, a server's answer is due at once.
     */
    ConnectionHandshake(
        final boolean isClient,
        final SecureSession secureSession,
        final SecurityCounters securityCounters,
        final long initialRttNs,
        final long timeoutNs,
        final long nowNs)
    {
        this.isClient = isClient;
        this.secureSession = secureSession;
        this.securityCounters = securityCounters;
        this.initialRttNs = initialRttNs;
        this.timeoutNs = timeoutNs;
        this.startNs = nowNs;
        if (isClient)
        {
            retryDeadlineNs = nowNs;
            isConfirmed = true;
        }
        else
        {
            isAnswerPending = true;
            answerSentNs = nowNs - initialRttNs;
        }
    }

    /**
     * @param isConnecting true while the client waits for the answer.
     * @return true if a handshake packet (the client's hello or the server's answer) is to be sent now.
     */
    boolean isDue(final long nowNs, final boolean isConnecting)
    {
        return isAnswerPending || (isConnecting && nowNs >= retryDeadlineNs);
    }

    /**
     * @return true once the handshake took its whole timeout.
     */
    boolean isTimedOut(final long nowNs)
    {
        return nowNs - startNs >= timeoutNs;
    }

    /**
     * @return when the handshake times out ({@link #isTimedOut}).
     */
    long timeoutDeadlineNs()
    {
        return startNs + timeoutNs;
    }

    /**
     * @return how a client's handshake that took its whole timeout ended: answers came but none proved the server
     * holds the keys is an authentication failure, not a silent host.
     */
    CloseReason timeoutReason()
    {
        return answersNotAuthenticated > 0 ? CloseReason.AUTHENTICATION_FAILED : CloseReason.HANDSHAKE_TIMEOUT;
    }

    /**
     * @return the detail of {@link #timeoutReason()}.
     */
    String timeoutDetail()
    {
        return answersNotAuthenticated > 0 ? "none of the server's " + answersNotAuthenticated +
            " answers authenticated: they were forged, or changed on the way" : "";
    }

    /**
     * @return why the last RETRY or answer failed the connection ({@link #followRetry}, {@link #ANSWER_DISTRUSTED}).
     */
    String failureDetail()
    {
        return failureDetail;
    }

    /**
     * @return while connecting: the hello's next retry or the timeout, whichever comes first.
     */
    long connectingDeadlineNs()
    {
        return Math.min(retryDeadlineNs, startNs + timeoutNs);
    }

    // ---------------------------------------------------------------- client

    /**
     * The server answered the hello with a RETRY: the hello is sent again at once, echoing its token. A secure client
     * also reads the server key the RETRY may carry ({@link SecureSession#onRetry}): it learns the key it did not
     * know, or finds it is not the one it pinned — then the connect fails at once, naming both keys, rather than
     * waiting out the handshake timeout.
     *
     * @param buffer      holding the token.
     * @param tokenOffset of the first token byte.
     * @param tokenLength number of token bytes, at most {@link RetryPacketFlyweight#MAX_TOKEN_LENGTH}.
     * @param serverKey   the server's static public key the RETRY carried, or null.
     * @param nowNs       the current time.
     * @return false if the connection must fail ({@link #failureDetail()} says why); true if the RETRY was followed
     * or ignored.
     */
    boolean followRetry(
        final DirectBuffer buffer,
        final int tokenOffset,
        final int tokenLength,
        final byte[] serverKey,
        final long nowNs)
    {
        if (retriesFollowed >= MAX_RETRIES)
        {
            return true;
        }
        failureDetail = null == secureSession ? null : secureSession.onRetry(serverKey);
        if (null != failureDetail)
        {
            return false;
        }
        retriesFollowed++;
        if (null == retryToken)
        {
            retryToken = new UnsafeBuffer(new byte[RetryPacketFlyweight.MAX_TOKEN_LENGTH]);
        }
        retryToken.putBytes(0, buffer, tokenOffset, tokenLength);
        retryTokenLength = tokenLength;
        retryDeadlineNs = nowNs;
        return true;
    }

    /**
     * Put a token the server gave in a NEW_TOKEN frame on an earlier connection in this attempt's hellos (RFC 9000
     * section 8.1.3), so that a server under pressure takes the first hello without a RETRY. A RETRY replaces it (the
     * server did not take it: expired, spent, or from a server restarted with a new key); it counts as no RETRY
     * followed.
     *
     * @param token the token, 1 to {@link RetryPacketFlyweight#MAX_TOKEN_LENGTH} bytes.
     */
    void helloWithToken(final byte[] token)
    {
        retryToken = new UnsafeBuffer(new byte[RetryPacketFlyweight.MAX_TOKEN_LENGTH]);
        retryToken.putBytes(0, token);
        retryTokenLength = token.length;
    }

    /**
     * The hello left: the next one is due after the backed-off retry delay.
     */
    void onHelloSent(final long nowNs)
    {
        attempts++;
        final int shift = Math.min(attempts, MAX_BACKOFF_SHIFT);
        retryDeadlineNs = nowNs + (initialRttNs << shift);
    }

    /**
     * Judge the server's answer (counting a forged one or an unacceptable one).
     *
     * @param noise  the answer's NOISE frame, or null.
     * @param server the server's address, for the application's {@link io.pacelink.transport.ServerKeyVerifier}.
     * @return {@link #ANSWER_ACCEPTED}, {@link #ANSWER_FORGED}, {@link #ANSWER_DISTRUSTED} or
     * {@link #ANSWER_UNACCEPTABLE}.
     */
    int onAnswer(
        final HandshakeFrameFlyweight handshake, final NoiseFrameFlyweight noise, final InetSocketAddress server)
    {
        if (null != secureSession && !isGenuineAnswer(handshake, noise))
        {
            securityCounters.handshakeAuthFailures().incrementRelease();
            answersNotAuthenticated++;
            return ANSWER_FORGED;
        }
        failureDetail = null == secureSession ? null : secureSession.verifyServer(server);
        if (null != failureDetail)
        {
            // The server proved it holds a key this client learned from it, and the application does not trust that
            // key (a known-hosts file holds another). The server's half-open connection is never confirmed and ends
            // with its handshake timeout; nothing was sent toward it under the distrusted key.
            return ANSWER_DISTRUSTED;
        }
        if (PacketHeaderFlyweight.CURRENT_VERSION != handshake.version() ||
            handshake.maxDatagramSize() < PacelinkContext.MIN_DATAGRAM_SIZE_BYTES)
        {
            // A server that would have this client build packets below QUIC's floor is broken or hostile.
            securityCounters.handshakesRefusedParameters().incrementRelease();
            return ANSWER_UNACCEPTABLE;
        }
        return ANSWER_ACCEPTED;
    }

    /**
     * The answer was accepted: no more hellos. Confirm from this address and to the server's id, which only its answer
     * carried: the server hands the connection to its application only then (RFC 9000 section 8.1 address
     * validation, completed). Any packet confirms, so the first one the application's data goes out in does, as
     * QUIC's client Finished travels with its first 1-RTT data: a PING goes alone only if nothing else was sent by
     * the next duty cycle. A PING sent at once would be an extra packet in the initial window, ahead of the data,
     * and change the first flights' ACK clock (docs/cubic.md, item 4).
     */
    void onAnswerAccepted(final long nowNs)
    {
        retryDeadlineNs = Long.MAX_VALUE;
        confirmationDueNs = nowNs + 1;
    }

    private boolean isGenuineAnswer(final HandshakeFrameFlyweight handshake, final NoiseFrameFlyweight noise)
    {
        return null != noise &&
            secureSession.profile().wireId() == noise.profile() &&
            secureSession.aead().wireId() == noise.aead() &&
            secureSession.onSecondMessage(noise.message(), transcript(handshake.buffer(), handshake.offset(), null));
    }

    /**
     * A ONE_RTT packet is being sent: it confirms the handshake to the server, no PING needed.
     */
    void onOneRttPacket()
    {
        confirmationDueNs = Long.MAX_VALUE;
    }

    /**
     * @return true, once, if the application sent nothing by the confirmation's due time: a PING confirms instead.
     */
    boolean takeConfirmationDue(final long nowNs)
    {
        if (nowNs >= confirmationDueNs)
        {
            confirmationDueNs = Long.MAX_VALUE;
            return true;
        }
        return false;
    }

    /**
     * @return when a confirming PING is due, {@link Long#MAX_VALUE} if none is.
     */
    long confirmationDueNs()
    {
        return confirmationDueNs;
    }

    /**
     * The accepted answer's token field holds the server's stateless reset token for this connection (RFC 9000
     * section 10.3; authenticated with the answer in the secure mode): keep it. An answer without one (a server that
     * gives none) leaves the connection unable to recognise a reset, as before.
     */
    void rememberPeerResetToken(final HandshakeFrameFlyweight answer)
    {
        if (StatelessResetTokens.TOKEN_LENGTH == answer.tokenLength())
        {
            hasPeerResetToken = true;
            peerResetTokenHead = answer.buffer().getLong(answer.tokenOffset(), HandshakeFrameFlyweight.BYTE_ORDER);
            peerResetTokenTail = answer.buffer().getLong(
                answer.tokenOffset() + Long.BYTES, HandshakeFrameFlyweight.BYTE_ORDER);
        }
    }

    /**
     * @return true if the server gave a stateless reset token ({@link #rememberPeerResetToken}).
     */
    boolean hasPeerResetToken()
    {
        return hasPeerResetToken;
    }

    /**
     * @return the token's first 8 bytes, little-endian.
     */
    long peerResetTokenHead()
    {
        return peerResetTokenHead;
    }

    /**
     * @return the token's last 8 bytes, little-endian.
     */
    long peerResetTokenTail()
    {
        return peerResetTokenTail;
    }

    // ---------------------------------------------------------------- server

    /**
     * The server's answers carry the connection's stateless reset token in their token field.
     *
     * @param token {@link StatelessResetTokens#TOKEN_LENGTH} bytes from 0.
     */
    void answerWithResetToken(final UnsafeBuffer token)
    {
        retryToken = token;
        retryTokenLength = StatelessResetTokens.TOKEN_LENGTH;
    }

    /**
     * The client sent its hello again: the answer was lost, send it again — unless it left within the last
     * {@link #ANSWER_INTERVAL_SHARE_OF_INITIAL_RTT}th of the initial RTT.
     */
    void onHelloRetransmitted(final long nowNs)
    {
        if (nowNs - answerSentNs >= initialRttNs / ANSWER_INTERVAL_SHARE_OF_INITIAL_RTT)
        {
            isAnswerPending = true;
        }
    }

    /**
     * The answer left.
     */
    void onAnswerSent(final long nowNs)
    {
        isAnswerPending = false;
        answerSentNs = nowNs;
    }

    /**
     * @return true on the client, and on the server once the client sent a packet from the address its hello came
     * from with the connection id only the server's answer told it.
     */
    boolean isConfirmed()
    {
        return isConfirmed;
    }

    /**
     * The server saw the client's first packet after the handshake.
     */
    void confirm()
    {
        isConfirmed = true;
    }

    /**
     * A ONE_RTT or CLOSE packet of the peer was applied: it holds this connection beyond the handshake.
     */
    void onPeerPacket()
    {
        hasHeardFromPeerSinceHandshake = true;
    }

    /**
     * @return true once the peer sent a packet after the handshake. A client that has not heard from the server since
     * its answer cannot tell whether the server ever saw its confirmation: a server that gave up waiting for it (its
     * handshake timeout) no longer knows the connection, as a restarted one does not.
     */
    boolean hasHeardFromPeerSinceHandshake()
    {
        return hasHeardFromPeerSinceHandshake;
    }

    // ---------------------------------------------------------------- what the packets carry

    /**
     * @return true for the side that sends the hello.
     */
    boolean isClient()
    {
        return isClient;
    }

    /**
     * @return hellos sent so far: the number of the next handshake packet.
     */
    int attempts()
    {
        return attempts;
    }

    /**
     * @return the token this side's handshake packets carry: a client's the RETRY token it echoes (or a NEW_TOKEN
     * token from an earlier connection), a server's the connection's stateless reset token; or null.
     */
    DirectBuffer retryToken()
    {
        return retryToken;
    }

    /**
     * @return its length.
     */
    int retryTokenLength()
    {
        return retryTokenLength;
    }

    /**
     * @return the secure mode's session, or null in plaintext.
     */
    SecureSession secureSession()
    {
        return secureSession;
    }

    /**
     * The transcript of a HANDSHAKE frame's clear parameters (and the controller a client asks for), which the secure
     * handshake's messages carry (docs/wire-format.md, "Secure mode"). A server's answer covers its token field too:
     * the stateless reset token it gives the client, which a forger must not be able to replace.
     */
    static byte[] transcript(final DirectBuffer buffer, final int frameOffset, final String controllerName)
    {
        final boolean isAnswer = 0 != (buffer.getByte(frameOffset + FrameHeaderFlyweight.FRAME_FLAGS_OFFSET) &
            HandshakeFrameFlyweight.FLAG_RESPONSE);
        final int tokenLength = buffer.getInt(
            frameOffset + HandshakeFrameFlyweight.TOKEN_LENGTH_OFFSET, HandshakeFrameFlyweight.BYTE_ORDER);
        final int end = isAnswer ?
            HandshakeFrameFlyweight.TOKEN_OFFSET + tokenLength : HandshakeFrameFlyweight.TOKEN_LENGTH_OFFSET;
        return SecureSession.transcript(buffer, frameOffset + HandshakeFrameFlyweight.SOURCE_CONNECTION_ID_OFFSET,
            end - HandshakeFrameFlyweight.SOURCE_CONNECTION_ID_OFFSET, controllerName);
    }
}
