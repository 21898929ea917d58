package io.pacelink.transport.secure;

import java.util.Arrays;

/**
 * One Noise NK handshake between two throwaway parties, which an endpoint runs on a short-lived daemon thread once per
 * process and AEAD while it launches ({@code io.pacelink.transport.SecureWarmUp}), so that a process's first secure
 * connect does not pay for what only its first use costs: the JCA provider lookup and initialisation of the AEAD
 * cipher, SHA-256 and HMAC-SHA256, Bouncy Castle's precomputed X25519 base-point tables (RFC 7748 section 5;
 * {@code X25519.precompute}) and the Noise classes' loading.
 * In a fresh JVM these took 100–160 ms on this project's 2-core machine against a warm handshake's few hundred
 * microseconds, and a client launched with its defaults (no {@link io.pacelink.transport.PacelinkContext
 * #handshakePrimingNs handshake priming}) paid them inside its first connect (perf/FINDINGS.md, "A client's first
 * connect"). The launch itself takes longer than this (port, counters, the connection path's classes), so on a
 * second core the work is hidden; on one core it costs what the first connect would have.
 * <p>
 * Nothing is shared with an endpoint: fixed throwaway keys, the results dropped. A handshake that fails here (it
 * cannot with these keys) is not an error of any endpoint: the same code runs again on the connect's path, which
 * reports its own failures.
 */
public final class SecurePrimitivesWarmUp
{
    private SecurePrimitivesWarmUp()
    {
    }

    /**
     * One NK handshake and one transport message each way, with fixed keys.
     *
     * @param algorithm the AEAD.
     * @return true if both ends completed the handshake and each opened what the other sealed.
     */
    public static boolean handshakeOnce(final AeadAlgorithm algorithm)
    {
        final X25519 x25519 = new X25519();
        final byte[] serverPrivate = key(1);
        final byte[] serverPublic = x25519.publicKey(serverPrivate);
        final byte[] prologue = new byte[0];
        final NoiseHandshake client =
            NoiseHandshake.initiator(NoiseProfile.NK, algorithm, prologue, serverPublic, null, key(2));
        final NoiseHandshake server = NoiseHandshake.responder(
            NoiseProfile.NK, algorithm, prologue, serverPrivate, serverPublic, null, key(3));
        final byte[] hello = client.writeMessage(new byte[16]);
        if (null == server.readMessage(hello))
        {
            return false;
        }
        final byte[] answer = server.writeMessage(new byte[16]);
        if (null == client.readMessage(answer) || !client.isComplete() || !server.isComplete())
        {
            return false;
        }
        final byte[][] clientKeys = client.split();
        final byte[][] serverKeys = server.split();
        return Arrays.equals(clientKeys[0], serverKeys[0]) && Arrays.equals(clientKeys[1], serverKeys[1]) &&
            sealsAndOpens(algorithm, clientKeys[0]);
    }

    private static boolean sealsAndOpens(final AeadAlgorithm algorithm, final byte[] key)
    {
        final NoiseCipherState sealer = new NoiseCipherState(algorithm);
        final NoiseCipherState opener = new NoiseCipherState(algorithm);
        sealer.initializeKey(key);
        opener.initializeKey(key);
        final byte[] plaintext = new byte[64];
        final byte[] opened = opener.decryptWithAd(new byte[8], sealer.encryptWithAd(new byte[8], plaintext));
        return Arrays.equals(plaintext, opened);
    }

    private static byte[] key(final int seed)
    {
        final byte[] key = new byte[X25519.KEY_LENGTH];
        Arrays.fill(key, (byte)seed);
        return key;
    }
}
