package io.pacelink.transport.secure;

import io.pacelink.transport.ServerKeyVerifier;
import io.pacelink.transport.keys.KeyFingerprint;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * One connection's side of the secure mode: its Noise handshake, then its {@link PacketProtection}.
 * <p>
 * Each handshake message's payload is the <em>transcript</em> of the sender's clear handshake parameters — a SHA-256
 * of its HANDSHAKE frame's fields from the source connection id to the token length, and of the controller name it
 * asked for — so the receiver, comparing it with what it read in the clear, knows nobody changed them on the way.
 * The prologue binds the handshake to this protocol and version.
 * <p>
 * A client keeps its first message and sends it again with each hello (a RETRY changes only the token, which the
 * transcript leaves out). Because a forged answer must not spoil the handshake for the genuine one, the client reads
 * each answer on a fresh handshake state made from the same ephemeral key. Handshakes only: allocates.
 * <p>
 * A client that pins no server key but has a {@link ServerKeyVerifier} (docs/security.md, "Secure with zero setup")
 * first sends a <em>key request</em>: an NK hello with an empty message and an all-zero MAC, which no server can
 * accept but every NK server answers with a RETRY carrying its static public key. The client takes that key
 * ({@link #onRetry}), sends the real NK message toward it, and once the server's answer proves it holds the private
 * key, asks the verifier ({@link #verifyServer}).
 */
public final class SecureSession
{
    /**
     * The Noise prologue: protocol and wire version.
     */
    static final byte[] PROLOGUE =
        ("pacelink wire " + PacketHeaderFlyweight.CURRENT_VERSION).getBytes(StandardCharsets.US_ASCII);

    /**
     * The message of a key request: empty.
     */
    private static final byte[] KEY_REQUEST = new byte[0];

    private final EndpointKeys keys;
    private final NoiseProfile profile;
    private final AeadAlgorithm aead;
    private final byte[] ephemeralKey;
    private NoiseHandshake preparedInitiator;
    private NoiseHandshake afterFirstMessage;
    private HelloMac helloMac;
    private byte[] serverKey;
    private NoiseHandshake responder;
    private byte[] transcript;
    private byte[] firstMessage;
    private byte[] secondMessage;
    private PacketProtection protection;

    private SecureSession(
        final EndpointKeys keys,
        final NoiseProfile profile,
        final AeadAlgorithm aead,
        final byte[] ephemeralKey,
        final HelloMac helloMac)
    {
        this.helloMac = helloMac;
        this.keys = keys;
        this.profile = profile;
        this.aead = aead;
        this.ephemeralKey = ephemeralKey;
    }

    /**
     * @param keys the endpoint's keys; {@link EndpointKeys#clientProfile()} must not be null.
     * @return a client's session.
     */
    public static SecureSession client(final EndpointKeys keys)
    {
        // A first message the endpoint prepared while it idled (EndpointKeys.prepareInitiator) has its own ephemeral
        // key; without one the key is drawn here, where a seeded endpoint has always drawn it.
        final NoiseHandshake prepared = keys.takePreparedInitiator();
        final SecureSession session = new SecureSession(
            keys, keys.clientProfile(), keys.aead(), null == prepared ? keys.newEphemeralKey() : null,
            keys.clientMac());
        session.serverKey = keys.pinnedServerKey();
        session.preparedInitiator = prepared;
        keys.onClientSession(session);
        return session;
    }

    /**
     * Read a client's first message (after its {@link HelloMac} and address were checked).
     *
     * @param keys             the server's keys.
     * @param profile          the hello's profile, one the server answers.
     * @param aead             the hello's AEAD.
     * @param message          the client's Noise message.
     * @param clientTranscript the transcript of the client's clear parameters.
     * @return the server's session, or null if the message failed (wrong key, tampered, small-order point).
     */
    public static SecureSession server(
        final EndpointKeys keys,
        final NoiseProfile profile,
        final AeadAlgorithm aead,
        final byte[] message,
        final byte[] clientTranscript)
    {
        // A key pair the endpoint made while it idled (EndpointKeys.prepareResponderKeyPair), else one drawn here,
        // where a seeded endpoint has always drawn it.
        final byte[][] prepared = keys.takeResponderKeyPair();
        final SecureSession session = new SecureSession(
            keys, profile, aead, null == prepared ? keys.newEphemeralKey() : prepared[0], keys.serverMac(profile));
        session.responder = NoiseHandshake.responder(
            profile, aead, PROLOGUE, keys.serverPrivateKey(), keys.serverPublicKey(), keys.preSharedKey(),
            session.ephemeralKey);
        if (null != prepared)
        {
            session.responder.ephemeralPublicKey(prepared[1]);
        }
        final byte[] payload = session.responder.readMessage(message);
        return null != payload && MessageDigest.isEqual(payload, clientTranscript) ? session : null;
    }

    /**
     * @return the profile.
     */
    public NoiseProfile profile()
    {
        return profile;
    }

    /**
     * @return the MAC this side writes on its handshake packets (the same key on both sides); null for a client that
     * has yet to learn the server's key.
     * @deprecated since 0.1.0: use {@link #writeMac}, which also writes a key request's MAC; this goes in the next
     * minor version.
     */
    @Deprecated
    public HelloMac helloMac()
    {
        return helloMac;
    }

    /**
     * Write the MAC of a handshake packet this side sends (the same key on both sides); a key request's is zeros.
     *
     * @param buffer    holding the packet.
     * @param offset    of the packet.
     * @param macOffset where the MAC goes; it covers {@code [offset, macOffset)}.
     */
    public void writeMac(final MutableDirectBuffer buffer, final int offset, final int macOffset)
    {
        if (null == helloMac)
        {
            buffer.setMemory(macOffset, HelloMac.MAC_LENGTH, (byte)0);
        }
        else
        {
            helloMac.write(buffer, offset, macOffset);
        }
    }

    /**
     * A client's RETRY arrived. For an NK client it may carry the server's static public key (unauthenticated, as
     * everything in a RETRY is): a client still without one takes it and can send its real first message; a client
     * that pinned a key, or took one from an earlier RETRY of this attempt, checks that it is the same, so a changed
     * server key fails the connect at once, with both fingerprints, before any Diffie-Hellman work on either side.
     *
     * @param presentedKey the RETRY's key, or null if it carried none.
     * @return null if the handshake goes on; else why it cannot (the connect fails as an authentication failure).
     */
    public String onRetry(final byte[] presentedKey)
    {
        if (NoiseProfile.NK != profile)
        {
            return null;
        }
        if (null == presentedKey)
        {
            return null != serverKey ? null : "the server did not present its key: it is an older Pacelink; pin " +
                "its public key instead";
        }
        if (null == serverKey)
        {
            serverKey = presentedKey.clone();
            helloMac = new HelloMac(serverKey);
            return null;
        }
        if (Arrays.equals(serverKey, presentedKey))
        {
            return null;
        }
        return (null != keys.pinnedServerKey() ? "the server presents key " + KeyFingerprint.of(presentedKey) +
            ", not the pinned key " : "the server presented key " + KeyFingerprint.of(presentedKey) +
            " after key ") + KeyFingerprint.of(serverKey);
    }

    /**
     * After the server's answer proved it holds its key ({@link #onSecondMessage} returned true): ask the verifier, if
     * the key was learned rather than pinned, whether to trust it.
     *
     * @param server the address the client connected to.
     * @return null if the key is trusted (or was pinned); else the verifier's reason.
     */
    public String verifyServer(final InetSocketAddress server)
    {
        final ServerKeyVerifier verifier = keys.serverKeyVerifier();
        if (null == verifier || NoiseProfile.NK != profile)
        {
            return null;
        }
        try
        {
            return verifier.verify(server, serverKey.clone());
        }
        catch (final RuntimeException ex)
        {
            return "the server key verifier failed: " + ex;
        }
    }

    /**
     * @return the AEAD.
     */
    public AeadAlgorithm aead()
    {
        return aead;
    }

    /**
     * The client's first message, made on the first call once the server's key is known; until then a key request's
     * empty message.
     *
     * @param clientTranscript the transcript of the client's clear parameters.
     * @return the message.
     */
    public byte[] firstMessage(final byte[] clientTranscript)
    {
        if (NoiseProfile.NK == profile && null == serverKey)
        {
            return KEY_REQUEST;
        }
        if (null == firstMessage)
        {
            transcript = clientTranscript.clone();
            // A prepared message was made for the pinned key or the pre-shared key, which this session's are.
            final NoiseHandshake initiator = null != preparedInitiator ? preparedInitiator : newInitiator();
            preparedInitiator = null;
            firstMessage = initiator.writeMessage(transcript);
            afterFirstMessage = initiator;
        }
        return firstMessage;
    }

    /**
     * The client reads the server's answer.
     *
     * @param message          the server's Noise message.
     * @param serverTranscript the transcript of the server's clear parameters.
     * @return true if the answer is genuine: the session's {@link #protection()} is ready.
     */
    public boolean onSecondMessage(final byte[] message, final byte[] serverTranscript)
    {
        if (null == firstMessage || null != protection)
        {
            return null != protection;
        }
        // Each answer is read on a copy of the state the first message left (a forged answer spoils only its copy),
        // not on the first message made again: that would be its two X25519 operations again on the connect's path.
        final NoiseHandshake initiator = afterFirstMessage.copy();
        final byte[] payload = initiator.readMessage(message);
        if (null == payload || !MessageDigest.isEqual(payload, serverTranscript))
        {
            return false;
        }
        final byte[][] split = initiator.split();
        protection = new PacketProtection(aead, split[0], split[1], keys.keyUpdateIntervalPackets());
        return true;
    }

    /**
     * The server's answer, made on the first call, which also makes the session's {@link #protection()}.
     *
     * @param serverTranscript the transcript of the server's clear parameters.
     * @return the message.
     */
    public byte[] secondMessage(final byte[] serverTranscript)
    {
        if (null == secondMessage)
        {
            secondMessage = responder.writeMessage(serverTranscript);
            final byte[][] split = responder.split();
            protection = new PacketProtection(aead, split[1], split[0], keys.keyUpdateIntervalPackets());
            responder = null;
        }
        return secondMessage;
    }

    /**
     * @return true once this client's handshake is over: the server's answer was read.
     */
    boolean isClientHandshakeOver()
    {
        return null != protection;
    }

    /**
     * @return the packet protection, or null until the handshake completed on this side.
     */
    public PacketProtection protection()
    {
        return protection;
    }

    private NoiseHandshake newInitiator()
    {
        return NoiseHandshake.initiator(
            profile, aead, PROLOGUE, serverKey, keys.preSharedKey(), ephemeralKey);
    }

    /**
     * The transcript of clear handshake parameters.
     *
     * @param buffer          holding the parameters.
     * @param offset          of the first parameter byte.
     * @param length          of the parameters.
     * @param controllerName  the controller the client asked for, or null.
     * @return SHA-256 of the parameters and the name.
     */
    public static byte[] transcript(
        final DirectBuffer buffer, final int offset, final int length, final String controllerName)
    {
        try
        {
            final MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            final byte[] parameters = new byte[length];
            buffer.getBytes(offset, parameters);
            sha256.update(parameters);
            if (null != controllerName)
            {
                sha256.update(controllerName.getBytes(StandardCharsets.US_ASCII));
            }
            return sha256.digest();
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("every Java platform has SHA-256", ex);
        }
    }
}
